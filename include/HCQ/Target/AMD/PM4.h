//===- PM4.h - PM4 type-3 packet facts --------------------------*- C++ -*-===//
//
// The PM4 packets the compute encoder emits. Values are hardware facts; each
// cites its public source:
//   [nvd]  Linux drivers/gpu/drm/amd/amdgpu/nvd.h      (gfx10/11 PM4)
//   [s15]  Linux drivers/gpu/drm/amd/amdgpu/soc15d.h   (gfx9 PM4)
//   [sid]  Mesa src/amd/common/sid.h                    (register names)
//   [nbio] Linux nbio_v4_3 / nbio_7_9 offset headers    (HDP flush)
// cross-checked against shared/AMD-FACTS.md, which records the lines.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_PM4_H
#define HCQ_TARGET_AMD_PM4_H

#include <cstdint>

namespace hcq::amd::pm4 {

/// Type-3 header: [31:30]=3, [29:16]=COUNT (body dwords - 1), [15:8]=opcode
/// [nvd PACKET3, s15 PACKET3, sid PKT_TYPE_S/PKT_COUNT_S/PKT3_IT_OPCODE_S].
constexpr uint32_t packet3(uint32_t opcode, uint32_t bodyDwords) {
  return (3u << 30) | (((bodyDwords - 1) & 0x3FFF) << 16) |
         ((opcode & 0xFF) << 8);
}
constexpr uint32_t packetType(uint32_t header) { return header >> 30; }
constexpr uint32_t packetCount(uint32_t header) {
  return (header >> 16) & 0x3FFF;
}
constexpr uint32_t packetOpcode(uint32_t header) {
  return (header >> 8) & 0xFF;
}

// Opcodes, the same on gfx9 and gfx11 [nvd, s15, sid PKT3_*].
constexpr uint32_t NOP = 0x10;
constexpr uint32_t DISPATCH_DIRECT = 0x15;
constexpr uint32_t WAIT_REG_MEM = 0x3C;
constexpr uint32_t INDIRECT_BUFFER = 0x3F;
constexpr uint32_t EVENT_WRITE = 0x46;
constexpr uint32_t RELEASE_MEM = 0x49;
constexpr uint32_t ACQUIRE_MEM = 0x58;
constexpr uint32_t SET_SH_REG = 0x76;

/// SET_SH_REG body dword 0 is the register's dword address minus this
/// [nvd/s15 PACKET3_SET_SH_REG_START].
constexpr uint32_t SH_REG_START = 0x2C00;
constexpr uint32_t SH_REG_END = 0x3000;

// WAIT_REG_MEM body dword 0 [nvd/s15 WAIT_REG_MEM_*].
constexpr uint32_t waitFunction(uint32_t f) { return f & 0x7; }        // [2:0]
constexpr uint32_t waitMemSpace(uint32_t m) { return (m & 0x3) << 4; } // [5:4]
constexpr uint32_t waitOperation(uint32_t o) { return (o & 0x3) << 6; }
constexpr uint32_t WAIT_FUNCTION_GEQ = 5; // '>=' [nvd comment on FUNCTION]
constexpr uint32_t WAIT_POLL_INTERVAL = 4;

// ACQUIRE_MEM on gfx10+: GCR_CNTL in body dword 6 [nvd
// PACKET3_ACQUIRE_MEM_GCR_CNTL_*]; gfx9: CP_COHER_CNTL in body dword 0
// [s15 PACKET3_ACQUIRE_MEM_CP_COHER_CNTL_*].
constexpr uint32_t GCR_GLI_INV = 1u << 0, GCR_GLM_WB = 1u << 4,
                   GCR_GLM_INV = 1u << 5, GCR_GLK_WB = 1u << 6,
                   GCR_GLK_INV = 1u << 7, GCR_GLV_INV = 1u << 8,
                   GCR_GL1_INV = 1u << 9, GCR_GL2_INV = 1u << 14,
                   GCR_GL2_WB = 1u << 15;
constexpr uint32_t COHER_TC_WB = 1u << 18, COHER_TCL1 = 1u << 22,
                   COHER_TC = 1u << 23, COHER_SH_KCACHE = 1u << 27,
                   COHER_SH_ICACHE = 1u << 29;
/// gfx9 ACQUIRE_MEM body dword 5, the poll interval tinygrad uses.
constexpr uint32_t GFX9_ACQUIRE_POLL = 0xA;

// RELEASE_MEM body dword 0 [nvd PACKET3_RELEASE_MEM_EVENT_TYPE/INDEX, GCR_*;
// s15 EVENT_TYPE/EVENT_INDEX, EOP_TC_*].
constexpr uint32_t CACHE_FLUSH_AND_INV_TS_EVENT = 0x14;
constexpr uint32_t EVENT_INDEX_END_OF_PIPE = 5;
constexpr uint32_t releaseEvent(uint32_t type, uint32_t index) {
  return (type & 0x3F) | ((index & 0xF) << 8);
}
constexpr uint32_t RELEASE_GCR_GLM_WB = 1u << 12,
                   RELEASE_GCR_GLM_INV = 1u << 13,
                   RELEASE_GCR_GLV_INV = 1u << 14,
                   RELEASE_GCR_GL1_INV = 1u << 15,
                   RELEASE_GCR_GL2_INV = 1u << 20,
                   RELEASE_GCR_GL2_WB = 1u << 21, RELEASE_GCR_SEQ = 1u << 22;
constexpr uint32_t EOP_TC_WB_ACTION_EN = 1u << 15,
                   EOP_TC_NC_ACTION_EN = 1u << 19;
// RELEASE_MEM body dword 1: DATA_SEL [31:29], INT_SEL [26:24], DST_SEL
// [17:16] [nvd/s15 PACKET3_RELEASE_MEM_DATA_SEL/INT_SEL/DST_SEL].
constexpr uint32_t releaseSelect(uint32_t data, uint32_t interrupt) {
  return ((data & 0x7) << 29) | ((interrupt & 0x7) << 24);
}
constexpr uint32_t DATA_SEL_NONE = 0, DATA_SEL_LOW32 = 1, DATA_SEL_64 = 2,
                   DATA_SEL_GPU_CLOCK = 3;
constexpr uint32_t INT_SEL_NONE = 0, INT_SEL_AFTER_WRITE_CONFIRM = 2;

// EVENT_WRITE body dword 0: type [5:0], index [11:8] [nvd EVENT_TYPE/INDEX].
constexpr uint32_t CS_PARTIAL_FLUSH = 7;
constexpr uint32_t EVENT_INDEX_PARTIAL_FLUSH = 4; // [nvd comment]

// INDIRECT_BUFFER body dword 2: IB_SIZE [19:0] dwords, VALID bit 23 [nvd].
constexpr uint32_t IB_VALID = 1u << 23;
constexpr uint32_t IB_MAX_DWORDS = (1u << 20) - 1;

// COMPUTE_DISPATCH_INITIATOR [sid S_00B800_*]: COMPUTE_SHADER_EN bit 0,
// FORCE_START_AT_000 bit 2, CS_W32_EN bit 15 (gfx10+ only).
constexpr uint32_t INITIATOR_COMPUTE_SHADER_EN = 1u << 0;
constexpr uint32_t INITIATOR_FORCE_START_AT_000 = 1u << 2;
constexpr uint32_t INITIATOR_CS_W32_EN = 1u << 15;

// Compute SH registers as dword offsets from SH_REG_START. Mesa's byte
// addresses divided by 4, minus 0x2C00 [sid R_00B8xx].
namespace reg {
constexpr uint32_t COMPUTE_START_X = 0x204;                  // R_00B810
constexpr uint32_t COMPUTE_NUM_THREAD_X = 0x207;             // R_00B81C
constexpr uint32_t COMPUTE_PGM_LO = 0x20C;                   // R_00B830
constexpr uint32_t COMPUTE_DISPATCH_SCRATCH_BASE_LO = 0x210; // R_00B840
constexpr uint32_t COMPUTE_PGM_RSRC1 = 0x212;                // R_00B848
constexpr uint32_t COMPUTE_PGM_RSRC2 = 0x213;                // R_00B84C
constexpr uint32_t COMPUTE_RESOURCE_LIMITS = 0x215;          // R_00B854
constexpr uint32_t COMPUTE_TMPRING_SIZE = 0x218;             // R_00B860
constexpr uint32_t COMPUTE_RESTART_X = 0x21B;                // R_00B86C
constexpr uint32_t COMPUTE_PGM_RSRC3_GFX11 = 0x228;          // R_00B8A0
constexpr uint32_t COMPUTE_PGM_RSRC3_GFX940 = 0x22D;         // R_00B8B4
constexpr uint32_t COMPUTE_USER_DATA_0 = 0x240;              // R_00B900
} // namespace reg

// HDP flush request/done registers polled by the memory barrier: NBIO
// BIF_BX_PF0_GPU_HDP_FLUSH_REQ/DONE, the same dword offsets on NBIO 4.3
// (gfx11) and 7.9 (gfx942) [nbio; AMD-FACTS.md §1].
constexpr uint32_t HDP_FLUSH_REQ = 0xE26;
constexpr uint32_t HDP_FLUSH_DONE = 0xE27;

} // namespace hcq::amd::pm4

#endif // HCQ_TARGET_AMD_PM4_H
