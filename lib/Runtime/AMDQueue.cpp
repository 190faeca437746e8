//===- AMDQueue.cpp - The emulated AMD device's queues --------------------===//
//
// An emulated AMD queue is the real ring protocol with a software command
// processor behind it (CommandProcessor.h). The host side pushes as it
// would to a KFD user-mode queue (AMD-FACTS.md §3a): the PM4 compute ring
// takes one INDIRECT_BUFFER packet per push and counts dwords; the SDMA ring
// takes the command buffer itself, zeroing the tail when a push would wrap,
// and counts bytes; then the write pointer and the doorbell are stored. The
// queue's thread runs the command processor from the read pointer up to the
// write pointer.
//
//===----------------------------------------------------------------------===//

#include "CommandProcessor.h"
#include "Queues.h"

#include <cstring>

namespace hcq::runtime {

AMDRing::AMDRing(std::string name, bool pm4, const RingMemory &memory,
                 std::chrono::milliseconds timeout,
                 std::shared_ptr<QueueFlags> flags)
    : Queue(std::move(name), memory, timeout, std::move(flags)), isPM4(pm4),
      doorbell(word(memory.doorbell)) {}

Error AMDRing::push(const uint8_t *source, uint64_t bytes) {
  if (bytes % 4 || bytes > ringBytes)
    return runtimeError(getName() + ": cannot push " + std::to_string(bytes) +
                        " bytes into a " + std::to_string(ringBytes) +
                        "-byte ring");
  if (isPM4)
    return pushPM4(source, bytes / 4);
  return pushSDMA(source, bytes);
}

/// PM4: pointers count dwords; the packet wraps dword by dword.
Error AMDRing::pushPM4(const uint8_t *source, uint64_t dwords) {
  uint64_t ringDwords = ringBytes / 4, p = putPointer.load();
  if (Error e = waitForRoom(p, dwords, ringDwords, "the command processor"))
    return e;
  for (uint64_t i = 0; i < dwords; ++i)
    std::memcpy(ring + 4 * ((p + i) % ringDwords), source + 4 * i, 4);
  publish(p + dwords, &doorbell);
  return Error::success();
}

/// SDMA: pointers count bytes; a command buffer that would wrap starts at
/// offset 0 instead, the tail zeroed (zero dwords are SDMA NOPs).
Error AMDRing::pushSDMA(const uint8_t *source, uint64_t bytes) {
  uint64_t p = putPointer.load();
  uint64_t tail = ringBytes - p % ringBytes;
  uint64_t skip = bytes > tail ? tail : 0;
  if (Error e =
          waitForRoom(p, skip + bytes, ringBytes, "the command processor"))
    return e;
  if (skip) {
    std::memset(ring + p % ringBytes, 0, skip);
    p += skip;
  }
  std::memcpy(ring + p % ringBytes, source, bytes);
  publish(p + bytes, &doorbell);
  return Error::success();
}

namespace {

class EmulatedAMDQueue : public AMDRing, CommandProcessorHost {
public:
  EmulatedAMDQueue(std::string name, bool pm4, const RingMemory &memory,
                   std::shared_ptr<const TwinMap> twins,
                   std::chrono::milliseconds timeout,
                   std::shared_ptr<QueueFlags> flags)
      : AMDRing(std::move(name), pm4, memory, timeout, std::move(flags)),
        twins(std::move(twins)),
        processor(pm4, memory.ring, memory.ringBytes, rptr, *this, timeout) {
    start(interrupt);
  }
  ~EmulatedAMDQueue() override { stop(); }

  std::string describeRunning() const override {
    // Twins are all that may not end: waits time out, and IB chains are
    // bounded.
    const TwinProgram *program = processor.runningProgram();
    return program ? "kernel @" + program->name + " (its CPU twin)"
                   : std::string();
  }

private:
  void drain() override {
    if (dropIfFaulted())
      return;
    uint64_t w = wptr.load(std::memory_order_acquire);
    if (Error e = processor.execute(w)) {
      // The queue dies where it failed: what was pushed is dropped, so the
      // host is not left waiting for room, and every later synchronize and
      // run reports the fault.
      reportFault(toString(std::move(e)));
      rptr.store(w, std::memory_order_release);
    }
  }

  // CommandProcessorHost
  const TwinProgram *findProgram(uint64_t entry) override {
    return twins->find(entry);
  }
  bool abandonWaits() override { return deviceFaulted(); }
  void waitTimedOut(uint64_t signal, uint64_t value,
                    uint64_t current) override {
    reportHang(signal, value, current);
  }

  std::shared_ptr<const TwinMap> twins; // shared, as QueueFlags
  CommandProcessor processor;
  /// The doorbell's interrupt line: set while the command processor sleeps.
  std::atomic<uint32_t> interrupt{0};
};

} // namespace

std::unique_ptr<Queue>
makeEmulatedAMDQueue(std::string name, bool pm4, const RingMemory &memory,
                     std::shared_ptr<const TwinMap> twins,
                     std::chrono::milliseconds timeout,
                     std::shared_ptr<QueueFlags> flags) {
  return std::make_unique<EmulatedAMDQueue>(std::move(name), pm4, memory,
                                            std::move(twins), timeout,
                                            std::move(flags));
}

} // namespace hcq::runtime
