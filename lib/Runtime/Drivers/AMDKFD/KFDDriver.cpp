//===- KFDDriver.cpp - The amd-kfd driver ---------------------------------===//
//
// AMD:N devices on the GPUs KFD shows the process (KFD.h): a device is a
// session over the process's Gpu, whose memory and queues it makes and
// frees; the Gpu itself (render-node file, acquired VM, event, doorbells)
// stays for the process's life.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"
#include "KFD.h"

#include "HCQ/Target/AMD/Target.h"

namespace hcq::runtime {
namespace {

class KFDDevice : public DriverDevice {
public:
  explicit KFDDevice(kfd::Gpu &gpu) : gpu(gpu) {}

  Expected<uint64_t> allocate(uint64_t bytes, Placement placement) override {
    return gpu.allocate(bytes, placement);
  }
  void free(uint64_t address, uint64_t) override { gpu.free(address); }
  bool takesPushMode(PushMode mode) const override {
    return mode == PushMode::pm4 || mode == PushMode::sdma;
  }

  Expected<std::unique_ptr<Queue>>
  createQueue(std::string queueName, PushMode mode,
              const DeviceOptions &options, std::shared_ptr<QueueFlags> flags,
              const QueueAllocator &allocate) override {
    // The ring is the start of a mapping of exactly its size, and the read
    // and write pointers each the start of a mapping of exactly one page
    // [kfd_queue.c kfd_queue_acquire_buffers, kfd_queue_buffer_get]. The
    // host's own put pointer shares the write pointer's page. System
    // memory for all three: on gfx11 the CP polls the write pointer in GTT.
    Expected<uint64_t> ring = allocate(options.ringBytes, Placement::Host);
    if (!ring)
      return ring.takeError();
    Expected<uint64_t> writePage = allocate(kfd::PAGE_BYTES, Placement::Host);
    if (!writePage)
      return writePage.takeError();
    Expected<uint64_t> readPage = allocate(kfd::PAGE_BYTES, Placement::Host);
    if (!readPage)
      return readPage.takeError();
    RingMemory memory;
    memory.ring = reinterpret_cast<uint8_t *>(*ring);
    memory.ringBytes = options.ringBytes;
    memory.wptr = *writePage;
    memory.put = *writePage + 8;
    memory.rptr = *readPage;
    // The compute queue's completion word shares the read pointer's page,
    // a cache line apart from what the CP reports there (AMDRing).
    if (mode == PushMode::pm4)
      memory.done = *readPage + kfd::COMPLETION_WORD_OFFSET;
    return gpu.createQueue(std::move(queueName), mode == PushMode::pm4, memory,
                           options.waitTimeout, std::move(flags));
  }

  Error checkProgram(const Kernel &kernel) override {
    const AMDKernelFacts &info = kernel.amd;
    // The GPU runs the code object itself: it must be built for it.
    std::optional<amd::Target> built = amd::lookupTargetByMach(info.mach);
    if (!built || built->name != gpu.getTargetName())
      return makeError(
          ErrorCode::FailedPrecondition, "AMD kernel ", kernel.name,
          " was compiled for ", amd::describeMach(info.mach), ", and ",
          gpu.getName(), " is a ", gpu.getTargetName(),
          built ? "" : " (hcq supports " + amd::listTargetNames() + ")");
    // gfx11 scratch is laid out per shader engine for at most the target's
    // (amd::Target::scratchShaderEngines).
    unsigned engines = gpu.getNode().shaderEngines();
    if (info.privateSegmentBytes && !built->isGfx9() &&
        engines > built->scratchShaderEngines)
      return makeError(ErrorCode::FailedPrecondition, "AMD kernel ",
                       kernel.name, " uses scratch laid out for at most ",
                       built->scratchShaderEngines, " shader engines, and ",
                       gpu.getName(), " has ", engines);
    return Error::success();
  }

  InterruptWait *getInterrupts() override { return &gpu; }
  uint64_t toHostNs(uint64_t ticks) override { return gpu.toHostNs(ticks); }
  uint64_t getInterruptEventId() const override { return gpu.getEventId(); }
  std::optional<uint64_t> getEventMailbox() const override {
    return gpu.getEventMailbox();
  }
  bool isHardware() const override { return true; }

private:
  kfd::Gpu &gpu;
};

class KFDDriver : public Driver {
public:
  std::string_view getName() const override { return "amd-kfd"; }
  Error verifyOptions(const DeviceOptions &options) const override {
    return verifyAMDRingBytes(options.ringBytes);
  }
  Expected<std::unique_ptr<DriverDevice>>
  createDevice(DeviceId id, const DeviceOptions &) override {
    Expected<kfd::Gpu *> gpu = kfd::Gpu::get(id.index);
    if (!gpu)
      return gpu.takeError();
    if (Error e = kfd::HostPages::get().gpuOpened(**gpu))
      return std::move(e);
    return std::unique_ptr<DriverDevice>(std::make_unique<KFDDevice>(**gpu));
  }

  // A GPU reaches host memory only through its VM: the CPU devices'
  // memory is registered with the process's GPUs (kfd::HostPages).
  Error addHostMemory(uint64_t address, uint64_t bytes) override {
    return kfd::HostPages::get().add(address, bytes);
  }
  void removeHostMemory(uint64_t address) override {
    kfd::HostPages::get().remove(address);
  }
  Error checkHostMemory(uint64_t address, uint64_t bytes) override {
    if (kfd::HostPages::get().covers(address, bytes))
      return Error::success();
    return makeError(ErrorCode::InvalidArgument, "host memory at 0x",
                     toHex(address, /*upper=*/true), " (", bytes,
                     " bytes) is not the runtime's: a GPU reaches host memory "
                     "only once it is registered with it, so CPU:0 buffers "
                     "given to an executable that runs on a GPU must come "
                     "from Runtime::allocate (hcq_buffer_allocate)");
  }
};

} // namespace

std::unique_ptr<Driver> createKFDDriver() {
  return std::make_unique<KFDDriver>();
}

} // namespace hcq::runtime
