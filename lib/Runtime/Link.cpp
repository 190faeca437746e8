//===- Link.cpp - Giving an executable's memory its addresses -------------===//

#include "HCQ/Runtime/Link.h"

#include "HCQ/Base/Bytes.h"
#include "HCQ/Base/Ranges.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <map>
#include <tuple>

namespace hcq::runtime {

namespace {
Error linkError(const std::string &why) {
  return Error::failure("link: " + why);
}
} // namespace

uint64_t evaluateAddressWord(const abi::Word &word, uint64_t address) {
  uint64_t value = (address + word.value) >> word.shift;
  if (word.part == WordPart::lo)
    value &= 0xFFFFFFFF;
  else if (word.part == WordPart::hi)
    value >>= 32;
  return value | word.orBits;
}

Expected<LinkResult> link(const Executable &exe, Memory &memory) {
  LinkResult result;
  result.addresses.resize(exe.values.size());
  // One memory per (tag, slot, device) placeholder and per (kernel, device)
  // program, however many values name it.
  std::map<std::tuple<PlaceholderTag, int64_t, DeviceId>, uint64_t>
      placeholders;
  std::map<std::tuple<uint32_t, DeviceId>, uint64_t> programs;

  for (auto [i, value] : enumerate(exe.values)) {
    std::vector<uint64_t> &lanes = result.addresses[i];
    if (value.kind == ValueKind::Input || value.kind == ValueKind::Variable) {
      lanes.assign(value.lanes(), 0);
      continue;
    }
    for (const DeviceId &device : value.devices) {
      uint64_t address = 0;
      if (value.kind == ValueKind::Placeholder &&
          value.scope() == PlaceholderScope::Runtime) {
        Expected<uint64_t> fn = memory.runtimeFunction(value.slot);
        if (!fn)
          return fn.takeError();
        address = *fn;
      } else if (value.kind == ValueKind::Placeholder &&
                 value.scope() == PlaceholderScope::DeviceNumber) {
        Expected<uint64_t> number = memory.deviceNumber(value.tag, device);
        if (!number)
          return number.takeError();
        address = *number;
      } else if (value.kind == ValueKind::Placeholder) {
        auto key = std::make_tuple(value.tag, value.slot, device);
        auto it = placeholders.find(key);
        if (it == placeholders.end()) {
          Expected<uint64_t> a = memory.allocate(value, device, value.bytes);
          if (!a)
            return a.takeError();
          it = placeholders.emplace(key, *a).first;
        }
        address = it->second;
      } else if (value.kind == ValueKind::Program) {
        const Kernel &kernel = exe.kernels[value.index];
        if (kernel.target != KernelTarget::amd) {
          Expected<uint64_t> fn = memory.hostFunction(kernel);
          if (!fn)
            return fn.takeError();
          address = *fn;
        } else {
          auto key = std::make_tuple(value.index, device);
          auto it = programs.find(key);
          if (it == programs.end()) {
            // The image as the compiler loaded it from the code object (no
            // ELF is parsed here), viewed in the file. (The reader checks
            // this; an executable built in memory may still be wrong.)
            if (kernel.amd.image >= exe.images.size())
              return linkError("kernel " + kernel.name + " is in image " +
                               std::to_string(kernel.amd.image) + " of " +
                               std::to_string(exe.images.size()));
            Expected<uint64_t> a =
                memory.loadProgram(value, device, exe.images[kernel.amd.image]);
            if (!a)
              return a.takeError();
            it = programs.emplace(key, *a).first;
          }
          address = it->second;
        }
      } else { // Alloc: its own memory per lane.
        Expected<uint64_t> a = memory.allocate(value, device, value.bytes);
        if (!a)
          return a.takeError();
        address = *a;
      }
      lanes.push_back(address);
    }
  }

  // Blobs: each lane's copy of the data, with that lane's addresses patched.
  // What the link writes into and patches with is linked memory (not an
  // input, whose address is the run's, nor a value on no device), and a
  // blob fits its memory: a crafted file cannot make the link write out of
  // bounds.
  auto isLinkedMemory = [&](uint32_t v) {
    const Value &value = exe.values[v];
    return (value.kind == ValueKind::Placeholder ||
            value.kind == ValueKind::Alloc ||
            value.kind == ValueKind::Program) &&
           !value.devices.empty();
  };
  for (auto [i, blob] : enumerate(exe.blobs)) {
    if (!isLinkedMemory(blob.target) ||
        exe.values[blob.target].kind == ValueKind::Program)
      return linkError("blob " + std::to_string(i) + " is written into value " +
                       std::to_string(blob.target) +
                       ", which is no linked memory");
    if (blob.data.size() > exe.values[blob.target].bytes)
      return linkError(
          "blob " + std::to_string(i) + " of " +
          std::to_string(blob.data.size()) + " bytes does not fit its " +
          std::to_string(exe.values[blob.target].bytes) + "-byte value");
  }
  for (const Blob &blob : exe.blobs) {
    const std::vector<uint64_t> &targets = result.addresses[blob.target];
    auto &lanes = result.blobs.emplace_back();
    for (size_t lane = 0; lane < targets.size(); ++lane) {
      std::vector<uint8_t> data = blob.data;
      for (const auto &[offset, word] : blob.patches) {
        if (word.kind != WordKind::address || word.refs.empty())
          return linkError("a blob patch must be an address");
        uint32_t ref = word.refs.size() == 1
                           ? word.refs[0]
                           : word.refs[lane % word.refs.size()];
        const std::vector<uint64_t> &refLanes = result.addresses[ref];
        if (!isLinkedMemory(ref) ||
            (refLanes.size() != 1 && refLanes.size() <= lane))
          return linkError("a blob patch takes the address of value " +
                           std::to_string(ref) +
                           ", which is no linked memory of the blob's lanes");
        uint64_t address = refLanes[refLanes.size() == 1 ? 0 : lane];
        uint64_t value = evaluateAddressWord(word, address);
        if (word.part == WordPart::full)
          write64le(data.data() + offset, value);
        else
          write32le(data.data() + offset, static_cast<uint32_t>(value));
      }
      memory.write(targets[lane], data);
      lanes.push_back(std::move(data));
    }
  }
  return result;
}

Expected<uint64_t> Memory::loadProgram(const Value &value,
                                       const DeviceId &device,
                                       Span<const uint8_t> image) {
  Expected<uint64_t> address = allocate(value, device, image.size());
  if (address)
    write(*address, image);
  return address;
}

Expected<uint64_t> AddressMap::loadProgram(const Value &value,
                                           const DeviceId &device,
                                           Span<const uint8_t> image) {
  ContentMap<uint64_t> &loaded = programs[device];
  Digest128 digest = digest128(image);
  if (const uint64_t *address = loaded.find(digest, image))
    return *address;
  Expected<uint64_t> address = Memory::loadProgram(value, device, image);
  if (address)
    loaded.insert(digest, image, *address);
  return address;
}

Expected<const LinkResult &> LinkCache::link(const Executable &exe,
                                             Memory &memory) {
  // A 128-bit digest of the file's bytes, not the bytes themselves: an
  // executable's worth of memory per cached link otherwise.
  Digest128 digest = digest128(writeExecutable(exe));
  auto key = std::make_tuple(&memory, digest.low, digest.high);
  auto it = results.find(key);
  if (it != results.end()) {
    ++hitCount;
    return it->second;
  }
  Expected<LinkResult> result = runtime::link(exe, memory);
  if (!result)
    return result.takeError();
  return results.emplace(std::move(key), std::move(*result)).first->second;
}

Expected<uint64_t> AddressMap::allocate(const Value &, const DeviceId &,
                                        uint64_t bytes) {
  uint64_t address = next;
  next += alignTo(std::max<uint64_t>(bytes, 1), 256);
  return address;
}

Expected<uint64_t> AddressMap::hostFunction(const Kernel &kernel) {
  auto [it, inserted] =
      functions.try_emplace(kernel.library + ":" + kernel.symbol, 0);
  if (inserted)
    it->second = 0x7f0000000000 + 0x1000 * (functions.size() - 1);
  return it->second;
}

Expected<uint64_t> AddressMap::runtimeFunction(uint32_t id) {
  return 0x7e0000000000 + 0x100 * static_cast<uint64_t>(id);
}

Expected<uint64_t> AddressMap::deviceNumber(PlaceholderTag,
                                            const DeviceId &device) {
  return uint64_t(device.index) + 1;
}

} // namespace hcq::runtime
