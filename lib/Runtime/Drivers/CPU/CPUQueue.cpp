//===- CPUQueue.cpp - The CPU device's queues -----------------------------===//
//
// A ring of 64-byte entries (docs/cpu-queue.md) and a worker thread that
// calls each entry's function. The seed posts a semaphore per entry; here a
// push wakes the worker only if it sleeps, through the doorbell word's futex.
//
//===----------------------------------------------------------------------===//

#include "CPUDriver.h"
#include "WorkgroupPool.h"

#include "HCQ/Target/CPU/Entry.h"

#include <cstring>

namespace hcq::runtime {
namespace {

class CPUQueue : public Queue {
public:
  CPUQueue(std::string name, const RingMemory &memory,
           std::chrono::milliseconds timeout, std::shared_ptr<QueueFlags> flags)
      : Queue(std::move(name), memory, timeout, std::move(flags)),
        // The futex is the doorbell word's low half (little-endian).
        doorbell(*reinterpret_cast<std::atomic<uint32_t> *>(memory.doorbell)) {
    start(doorbell);
  }
  ~CPUQueue() override { stop(); }

  std::string describeRunning() const override;

  Error push(const uint8_t *entries, uint64_t bytes) override {
    uint64_t p = putPointer.load(std::memory_order_relaxed);
    if (Error e = waitForRoom(p, bytes, ringBytes, "the worker"))
      return e;
    // The ring's size is a multiple of 64: no entry straddles its end.
    for (uint64_t off = 0; off < bytes; off += cpu::ENTRY_BYTES)
      std::memcpy(ring + (p + off) % ringBytes, entries + off,
                  cpu::ENTRY_BYTES);
    publish(p + bytes);
    return Error::success();
  }

private:
  void drain() override {
    if (dropIfFaulted())
      return;
    uint64_t r = rptr.load(std::memory_order_relaxed);
    uint64_t w = wptr.load(std::memory_order_acquire);
    for (; r < w; r += cpu::ENTRY_BYTES) {
      const auto *entry =
          reinterpret_cast<const uint64_t *>(ring + r % ringBytes);
      reinterpret_cast<cpu::EntryFunction>(entry[0])(entry + 1);
      rptr.store(r + cpu::ENTRY_BYTES, std::memory_order_release);
    }
  }

  std::atomic<uint32_t> &doorbell;
};

// The entry functions (include/HCQ/Target/CPU/Entry.h, docs/cpu-queue.md).
// A launch's workgroups may run on several threads at once; the entry
// returns once all have (WorkgroupPool.h).
void entryLaunch(const uint64_t *args) {
  auto kernel = reinterpret_cast<cpu::KernelFunction>(args[0]);
  const auto *kernargs = reinterpret_cast<const uint64_t *>(args[1]);
  auto workgroup = [&](uint64_t x, uint64_t y, uint64_t z) {
    kernel(kernargs, uint32_t(x), uint32_t(y), uint32_t(z));
  };
  runGrid(WorkgroupPool::process(), args[2], args[3], args[4], workgroup);
}
void entryWait(const uint64_t *args) {
  std::atomic<uint64_t> &signal = word(args[0]);
  uint64_t value = args[1];
  Queue *queue = Queue::current();
  if (!waitUntil(
          [&] {
            return signal.load(std::memory_order_acquire) >= value ||
                   queue->deviceFaulted();
          },
          signal, queue->waitTimeout()))
    queue->reportHang(args[0], value, signal.load());
}
void entrySignal(const uint64_t *args) {
  word(args[0]).store(args[1], std::memory_order_release);
}
void entryTimestamp(const uint64_t *args) {
  word(args[0]).store(nowNs(), std::memory_order_release);
}
void entryCopy(const uint64_t *args) {
  std::memmove(reinterpret_cast<void *>(args[0]),
               reinterpret_cast<const void *>(args[1]), args[2]);
}
const cpu::EntryFunction ENTRY_FUNCTIONS[cpu::NUM_HOST_FUNCTIONS] = {
    entryLaunch, entryWait, entrySignal, entryTimestamp, entryCopy};

std::string CPUQueue::describeRunning() const {
  // The entry at the read pointer is the one running: the pointer moves
  // past an entry once its function returned, and the host does not
  // overwrite it before.
  uint64_t r = rptr.load(std::memory_order_acquire);
  if (r == wptr.load(std::memory_order_acquire))
    return {};
  const auto *entry = reinterpret_cast<const uint64_t *>(ring + r % ringBytes);
  auto function = reinterpret_cast<cpu::EntryFunction>(entry[0]);
  if (function == entryWait)
    return {};
  if (function == entryLaunch)
    return "kernel " +
           nameOf(entry[1], "at 0x" + toHex(entry[1], /*upper=*/true));
  return function == entryCopy ? "a copy" : "an entry";
}

} // namespace

std::unique_ptr<Queue> makeCPUQueue(std::string name, const RingMemory &memory,
                                    std::chrono::milliseconds timeout,
                                    std::shared_ptr<QueueFlags> flags) {
  return std::make_unique<CPUQueue>(std::move(name), memory, timeout,
                                    std::move(flags));
}

uint64_t cpuEntryFunction(uint32_t id) {
  return id < cpu::NUM_HOST_FUNCTIONS
             ? reinterpret_cast<uint64_t>(ENTRY_FUNCTIONS[id])
             : 0;
}

} // namespace hcq::runtime
