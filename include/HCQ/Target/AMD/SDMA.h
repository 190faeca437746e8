//===- SDMA.h - SDMA packet facts -------------------------------*- C++ -*-===//
//
// The SDMA packets the copy encoder emits. Sources:
//   [sd6] Linux amdgpu sdma_v6_0_0_pkt_open.h   (SDMA 6, gfx11)
//   [sd4] Linux amdgpu vega10_sdma_pkt_open.h   (SDMA 4, gfx9)
//   [sid] Mesa src/amd/common/sid.h             (SDMA opcodes, copy limits)
// cross-checked against shared/AMD-FACTS.md §2.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_SDMA_H
#define HCQ_TARGET_AMD_SDMA_H

#include <cstdint>

namespace hcq::amd::sdma {

// Header: OP [7:0], SUB_OP [15:8]; opcodes equal on SDMA 4 and 6 [sd4, sd6,
// sid SDMA_OPCODE_*].
constexpr uint32_t OP_NOP = 0;
constexpr uint32_t OP_COPY = 1;
constexpr uint32_t OP_FENCE = 5;
constexpr uint32_t OP_TRAP = 6;
constexpr uint32_t OP_POLL_REGMEM = 8;
constexpr uint32_t OP_TIMESTAMP = 13;
constexpr uint32_t SUBOP_COPY_LINEAR = 0;
constexpr uint32_t SUBOP_TIMESTAMP_GET_GLOBAL = 2;
constexpr uint32_t header(uint32_t op, uint32_t subop) {
  return (op & 0xFF) | ((subop & 0xFF) << 8);
}
constexpr uint32_t headerOp(uint32_t h) { return h & 0xFF; }
constexpr uint32_t headerSubOp(uint32_t h) { return (h >> 8) & 0xFF; }

/// NOP header COUNT [29:16]: the dwords after the header [sd6
/// SDMA_PKT_NOP_HEADER_COUNT].
constexpr uint32_t nopCountOf(uint32_t h) { return (h >> 16) & 0x3FFF; }

/// COPY_LINEAR dword 1, COUNT (bytes - 1): 30 bits on SDMA 6, 22 on SDMA 4
/// (whose upper bits are reserved zero) [sd6, sd4
/// SDMA_PKT_COPY_LINEAR_COUNT].
constexpr uint32_t COPY_COUNT_MASK = 0x3FFFFFFF;

/// Each packet's dwords, the header being dword 0 [sd4, sd6
/// SDMA_PKT_*_*_offset].
namespace copy_linear {
constexpr unsigned COUNT = 1, PARAMETER = 2, SRC_LO = 3, SRC_HI = 4, DST_LO = 5,
                   DST_HI = 6;
} // namespace copy_linear
namespace fence {
constexpr unsigned ADDRESS_LO = 1, ADDRESS_HI = 2, DATA = 3;
} // namespace fence
namespace trap {
constexpr unsigned INT_CONTEXT = 1;
} // namespace trap
namespace poll_regmem {
constexpr unsigned ADDRESS_LO = 1, ADDRESS_HI = 2, VALUE = 3, MASK = 4,
                   INTERVAL_RETRY = 5;
} // namespace poll_regmem
namespace timestamp {
constexpr unsigned ADDRESS_LO = 1, ADDRESS_HI = 2;
} // namespace timestamp

/// Dwords per packet: the length is implied by the opcode [sd4, sd6].
constexpr uint32_t COPY_LINEAR_DWORDS = 7, FENCE_DWORDS = 4, TRAP_DWORDS = 2,
                   POLL_REGMEM_DWORDS = 6, TIMESTAMP_DWORDS = 3;

// TRAP dword 1: INT_CONTEXT [27:0], what the interrupt carries [sd6
// SDMA_PKT_TRAP_INT_CONTEXT_INT_CONTEXT_mask].
constexpr uint32_t TRAP_INT_CONTEXT_MASK = 0x0FFFFFFF;

// POLL_REGMEM header: HDP_FLUSH bit 26, FUNC [30:28], MEM_POLL bit 31; dword
// 5: INTERVAL [15:0], RETRY_COUNT [27:16] [sd6 SDMA_PKT_POLL_REGMEM_*].
constexpr uint32_t pollFunction(uint32_t f) { return (f & 0x7) << 28; }
constexpr uint32_t pollFunctionOf(uint32_t h) { return (h >> 28) & 0x7; }
constexpr uint32_t POLL_HDP_FLUSH = 1u << 26;
constexpr uint32_t POLL_MEM = 1u << 31;
constexpr uint32_t pollIntervalRetry(uint32_t interval, uint32_t retry) {
  return (interval & 0xFFFF) | ((retry & 0xFFF) << 16);
}
constexpr uint32_t pollIntervalOf(uint32_t d) { return d & 0xFFFF; }
constexpr uint32_t pollRetryOf(uint32_t d) { return (d >> 16) & 0xFFF; }

/// FENCE header MTYPE [18:16] on SDMA 5/6 (3: uncached); SDMA 4 has no
/// such field [sd6 SDMA_PKT_FENCE_HEADER_MTYPE].
constexpr uint32_t fenceMType(uint32_t m) { return (m & 0x7) << 16; }
constexpr uint32_t fenceMTypeOf(uint32_t h) { return (h >> 16) & 0x7; }

/// Bytes per COPY_LINEAR: COUNT is bytes - 1 in 22 bits on SDMA 4 and 30 on
/// SDMA 6, and Mesa keeps 255 bytes below each limit for an undocumented
/// hardware limitation [sid SDMA_V2_0_COPY_MAX_BYTES,
/// SDMA_V5_2_COPY_MAX_BYTES].
constexpr uint64_t COPY_MAX_BYTES_SDMA4 = 0x3FFF00;
constexpr uint64_t COPY_MAX_BYTES_SDMA6 = 0x3FFFFF00;

} // namespace hcq::amd::sdma

#endif // HCQ_TARGET_AMD_SDMA_H
