//===- Target.cpp - AMD GPU targets the encoder knows ---------------------===//

#include "HCQ/Target/AMD/Target.h"
#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/SDMA.h"

namespace hcq::amd {

namespace {
// The builtin copy kernel's code objects (lib/Target/CMakeLists.txt).
#include "HCQ/Target/AMD/Builtins/copy-gfx1100.inc"
#include "HCQ/Target/AMD/Builtins/copy-gfx1101.inc"
#include "HCQ/Target/AMD/Builtins/copy-gfx1102.inc"
#include "HCQ/Target/AMD/Builtins/copy-gfx942.inc"
} // namespace

uint32_t Target::rsrc3Register() const {
  return isGfx9() ? pm4::reg::COMPUTE_PGM_RSRC3_GFX940
                  : pm4::reg::COMPUTE_PGM_RSRC3_GFX11;
}

Span<const Target> getTargets() {
  // Scratch waves: 32 per compute unit (96 CUs in 6 SEs on gfx1100, 60 in 3
  // on gfx1101, 32 in 2 on gfx1102: RX 7900 XTX, 7800 XT, 7600), clamped to
  // the 12-bit WAVES field on gfx942 (304 CUs), which counts the device.
  static const Target targets[] = {
      {"gfx1100", 11, 64 * 1024, sdma::COPY_MAX_BYTES_SDMA6, 256, 15, 3072, 6,
       ELF_MACH_GFX1100, COPY_gfx1100},
      {"gfx1101", 11, 64 * 1024, sdma::COPY_MAX_BYTES_SDMA6, 256, 15, 1920, 3,
       ELF_MACH_GFX1101, COPY_gfx1101},
      {"gfx1102", 11, 64 * 1024, sdma::COPY_MAX_BYTES_SDMA6, 256, 15, 1024, 2,
       ELF_MACH_GFX1102, COPY_gfx1102},
      {"gfx942", 9, 64 * 1024, sdma::COPY_MAX_BYTES_SDMA4, 1024, 13, 4095, 1,
       ELF_MACH_GFX942, COPY_gfx942},
  };
  return targets;
}

std::optional<Target> lookupTarget(std::string_view name) {
  for (const Target &target : getTargets())
    if (target.name == name)
      return target;
  return std::nullopt;
}

std::string listTargetNames() {
  std::string names;
  Span<const Target> all = getTargets();
  for (size_t i = 0; i < all.size(); ++i) {
    names += i == 0 ? "" : i + 1 == all.size() ? " or " : ", ";
    names += all[i].name;
  }
  return names;
}

std::optional<Target> lookupTargetByMach(uint32_t mach) {
  for (const Target &target : getTargets())
    if (target.elfMach == mach)
      return target;
  return std::nullopt;
}

} // namespace hcq::amd
