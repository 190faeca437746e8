//===- ExecutableMemory.h - An executable's side of the link -------------===//
//
// What link() (HCQ/Runtime/Link.h) asks of the runtime while it links one
// executable: memory on its devices, programs, host functions and the
// twins of AMD kernels. The executable owns what it gets here and frees it
// with itself.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_EXECUTABLEMEMORY_H
#define HCQ_LIB_RUNTIME_EXECUTABLEMEMORY_H

#include "Device.h"
#include "HCQ/Runtime/Link.h"
#include "HostObject.h"

#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hcq::runtime {

/// Executable-scoped values get memory of their own, freed with the
/// executable; device-scoped placeholders are the device's; AMD programs
/// are the device's, shared by content.
class ExecutableMemory : public Memory {
public:
  ExecutableMemory(RuntimeImpl &runtime, const Executable &exe)
      : runtime(runtime), exe(exe) {}
  ~ExecutableMemory() override { release(); }

  Expected<uint64_t> allocate(const Value &value, const DeviceId &id,
                              uint64_t bytes) override;
  Expected<uint64_t> loadProgram(const Value &value, const DeviceId &id,
                                 Span<const uint8_t> image) override;
  Expected<uint64_t> hostFunction(const Kernel &kernel) override;
  Expected<uint64_t> runtimeFunction(uint32_t id) override;
  Expected<uint64_t> deviceNumber(PlaceholderTag tag,
                                  const DeviceId &id) override;
  void write(uint64_t address, Span<const uint8_t> bytes) override;

  /// Forgets the executable's own memory without freeing it; its host code
  /// stays loaded (a kernel that does not return may still run it).
  void abandon();

  /// Frees the executable's own memory (and forgets its signals' names).
  void release();

private:
  /// The CPU twin of AMD `kernel`: its host object's `hcq_twin_<symbol>`
  /// when it has one, else the runtime's (RuntimeOptions::amdTwins, twin
  /// libraries).
  Expected<hcq_amd_twin> findTwin(const Kernel &kernel);

  /// What plays the GPU in this process, if anything does (the simulated
  /// kernel driver, test/KFDSim/KFDSim.h, preloaded), is told the twin of
  /// the program entered at `entry` from the kernel's host object; it keeps
  /// it as long as the program, so the object stays loaded from then on.
  Error offerTwin(uint64_t entry, const Kernel &kernel);

  /// What plays the GPU in this process, if anything does (the simulated
  /// kernel driver, test/KFDSim/KFDSim.h, preloaded), is asked whether it
  /// has the twin of `kernel`, which has no host code: one it lacks is an
  /// error at load (Unavailable) rather than a queue that stops at the
  /// dispatch, reported only as a hang after the wait timeout.
  Error checkSimulatedTwin(const Kernel &kernel);

  /// `name` in `kernel`'s host object, which the executable loads at its
  /// first use and holds while it lives.
  Expected<void *> findInHostObject(const Kernel &kernel,
                                    const std::string &name);

  RuntimeImpl &runtime;
  const Executable &exe;
  std::vector<std::pair<Device *, uint64_t>> owned;
  std::vector<uint64_t> named;
  /// Per host object of the executable: loaded, or null until used.
  std::vector<std::shared_ptr<HostObject>> hostObjects;
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_EXECUTABLEMEMORY_H
