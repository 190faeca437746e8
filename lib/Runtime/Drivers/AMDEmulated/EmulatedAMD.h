//===- EmulatedAMD.h - The amd-emulated driver (internal) -------*- C++ -*-===//
//
// The emulated AMD device's queues, for the driver and for tests that drive
// one queue by hand. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_DRIVERS_AMDEMULATED_EMULATEDAMD_H
#define HCQ_LIB_RUNTIME_DRIVERS_AMDEMULATED_EMULATEDAMD_H

#include "CommandProcessor.h"
#include "Queues.h"

#include <map>
#include <memory>
#include <shared_mutex>
#include <vector>

namespace hcq::runtime {

/// The twins of a device's loaded programs by entry address. Executables
/// loading later add to it while command processors look up in it; an
/// entry, once added, stays as it is for the map's life (a program's memory
/// is never reused while the device lives), so a found entry may be read
/// without the lock. `code` keeps what the twin's code lives in (an
/// executable's host object) loaded as long: the program may be dispatched
/// by a later executable with the same code object.
class TwinMap {
public:
  void add(uint64_t entry, TwinProgram program,
           std::shared_ptr<const void> code = nullptr) {
    std::unique_lock<std::shared_mutex> lock(mutex);
    if (programs.try_emplace(entry, std::move(program)).second && code)
      codes.push_back(std::move(code));
  }
  const TwinProgram *find(uint64_t entry) const {
    std::shared_lock<std::shared_mutex> lock(mutex);
    auto it = programs.find(entry);
    return it == programs.end() ? nullptr : &it->second;
  }

private:
  mutable std::shared_mutex mutex;
  std::map<uint64_t, TwinProgram> programs;
  std::vector<std::shared_ptr<const void>> codes;
};

/// An emulated AMD queue: `pm4` for a compute ring (dword pointers, one
/// INDIRECT_BUFFER packet per push), else SDMA (byte pointers, the command
/// buffer copied in). Its command processor thread executes the packets
/// against host memory and runs DISPATCH_DIRECT through `twins`.
std::unique_ptr<Queue>
makeEmulatedAMDQueue(std::string name, bool pm4, const RingMemory &memory,
                     std::shared_ptr<const TwinMap> twins,
                     std::chrono::milliseconds timeout,
                     std::shared_ptr<QueueFlags> flags);

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_DRIVERS_AMDEMULATED_EMULATEDAMD_H
