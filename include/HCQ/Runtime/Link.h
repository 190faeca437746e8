//===- Link.h - Giving an executable's memory its addresses -----*- C++ -*-===//
//
// The link, shared by the hcq-link pass (a deterministic address map) and
// the runtime (real memory): every placeholder, program and alloc gets memory
// per lane, programs are loaded, and the blobs' link-time patches are
// applied. MLIR-free.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_LINK_H
#define HCQ_RUNTIME_LINK_H

#include "HCQ/Base/Bytes.h"
#include "HCQ/Runtime/Executable.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <map>
#include <tuple>

namespace hcq::runtime {

/// Where the link gets memory and how it writes it.
class Memory {
public:
  virtual ~Memory() = default;
  /// `bytes` of memory for lane `lane` of `value`, on `device`.
  virtual Expected<uint64_t>
  allocate(const Value &value, const DeviceId &device, uint64_t bytes) = 0;
  /// Memory holding an AMD kernel's loaded image (`image`: the kernel is
  /// `value`'s, the executable's record has its facts) on `device`. The
  /// default allocates and writes it; implementations may share one program
  /// buffer between every executable that loads the same image.
  virtual Expected<uint64_t> loadProgram(const Value &value,
                                         const DeviceId &device,
                                         Span<const uint8_t> image);
  /// The address of a CPU kernel's host function.
  virtual Expected<uint64_t> hostFunction(const Kernel &kernel) = 0;
  /// The address of a runtime host function (cpu::HostFunction id).
  virtual Expected<uint64_t> runtimeFunction(uint32_t id) = 0;
  /// The number `device` gives for a placeholder of scope DeviceNumber (its
  /// interrupt event).
  virtual Expected<uint64_t> deviceNumber(PlaceholderTag tag,
                                          const DeviceId &device) = 0;
  virtual void write(uint64_t address, Span<const uint8_t> bytes) = 0;
};

struct LinkResult {
  /// Per value, per lane: its address (0 for inputs and variables, which
  /// get theirs every run).
  std::vector<std::vector<uint64_t>> addresses;
  /// Per blob, per lane of its target: the bytes written, patches applied.
  std::vector<std::vector<std::vector<uint8_t>>> blobs;
};

/// Links `exe` into `memory`. Placeholders with one (tag, slot, device) are
/// one memory; programs of one kernel on one device are loaded once.
Expected<LinkResult> link(const Executable &exe, Memory &memory);

/// The value of a link-time word whose operands are at `addresses` (one per
/// lane of the word, or one).
uint64_t evaluateAddressWord(const abi::Word &word, uint64_t address);

/// A deterministic address map: one bump allocator from `base`, each
/// allocation 256-byte aligned, host functions at fixed fake addresses; the
/// writes are recorded. What the hcq-link pass links against.
class AddressMap : public Memory {
public:
  explicit AddressMap(uint64_t base) : next(base) {}
  Expected<uint64_t> allocate(const Value &value, const DeviceId &device,
                              uint64_t bytes) override;
  /// One program buffer per image content and device, across executables.
  Expected<uint64_t> loadProgram(const Value &value, const DeviceId &device,
                                 Span<const uint8_t> image) override;
  size_t programLoads() const {
    size_t loads = 0;
    for (const auto &[device, loaded] : programs)
      loads += loaded.size();
    return loads;
  }
  Expected<uint64_t> hostFunction(const Kernel &kernel) override;
  Expected<uint64_t> runtimeFunction(uint32_t id) override;
  /// The device's index + 1.
  Expected<uint64_t> deviceNumber(PlaceholderTag tag,
                                  const DeviceId &device) override;
  void write(uint64_t, Span<const uint8_t>) override {}

private:
  uint64_t next;
  std::map<std::string, uint64_t> functions;
  /// Per device, its programs' addresses by image content.
  std::map<DeviceId, ContentMap<uint64_t>> programs;
};

/// Link results by content: linking an executable whose file bytes were
/// linked before into the same memory returns the first result.
class LinkCache {
public:
  Expected<const LinkResult &> link(const Executable &exe, Memory &memory);
  size_t hits() const { return hitCount; }
  size_t size() const { return results.size(); }

private:
  /// By memory and the executable's content digest.
  std::map<std::tuple<const Memory *, uint64_t, uint64_t>, LinkResult> results;
  size_t hitCount = 0;
};

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_LINK_H
