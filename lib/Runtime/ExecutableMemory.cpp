//===- ExecutableMemory.cpp - An executable's side of the link -----------===//

#include "ExecutableMemory.h"

#include "HCQ/Target/CPU/Entry.h"

#include <cstring>
#include <dlfcn.h>

namespace hcq::runtime {

Expected<uint64_t> ExecutableMemory::allocate(const Value &value,
                                              const DeviceId &id,
                                              uint64_t bytes) {
  Expected<Device *> device = runtime.getDevice(id);
  if (!device)
    return device.takeError();
  if (value.scope() == PlaceholderScope::Device)
    return (*device)->getPlaceholder(value.tag, bytes);
  // hcq.alloc buffers are the GPU's alone; placeholders (signals, command
  // buffers, kernel arguments, tables, staging) the host's too.
  Expected<uint64_t> address = runtime.allocateOn(
      **device, bytes,
      value.kind == ValueKind::Alloc ? Placement::Device : Placement::Host);
  if (!address)
    return address;
  owned.push_back({*device, *address});
  // Signals an executable's queues wait on, named for hang reports.
  if (value.isPlaceholder(PlaceholderTag::signal) ||
      value.isPlaceholder(PlaceholderTag::epoch)) {
    runtime.names.add(*address,
                      std::string(abi::getPlaceholderTagName(value.tag)) +
                          " slot " + std::to_string(value.slot) + " of @" +
                          exe.name + " on " + id.str());
    named.push_back(*address);
  }
  return address;
}

Expected<uint64_t> ExecutableMemory::loadProgram(const Value &value,
                                                 const DeviceId &id,
                                                 Span<const uint8_t> image) {
  Expected<Device *> device = runtime.getDevice(id);
  if (!device)
    return device.takeError();
  const Kernel &kernel = exe.kernels[value.index];
  Expected<uint64_t> address =
      (*device)->loadProgram(kernel, image, [&] { return findTwin(kernel); });
  if (address && kernel.hasHostObject())
    if (Error e = offerTwin(*address + kernel.amd.entryOffset, kernel))
      return std::move(e);
  if (address && !kernel.hasHostObject() && (*device)->isHardware())
    if (Error e = checkSimulatedTwin(kernel))
      return std::move(e);
  return address;
}

/// The simulated kernel driver preloaded into the process, or null (a real
/// driver, or none; or a simulator built against another interface).
static const hcq_simulated_driver *simulatedDriver() {
  static const hcq_simulated_driver *driver = [] {
    auto get = reinterpret_cast<hcq_simulated_driver_fn>(
        dlsym(RTLD_DEFAULT, HCQ_SIMULATED_DRIVER_SYMBOL));
    const hcq_simulated_driver *d = get ? get() : nullptr;
    return d && d->version == HCQ_SIMULATED_DRIVER_VERSION ? d : nullptr;
  }();
  return driver;
}

Error ExecutableMemory::checkSimulatedTwin(const Kernel &kernel) {
  const hcq_simulated_driver *driver = simulatedDriver();
  if (!driver || driver->has_twin(kernel.symbol.c_str()))
    return Error::success();
  return makeError(ErrorCode::Unavailable, "AMD kernel ", kernel.name,
                   " has no CPU twin on the simulated kernel driver "
                   "(libhcq-kfd-sim.so, preloaded), whose GPU would stop at "
                   "its first dispatch: define hcq_twin_",
                   kernel.symbol,
                   " in a library listed in HCQ_KFD_SIM_TWINS, or compile "
                   "the kernel with a host object");
}

Expected<uint64_t> ExecutableMemory::hostFunction(const Kernel &kernel) {
  if (!kernel.hasHostObject())
    return runtime.getHostFunction(kernel);
  Expected<void *> symbol = findInHostObject(kernel, kernel.symbol);
  if (!symbol)
    return symbol.takeError();
  auto address = reinterpret_cast<uint64_t>(*symbol);
  // For reports of a kernel that does not return.
  runtime.names.add(address, "@" + kernel.name + " (" + kernel.symbol + ")");
  return address;
}

Expected<uint64_t> ExecutableMemory::runtimeFunction(uint32_t id) {
  if (uint64_t f = cpuEntryFunction(id))
    return f;
  return Error::failure(ErrorCode::InvalidFile,
                        "unknown runtime function " + std::to_string(id));
}

Expected<uint64_t> ExecutableMemory::deviceNumber(PlaceholderTag tag,
                                                  const DeviceId &id) {
  Expected<Device *> device = runtime.getDevice(id);
  if (!device)
    return device.takeError();
  return (*device)->getNumber(tag);
}

void ExecutableMemory::write(uint64_t address, Span<const uint8_t> bytes) {
  std::memcpy(reinterpret_cast<void *>(address), bytes.data(), bytes.size());
}

void ExecutableMemory::abandon() {
  owned.clear();
  for (std::shared_ptr<HostObject> &object : hostObjects)
    if (object)
      HostObject::keepLoaded(std::move(object));
}

void ExecutableMemory::release() {
  for (uint64_t address : named)
    runtime.names.remove(address);
  named.clear();
  for (auto [device, address] : owned)
    device->free(address);
  owned.clear();
}

Expected<hcq_amd_twin> ExecutableMemory::findTwin(const Kernel &kernel) {
  if (!kernel.hasHostObject())
    return runtime.findTwin(kernel);
  Expected<void *> twin = findInHostObject(kernel, "hcq_twin_" + kernel.symbol);
  if (!twin)
    return twin.takeError();
  return reinterpret_cast<hcq_amd_twin>(*twin);
}

Error ExecutableMemory::offerTwin(uint64_t entry, const Kernel &kernel) {
  const hcq_simulated_driver *driver = simulatedDriver();
  if (!driver)
    return Error::success();
  Expected<hcq_amd_twin> twin = findTwin(kernel);
  if (!twin)
    return twin.takeError();
  driver->add_twin(entry, *twin);
  HostObject::keepLoaded(hostObjects[kernel.hostObject]);
  return Error::success();
}

Expected<void *> ExecutableMemory::findInHostObject(const Kernel &kernel,
                                                    const std::string &name) {
  hostObjects.resize(exe.hostObjects.size());
  std::shared_ptr<HostObject> &object = hostObjects[kernel.hostObject];
  if (!object) {
    Expected<std::shared_ptr<HostObject>> loaded =
        HostObject::load(exe.hostObjects[kernel.hostObject]);
    if (!loaded)
      return prependContext("kernel " + kernel.name + ": ", loaded.takeError());
    object = std::move(*loaded);
  }
  if (void *symbol = object->find(name))
    return symbol;
  return makeError(ErrorCode::Unavailable, "kernel ", kernel.name,
                   ": its host object has no symbol '", name, "'");
}

} // namespace hcq::runtime
