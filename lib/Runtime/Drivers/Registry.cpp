//===- Registry.cpp - The runtime's drivers -------------------------------===//
//
// Every device kind the runtime has, by name (Driver.h). Adding a kind is a
// folder under Drivers/ with its library, and one line here.
//
//===----------------------------------------------------------------------===//

#include "Driver.h"

namespace hcq::runtime {

void registerDrivers(DriverRegistry &registry) {
  registry.add(createCPUDriver());
  registry.add(createEmulatedAMDDriver());
  registry.add(createKFDDriver());
}

namespace {
const DriverRegistry &getRegistry() {
  static const DriverRegistry *registry = [] {
    auto *made = new DriverRegistry;
    registerDrivers(*made);
    return made;
  }();
  return *registry;
}
} // namespace

Expected<Driver *> lookupDriver(std::string_view name) {
  for (const std::unique_ptr<Driver> &driver : getRegistry().all())
    if (driver->getName() == name)
      return driver.get();
  std::string names;
  for (std::string_view known : listDriverNames())
    names += (names.empty() ? "" : ", ") + std::string(known);
  return makeError(ErrorCode::Unavailable, "no driver '", name,
                   "' in this runtime (it has ", names, ")");
}

Error addHostMemoryToDrivers(uint64_t address, uint64_t bytes) {
  const auto &drivers = getRegistry().all();
  for (auto it = drivers.begin(); it != drivers.end(); ++it)
    if (Error e = (*it)->addHostMemory(address, bytes)) {
      for (auto done = drivers.begin(); done != it; ++done)
        (*done)->removeHostMemory(address);
      return e;
    }
  return Error::success();
}

void removeHostMemoryFromDrivers(uint64_t address) {
  for (const std::unique_ptr<Driver> &driver : getRegistry().all())
    driver->removeHostMemory(address);
}

Error checkHostMemoryWithDrivers(uint64_t address, uint64_t bytes) {
  for (const std::unique_ptr<Driver> &driver : getRegistry().all())
    if (Error e = driver->checkHostMemory(address, bytes))
      return e;
  return Error::success();
}

std::vector<std::string_view> listDriverNames() {
  std::vector<std::string_view> names;
  for (const std::unique_ptr<Driver> &driver : getRegistry().all())
    names.push_back(driver->getName());
  return names;
}

} // namespace hcq::runtime
