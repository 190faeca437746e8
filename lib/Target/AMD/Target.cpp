//===- Target.cpp - AMD GPU targets the encoder knows ---------------------===//

#include "HCQ/Target/AMD/Target.h"
#include "HCQ/Base/Strings.h"
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

std::string describeMach(uint32_t mach) {
  // Every AMDGCN processor's EF_AMDGPU_MACH, from LLVM 22's
  // llvm/BinaryFormat/ELF.h (EF_AMDGPU_MACH_AMDGCN_*, named as LLVM names
  // the processors); the runtime links no LLVM, so the names are here.
  static const struct {
    uint32_t mach;
    const char *name;
  } processors[] = {
      {0x020, "gfx600"},          {0x021, "gfx601"},
      {0x022, "gfx700"},          {0x023, "gfx701"},
      {0x024, "gfx702"},          {0x025, "gfx703"},
      {0x026, "gfx704"},          {0x028, "gfx801"},
      {0x029, "gfx802"},          {0x02a, "gfx803"},
      {0x02b, "gfx810"},          {0x02c, "gfx900"},
      {0x02d, "gfx902"},          {0x02e, "gfx904"},
      {0x02f, "gfx906"},          {0x030, "gfx908"},
      {0x031, "gfx909"},          {0x032, "gfx90c"},
      {0x033, "gfx1010"},         {0x034, "gfx1011"},
      {0x035, "gfx1012"},         {0x036, "gfx1030"},
      {0x037, "gfx1031"},         {0x038, "gfx1032"},
      {0x039, "gfx1033"},         {0x03a, "gfx602"},
      {0x03b, "gfx705"},          {0x03c, "gfx805"},
      {0x03d, "gfx1035"},         {0x03e, "gfx1034"},
      {0x03f, "gfx90a"},          {0x041, "gfx1100"},
      {0x042, "gfx1013"},         {0x043, "gfx1150"},
      {0x044, "gfx1103"},         {0x045, "gfx1036"},
      {0x046, "gfx1101"},         {0x047, "gfx1102"},
      {0x048, "gfx1200"},         {0x049, "gfx1250"},
      {0x04a, "gfx1151"},         {0x04c, "gfx942"},
      {0x04e, "gfx1201"},         {0x04f, "gfx950"},
      {0x051, "gfx9-generic"},    {0x052, "gfx10-1-generic"},
      {0x053, "gfx10-3-generic"}, {0x054, "gfx11-generic"},
      {0x055, "gfx1152"},         {0x058, "gfx1153"},
      {0x059, "gfx12-generic"},   {0x05a, "gfx1251"},
      {0x05f, "gfx9-4-generic"},
  };
  for (const auto &p : processors)
    if (p.mach == mach)
      return p.name;
  return "an unknown processor (EF_AMDGPU_MACH 0x" + toHex(mach) + ")";
}

std::optional<Target> lookupTargetByMach(uint32_t mach) {
  for (const Target &target : getTargets())
    if (target.elfMach == mach)
      return target;
  return std::nullopt;
}

} // namespace hcq::amd
