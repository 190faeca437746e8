//===- Session.cpp - A Runtime: a session over the process's devices -----===//
//
// What a Runtime holds over the process's devices (Device.cpp): the devices
// it uses and their options, its kernel libraries and twins, memory it hands
// out (Buffer), synchronize, and stopping its queues when work cannot
// finish.
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
    std::string why = std::string(dlerror()) + tried;
    if (path.find('/') != std::string::npos)
      return makeError(ErrorCode::Unavailable, "cannot load ", path, ": ", why);
    // A bare name: say where it was looked for and how to add a folder.
    std::string folders;
    for (const std::string &folder : options.librarySearchPaths)
      folders += (folders.empty() ? "" : ", ") + folder;
    const char *ldPath = std::getenv("LD_LIBRARY_PATH");
    std::string option = options.nameOption("librarySearchPaths");
    return makeError(ErrorCode::Unavailable, "cannot load ", path, ": ", why,
                     " (looked for in ",
                     folders.empty()
                         ? std::string("the library search folders (none)")
                         : "the library search folders " + folders,
                     ", then where the dynamic loader looks: LD_LIBRARY_PATH ",
                     ldPath && *ldPath ? "'" + std::string(ldPath) + "'"
                                       : std::string("(not set)"),
                     " and the system's folders; add the library's folder",
                     option.empty() ? "" : " with " + option + " or",
                     " to LD_LIBRARY_PATH)");
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
    return prependContext("kernel @" + kernel.name + "'s library: ",
                          handle.takeError());
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
  // What the user can do, in the names of the program they use (hcq-run
  // has --twins, and nothing to register a function with).
  std::string libraries = options.nameOption("twinLibraries");
  std::string registry = options.nameOption("amdTwins");
  std::string how;
  if (!registry.empty())
    how += "register '" + kernel.symbol + "' with " + registry + ", ";
  how += "define " + symbol + " in a twin library";
  if (!libraries.empty())
    how += " given with " + libraries;
  return makeError(ErrorCode::Unavailable, "AMD kernel ", kernel.name,
                   " has no CPU twin for the emulated device: ", how,
                   ", or compile the kernel with a host object");
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
