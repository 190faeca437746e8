//===- CPUDriver.cpp - The cpu driver -------------------------------------===//
//
// CPU:N devices: their memory is the host's, their queues rings of entries
// that a worker thread per queue calls (CPUQueue.cpp).
//
//===----------------------------------------------------------------------===//

#include "CPUDriver.h"
#include "HostMemory.h"

#include "HCQ/Target/CPU/Entry.h"

namespace hcq::runtime {
namespace {

class CPUDevice : public HostMemoryDevice {
public:
  using HostMemoryDevice::HostMemoryDevice;

  bool takesPushMode(PushMode mode) const override {
    return mode == PushMode::cpu;
  }
  bool givesHostMemory() const override { return true; }
  Expected<std::unique_ptr<Queue>>
  createQueue(std::string queueName, PushMode mode,
              const DeviceOptions &options, std::shared_ptr<QueueFlags> flags,
              const QueueAllocator &allocate) override {
    Expected<RingMemory> memory = allocateRing(allocate, options.ringBytes);
    if (!memory)
      return memory.takeError();
    return makeCPUQueue(std::move(queueName), *memory, options.waitTimeout,
                        std::move(flags));
  }
};

class CPUDriver : public Driver {
public:
  std::string_view getName() const override { return "cpu"; }
  Error verifyOptions(const DeviceOptions &options) const override {
    // Entries never straddle the ring's end [docs/cpu-queue.md].
    if (options.ringBytes < cpu::ENTRY_BYTES ||
        options.ringBytes % cpu::ENTRY_BYTES)
      return makeError(ErrorCode::InvalidArgument,
                       "RuntimeOptions::ringBytes must be a positive multiple "
                       "of ",
                       cpu::ENTRY_BYTES, " for CPU queues, got ",
                       options.ringBytes);
    return Error::success();
  }
  Expected<std::unique_ptr<DriverDevice>>
  createDevice(DeviceId id, const DeviceOptions &) override {
    return std::unique_ptr<DriverDevice>(std::make_unique<CPUDevice>(id.str()));
  }
};

} // namespace

std::unique_ptr<Driver> createCPUDriver() {
  return std::make_unique<CPUDriver>();
}

} // namespace hcq::runtime
