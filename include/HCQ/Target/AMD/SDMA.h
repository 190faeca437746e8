//===- SDMA.h - SDMA packet facts -------------------------------*- C++ -*-===//
//
// The SDMA packets the copy encoder emits: header fields, each packet's
// dword positions, and one builder per packet (emit*, into a sink as
// PacketSink.h describes). Sources:
//   [sd6] Linux amdgpu sdma_v6_0_0_pkt_open.h   (SDMA 6, gfx11)
//   [sd4] Linux amdgpu vega10_sdma_pkt_open.h   (SDMA 4, gfx9)
//   [sid] Mesa src/amd/common/sid.h             (SDMA opcodes, copy limits)
// each checked as docs/amd-facts.md#sdma-packets records.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_SDMA_H
#define HCQ_TARGET_AMD_SDMA_H

#include "HCQ/Target/AMD/PacketSink.h"

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
/// On registers (MEM_POLL 0) dwords 1 and 2 are byte addresses of the
/// register polled and of the one written first (with HDP_FLUSH, the HDP
/// flush's done and request registers) [Linux sdma_v4_0_wait_reg_mem,
/// sdma_v6_0_ring_emit_hdp_flush: `offset << 2`].
constexpr unsigned REGISTER_DONE = 1, REGISTER_REQUEST = 2;
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
/// FUNC 3: equal [Linux sdma_v6_0_ring_emit_hdp_flush: `FUNC(3) /* == */`].
constexpr uint32_t POLL_FUNCTION_EQ = 3;
/// The poll interval the kernel's SDMA HDP flush asks [Linux
/// sdma_v4_0_ring_emit_hdp_flush, sdma_v6_0_ring_emit_hdp_flush: 10].
constexpr uint32_t HDP_FLUSH_POLL_INTERVAL = 10;
constexpr uint32_t pollIntervalRetry(uint32_t interval, uint32_t retry) {
  return (interval & 0xFFFF) | ((retry & 0xFFF) << 16);
}
constexpr uint32_t pollIntervalOf(uint32_t d) { return d & 0xFFFF; }
constexpr uint32_t pollRetryOf(uint32_t d) { return (d >> 16) & 0xFFF; }

/// FENCE header MTYPE [18:16] on SDMA 5/6 (3: uncached); SDMA 4 has no
/// such field [sd6 SDMA_PKT_FENCE_HEADER_MTYPE].
constexpr uint32_t fenceMType(uint32_t m) { return (m & 0x7) << 16; }
constexpr uint32_t FENCE_MTYPE_UC = 3;
constexpr uint32_t fenceMTypeOf(uint32_t h) { return (h >> 16) & 0x7; }

/// Bytes per COPY_LINEAR: COUNT is bytes - 1 in 22 bits on SDMA 4 and 30 on
/// SDMA 6, and Mesa keeps 255 bytes below each limit for an undocumented
/// hardware limitation [sid SDMA_V2_0_COPY_MAX_BYTES,
/// SDMA_V5_2_COPY_MAX_BYTES].
constexpr uint64_t COPY_MAX_BYTES_SDMA4 = 0x3FFF00;
constexpr uint64_t COPY_MAX_BYTES_SDMA6 = 0x3FFFFF00;

//===----------------------------------------------------------------------===//
// Packet builders: each writes one whole packet into a sink (PacketSink.h),
// its dwords in the order of the layouts above.
//===----------------------------------------------------------------------===//

/// COPY_LINEAR of `bytes` (1 to the target's COPY_MAX_BYTES) from `src` to
/// `dst`.
template <typename Sink, typename Source, typename Destination>
void emitCopyLinear(Sink &s, uint32_t bytes, const Source &src,
                    const Destination &dst) {
  s.packet(COPY_LINEAR_DWORDS);
  s.dword(header(OP_COPY, SUBOP_COPY_LINEAR));
  s.dword((bytes - 1) & COPY_COUNT_MASK); // COUNT
  s.dword(0);                             // PARAMETER
  lowHigh(s, src);                         // SRC_LO, SRC_HI
  lowHigh(s, dst);                         // DST_LO, DST_HI
}

/// FENCE: writes the low 32 bits of `data` to `address`; `mtype` is the
/// header's MTYPE (0 on SDMA 4, which has no such field).
template <typename Sink, typename Address, typename Data>
void emitFence(Sink &s, const Address &address, const Data &data,
               uint32_t mtype) {
  s.packet(FENCE_DWORDS);
  s.dword(header(OP_FENCE, 0) | fenceMType(mtype));
  lowHigh(s, address); // ADDRESS_LO, ADDRESS_HI
  s.low(data);        // DATA
}

/// TRAP: raises an interrupt carrying the low 28 bits of `context`.
template <typename Sink, typename Context>
void emitTrap(Sink &s, const Context &context) {
  s.packet(TRAP_DWORDS);
  s.dword(header(OP_TRAP, 0));
  s.low(context); // INT_CONTEXT
}

/// POLL_REGMEM on memory: waits until `*address & mask` compares true with
/// `reference` by `function`, polling every `interval` for `retry` tries
/// (Linux sdma_v6_0_ring_emit_reg_wait asks 0xFFF, the field's most).
template <typename Sink, typename Address, typename Reference>
void emitPollMemory(Sink &s, uint32_t function, const Address &address,
                    const Reference &reference, uint32_t mask,
                    uint32_t interval, uint32_t retry) {
  s.packet(POLL_REGMEM_DWORDS);
  s.dword(header(OP_POLL_REGMEM, 0) | pollFunction(function) | POLL_MEM);
  lowHigh(s, address);                          // ADDRESS_LO, ADDRESS_HI
  s.low(reference);                            // VALUE
  s.dword(mask);                               // MASK
  s.dword(pollIntervalRetry(interval, retry)); // INTERVAL_RETRY
}

/// POLL_REGMEM with HDP_FLUSH: the engine writes the HDP flush request
/// register (dword offset `requestReg`) and polls the done register
/// (`doneReg`) until `(done & refMask) == refMask`, as the kernel's own SDMA
/// rings flush the HDP before each job [Linux sdma_v4_0_ring_emit_hdp_flush,
/// sdma_v6_0_ring_emit_hdp_flush; docs/amd-facts.md#hdp-flush-on-copy-queues].
template <typename Sink>
void emitHdpFlush(Sink &s, uint32_t requestReg, uint32_t doneReg,
                  uint32_t refMask) {
  s.packet(POLL_REGMEM_DWORDS);
  s.dword(header(OP_POLL_REGMEM, 0) | POLL_HDP_FLUSH |
          pollFunction(POLL_FUNCTION_EQ));
  s.dword(doneReg << 2);    // REGISTER_DONE
  s.dword(requestReg << 2); // REGISTER_REQUEST
  s.dword(refMask);         // VALUE
  s.dword(refMask);         // MASK
  s.dword(pollIntervalRetry(HDP_FLUSH_POLL_INTERVAL, 0xFFF));
}

/// TIMESTAMP: writes the global GPU clock to `address`.
template <typename Sink, typename Address>
void emitTimestamp(Sink &s, const Address &address) {
  s.packet(TIMESTAMP_DWORDS);
  s.dword(header(OP_TIMESTAMP, SUBOP_TIMESTAMP_GET_GLOBAL));
  lowHigh(s, address); // ADDRESS_LO, ADDRESS_HI
}

} // namespace hcq::amd::sdma

#endif // HCQ_TARGET_AMD_SDMA_H
