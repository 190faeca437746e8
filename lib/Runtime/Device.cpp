//===- Device.cpp - The runtime's devices ---------------------------------===//
//
// Devices of a Runtime, opened at first use: host memory for CPU values and,
// on the emulated AMD device, for AMD values too (its GPU VA is its CPU VA,
// as under KFD); one queue per (device, queue) with its ring, pointers and
// doorbell; the device's timeline; AMD programs shared between executables
// with their CPU twins; CPU kernels and twins from libraries loaded once.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include "HCQ/Target/AMD/Target.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <unistd.h>

namespace hcq::runtime {
namespace {

/// The builtin `copy` kernel in the CPU kernel ABI: kernargs are (dst, src,
/// element bytes), one workgroup per element (docs/cpu-queue.md).
void builtinCopy(const uint64_t *args, uint32_t x, uint32_t, uint32_t) {
  uint64_t bytes = args[2];
  std::memcpy(reinterpret_cast<char *>(args[0]) + x * bytes,
              reinterpret_cast<const char *>(args[1]) + x * bytes, bytes);
}

/// The words of a queue's ring pointers, in the order RingMemory names them.
constexpr uint64_t POINTER_BYTES = 4 * 8;

} // namespace

/// The CPU twin of the builtin AMD copy kernel (lib/Target/AMD/Builtins/
/// copy.cl): kernel arguments dst (8 bytes), src (8), element bytes (4);
/// workgroup x copies element x.
void builtinCopyTwin(const hcq_amd_workgroup *wg) {
  const auto *args = static_cast<const uint8_t *>(wg->kernargs);
  uint64_t dst, src;
  uint32_t bytes;
  std::memcpy(&dst, args, 8);
  std::memcpy(&src, args + 8, 8);
  std::memcpy(&bytes, args + 16, 4);
  uint64_t at = uint64_t(wg->group_id[0]) * bytes;
  std::memcpy(reinterpret_cast<char *>(dst) + at,
              reinterpret_cast<const char *>(src) + at, bytes);
}

//===----------------------------------------------------------------------===//
// DeviceImpl
//===----------------------------------------------------------------------===//

DeviceImpl::DeviceImpl(RuntimeImpl &runtime, DeviceId id)
    : runtime(runtime), id(id), name(id.str()) {
  const RuntimeOptions &options = runtime.getOptions();
  timeout = options.waitTimeout;
  auto it = options.deviceWaitTimeouts.find(name);
  if (it != options.deviceWaitTimeouts.end())
    timeout = it->second;
}

Error DeviceImpl::open() {
  if (id.kind == DeviceKind::AMD &&
      runtime.getOptions().amd == AMDDevice::Hardware) {
    Expected<std::unique_ptr<kfd::Gpu>> opened = kfd::Gpu::open(id.index, name);
    if (!opened)
      return opened.takeError();
    gpu = std::move(*opened);
  }
  Expected<uint64_t> signal =
      getPlaceholder(PlaceholderTag::timeline_signal, 8);
  if (!signal)
    return signal.takeError();
  Expected<uint64_t> value = getPlaceholder(PlaceholderTag::timeline_value, 8);
  if (!value)
    return value.takeError();
  timelineSignal = *signal;
  timelineValue = *value;
  return Error::success();
}

DeviceImpl::~DeviceImpl() {
  // The queues' threads stop before the memory they read is freed.
  bool stuck = false;
  for (auto &[key, entry] : queues)
    if (!entry.queue->stop()) {
      (void)entry.queue.release(); // its thread still runs in it
      stuck = true;
    }
  queues.clear();
  if (stuck) {
    runtime.abandonedQueues.store(true);
    return;
  }
  for (auto &[address, bytes] : blocks)
    if (gpu)
      gpu->free(address);
    else
      std::free(reinterpret_cast<void *>(address));
}

Expected<uint64_t> DeviceImpl::allocate(uint64_t bytes, Placement placement) {
  uint64_t limit = runtime.getOptions().maxAllocationBytes;
  if (bytes > limit)
    return runtimeError(name + ": an allocation of " + std::to_string(bytes) +
                        " bytes is more than RuntimeOptions::"
                        "maxAllocationBytes (" +
                        std::to_string(limit) + ")");
  uint64_t size = alignTo(std::max<uint64_t>(bytes, 1), 256);
  if (size < bytes)
    return runtimeError(name + ": cannot allocate " + std::to_string(bytes) +
                        " bytes");
  uint64_t address;
  if (gpu) {
    Expected<uint64_t> allocated = gpu->allocate(size, placement);
    if (!allocated)
      return allocated.takeError();
    address = *allocated;
  } else {
    void *p = std::aligned_alloc(256, size);
    if (!p)
      return runtimeError(name + ": out of memory for " + std::to_string(size) +
                          " bytes");
    std::memset(p, 0, size);
    address = reinterpret_cast<uint64_t>(p);
  }
  std::lock_guard<std::mutex> lock(mutex);
  blocks.emplace(address, size);
  return address;
}

void DeviceImpl::free(uint64_t address) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (!blocks.erase(address))
      return;
  }
  if (gpu)
    gpu->free(address);
  else
    std::free(reinterpret_cast<void *>(address));
}

Expected<uint64_t> DeviceImpl::getPlaceholder(PlaceholderTag tag,
                                              uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = placeholders.find(tag);
    if (it != placeholders.end()) {
      auto [address, size] = it->second;
      if (bytes > size)
        return runtimeError(
            name + ": an executable asks for " + std::to_string(bytes) +
            " bytes of the device's " + abi::getPlaceholderTagName(tag) +
            ", which has " + std::to_string(size) +
            " (another executable on the device was compiled for another "
            "target)");
      return address;
    }
  }
  // On a GPU the mailbox is its event's slot of the process's event page;
  // elsewhere plain memory nobody reads.
  bool mailboxSlot = tag == PlaceholderTag::event_mailbox && gpu;
  if (mailboxSlot && bytes > 8)
    return runtimeError(name + ": an executable asks for " +
                        std::to_string(bytes) +
                        " bytes of the device's event_mailbox, which has 8");
  // Scratch is the GPU's alone; the rest the host reads or writes.
  Expected<uint64_t> address =
      mailboxSlot
          ? Expected<uint64_t>(gpu->getEventMailbox())
          : allocate(bytes, tag == PlaceholderTag::scratch ? Placement::Device
                                                           : Placement::Host);
  if (!address)
    return address.takeError();
  if (tag == PlaceholderTag::timeline_value)
    word(*address).store(1);
  if (tag == PlaceholderTag::sentinel_signal)
    word(*address).store(~uint64_t(0));
  if (tag == PlaceholderTag::timeline_signal)
    runtime.names.add(*address, "the " + name + " timeline");
  if (tag == PlaceholderTag::sentinel_signal)
    runtime.names.add(*address, "the " + name + " sentinel");
  std::lock_guard<std::mutex> lock(mutex);
  placeholders.emplace(tag, std::make_pair(*address, bytes));
  return *address;
}

Expected<uint64_t> DeviceImpl::getNumber(PlaceholderTag tag) {
  if (tag != PlaceholderTag::interrupt_event)
    return runtimeError(name + " gives no number for a " +
                        abi::getPlaceholderTagName(tag) + " placeholder");
  return gpu ? gpu->getEventId() : 0;
}

uint64_t DeviceImpl::getRingBytes() const {
  return runtime.getOptions().ringBytes;
}

Expected<Queue *> DeviceImpl::getQueue(QueueName queue, PushMode mode) {
  std::string queueName = name + " " + queue.str();
  auto key = std::make_pair(queue.kind, queue.index);
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = queues.find(key);
    if (it != queues.end()) {
      if (it->second.mode != mode)
        return runtimeError(queueName + " takes pushes of another mode");
      return it->second.queue.get();
    }
  }
  uint64_t ringBytes = getRingBytes();
  if (ringBytes < 64 || ringBytes % 64)
    return runtimeError("RuntimeOptions::ringBytes must be a positive "
                        "multiple of 64, got " +
                        std::to_string(ringBytes));
  const RuntimeOptions &options = runtime.getOptions();
  bool cpu = mode == PushMode::cpu && id.kind == DeviceKind::CPU;
  bool amd = (mode == PushMode::pm4 || mode == PushMode::sdma) &&
             id.kind == DeviceKind::AMD && options.amd != AMDDevice::None;
  if (!cpu && !amd)
    return runtimeError("no queue of this runtime takes a push of mode " +
                        std::to_string(uint32_t(mode)) + " to " + queueName);
  Expected<uint64_t> ring = allocate(ringBytes);
  if (!ring)
    return ring.takeError();
  Expected<uint64_t> pointers = allocate(POINTER_BYTES);
  if (!pointers)
    return pointers.takeError();
  RingMemory memory{reinterpret_cast<uint8_t *>(*ring),
                    ringBytes,
                    *pointers,
                    *pointers + 8,
                    *pointers + 16,
                    *pointers + 24};
  std::unique_ptr<Queue> q;
  if (gpu) {
    Expected<std::unique_ptr<Queue>> created = gpu->createQueue(
        queueName, mode == PushMode::pm4, memory, timeout, runtime.queueFlags);
    if (!created)
      return created.takeError();
    q = std::move(*created);
  } else if (cpu) {
    q = makeCPUQueue(queueName, memory, timeout, runtime.queueFlags);
  } else {
    q = makeEmulatedAMDQueue(queueName, mode == PushMode::pm4, memory, twins,
                             timeout, runtime.queueFlags);
  }
  std::lock_guard<std::mutex> lock(mutex);
  return queues.emplace(key, DeviceQueue{mode, std::move(q)})
      .first->second.queue.get();
}

Expected<uint64_t> DeviceImpl::loadProgram(const Kernel &kernel,
                                           const amd::KernelInfo &info) {
  // The GPU runs the code object itself: it must be built for it.
  if (gpu) {
    std::optional<amd::Target> built = amd::lookupTargetByMach(info.mach);
    std::string builtFor =
        built ? std::string(built->name)
              : "EF_AMDGPU_MACH 0x" + toHex(info.mach, /*upper=*/true);
    if (builtFor != gpu->getTargetName())
      return runtimeError("AMD kernel " + kernel.name + " was compiled for " +
                          builtFor + ", and " + name + " is a " +
                          gpu->getTargetName());
    // gfx11 scratch is laid out per shader engine for at most the target's
    // (amd::Target::scratchShaderEngines).
    unsigned engines = gpu->getNode().shaderEngines();
    if (info.privateSegmentBytes && !built->isGfx9() &&
        engines > built->scratchShaderEngines)
      return runtimeError("AMD kernel " + kernel.name +
                          " uses scratch laid "
                          "out for at most " +
                          std::to_string(built->scratchShaderEngines) +
                          " shader engines, and " + name + " has " +
                          std::to_string(engines));
  }
  // The emulated device runs the kernel's CPU twin instead.
  std::optional<TwinProgram> program;
  if (!gpu) {
    Expected<hcq_amd_twin> twin = runtime.findTwin(kernel);
    if (!twin)
      return twin.takeError();
    program = TwinProgram::of(*twin, kernel.name, info);
  }
  uint64_t address;
  {
    std::unique_lock<std::mutex> lock(mutex);
    auto it = programs.find(info.image);
    if (it != programs.end()) {
      address = it->second;
    } else {
      lock.unlock();
      Expected<uint64_t> a =
          allocate(info.image.size(), Placement::DeviceHostWritten);
      if (!a)
        return a.takeError();
      std::memcpy(reinterpret_cast<void *>(*a), info.image.data(),
                  info.image.size());
      lock.lock();
      address = programs.emplace(info.image, *a).first->second;
    }
  }
  if (program)
    twins->add(address + info.entryOffset, std::move(*program));
  return address;
}

Error DeviceImpl::synchronize() {
  // The timeline reaches its host value - 1 (the last finalizer of every
  // run stored it); a queue that failed stops the wait.
  std::atomic<uint64_t> &timeline = word(timelineSignal);
  uint64_t target = word(timelineValue).load() - 1;
  auto waitForTimeline = [&]() -> Error {
    if (waitUntil(
            [&] {
              return timeline.load() >= target ||
                     runtime.flags.error.load(std::memory_order_acquire);
            },
            timeline, timeout, getInterrupts()))
      return Error::success();
    return runtimeError("synchronize: the " + name + " timeline stays at " +
                        std::to_string(timeline.load()) + ", below " +
                        std::to_string(target));
  };
  // A GPU's queues drain by themselves, and the timeline store raises the
  // interrupt the wait sleeps on: on a GPU that wait comes first, so the
  // queues have (nearly) drained when they are looked at.
  std::vector<Queue *> all;
  forEachQueue([&](Queue &q) { all.push_back(&q); });
  // A GPU queue that stops does not start again by itself (a driver resets
  // it): it is dead from then on, so every later run and wait fails at once
  // with its fault instead of waiting out the timeout again.
  auto stuck = [&](Queue &queue) {
    std::string what = queue.describeRunning() + " has not finished after " +
                       std::to_string(queue.waitTimeout().count()) + " ms";
    if (gpu && !queue.isDead()) {
      queue.reportStopped(what + " (the GPU's queues are stopped)");
      // The GPU's other queues may wait for it forever: all of them stop
      // before any memory they use is freed.
      for (Queue *other : all)
        other->halt();
    }
    return runtimeError(queue.getName() + ": " + what);
  };
  if (gpu) {
    if (Error e = waitForTimeline()) {
      // A queue that has not got through its work names the hang better.
      for (Queue *queue : all)
        if (!queue->idle()) {
          consumeError(std::move(e));
          return stuck(*queue);
        }
      return e;
    }
  }
  // Every queue drains (a stuck wait times out and lets it go on); one
  // stuck in a kernel that does not return is a hang.
  for (Queue *queue : all)
    if (!queue->waitIdle())
      return stuck(*queue);
  return waitForTimeline();
}

//===----------------------------------------------------------------------===//
// RuntimeImpl
//===----------------------------------------------------------------------===//

std::shared_ptr<Runtime> Runtime::create(RuntimeOptions options) {
  return std::make_shared<RuntimeImpl>(std::move(options));
}

RuntimeImpl::~RuntimeImpl() {
  // Queue threads run library code: they stop before the libraries go, and
  // a queue left running in a kernel keeps them.
  devices.clear();
  if (abandonedQueues.load())
    return;
  for (auto &[path, handle] : libraries)
    dlclose(handle);
}

Expected<DeviceImpl *> RuntimeImpl::getDevice(DeviceId id) {
  std::lock_guard<std::mutex> lock(devicesMutex);
  auto it = devices.find(id);
  if (it != devices.end())
    return it->second.get();
  if (id.kind == DeviceKind::AMD && options.amd == AMDDevice::None)
    return runtimeError(
        "the executable uses " + id.str() +
        ", and no AMD device was chosen (RuntimeOptions::amd; hcq-run "
        "--amd=emulated or --amd=hardware)");
  if (id.kind != DeviceKind::AMD && id.kind != DeviceKind::CPU)
    return runtimeError("this runtime has no " + id.str() + " device");
  auto device = std::make_unique<DeviceImpl>(*this, id);
  if (Error e = device->open())
    return std::move(e);
  order.push_back(id);
  return devices.emplace(id, std::move(device)).first->second.get();
}

std::vector<DeviceId> RuntimeImpl::openDevices() const {
  std::lock_guard<std::mutex> lock(devicesMutex);
  return order;
}

Expected<uint64_t> RuntimeImpl::allocateMemory(DeviceId id, uint64_t bytes) {
  Expected<DeviceImpl *> device = getDevice(id);
  if (!device)
    return device.takeError();
  return (*device)->allocate(bytes);
}

void RuntimeImpl::freeMemory(DeviceId id, uint64_t address) {
  Expected<DeviceImpl *> device = getDevice(id);
  if (!device) {
    consumeError(device.takeError());
    return;
  }
  // Runs submitted before may still read it.
  {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    if (Error e = (*device)->synchronize())
      consumeError(std::move(e));
  }
  (*device)->free(address);
}

Error RuntimeImpl::synchronize() {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  return synchronizeLocked();
}

std::vector<DeviceImpl *> RuntimeImpl::openDeviceList() {
  std::lock_guard<std::mutex> lock(devicesMutex);
  std::vector<DeviceImpl *> open;
  for (DeviceId id : order)
    open.push_back(devices[id].get());
  return open;
}

Error RuntimeImpl::synchronizeLocked() {
  return synchronizeDevices(openDeviceList());
}

Error RuntimeImpl::synchronizeDevices(Span<DeviceImpl *const> devices) {
  for (DeviceImpl *device : devices)
    if (Error e = device->synchronize())
      return hang(toString(std::move(e)));
  return takeQueueError();
}

Error RuntimeImpl::hang(const std::string &what) {
  if (Error e = takeQueueError())
    return e;
  return runtimeError("hang detected: " + what);
}

Error RuntimeImpl::takeQueueError() {
  if (!flags.error.exchange(false))
    return Error::success();
  std::string first;
  bool fault = false;
  std::vector<DeviceImpl *> open = openDeviceList();
  for (DeviceImpl *device : open)
    device->forEachQueue([&](Queue &queue) {
      std::string error = queue.takeError();
      if (queue.isDead()) {
        flags.error.store(true);
        if (!fault)
          first = (queue.isStopped() ? "hang detected: " : "device fault: ") +
                  error;
        fault = true;
      } else if (!error.empty() && first.empty()) {
        first = "hang detected: " + error;
      }
    });
  if (first.empty())
    return Error::success();
  return runtimeError(first);
}

bool RuntimeImpl::stopQueues(const std::string &why) {
  std::vector<DeviceImpl *> open = openDeviceList();
  bool reported = false;
  for (DeviceImpl *device : open)
    device->forEachQueue([&](Queue &queue) {
      if (!reported)
        queue.reportFault(why);
      reported = true;
    });
  flags.fault.store(true, std::memory_order_release);
  flags.error.store(true, std::memory_order_release);
  bool stopped = true;
  for (DeviceImpl *device : open)
    device->forEachQueue(
        [&](Queue &queue) { stopped = queue.waitIdle() && stopped; });
  return stopped;
}

Expected<void *> RuntimeImpl::openLibrary(const std::string &path) {
  std::lock_guard<std::mutex> lock(librariesMutex);
  auto [it, inserted] = libraries.try_emplace(path, nullptr);
  if (!inserted)
    return it->second;
  // A bare name is looked for in the search paths first, then as dlopen
  // looks for it.
  void *handle = nullptr;
  std::string tried;
  if (path.find('/') == std::string::npos)
    for (const std::string &folder : options.librarySearchPaths) {
      std::string candidate = folder + "/" + path;
      if (::access(candidate.c_str(), F_OK) != 0)
        continue;
      handle = dlopen(candidate.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (handle)
        break;
      tried += std::string("; ") + dlerror();
    }
  if (!handle)
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    libraries.erase(it);
    return runtimeError("cannot load " + path + ": " + dlerror() + tried);
  }
  return it->second = handle;
}

Expected<uint64_t> RuntimeImpl::getHostFunction(const Kernel &kernel) {
  if (kernel.target == KernelTarget::builtin) {
    if (kernel.symbol != abi::BUILTIN_COPY_KERNEL)
      return runtimeError("kernel " + kernel.name + ": no builtin '" +
                          kernel.symbol + "' in this runtime");
    return reinterpret_cast<uint64_t>(&builtinCopy);
  }
  auto registered = options.cpuKernels.find(kernel.symbol);
  if (registered != options.cpuKernels.end()) {
    auto symbol = reinterpret_cast<uint64_t>(registered->second);
    names.add(symbol, "@" + kernel.name + " (" + kernel.symbol + ")");
    return symbol;
  }
  if (kernel.library.empty())
    return runtimeError("kernel " + kernel.name + " has no library");
  Expected<void *> handle = openLibrary(kernel.library);
  if (!handle)
    return handle.takeError();
  void *symbol = dlsym(*handle, kernel.symbol.c_str());
  if (!symbol)
    return runtimeError("no symbol '" + kernel.symbol + "' in " +
                        kernel.library);
  // For reports of a kernel that does not return.
  names.add(reinterpret_cast<uint64_t>(symbol),
            "@" + kernel.name + " (" + kernel.symbol + ")");
  return reinterpret_cast<uint64_t>(symbol);
}

Expected<hcq_amd_twin> RuntimeImpl::findTwin(const Kernel &kernel) {
  auto it = options.amdTwins.find(kernel.symbol);
  if (it != options.amdTwins.end())
    return it->second;
  if (kernel.symbol == amd::BUILTIN_COPY_SYMBOL)
    return &builtinCopyTwin;
  std::string symbol = "hcq_twin_" + kernel.symbol;
  for (const std::string &library : options.twinLibraries) {
    Expected<void *> handle = openLibrary(library);
    if (!handle)
      return handle.takeError();
    if (void *twin = dlsym(*handle, symbol.c_str()))
      return reinterpret_cast<hcq_amd_twin>(twin);
  }
  return runtimeError("AMD kernel " + kernel.name +
                      " has no CPU twin for the emulated device: register '" +
                      kernel.symbol +
                      "' in RuntimeOptions::amdTwins or define " + symbol +
                      " in a twin library");
}

//===----------------------------------------------------------------------===//
// Buffer
//===----------------------------------------------------------------------===//

Expected<Buffer> Runtime::allocate(DeviceId device, uint64_t bytes) {
  Expected<uint64_t> address = allocateMemory(device, bytes);
  if (!address)
    return address.takeError();
  Buffer buffer;
  buffer.runtime = shared_from_this();
  buffer.owner = device;
  buffer.address = *address;
  buffer.bytes = bytes;
  return std::move(buffer);
}

Buffer &Buffer::operator=(Buffer &&other) noexcept {
  if (this != &other) {
    reset();
    runtime = std::move(other.runtime);
    owner = other.owner;
    address = std::exchange(other.address, 0);
    bytes = std::exchange(other.bytes, 0);
  }
  return *this;
}

void Buffer::reset() {
  if (address)
    runtime->freeMemory(owner, address);
  address = bytes = 0;
  runtime.reset();
}

} // namespace hcq::runtime
