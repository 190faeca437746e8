//===- PM4.h - PM4 type-3 packet facts --------------------------*- C++ -*-===//
//
// The PM4 packets the compute encoder emits, each field written once: a
// setter (`waitFunction(f)`) and its reader (`waitFunctionOf(dword)`) side
// by side, as Mesa's sid.h pairs S_ and G_ macros, and each packet's body
// layout (the namespaces of dword positions), used by the encoder, the
// disassembler and the emulated command processor alike; at the end one
// builder per packet (emit*, into a sink as PacketSink.h describes). Values
// are hardware facts; each cites its public source:
//   [nvd]  Linux drivers/gpu/drm/amd/amdgpu/nvd.h      (gfx10/11 PM4)
//   [s15]  Linux drivers/gpu/drm/amd/amdgpu/soc15d.h   (gfx9 PM4)
//   [sid]  Mesa src/amd/common/sid.h                    (register names)
//   [nbio] Linux nbio_v4_3 / nbio_7_9 offset headers    (HDP flush)
// docs/amd-facts.md gives each fact with the file and function checked.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_PM4_H
#define HCQ_TARGET_AMD_PM4_H

#include "HCQ/Target/AMD/PacketSink.h"

#include <algorithm>
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
/// A NOP whose COUNT is 0x3FFF is header-only: a one-dword filler [sid
/// PKT3_NOP_PAD, "header-only version of NOP"].
constexpr uint32_t NOP_PAD = packet3(NOP, 0x4000);
/// The most body dwords a (non-filler) NOP carries.
constexpr uint32_t NOP_MAX_BODY_DWORDS = 0x3FFF;
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
constexpr uint32_t waitFunctionOf(uint32_t d) { return d & 0x7; }
constexpr uint32_t waitMemSpaceOf(uint32_t d) { return (d >> 4) & 0x3; }
constexpr uint32_t waitOperationOf(uint32_t d) { return (d >> 6) & 0x3; }
constexpr uint32_t WAIT_FUNCTION_GEQ = 5; // '>=' [nvd comment on FUNCTION]
/// WAIT_REG_MEM's body: on memory an address, on registers the register
/// and its done register [nvd/s15 PACKET3_WAIT_REG_MEM].
namespace wait_reg_mem {
constexpr unsigned CONTROL = 0, ADDRESS_LO = 1, ADDRESS_HI = 2, REGISTER = 1,
                   REGISTER_DONE = 2, REFERENCE = 3, MASK = 4,
                   POLL_INTERVAL = 5, BODY_DWORDS = 6;
} // namespace wait_reg_mem
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
/// ACQUIRE_MEM's body: CP_COHER_CNTL on gfx9 (reserved on gfx10+), the
/// range, the poll interval, and on gfx10+ GCR_CNTL [s15, nvd
/// PACKET3_ACQUIRE_MEM].
namespace acquire_mem {
constexpr unsigned COHER_CNTL = 0, SIZE_LO = 1, SIZE_HI = 2, BASE_LO = 3,
                   BASE_HI = 4, POLL_INTERVAL = 5, GCR_CNTL = 6,
                   BODY_DWORDS_GFX9 = 6, BODY_DWORDS_GFX10 = 7;
} // namespace acquire_mem

// RELEASE_MEM body dword 0 [nvd PACKET3_RELEASE_MEM_EVENT_TYPE/INDEX, GCR_*;
// s15 EVENT_TYPE/EVENT_INDEX, EOP_TC_*].
constexpr uint32_t CACHE_FLUSH_AND_INV_TS_EVENT = 0x14;
constexpr uint32_t EVENT_INDEX_END_OF_PIPE = 5;
constexpr uint32_t releaseEvent(uint32_t type, uint32_t index) {
  return (type & 0x3F) | ((index & 0xF) << 8);
}
/// The event type and index of RELEASE_MEM's and EVENT_WRITE's dword 0,
/// and the rest of RELEASE_MEM's (its cache actions).
constexpr uint32_t eventTypeOf(uint32_t d) { return d & 0x3F; }
constexpr uint32_t eventIndexOf(uint32_t d) { return (d >> 8) & 0xF; }
constexpr uint32_t releaseCacheOf(uint32_t d) { return d & ~0xF3Fu; }
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
constexpr uint32_t releaseDataSelOf(uint32_t d) { return (d >> 29) & 0x7; }
constexpr uint32_t releaseIntSelOf(uint32_t d) { return (d >> 24) & 0x7; }
/// RELEASE_MEM's body, dword by dword [nvd/s15 PACKET3_RELEASE_MEM].
/// CONTEXT_ID travels with the interrupt (INT_SEL 2) as the IH entry's
/// context_id0, which KFD takes for the signal event's id on gfx9 and gfx11
/// alike; on gfx942 (GC 9.4.3) an end-of-pipe interrupt with context id 0
/// is dropped before the lookup [Linux amdkfd kfd_int_process_v9.c
/// event_interrupt_isr_v9, context_id_expected; event_interrupt_wq_v9 and
/// kfd_int_process_v11.c event_interrupt_wq_v11:
/// kfd_signal_event_interrupt(pasid, context_id0, 32);
/// docs/amd-facts.md#interrupt-context-id].
namespace release_mem {
constexpr unsigned EVENT = 0, SELECT = 1, ADDRESS_LO = 2, ADDRESS_HI = 3,
                   DATA_LO = 4, DATA_HI = 5, CONTEXT_ID = 6, BODY_DWORDS = 7;
} // namespace release_mem
constexpr uint32_t DATA_SEL_NONE = 0, DATA_SEL_LOW32 = 1, DATA_SEL_64 = 2,
                   DATA_SEL_GPU_CLOCK = 3;
constexpr uint32_t INT_SEL_NONE = 0, INT_SEL_AFTER_WRITE_CONFIRM = 2;

// EVENT_WRITE body dword 0: type [5:0], index [11:8] [nvd EVENT_TYPE/INDEX],
// as releaseEvent lays them out.
constexpr uint32_t CS_PARTIAL_FLUSH = 7;
constexpr uint32_t EVENT_INDEX_PARTIAL_FLUSH = 4; // [nvd comment]
constexpr uint32_t eventWrite(uint32_t type, uint32_t index) {
  return releaseEvent(type, index);
}

// INDIRECT_BUFFER body dword 1: IB_BASE_HI, 16 bits as the kernel's compute
// rings mask it [gfx_v9_0_ring_emit_ib_compute]; dword 2: IB_SIZE [19:0]
// dwords, VALID bit 23 [nvd].
constexpr uint32_t IB_BASE_HI_MASK = 0xFFFF;
constexpr uint32_t IB_VALID = 1u << 23;
constexpr uint32_t IB_MAX_DWORDS = (1u << 20) - 1;
/// The dwords of command buffer one INDIRECT_BUFFER takes by default when a
/// submit is split over several: IB_MAX_DWORDS rounded down to 8 bytes.
constexpr uint32_t IB_DEFAULT_DWORDS = IB_MAX_DWORDS & ~1u;
/// The fewest a target may ask for: more than the longest packet the encoder
/// emits (SET_SH_REG of all 16 user SGPRs is 18 dwords).
constexpr uint32_t IB_MIN_SPLIT_DWORDS = 64;
constexpr uint32_t ibSizeOf(uint32_t d) { return d & IB_MAX_DWORDS; }
namespace indirect_buffer {
constexpr unsigned BASE_LO = 0, BASE_HI = 1, CONTROL = 2, BODY_DWORDS = 3;
} // namespace indirect_buffer

/// DISPATCH_DIRECT's body: the grid in workgroups, then
/// COMPUTE_DISPATCH_INITIATOR [nvd/s15 PACKET3_DISPATCH_DIRECT].
namespace dispatch_direct {
constexpr unsigned X = 0, Y = 1, Z = 2, INITIATOR = 3, BODY_DWORDS = 4;
} // namespace dispatch_direct

// COMPUTE_TMPRING_SIZE: WAVES [11:0], WAVESIZE from bit 12, 13 bits on gfx9
// and 15 on gfx11 (Target::waveSizeFieldBits) [sid S_00B860_WAVES,
// S_00B860_WAVESIZE].
constexpr uint32_t tmpringSize(uint32_t waves, uint32_t waveSize) {
  return (waves & 0xFFF) | (waveSize << 12);
}
constexpr uint32_t tmpringWavesOf(uint32_t d) { return d & 0xFFF; }
constexpr uint32_t tmpringWaveSizeOf(uint32_t d) { return (d >> 12) & 0x7FFF; }

// COMPUTE_PGM_RSRC1 PRIV bit 20 (gfx10+), RSRC2 LDS_SIZE [23:15] in
// 512-byte granules on gfx11 [sid S_00B848_PRIV, S_00B84C_LDS_SIZE].
constexpr uint32_t RSRC1_PRIV = 1u << 20;
constexpr uint32_t rsrc2LdsSize(uint32_t granules) {
  return (granules & 0x1FF) << 15;
}

// COMPUTE_NUM_THREAD_X/Y/Z: NUM_THREAD_FULL [15:0] [sid S_00B81C_*].
constexpr uint32_t numThreadsOf(uint32_t d) { return d & 0xFFFF; }

// COMPUTE_DISPATCH_INITIATOR [sid S_00B800_*]: COMPUTE_SHADER_EN bit 0,
// FORCE_START_AT_000 bit 2, CS_W32_EN bit 15 (gfx10+ only).
constexpr uint32_t INITIATOR_COMPUTE_SHADER_EN = 1u << 0;
constexpr uint32_t INITIATOR_FORCE_START_AT_000 = 1u << 2;
constexpr uint32_t INITIATOR_CS_W32_EN = 1u << 15;

// Compute SH registers as dword offsets from SH_REG_START
// (ShRegisters.def, which cites each).
namespace reg {
#define HCQ_SH_REGISTER(NAME, OFFSET) constexpr uint32_t NAME = OFFSET;
#include "HCQ/Target/AMD/ShRegisters.def"
} // namespace reg

// HDP flush request/done registers polled by the memory barrier: NBIO
// BIF_BX_PF0_GPU_HDP_FLUSH_REQ/DONE, the same dword offsets on NBIO 4.3
// (gfx11) and 7.9 (gfx942) [nbio; docs/amd-facts.md#hdp-flush].
constexpr uint32_t HDP_FLUSH_REQ = 0xE26;
constexpr uint32_t HDP_FLUSH_DONE = 0xE27;

//===----------------------------------------------------------------------===//
// Packet builders: each writes one whole packet into a sink (PacketSink.h),
// its dwords in the order of the body layouts above. Fields the encoder may
// know only at link time (addresses, signal values, an event number) are
// quantities the sink splits with low()/high().
//===----------------------------------------------------------------------===//

/// `dwords` dwords of NOPs (>= 1 dword): NOP_PAD for one, else NOPs of at
/// most NOP_MAX_BODY_DWORDS zero body dwords each.
template <typename Sink> void emitNop(Sink &s, uint32_t dwords) {
  while (dwords) {
    uint32_t n = dwords == 1 ? 1 : std::min(dwords, NOP_MAX_BODY_DWORDS + 1);
    // Never leave a single dword after a full NOP: it would need NOP_PAD.
    if (dwords - n == 1)
      --n;
    s.packet(n);
    if (n == 1) {
      s.dword(NOP_PAD);
    } else {
      s.dword(packet3(NOP, n - 1));
      for (uint32_t i = 1; i < n; ++i)
        s.dword(0);
    }
    dwords -= n;
  }
}

/// SET_SH_REG's header and first register; the caller writes the `count`
/// register values that follow.
template <typename Sink>
void emitSetShReg(Sink &s, uint32_t reg, uint32_t count) {
  s.packet(2 + count);
  s.dword(packet3(SET_SH_REG, count + 1));
  s.dword(reg);
}

/// WAIT_REG_MEM on memory: waits until `*address & mask` compares true
/// with `reference` by `function`.
template <typename Sink, typename Address, typename Reference>
void emitWaitMemory(Sink &s, uint32_t function, const Address &address,
                    const Reference &reference, uint32_t mask) {
  s.packet(1 + wait_reg_mem::BODY_DWORDS);
  s.dword(packet3(WAIT_REG_MEM, wait_reg_mem::BODY_DWORDS));
  s.dword(waitFunction(function) | waitMemSpace(1)); // CONTROL
  lowHigh(s, address);                               // ADDRESS_LO, ADDRESS_HI
  s.low(reference);                                  // REFERENCE
  s.dword(mask);                                     // MASK
  s.dword(WAIT_POLL_INTERVAL);                       // POLL_INTERVAL
}

/// WAIT_REG_MEM on registers: with operation 1, writes `reg` and then
/// polls `regDone` (the HDP flush's request/done pair).
template <typename Sink>
void emitWaitRegisters(Sink &s, uint32_t function, uint32_t operation,
                       uint32_t reg, uint32_t regDone, uint32_t reference,
                       uint32_t mask) {
  s.packet(1 + wait_reg_mem::BODY_DWORDS);
  s.dword(packet3(WAIT_REG_MEM, wait_reg_mem::BODY_DWORDS));
  s.dword(waitFunction(function) | waitMemSpace(0) | waitOperation(operation));
  s.dword(reg);
  s.dword(regDone);
  s.dword(reference);
  s.dword(mask);
  s.dword(WAIT_POLL_INTERVAL);
}

/// ACQUIRE_MEM over all of memory on gfx9: the caches in CP_COHER_CNTL.
template <typename Sink> void emitAcquireMemGfx9(Sink &s, uint32_t coherCntl) {
  s.packet(1 + acquire_mem::BODY_DWORDS_GFX9);
  s.dword(packet3(ACQUIRE_MEM, acquire_mem::BODY_DWORDS_GFX9));
  s.dword(coherCntl);  // COHER_CNTL
  s.dword(0xFFFFFFFF); // SIZE_LO
  s.dword(0xFFFFFFFF); // SIZE_HI
  s.dword(0);          // BASE_LO
  s.dword(0);          // BASE_HI
  s.dword(GFX9_ACQUIRE_POLL);
}

/// ACQUIRE_MEM over all of memory on gfx10+: the caches in GCR_CNTL.
template <typename Sink> void emitAcquireMemGfx10(Sink &s, uint32_t gcrCntl) {
  s.packet(1 + acquire_mem::BODY_DWORDS_GFX10);
  s.dword(packet3(ACQUIRE_MEM, acquire_mem::BODY_DWORDS_GFX10));
  s.dword(0);          // COHER_CNTL, reserved
  s.dword(0xFFFFFFFF); // SIZE_LO
  s.dword(0xFFFFFFFF); // SIZE_HI
  s.dword(0);          // BASE_LO
  s.dword(0);          // BASE_HI
  s.dword(0);          // POLL_INTERVAL
  s.dword(gcrCntl);    // GCR_CNTL
}

/// RELEASE_MEM: at `event` (releaseEvent plus cache actions), writes `data`
/// as `select` (releaseSelect) says to `address`; `contextId` goes with
/// the interrupt, if any.
template <typename Sink, typename Address, typename Data, typename Context>
void emitReleaseMem(Sink &s, uint32_t event, uint32_t select,
                    const Address &address, const Data &data,
                    const Context &contextId) {
  s.packet(1 + release_mem::BODY_DWORDS);
  s.dword(packet3(RELEASE_MEM, release_mem::BODY_DWORDS));
  s.dword(event);   // EVENT
  s.dword(select);  // SELECT
  lowHigh(s, address); // ADDRESS_LO, ADDRESS_HI
  lowHigh(s, data);    // DATA_LO, DATA_HI
  s.low(contextId);   // CONTEXT_ID
}

/// DISPATCH_DIRECT of a grid of x*y*z workgroups.
template <typename Sink>
void emitDispatchDirect(Sink &s, uint32_t x, uint32_t y, uint32_t z,
                        uint32_t initiator) {
  s.packet(1 + dispatch_direct::BODY_DWORDS);
  s.dword(packet3(DISPATCH_DIRECT, dispatch_direct::BODY_DWORDS));
  s.dword(x);
  s.dword(y);
  s.dword(z);
  s.dword(initiator);
}

/// EVENT_WRITE of an event without data.
template <typename Sink>
void emitEventWrite(Sink &s, uint32_t type, uint32_t index) {
  s.packet(2);
  s.dword(packet3(EVENT_WRITE, 1));
  s.dword(eventWrite(type, index));
}

/// INDIRECT_BUFFER running `dwords` dwords at `base` (4-byte aligned, below
/// 2^48: BASE_HI has 16 bits).
template <typename Sink, typename Address>
void emitIndirectBuffer(Sink &s, const Address &base, uint32_t dwords) {
  s.packet(1 + indirect_buffer::BODY_DWORDS);
  s.dword(packet3(INDIRECT_BUFFER, indirect_buffer::BODY_DWORDS));
  lowHigh(s, base);                              // BASE_LO, BASE_HI
  s.dword((dwords & IB_MAX_DWORDS) | IB_VALID); // CONTROL
}

} // namespace hcq::amd::pm4

#endif // HCQ_TARGET_AMD_PM4_H
