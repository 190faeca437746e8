//===- Target.h - AMD GPU targets the encoder knows -------------*- C++ -*-===//

#ifndef HCQ_TARGET_AMD_TARGET_H
#define HCQ_TARGET_AMD_TARGET_H

#include "HCQ/Base/Span.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace hcq::amd {

/// What the encoder needs to know about one GPU generation.
struct Target {
  std::string_view name; // "gfx1100"
  /// 9 or 11: picks the packet variants (ACQUIRE_MEM, RELEASE_MEM cache bits,
  /// DISPATCH_INITIATOR, FENCE MTYPE) and register offsets.
  unsigned major;
  /// LDS a workgroup may use, in bytes (64 KiB on both families: Mesa
  /// ac_gpu_info lds_size_per_workgroup; the AMDGPU backend's limit).
  uint32_t ldsBytes;
  /// Bytes one SDMA COPY_LINEAR may move (see SDMA.h).
  uint64_t copyMaxBytes;
  /// COMPUTE_TMPRING_SIZE: WAVESIZE unit in bytes (1024 on gfx9, 256 on
  /// gfx11) and the field's top bit (24 on gfx9, 26 on gfx11)
  /// [docs/amd-facts.md#scratch; gc_9_4_3/gc_11_0_0 sh_mask].
  uint32_t waveSizeUnitBytes;
  unsigned waveSizeFieldBits;
  /// Waves given scratch at once on the whole device; the scratch
  /// placeholder is sized to match.
  uint32_t scratchWaves;
  /// Shader engines the scratch waves are spread over: on gfx11 the WAVES
  /// field of TMPRING_SIZE counts per shader engine and each engine's waves
  /// start WAVES * WAVESIZE further on (Mesa radv_emit_compute_scratch
  /// divides by the SE count; ac_shader_util.c: "WAVES is per SE"); on gfx9
  /// it counts the device, written as 1. The most the target's GPUs have:
  /// the runtime refuses a GPU with more.
  unsigned scratchShaderEngines;
  /// The TMPRING_SIZE WAVES field for scratchWaves.
  uint32_t tmpringWaves() const { return scratchWaves / scratchShaderEngines; }
  /// The ELF header's EF_AMDGPU_MACH for this processor: a code object
  /// built for another one is refused (the values: ELF_MACH_* below).
  uint32_t elfMach;
  /// The builtin copy kernel built for this target: a code object from
  /// lib/Target/AMD/Builtins/copy.cl, whose kernel `BUILTIN_COPY_SYMBOL`
  /// takes (dst, src, element bytes) and copies element x in workgroup x.
  Span<const uint8_t> builtinCopyCodeObject;

  bool isGfx9() const { return major == 9; }
  uint32_t rsrc3Register() const;
};

/// The targets the encoder supports: gfx1100, gfx1101, gfx1102 (gfx11) and
/// gfx942 (gfx9, as tinygrad supports it).
Span<const Target> getTargets();
std::optional<Target> lookupTarget(std::string_view name);
/// The targets' names as a message lists them: "gfx1100, gfx1101, gfx1102
/// or gfx942".
std::string listTargetNames();
/// The processor a code object's EF_AMDGPU_MACH `mach` names, as LLVM names
/// it ("gfx1030"), whether hcq supports it or not; an unknown value is
/// described with its number.
std::string describeMach(uint32_t mach);
/// The target whose code objects carry EF_AMDGPU_MACH `mach`, if known.
std::optional<Target> lookupTargetByMach(uint32_t mach);

/// EF_AMDGPU_MACH values of the supported processors (LLVM AMDGPUUsage,
/// "AMDGPU ELF Header"; llvm/BinaryFormat/ELF.h). Stated here so the runtime
/// needs no LLVM; CodeObject.cpp checks them against LLVM's.
constexpr uint32_t ELF_MACH_MASK = 0x0ff;
constexpr uint32_t ELF_MACH_GFX1100 = 0x041;
constexpr uint32_t ELF_MACH_GFX1101 = 0x046;
constexpr uint32_t ELF_MACH_GFX1102 = 0x047;
constexpr uint32_t ELF_MACH_GFX942 = 0x04c;

/// The kernel symbol of every target's builtin copy code object.
constexpr const char *BUILTIN_COPY_SYMBOL = "hcq_copy";

} // namespace hcq::amd

#endif // HCQ_TARGET_AMD_TARGET_H
