//===- EmulatedAMD.cpp - The amd-emulated driver --------------------------===//
//
// AMD:N devices without a GPU: memory is host memory (GPU VA = CPU VA, as
// under KFD), and each queue is the real ring protocol (AMDRing, pushed as
// to a KFD user-mode queue) with a software command processor behind it
// (CommandProcessor.h), whose thread runs the packets from the read pointer
// up to the write pointer, and each kernel dispatch as the kernel's CPU
// twin.
//
//===----------------------------------------------------------------------===//

#include "EmulatedAMD.h"
#include "Driver.h"
#include "HostMemory.h"
#include "HostObject.h"

#include <cstring>

namespace hcq::runtime {

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

class EmulatedAMDDevice : public HostMemoryDevice {
public:
  using HostMemoryDevice::HostMemoryDevice;

  bool takesPushMode(PushMode mode) const override {
    return mode == PushMode::pm4 || mode == PushMode::sdma;
  }
  Expected<std::unique_ptr<Queue>>
  createQueue(std::string queueName, PushMode mode,
              const DeviceOptions &options, std::shared_ptr<QueueFlags> flags,
              const QueueAllocator &allocate) override {
    Expected<RingMemory> memory = allocateRing(allocate, options.ringBytes);
    if (!memory)
      return memory.takeError();
    return makeEmulatedAMDQueue(std::move(queueName), mode == PushMode::pm4,
                                *memory, twins, options.waitTimeout,
                                std::move(flags));
  }
  bool runsTwins() const override { return true; }
  void addTwin(uint64_t entry, const Kernel &kernel,
               hcq_amd_twin twin) override {
    twins->add(entry,
               TwinProgram::of(twin ? twin : &builtinCopyTwin, kernel.name,
                               kernel.amd),
        HostObject::owning(reinterpret_cast<const void *>(twin)));
  }

private:
  std::shared_ptr<TwinMap> twins = std::make_shared<TwinMap>();
};

class EmulatedAMDDriver : public Driver {
public:
  std::string_view getName() const override { return "amd-emulated"; }
  Error verifyOptions(const DeviceOptions &options) const override {
    // The queues the emulated device stands in for take the same rings.
    return verifyAMDRingBytes(options.ringBytes);
  }
  Expected<std::unique_ptr<DriverDevice>>
  createDevice(DeviceId id, const DeviceOptions &) override {
    return std::unique_ptr<DriverDevice>(
        std::make_unique<EmulatedAMDDevice>(id.str()));
  }
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

std::unique_ptr<Driver> createEmulatedAMDDriver() {
  return std::make_unique<EmulatedAMDDriver>();
}

} // namespace hcq::runtime
