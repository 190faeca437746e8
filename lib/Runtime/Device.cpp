//===- Device.cpp - The process's devices and a Runtime's session ---------===//
//
// What every device shares, above its driver (Driver.h): placeholders, the
// queue table, the program cache, synchronize and hang detection; the
// process's table of open devices; and a Runtime's session over them: its
// kernel libraries and twins, and the devices it uses.
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

} // namespace

DriverDevice::~DriverDevice() = default;
Driver::~Driver() = default;

std::string DeviceOptions::differingOption(const DeviceOptions &other) const {
  if (ringBytes != other.ringBytes)
    return concat("RuntimeOptions::ringBytes (", ringBytes, ", asked for ",
                  other.ringBytes, ")");
  if (waitTimeout != other.waitTimeout)
    return concat("its wait timeout (RuntimeOptions::waitTimeout or "
                  "deviceWaitTimeouts: ",
                  int64_t(waitTimeout.count()), " ms, asked for ",
                  int64_t(other.waitTimeout.count()), " ms)");
  return {};
}

//===----------------------------------------------------------------------===//
// Device
//===----------------------------------------------------------------------===//

Device::Device(Driver &driver, DeviceId id, DeviceOptions options,
               std::unique_ptr<DriverDevice> impl,
               std::shared_ptr<QueueFlags> flags)
    : driver(driver), id(id), name(id.str()), options(options),
      impl(std::move(impl)), flags(std::move(flags)) {}

Error Device::open() {
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

Device::~Device() {
  struct Release {
    ~Release() { ProcessDevices::get().releaseFlags(); }
  } release;
  // The queues' threads stop before the memory they read is freed.
  bool stuck = false;
  for (auto &[key, entry] : queues)
    if (!entry.queue->stop()) {
      (void)entry.queue.release(); // its thread still runs in it
      stuck = true;
    }
  queues.clear();
  if (stuck) {
    ProcessDevices::get().abandonedQueues.store(true);
    return;
  }
  for (auto &[address, bytes] : blocks) {
    if (impl->givesHostMemory())
      removeHostMemoryFromDrivers(address);
    impl->free(address, bytes);
  }
}

Expected<uint64_t> Device::allocateBlock(uint64_t bytes, Placement placement,
                                         uint64_t &size) {
  size = alignTo(std::max<uint64_t>(bytes, 1), 256);
  if (size < bytes)
    return makeError(ErrorCode::OutOfMemory, name, ": cannot allocate ", bytes,
                     " bytes");
  return impl->allocate(size, placement);
}

Expected<uint64_t> Device::allocate(uint64_t bytes, Placement placement) {
  uint64_t size;
  Expected<uint64_t> address = allocateBlock(bytes, placement, size);
  if (!address)
    return address.takeError();
  // Host memory a GPU may be given is registered with it (the queues' own
  // memory, allocated apart, is the CPU worker's alone).
  if (impl->givesHostMemory())
    if (Error e = addHostMemoryToDrivers(*address, size)) {
      impl->free(*address, size);
      return prependContext(name + ": ", std::move(e));
    }
  std::lock_guard<std::mutex> lock(mutex);
  blocks.emplace(*address, size);
  return *address;
}

void Device::free(uint64_t address) {
  uint64_t bytes;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = blocks.find(address);
    if (it == blocks.end())
      return;
    bytes = it->second;
    blocks.erase(it);
  }
  if (impl->givesHostMemory())
    removeHostMemoryFromDrivers(address);
  impl->free(address, bytes);
}

Expected<uint64_t> Device::getPlaceholder(PlaceholderTag tag, uint64_t bytes) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = placeholders.find(tag);
    if (it != placeholders.end()) {
      auto [address, size] = it->second;
      if (bytes > size)
        return makeError(ErrorCode::FailedPrecondition, name,
                         ": an executable asks for ", bytes,
                         " bytes of the device's ",
                         abi::getPlaceholderTagName(tag), ", which has ", size,
                         " (another executable on the device was compiled "
                         "for another target)");
      return address;
    }
  }
  // Where the device has an event mailbox (a GPU's slot of the process's
  // event page), the placeholder is it; elsewhere plain memory nobody reads.
  std::optional<uint64_t> mailbox = tag == PlaceholderTag::event_mailbox
                                        ? impl->getEventMailbox()
                                        : std::nullopt;
  if (mailbox && bytes > 8)
    return makeError(ErrorCode::FailedPrecondition, name,
                     ": an executable asks for ", bytes,
                     " bytes of the device's event_mailbox, which has 8");
  // Scratch is the GPU's alone; the rest the host reads or writes.
  Expected<uint64_t> address =
      mailbox
          ? Expected<uint64_t>(*mailbox)
          : allocate(bytes, tag == PlaceholderTag::scratch ? Placement::Device
                                                           : Placement::Host);
  if (!address)
    return address.takeError();
  if (tag == PlaceholderTag::timeline_value)
    word(*address).store(1);
  if (tag == PlaceholderTag::sentinel_signal)
    word(*address).store(~uint64_t(0));
  if (tag == PlaceholderTag::timeline_signal)
    flags->names.add(*address, "the " + name + " timeline");
  if (tag == PlaceholderTag::sentinel_signal)
    flags->names.add(*address, "the " + name + " sentinel");
  std::lock_guard<std::mutex> lock(mutex);
  placeholders.emplace(tag, std::make_pair(*address, bytes));
  return *address;
}

Expected<uint64_t> Device::getNumber(PlaceholderTag tag) {
  if (tag != PlaceholderTag::interrupt_event)
    return makeError(ErrorCode::InvalidFile, name, " gives no number for a ",
                     abi::getPlaceholderTagName(tag), " placeholder");
  return impl->getInterruptEventId();
}

Expected<Queue *> Device::getQueue(QueueName queue, PushMode mode) {
  std::string queueName = name + " " + queue.str();
  auto key = std::make_pair(queue.kind, queue.index);
  std::lock_guard<std::mutex> lock(mutex);
  auto it = queues.find(key);
  if (it != queues.end()) {
    if (it->second.mode != mode)
      return makeError(ErrorCode::InvalidFile, queueName,
                       " takes pushes of another mode");
    return it->second.queue.get();
  }
  if (!impl->takesPushMode(mode))
    return makeError(ErrorCode::InvalidFile, "no queue of the ",
                     driver.getName(), " driver takes a push of mode ",
                     uint32_t(mode), " to ", queueName);
  // The queue's memory is the device's, freed after its queues stop.
  // (The lock is held: the block is recorded here, not by allocate().)
  auto allocateForQueue = [&](uint64_t bytes,
                              Placement placement) -> Expected<uint64_t> {
    uint64_t size;
    Expected<uint64_t> address = allocateBlock(bytes, placement, size);
    if (address)
      blocks.emplace(*address, size);
    return address;
  };
  Expected<std::unique_ptr<Queue>> created =
      impl->createQueue(queueName, mode, options, flags, allocateForQueue);
  if (!created)
    return created.takeError();
  return queues.emplace(key, DeviceQueue{mode, std::move(*created)})
      .first->second.queue.get();
}

Expected<uint64_t>
Device::loadProgram(const Kernel &kernel, Span<const uint8_t> image,
                    const std::function<Expected<hcq_amd_twin>()> &findTwin) {
  if (Error e = impl->checkProgram(kernel))
    return std::move(e);
  // Where programs run as CPU twins, the twin is found before any memory.
  hcq_amd_twin twin = nullptr;
  if (impl->runsTwins()) {
    Expected<hcq_amd_twin> found = findTwin();
    if (!found)
      return found.takeError();
    twin = *found;
  }
  Digest128 digest = digest128(image);
  uint64_t address;
  {
    std::unique_lock<std::mutex> lock(mutex);
    if (const uint64_t *loaded = programs.find(digest, image)) {
      address = *loaded;
    } else {
      lock.unlock();
      Expected<uint64_t> a =
          allocate(image.size(), Placement::DeviceHostWritten);
      if (!a)
        return a.takeError();
      std::memcpy(reinterpret_cast<void *>(*a), image.data(), image.size());
      lock.lock();
      if (const uint64_t *loaded = programs.find(digest, image)) {
        // Another thread loaded it meanwhile.
        address = *loaded;
        lock.unlock();
        free(*a);
      } else {
        address = programs.insert(digest, image, *a);
      }
    }
  }
  if (impl->runsTwins())
    impl->addTwin(address + kernel.amd.entryOffset, kernel, twin);
  return address;
}

Error Device::synchronize() {
  // The timeline reaches its host value - 1 (the last finalizer of every
  // run stored it); a queue that failed stops the wait.
  std::atomic<uint64_t> &timeline = word(timelineSignal);
  uint64_t target = word(timelineValue).load() - 1;
  std::chrono::milliseconds timeout = getTimeout();
  auto waitForTimeline = [&]() -> Error {
    if (waitUntil(
            [&] {
              return timeline.load() >= target ||
                     flags->error.load(std::memory_order_acquire);
            },
            timeline, timeout, getInterrupts()))
      return Error::success();
    return makeError(ErrorCode::DeadlineExceeded, "synchronize: the ", name,
                     " timeline stays at ", timeline.load(), ", below ",
                     target);
  };
  // A GPU's queues drain by themselves, and the timeline store raises the
  // interrupt the wait sleeps on: on a GPU that wait comes first, so the
  // queues have (nearly) drained when they are looked at.
  std::vector<Queue *> all;
  forEachQueue([&](Queue &q) { all.push_back(&q); });
  bool hardware = impl->isHardware();
  // A GPU queue that stops does not start again by itself (a driver resets
  // it): it is dead from then on, so every later run and wait fails at once
  // with its fault instead of waiting out the timeout again.
  auto stuck = [&](Queue &queue) {
    std::string what = queue.describeRunning() + " has not finished after " +
                       std::to_string(queue.waitTimeout().count()) + " ms";
    if (hardware && !queue.isDead()) {
      queue.reportStopped(what + " (the GPU's queues are stopped)");
      // The GPU's other queues may wait for it forever: all of them stop
      // before any memory they use is freed.
      for (Queue *other : all)
        other->halt();
    }
    return makeError(ErrorCode::DeadlineExceeded, queue.getName(), ": ", what);
  };
  if (hardware) {
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
// ProcessDevices
//===----------------------------------------------------------------------===//

ProcessDevices &ProcessDevices::get() {
  // Never destroyed: queue threads left running in a stuck kernel, and
  // Runtimes destroyed by other static destructors, may still reach it.
  static ProcessDevices *devices = new ProcessDevices;
  return *devices;
}

std::shared_ptr<QueueFlags> ProcessDevices::acquireFlags() {
  std::lock_guard<std::mutex> lock(mutex);
  if (!flags)
    flags = std::make_shared<QueueFlags>();
  ++flagsUsers;
  return flags;
}

void ProcessDevices::releaseFlags() {
  std::lock_guard<std::mutex> lock(mutex);
  if (--flagsUsers == 0)
    flags.reset();
}

Expected<std::shared_ptr<Device>>
ProcessDevices::open(Driver &driver, DeviceId id,
                     const DeviceOptions &options) {
  // Declared before the lock: a device whose last owner this turns out to
  // be is destroyed after it is released (its destructor takes it).
  std::shared_ptr<Device> device;
  std::unique_lock<std::mutex> lock(mutex);
  std::weak_ptr<Device> &slot =
      devices[std::make_pair(std::string(driver.getName()), id)];
  if ((device = slot.lock())) {
    std::string differs = device->getOptions().differingOption(options);
    if (!differs.empty())
      return makeError(ErrorCode::FailedPrecondition, id.str(), " (",
                       driver.getName(),
                       ") is open in this process with another ", differs,
                       ": every Runtime using a device must agree on it");
    return device;
  }
  if (Error e = driver.verifyOptions(options))
    return std::move(e);
  Expected<std::unique_ptr<DriverDevice>> impl =
      driver.createDevice(id, options);
  if (!impl)
    return impl.takeError();
  // The caller (a Runtime) holds the flags: they are the current ones.
  ++flagsUsers;
  device =
      std::make_shared<Device>(driver, id, options, std::move(*impl), flags);
  if (Error e = device->open()) {
    lock.unlock();
    device.reset();
    return std::move(e);
  }
  slot = device;
  return device;
}

std::vector<std::shared_ptr<Device>> ProcessDevices::openDevices() {
  std::lock_guard<std::mutex> lock(mutex);
  std::vector<std::shared_ptr<Device>> open;
  for (auto &[key, slot] : devices)
    if (std::shared_ptr<Device> device = slot.lock())
      open.push_back(std::move(device));
  return open;
}

//===----------------------------------------------------------------------===//
// RuntimeImpl
//===----------------------------------------------------------------------===//

std::shared_ptr<Runtime> Runtime::create(RuntimeOptions options) {
  return std::make_shared<RuntimeImpl>(std::move(options));
}

RuntimeImpl::RuntimeImpl(RuntimeOptions options)
    : Runtime(std::move(options)), mutex(ProcessDevices::get().submitMutex),
      queueFlags(ProcessDevices::get().acquireFlags()), flags(*queueFlags),
      names(queueFlags->names) {}

RuntimeImpl::~RuntimeImpl() {
  // Queue threads run library code: every executable of this Runtime has
  // finished (each waits for its work as it goes) before the libraries go,
  // and a queue left running in a kernel keeps them.
  devices.clear();
  ProcessDevices::get().releaseFlags();
  if (ProcessDevices::get().abandonedQueues.load())
    return;
  for (auto &[path, handle] : libraries)
    dlclose(handle);
}

Expected<Driver *> RuntimeImpl::driverFor(DeviceId id) const {
  switch (id.kind) {
  case DeviceKind::CPU:
    return lookupDriver("cpu");
  case DeviceKind::AMD:
    switch (options.amd) {
    case AMDDevice::None:
      return makeError(ErrorCode::Unavailable, "the executable uses ", id.str(),
                       ", and no AMD device was chosen (RuntimeOptions::amd; "
                       "hcq-run --amd=emulated or --amd=hardware)");
    case AMDDevice::Emulated:
      return lookupDriver("amd-emulated");
    case AMDDevice::Hardware:
      return lookupDriver("amd-kfd");
    }
    break;
  default:
    break;
  }
  return makeError(ErrorCode::Unavailable, "this runtime has no ", id.str(),
                   " device");
}

DeviceOptions RuntimeImpl::deviceOptions(DeviceId id) const {
  DeviceOptions device;
  device.ringBytes = options.ringBytes;
  device.waitTimeout = options.waitTimeout;
  auto it = options.deviceWaitTimeouts.find(id.str());
  if (it != options.deviceWaitTimeouts.end())
    device.waitTimeout = it->second;
  return device;
}

Expected<Device *> RuntimeImpl::getDevice(DeviceId id) {
  std::lock_guard<std::mutex> lock(devicesMutex);
  auto it = devices.find(id);
  if (it != devices.end())
    return it->second.get();
  Expected<Driver *> driver = driverFor(id);
  if (!driver)
    return driver.takeError();
  Expected<std::shared_ptr<Device>> device =
      ProcessDevices::get().open(**driver, id, deviceOptions(id));
  if (!device)
    return device.takeError();
  // The process has one set of flags at a time, and this Runtime holds it.
  if (&(*device)->getFlags() != &flags)
    return makeError(ErrorCode::Internal, id.str(),
                     " reports to another runtime's queue flags");
  order.push_back(id);
  return devices.emplace(id, std::move(*device)).first->second.get();
}

std::vector<DeviceId> RuntimeImpl::openDevices() const {
  std::lock_guard<std::mutex> lock(devicesMutex);
  return order;
}

Expected<uint64_t> RuntimeImpl::allocateOn(Device &device, uint64_t bytes,
                                           Placement placement) {
  uint64_t limit = options.maxAllocationBytes;
  if (bytes > limit)
    return makeError(
        ErrorCode::OutOfMemory, device.getName(), ": an allocation of ", bytes,
        " bytes is more than RuntimeOptions::maxAllocationBytes (", limit, ")");
  return device.allocate(bytes, placement);
}

Expected<uint64_t> RuntimeImpl::allocateMemory(DeviceId id, uint64_t bytes) {
  Expected<Device *> device = getDevice(id);
  if (!device)
    return device.takeError();
  return allocateOn(**device, bytes, Placement::Host);
}

void RuntimeImpl::freeMemory(DeviceId id, uint64_t address) {
  Expected<Device *> device = getDevice(id);
  if (!device) {
    consumeError(device.takeError());
    return;
  }
  // Runs submitted before may still use it, on any device of the process:
  // host memory of one CPU device may be given as another's lane (CPU:1's
  // buffer to a copy on CPU:0), or to another Runtime's executable. The
  // policy is unloading's: work that cannot finish (a hang) has its
  // devices' queues stopped first, as a fault would; if a queue cannot
  // stop (a kernel that never returns), the memory stays allocated rather
  // than freed under it.
  {
    std::lock_guard<std::recursive_mutex> lock(mutex);
    std::vector<std::shared_ptr<Device>> open =
        ProcessDevices::get().openDevices();
    std::vector<Device *> unfinished;
    std::string why;
    for (const std::shared_ptr<Device> &other : open)
      if (Error e = other->synchronize()) {
        if (why.empty())
          why = toString(std::move(e));
        else
          consumeError(std::move(e));
        unfinished.push_back(other.get());
      }
    if (!unfinished.empty() &&
        !stopQueuesOf(unfinished, "a buffer of " + (*device)->getName() +
                                      " released while work using it "
                                      "could not finish: " +
                                      why))
      return;
  }
  (*device)->free(address);
}

Error RuntimeImpl::synchronize() {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  return synchronizeLocked();
}

std::vector<Device *> RuntimeImpl::openDeviceList() {
  std::lock_guard<std::mutex> lock(devicesMutex);
  std::vector<Device *> open;
  for (DeviceId id : order)
    open.push_back(devices[id].get());
  return open;
}

Error RuntimeImpl::synchronizeLocked() {
  return synchronizeDevices(openDeviceList());
}

Error RuntimeImpl::synchronizeDevices(Span<Device *const> devices) {
  for (Device *device : devices)
    if (Error e = device->synchronize())
      return hang(std::move(e));
  return takeQueueError();
}

Error RuntimeImpl::hang(Error e) {
  if (Error queueError = takeQueueError())
    return queueError;
  return prependContext("hang detected: ", std::move(e));
}

Error RuntimeImpl::hang(const std::string &what) {
  return hang(makeError(ErrorCode::DeadlineExceeded, what));
}

Error RuntimeImpl::takeQueueError() {
  if (!flags.error.exchange(false))
    return Error::success();
  std::string first;
  ErrorCode code = ErrorCode::DeadlineExceeded;
  bool fault = false;
  std::vector<Device *> open = openDeviceList();
  for (Device *device : open)
    device->forEachQueue([&](Queue &queue) {
      std::string error = queue.takeError();
      if (queue.isDead()) {
        flags.error.store(true);
        if (!fault) {
          first = (queue.isStopped() ? "hang detected: " : "device fault: ") +
                  error;
          code = queue.isStopped() ? ErrorCode::DeadlineExceeded
                                   : ErrorCode::DeviceFault;
        }
        fault = true;
      } else if (!error.empty() && first.empty()) {
        first = "hang detected: " + error;
      }
    });
  if (first.empty())
    return Error::success();
  return Error::failure(code, first);
}

bool RuntimeImpl::stopQueues(const std::string &why) {
  return stopQueuesOf(openDeviceList(), why);
}

bool RuntimeImpl::stopQueuesOf(const std::vector<Device *> &open,
                               const std::string &why) {
  bool reported = false;
  for (Device *device : open)
    device->forEachQueue([&](Queue &queue) {
      if (!reported)
        queue.reportFault(why);
      reported = true;
    });
  flags.fault.store(true, std::memory_order_release);
  flags.error.store(true, std::memory_order_release);
  bool stopped = true;
  for (Device *device : open)
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
    return makeError(ErrorCode::Unavailable, "cannot load ", path, ": ",
                     dlerror(), tried);
  }
  return it->second = handle;
}

Expected<uint64_t> RuntimeImpl::getHostFunction(const Kernel &kernel) {
  if (kernel.target == KernelTarget::builtin) {
    if (kernel.symbol != abi::BUILTIN_COPY_KERNEL)
      return makeError(ErrorCode::Unavailable, "kernel ", kernel.name,
                       ": no builtin '", kernel.symbol, "' in this runtime");
    return reinterpret_cast<uint64_t>(&builtinCopy);
  }
  auto registered = options.cpuKernels.find(kernel.symbol);
  if (registered != options.cpuKernels.end()) {
    auto symbol = reinterpret_cast<uint64_t>(registered->second);
    names.add(symbol, "@" + kernel.name + " (" + kernel.symbol + ")");
    return symbol;
  }
  if (kernel.library.empty())
    return makeError(ErrorCode::InvalidFile, "kernel ", kernel.name,
                     " has no library");
  Expected<void *> handle = openLibrary(kernel.library);
  if (!handle)
    return handle.takeError();
  void *symbol = dlsym(*handle, kernel.symbol.c_str());
  if (!symbol)
    return makeError(ErrorCode::Unavailable, "no symbol '", kernel.symbol,
                     "' in ", kernel.library);
  // For reports of a kernel that does not return.
  names.add(reinterpret_cast<uint64_t>(symbol),
            "@" + kernel.name + " (" + kernel.symbol + ")");
  return reinterpret_cast<uint64_t>(symbol);
}

Expected<hcq_amd_twin> RuntimeImpl::findTwin(const Kernel &kernel) {
  auto it = options.amdTwins.find(kernel.symbol);
  if (it != options.amdTwins.end())
    return it->second;
  // The builtin copy kernel's twin is the driver's own.
  if (kernel.symbol == amd::BUILTIN_COPY_SYMBOL)
    return hcq_amd_twin(nullptr);
  std::string symbol = "hcq_twin_" + kernel.symbol;
  for (const std::string &library : options.twinLibraries) {
    Expected<void *> handle = openLibrary(library);
    if (!handle)
      return handle.takeError();
    if (void *twin = dlsym(*handle, symbol.c_str()))
      return reinterpret_cast<hcq_amd_twin>(twin);
  }
  return makeError(ErrorCode::Unavailable, "AMD kernel ", kernel.name,
                   " has no CPU twin for the emulated device: register '",
                   kernel.symbol, "' in RuntimeOptions::amdTwins or define ",
                   symbol, " in a twin library");
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
