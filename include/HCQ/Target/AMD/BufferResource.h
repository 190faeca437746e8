//===- BufferResource.h - The scratch buffer resource descriptor -*- C++ -*-===//
//
// The buffer resource descriptor (V#, SQ_BUF_RSRC_WORD0..3) the encoder puts
// in user SGPRs 0-3 of a kernel that asks for a private segment buffer
// (LLVM AMDGPUUsage, "Initial Kernel Execution State":
// enable_sgpr_private_segment_buffer). Words 1 and 3 differ between the
// gfx9 family (gfx942) and gfx11, so each field is written once per layout,
// a setter beside its reader, from:
//   [reg9]  Mesa src/amd/registers/gfx9.json and gfx940.json,
//           SQ_BUF_RSRC_WORD1/WORD3 (the register database Mesa's
//           S_008F04_* / S_008F0C_* macros are generated from)
//   [reg11] Mesa src/amd/registers/gfx11-rsrc.json, the same for gfx11
//   [rocr]  ROCr runtime/hsa-runtime/core/runtime/amd_aql_queue.cpp
//           AqlQueue::FillBufRsrcWord1/_Gfx11, FillBufRsrcWord3/_Gfx11: the
//           descriptor the HSA runtime gives every AQL dispatch on KFD,
//           which the CP copies into these SGPRs
//   [aco]   Mesa src/amd/compiler/aco_instruction_selection.cpp
//           get_scratch_resource; radv radv_emit_compute_scratch
// docs/amd-facts.md#scratch-buffer-descriptor gives the reasoning field by
// field.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_BUFFERRESOURCE_H
#define HCQ_TARGET_AMD_BUFFERRESOURCE_H

#include <cstdint>

namespace hcq::amd::rsrc {

//===----------------------------------------------------------------------===//
// SQ_BUF_RSRC_WORD1
//===----------------------------------------------------------------------===//

// BASE_ADDRESS_HI [15:0], STRIDE [29:16] on both layouts [reg9, reg11].
constexpr uint32_t baseAddressHi(uint32_t a) { return a & 0xFFFF; }
constexpr uint32_t stride(uint32_t s) { return (s & 0x3FFF) << 16; }
constexpr uint32_t strideOf(uint32_t w1) { return (w1 >> 16) & 0x3FFF; }
// gfx9: CACHE_SWIZZLE bit 30, SWIZZLE_ENABLE bit 31 [reg9].
constexpr uint32_t GFX9_SWIZZLE_ENABLE = 1u << 31;
constexpr uint32_t gfx9SwizzleEnableOf(uint32_t w1) { return w1 >> 31; }
// gfx11: SWIZZLE_ENABLE [31:30], two bits [reg11]: the swizzle element size,
// 1 for 4 bytes, as ROCr (FillBufRsrcWord1_Gfx11) and radv
// (radv_emit_compute_scratch, S_008F04_SWIZZLE_ENABLE_GFX11(1)) write it for
// scratch; radeonsi writes 3 for a 16-byte ring ("/* 16B */").
constexpr uint32_t gfx11SwizzleEnable(uint32_t v) { return (v & 0x3) << 30; }
constexpr uint32_t gfx11SwizzleEnableOf(uint32_t w1) { return w1 >> 30; }

//===----------------------------------------------------------------------===//
// SQ_BUF_RSRC_WORD3
//===----------------------------------------------------------------------===//

// DST_SEL_X/Y/Z/W [2:0] [5:3] [8:6] [11:9] on both layouts, SQ_SEL_XYZW01
// values [reg9, reg11].
constexpr uint32_t SQ_SEL_X = 4, SQ_SEL_Y = 5, SQ_SEL_Z = 6, SQ_SEL_W = 7;
constexpr uint32_t dstSel(uint32_t x, uint32_t y, uint32_t z, uint32_t w) {
  return (x & 7) | (y & 7) << 3 | (z & 7) << 6 | (w & 7) << 9;
}
constexpr uint32_t dstSelXOf(uint32_t w3) { return w3 & 7; }
constexpr uint32_t dstSelWOf(uint32_t w3) { return (w3 >> 9) & 7; }
// INDEX_STRIDE [22:21] (0..3: 8, 16, 32, 64 lanes), ADD_TID_ENABLE bit 23,
// TYPE [31:30] (0 SQ_RSRC_BUF) on both layouts [reg9, reg11].
constexpr uint32_t INDEX_STRIDE_32 = 2, INDEX_STRIDE_64 = 3;
constexpr uint32_t indexStride(uint32_t s) { return (s & 3) << 21; }
constexpr uint32_t indexStrideOf(uint32_t w3) { return (w3 >> 21) & 3; }
constexpr uint32_t ADD_TID_ENABLE = 1u << 23;
constexpr uint32_t typeOf(uint32_t w3) { return w3 >> 30; }

// gfx9 (and gfx940) only [reg9]: NUM_FORMAT [14:12], DATA_FORMAT [18:15],
// USER_VM_ENABLE bit 19, USER_VM_MODE bit 20 (ELEMENT_SIZE [20:19] before
// gfx9), NV bit 27.
constexpr uint32_t BUF_NUM_FORMAT_UINT = 4;
constexpr uint32_t gfx9NumFormat(uint32_t f) { return (f & 7) << 12; }
constexpr uint32_t gfx9NumFormatOf(uint32_t w3) { return (w3 >> 12) & 7; }
constexpr uint32_t gfx9DataFormatOf(uint32_t w3) { return (w3 >> 15) & 0xF; }
constexpr uint32_t gfx9UserVmOf(uint32_t w3) { return (w3 >> 19) & 3; }

// gfx11 only [reg11]: FORMAT [17:12] (GFX11_FORMAT), OOB_SELECT [29:28].
constexpr uint32_t GFX11_FORMAT_32_UINT = 20;
constexpr uint32_t gfx11Format(uint32_t f) { return (f & 0x3F) << 12; }
constexpr uint32_t gfx11FormatOf(uint32_t w3) { return (w3 >> 12) & 0x3F; }
constexpr uint32_t OOB_SELECT_DISABLED = 2; // "no bounds check in swizzle mode"
constexpr uint32_t gfx11OobSelect(uint32_t o) { return (o & 3) << 28; }
constexpr uint32_t gfx11OobSelectOf(uint32_t w3) { return (w3 >> 28) & 3; }

//===----------------------------------------------------------------------===//
// The scratch descriptor
//===----------------------------------------------------------------------===//

/// Word 1's bits above BASE_ADDRESS_HI: swizzled, stride 0 [rocr
/// FillBufRsrcWord1, FillBufRsrcWord1_Gfx11].
constexpr uint32_t scratchWord1Bits(bool gfx9) {
  return gfx9 ? GFX9_SWIZZLE_ENABLE : gfx11SwizzleEnable(1);
}

/// Word 2, NUM_RECORDS: all ones, so no access is out of range, as aco's
/// get_scratch_resource writes it (ROCr writes the scratch size per XCC).
constexpr uint32_t SCRATCH_WORD2 = 0xFFFFFFFF;

/// Word 3 for a kernel of `wave64` lanes per wave.
///
/// INDEX_STRIDE is the wave's lane count, so that with ADD_TID_ENABLE each
/// lane's dwords interleave within its wave's slice [aco get_scratch_resource:
/// `wave_size == 64 ? 3 : 2`]. ROCr writes 0 on gfx10+ ("filled in by CP")
/// because the AQL packet processor fills it in; a PM4 dispatch has nobody
/// to do that, so hcq writes it.
///
/// gfx9: DST_SEL XYZW and NUM_FORMAT UINT as ROCr; DATA_FORMAT 0, because
/// with ADD_TID_ENABLE it is STRIDE[17:14] on gfx8/gfx9 [aco: "dfmt modifies
/// stride on GFX8/GFX9 when ADD_TID_EN=1"; radv radv_fill_shader_rings:
/// "DATA_FORMAT is STRIDE[14:17] for MUBUF with ADD_TID_ENABLE=1"]; bits
/// 19-20 0, being USER_VM_ENABLE/MODE on gfx9 [reg9] (ROCr's ELEMENT_SIZE =
/// 1 is the gfx8 field there; aco: "element size removed in GFX9").
///
/// gfx11: DST_SEL XYZW, FORMAT 32_UINT, OOB_SELECT 2 (bounds checks off in
/// swizzle mode), TYPE 0, as ROCr FillBufRsrcWord3_Gfx11.
constexpr uint32_t scratchWord3(bool gfx9, bool wave64) {
  uint32_t w = dstSel(SQ_SEL_X, SQ_SEL_Y, SQ_SEL_Z, SQ_SEL_W) |
               indexStride(wave64 ? INDEX_STRIDE_64 : INDEX_STRIDE_32) |
               ADD_TID_ENABLE;
  if (gfx9)
    return w | gfx9NumFormat(BUF_NUM_FORMAT_UINT);
  return w | gfx11Format(GFX11_FORMAT_32_UINT) |
         gfx11OobSelect(OOB_SELECT_DISABLED);
}

} // namespace hcq::amd::rsrc

#endif // HCQ_TARGET_AMD_BUFFERRESOURCE_H
