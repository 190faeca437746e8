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

std::vector<std::string_view> listDriverNames() {
  std::vector<std::string_view> names;
  for (const std::unique_ptr<Driver> &driver : getRegistry().all())
    names.push_back(driver->getName());
  return names;
}

} // namespace hcq::runtime
