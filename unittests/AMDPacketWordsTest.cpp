//===- AMDPacketWordsTest.cpp - AMD words against hand-built ones ---------===//
//
// hcq's AMD encoding, word by word, against words built here by hand from
// the register documentation: every field is a shift and a mask written out
// below with its source beside it, and no expected value is taken from
// PM4.h, SDMA.h or BufferResource.h (the headers under test). The encoder
// (hcq-encode, for gfx1100 and gfx942) encodes a barrier (the HDP flush and
// an ACQUIRE_MEM), a wait, a launch (with the scratch descriptor), a signal
// and a timeline store (RELEASE_MEM, the interrupt and its context id), and
// on the copy queue a wait, a copy and a copy out of a program (with the
// HDP flush before it) and a fence; the packet builders are checked with
// concrete 64-bit addresses. So a wrong field in a header fails here even
// where the encoder, the disassembler and the emulated command processor,
// which all read the same header, agree.
//
// Sources, as cited beside each field:
//   [nvd]   Linux drivers/gpu/drm/amd/amdgpu/nvd.h (PM4, gfx10/11)
//   [s15]   Linux drivers/gpu/drm/amd/amdgpu/soc15d.h (PM4, gfx9)
//   [sd6] [sd4] Linux sdma_v6_0_0_pkt_open.h, vega10_sdma_pkt_open.h
//   [gc]    Linux gc_11_0_0 / gc_9_4_3 _sh_mask.h; Mesa R_00Bxxx byte
//           addresses of the compute registers
//   [enum]  VGT_EVENT_TYPE (vega10_enum.h, soc21_enum.h)
//   [pm4ai] Linux amdkfd kfd_pm4_headers_ai.h (RELEASE_MEM selects)
//   [nbio]  Linux nbio_4_3_0 / nbio_7_9_0 offset headers
//   [reg9] [reg11] Mesa src/amd/registers gfx9.json/gfx940.json,
//           gfx11-rsrc.json (SQ_BUF_RSRC_WORD1/3)
//   [rocr]  ROCr amd_aql_queue.cpp FillBufRsrcWord1/3(_Gfx11)
//   [aco]   Mesa aco_instruction_selection.cpp get_scratch_resource
//   [kfd]   Linux amdkfd kfd_int_process_v9.c / _v11.c
// docs/amd-facts.md gives each with the function read.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Target/AMD/CodeObject.h"
#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/PacketSink.h"
#include "HCQ/Target/AMD/SDMA.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFTypes.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <cstring>
#include <regex>
#include <string>
#include <vector>

namespace {

//===----------------------------------------------------------------------===//
// Words by hand
//===----------------------------------------------------------------------===//

namespace hand {

// PM4 type-3 header: TYPE [31:30] = 3, COUNT [29:16] = body dwords - 1,
// IT_OPCODE [15:8] [nvd/s15 PACKET3(op, n): (3 << 30) | ((op & 0xFF) << 8)
// | ((n & 0x3FFF) << 16), n from CP_PACKET_GET_COUNT].
constexpr uint32_t type3(uint32_t opcode, uint32_t bodyDwords) {
  return (3u << 30) | (((bodyDwords - 1) & 0x3FFFu) << 16) |
         ((opcode & 0xFFu) << 8);
}
// IT opcodes [nvd, s15 PACKET3_*]: the same on gfx9 and gfx11.
constexpr uint32_t IT_DISPATCH_DIRECT = 0x15, IT_WAIT_REG_MEM = 0x3C,
                   IT_INDIRECT_BUFFER = 0x3F, IT_EVENT_WRITE = 0x46,
                   IT_RELEASE_MEM = 0x49, IT_ACQUIRE_MEM = 0x58,
                   IT_SET_SH_REG = 0x76;

// WAIT_REG_MEM body 0 [nvd/s15 WAIT_REG_MEM_FUNCTION(x) (x) << 0,
// _MEM_SPACE(x) (x) << 4, _OPERATION(x) (x) << 6, _ENGINE(x) (x) << 8];
// FUNCTION 5 is ">=" and 3 "==" [nvd comment].
constexpr uint32_t waitControl(uint32_t function, uint32_t memSpace,
                               uint32_t operation) {
  return (function << 0) | (memSpace << 4) | (operation << 6) | (0u << 8);
}
constexpr uint32_t GEQ = 5, EQ = 3;

// HDP flush request/done: BIF_BX_PF0_GPU_HDP_FLUSH_REQ/DONE, offsets 0x106
// and 0x107 with base index 2, plus the NBIO segment-2 base 0xD20 [nbio;
// sienna_cichlid_ip_offset.h, vega20_ip_offset.h]. (When the registers come
// from the GPU's NBIO version, these two move with them.)
constexpr uint32_t HDP_REQ = 0xD20 + 0x106, HDP_DONE = 0xD20 + 0x107;

// ACQUIRE_MEM GCR_CNTL (gfx10+, body 6) [nvd PACKET3_ACQUIRE_MEM_GCR_CNTL_*]:
// GLI_INV(x) << 0, GLM_WB << 4, GLM_INV << 5, GLK_WB << 6, GLK_INV << 7,
// GLV_INV << 8, GL1_INV << 9, GL2_INV << 14, GL2_WB << 15.
constexpr uint32_t gcrCntl(bool all) {
  uint32_t v = (1u << 4) | (1u << 5) | (1u << 6) | (1u << 7) | (1u << 8) |
               (1u << 9);
  if (all)
    v |= (1u << 0) | (1u << 14) | (1u << 15);
  return v;
}
// CP_COHER_CNTL (gfx9, body 0) [s15 PACKET3_ACQUIRE_MEM_CP_COHER_CNTL_*]:
// TC_WB_ACTION_ENA << 18, TCL1_ACTION_ENA << 22, TC_ACTION_ENA << 23,
// SH_KCACHE_ACTION_ENA << 27, SH_ICACHE_ACTION_ENA << 29.
constexpr uint32_t coherCntl(bool all) {
  uint32_t v = (1u << 27) | (1u << 22);
  if (all)
    v |= (1u << 29) | (1u << 23) | (1u << 18);
  return v;
}

// RELEASE_MEM body 0: EVENT_TYPE [5:0], EVENT_INDEX [11:8] [nvd
// PACKET3_RELEASE_MEM_EVENT_TYPE/INDEX; s15 EVENT_TYPE/EVENT_INDEX];
// CACHE_FLUSH_AND_INV_TS_EVENT = 0x14 [enum]; end of pipe = 5 [pm4ai].
constexpr uint32_t EOP_EVENT = 0x14u | (5u << 8);
// Its cache actions: gfx11 GCR_GLM_WB 12, GLM_INV 13, GLV_INV 14, GL1_INV
// 15, GL2_INV 20, GL2_WB 21, SEQ 22 [nvd PACKET3_RELEASE_MEM_GCR_*]; gfx9
// EOP_TC_WB_ACTION_EN 15, EOP_TC_NC_ACTION_EN 19 [s15].
constexpr uint32_t releaseFlush(bool gfx9) {
  return gfx9 ? (1u << 15) | (1u << 19)
              : (1u << 12) | (1u << 13) | (1u << 14) | (1u << 15) |
                    (1u << 20) | (1u << 21) | (1u << 22);
}
// RELEASE_MEM body 1: DATA_SEL [31:29], INT_SEL [26:24], DST_SEL [17:16]
// [nvd PACKET3_RELEASE_MEM_DATA_SEL(x) << 29, _INT_SEL(x) << 24, _DST_SEL(x)
// << 16; s15 DATA_SEL, INT_SEL]: data 1 = low 32 bits, int 2 = after the
// write is confirmed [pm4ai].
constexpr uint32_t releaseSelect(uint32_t data, uint32_t interrupt) {
  return (data << 29) | (interrupt << 24) | (0u << 16);
}

// SET_SH_REG body 0: the register's dword address less
// PACKET3_SET_SH_REG_START 0x2C00 [nvd, s15]; Mesa names the compute
// registers by byte address [gc].
constexpr uint32_t shReg(uint32_t mesaByteAddress) {
  return mesaByteAddress / 4 - 0x2C00;
}
constexpr uint32_t COMPUTE_START_X = shReg(0xB810),
                   COMPUTE_PGM_LO = shReg(0xB830),
                   COMPUTE_DISPATCH_SCRATCH_BASE_LO = shReg(0xB840),
                   COMPUTE_PGM_RSRC1 = shReg(0xB848),
                   COMPUTE_RESOURCE_LIMITS = shReg(0xB854),
                   COMPUTE_TMPRING_SIZE = shReg(0xB860),
                   COMPUTE_RESTART_X = shReg(0xB86C),
                   COMPUTE_PGM_RSRC3_GFX11 = shReg(0xB8A0),
                   COMPUTE_PGM_RSRC3_GFX940 = shReg(0xB8B4),
                   COMPUTE_USER_DATA_0 = shReg(0xB900);
// COMPUTE_PGM_RSRC1.PRIV bit 20 (gfx10+), RSRC2.LDS_SIZE [23:15]
// [gc COMPUTE_PGM_RSRC1__PRIV__SHIFT 0x14, COMPUTE_PGM_RSRC2__LDS_SIZE__SHIFT
// 0xf].
constexpr uint32_t RSRC1_PRIV = 1u << 20;
constexpr uint32_t ldsSize(uint32_t granules) { return (granules & 0x1FF) << 15; }
// COMPUTE_TMPRING_SIZE: WAVES [11:0], WAVESIZE from bit 12 [gc
// COMPUTE_TMPRING_SIZE__WAVESIZE__SHIFT 0xc].
constexpr uint32_t tmpring(uint32_t waves, uint32_t waveSize) {
  return (waves & 0xFFF) | (waveSize << 12);
}
// COMPUTE_DISPATCH_INITIATOR: COMPUTE_SHADER_EN bit 0, FORCE_START_AT_000
// bit 2, CS_W32_EN bit 15 (gc_11_0_0 only) [gc].
constexpr uint32_t initiator(bool w32) {
  return 1u | (1u << 2) | (w32 ? 1u << 15 : 0);
}
// EVENT_WRITE body 0: CS_PARTIAL_FLUSH = 7 [enum], index 4 "*S_PARTIAL_FLUSH"
// [nvd comment], laid out as EVENT_TYPE / EVENT_INDEX above.
constexpr uint32_t CS_PARTIAL_FLUSH_EVENT = 7u | (4u << 8);
// INDIRECT_BUFFER body 2: IB_SIZE [19:0], VALID bit 23 [nvd
// INDIRECT_BUFFER_VALID (1 << 23)].
constexpr uint32_t ibControl(uint32_t dwords) {
  return (dwords & 0xFFFFF) | (1u << 23);
}

// Scratch buffer descriptor (SQ_BUF_RSRC).
// Word 1: gfx9 SWIZZLE_ENABLE bit 31 [reg9]; gfx11 SWIZZLE_ENABLE [31:30] =
// 1 (4-byte elements) [reg11; rocr FillBufRsrcWord1_Gfx11].
constexpr uint32_t scratchWord1Bits(bool gfx9) {
  return gfx9 ? 1u << 31 : 1u << 30;
}
// Word 3: DST_SEL_X..W [2:0] [5:3] [8:6] [11:9] = SQ_SEL_X..W (4..7),
// INDEX_STRIDE [22:21] = 3 for 64 lanes, 2 for 32 [aco], ADD_TID_ENABLE
// bit 23, TYPE [31:30] = 0 [reg9, reg11]; gfx9 NUM_FORMAT [14:12] = UINT
// (4) and nothing in DATA_FORMAT [18:15] or bits 19-20 [reg9; aco; rocr];
// gfx11 FORMAT [17:12] = 32_UINT (20), OOB_SELECT [29:28] = 2 [reg11; rocr].
constexpr uint32_t scratchWord3(bool gfx9, bool wave64) {
  uint32_t w = 4u | (5u << 3) | (6u << 6) | (7u << 9) |
               ((wave64 ? 3u : 2u) << 21) | (1u << 23) | (0u << 30);
  return gfx9 ? w | (4u << 12) : w | (20u << 12) | (2u << 28);
}

// SDMA header: OP [7:0], SUB_OP [15:8] [sd6, sd4
// SDMA_PKT_*_HEADER_op/sub_op_shift]; opcodes COPY 1 (COPY_LINEAR sub-op
// 0), FENCE 5, TRAP 6, POLL_REGMEM 8, TIMESTAMP 13 (GET_GLOBAL sub-op 2).
constexpr uint32_t sdmaHeader(uint32_t op, uint32_t subOp) {
  return (op & 0xFF) | ((subOp & 0xFF) << 8);
}
constexpr uint32_t SDMA_COPY = 1, SDMA_FENCE = 5, SDMA_TRAP = 6,
                   SDMA_POLL_REGMEM = 8, SDMA_TIMESTAMP = 13;
// POLL_REGMEM header: hdp_flush bit 26, func [30:28], mem_poll bit 31;
// dword 5: interval [15:0], retry_count [27:16] [sd6, sd4
// SDMA_PKT_POLL_REGMEM_*_shift/mask].
constexpr uint32_t pollHeader(uint32_t function, bool memory, bool hdp) {
  return sdmaHeader(SDMA_POLL_REGMEM, 0) | ((hdp ? 1u : 0u) << 26) |
         ((function & 7) << 28) | ((memory ? 1u : 0u) << 31);
}
constexpr uint32_t pollIntervalRetry(uint32_t interval, uint32_t retry) {
  return (interval & 0xFFFF) | ((retry & 0xFFF) << 16);
}
// FENCE header MTYPE [18:16] on SDMA 6 (3 = uncached) [sd6
// SDMA_PKT_FENCE_HEADER_mtype_shift 16]; SDMA 4 has no such field.
constexpr uint32_t fenceHeader(bool gfx9) {
  return sdmaHeader(SDMA_FENCE, 0) | (gfx9 ? 0u : 3u << 16);
}

} // namespace hand

//===----------------------------------------------------------------------===//
// Encoding a schedule
//===----------------------------------------------------------------------===//

using Ehdr = llvm::object::ELF64LE::Ehdr;
using Shdr = llvm::object::ELF64LE::Shdr;
using Phdr = llvm::object::ELF64LE::Phdr;
using Sym = llvm::object::ELF64LE::Sym;

std::vector<uint8_t> load(const std::string &name) {
  auto buffer = llvm::MemoryBuffer::getFile(std::string(HCQ_TEST_INPUTS) + "/" +
                                            name);
  EXPECT_TRUE(static_cast<bool>(buffer)) << name;
  if (!buffer)
    return {};
  return std::vector<uint8_t>((*buffer)->getBufferStart(),
                              (*buffer)->getBufferEnd());
}

template <typename T> T *at(std::vector<uint8_t> &bytes, uint64_t offset) {
  return reinterpret_cast<T *>(bytes.data() + offset);
}

/// The file offset of symbol `name`'s value in a linked code object.
std::optional<uint64_t> symbolFileOffset(std::vector<uint8_t> &bytes,
                                         llvm::StringRef name) {
  auto *header = at<Ehdr>(bytes, 0);
  const Shdr *symtab = nullptr;
  for (unsigned i = 0; i < header->e_shnum; ++i) {
    auto *s = at<Shdr>(bytes, header->e_shoff + i * header->e_shentsize);
    if (s->sh_type == llvm::ELF::SHT_SYMTAB)
      symtab = s;
  }
  if (!symtab)
    return std::nullopt;
  auto *strtab =
      at<Shdr>(bytes, header->e_shoff + symtab->sh_link * header->e_shentsize);
  for (uint64_t off = symtab->sh_offset;
       off < symtab->sh_offset + symtab->sh_size; off += sizeof(Sym)) {
    Sym *s = at<Sym>(bytes, off);
    if (name != reinterpret_cast<const char *>(bytes.data() +
                                               strtab->sh_offset + s->st_name))
      continue;
    for (unsigned i = 0; i < header->e_phnum; ++i) {
      auto *p = at<Phdr>(bytes, header->e_phoff + i * header->e_phentsize);
      if (p->p_type == llvm::ELF::PT_LOAD && s->st_value >= p->p_vaddr &&
          s->st_value < p->p_vaddr + p->p_filesz)
        return s->st_value - p->p_vaddr + p->p_offset;
    }
  }
  return std::nullopt;
}

/// The test kernels' vadd for `chip`, its descriptor changed to ask for a
/// private segment buffer and 16 bytes of scratch per lane (LLVM
/// AMDGPUUsage "Kernel Descriptor": private_segment_fixed_size at byte 4,
/// kernel_code_properties at byte 56, ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER
/// its bit 0), so the launch carries the scratch descriptor.
std::vector<uint8_t> vaddWithScratch(const std::string &chip) {
  std::vector<uint8_t> bytes = load("kernels-" + chip + ".co");
  if (bytes.empty())
    return bytes;
  std::optional<uint64_t> kd = symbolFileOffset(bytes, "vadd.kd");
  EXPECT_TRUE(kd.has_value());
  if (!kd)
    return {};
  uint32_t privateBytes = 16;
  std::memcpy(bytes.data() + *kd + 4, &privateBytes, 4);
  bytes[*kd + 56] |= 1;
  return bytes;
}

std::string hcqKernel(const std::vector<uint8_t> &bytes) {
  std::string op = "hcq.kernel @vadd amd (write f32, read f32, read f32) vars "
                   "1 symbol \"vadd\" code_object \"";
  static const char digits[] = "0123456789ABCDEF";
  for (uint8_t c : bytes) {
    op += '\\';
    op += digits[c >> 4];
    op += digits[c & 15];
  }
  return op + "\"\n";
}

constexpr const char *scheduleText = R"mlir(
hcq.schedule @words(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>, %c: !hcq.buffer<64xf32, AMD:0>, %n: i32) targets [#hcq.amd_target<chip = "CHIP">, #hcq.cpu_target] {
  %sig = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, AMD:0>
  %tl = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
  %tlv = hcq.placeholder timeline_value device volatile : !hcq.buffer<1xi64, AMD:0>
  %p = hcq.program @vadd : !hcq.buffer<256xi8, AMD:0>
  hcq.submit on AMD:0 queue COMPUTE:0 {
    hcq.barrier
    hcq.wait %sig >= 3 : !hcq.buffer<1xi64, AMD:0>
    hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [2, 1, 1] local [32, 1, 1]
    hcq.store %sig = 4 : !hcq.buffer<1xi64, AMD:0>
    hcq.store %tl = [%tlv : !hcq.buffer<1xi64, AMD:0>] : !hcq.buffer<1xi64, AMD:0>
  }
  hcq.submit on AMD:0 queue COPY:0 {
    hcq.wait %sig >= 4 : !hcq.buffer<1xi64, AMD:0>
    hcq.copy %c[0, 256], %a[0, 256] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>
    hcq.copy %b[0, 64], %p[0, 64] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<256xi8, AMD:0>
    hcq.copy %b[64, 64], %p[64, 64] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<256xi8, AMD:0>
    hcq.store %sig = 5 : !hcq.buffer<1xi64, AMD:0>
  }
}
)mlir";

/// One expected word: a constant, or a symbolic word as hcq.cmds prints it
/// with every SSA name as `%` (`lo(% + 7168 >> 8)`).
struct Want {
  std::string what;
  std::optional<uint32_t> value;
  std::string symbol;
};

/// The words of every `hcq.cmds cmdbuf` of `chip`'s encoding, in order, as
/// printed (SSA names as `%`); empty on failure.
std::vector<std::vector<std::string>>
encodeCommandBuffers(const std::string &chip,
                     const std::vector<uint8_t> &kernel) {
  mlir::DialectRegistry registry;
  hcq::registerTargetInterfaces(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadDialect<hcq::HCQDialect>();
  std::string error;
  mlir::ScopedDiagnosticHandler handler(&ctx, [&](mlir::Diagnostic &d) {
    error += d.str() + "\n";
    return mlir::success();
  });
  std::string text = scheduleText;
  text.replace(text.find("CHIP"), 4, chip);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(hcqKernel(kernel) + text, &ctx);
  EXPECT_TRUE(module) << error;
  if (!module)
    return {};
  mlir::PassManager pm(&ctx);
  pm.nest<hcq::ScheduleOp>().addPass(hcq::createHCQEncode());
  EXPECT_TRUE(mlir::succeeded(pm.run(*module))) << error;
  std::vector<std::vector<std::string>> buffers;
  const std::regex ssa("%[A-Za-z0-9_]+");
  module->walk([&](hcq::CmdsOp cmds) {
    if (cmds.getTag() != hcq::PlaceholderTag::cmdbuf)
      return;
    std::string printed;
    llvm::raw_string_ostream os(printed);
    cmds->print(os);
    size_t open = printed.find("cmdbuf i32 [");
    size_t close = printed.find(']', open);
    if (open == std::string::npos || close == std::string::npos)
      return;
    open += std::strlen("cmdbuf i32 [");
    std::vector<std::string> words;
    std::string list = printed.substr(open, close - open);
    for (size_t from = 0; from <= list.size();) {
      size_t comma = list.find(", ", from);
      if (comma == std::string::npos)
        comma = list.size();
      words.push_back(
          std::regex_replace(list.substr(from, comma - from), ssa, "%"));
      from = comma + 2;
    }
    buffers.push_back(std::move(words));
  });
  return buffers;
}

/// Compares `actual` (printed words) with `expected`, naming each word's
/// field on a mismatch.
void expectWords(const std::vector<std::string> &actual,
                 const std::vector<Want> &expected,
                 const std::string &where) {
  for (size_t i = 0; i < std::max(actual.size(), expected.size()); ++i) {
    if (i >= actual.size()) {
      ADD_FAILURE() << where << ": word " << i << " (" << expected[i].what
                    << ") is missing";
      continue;
    }
    if (i >= expected.size()) {
      ADD_FAILURE() << where << ": extra word " << i << ": " << actual[i];
      continue;
    }
    std::string want = expected[i].symbol;
    if (expected[i].value) {
      char hex[16];
      std::snprintf(hex, sizeof hex, "0x%08x", *expected[i].value);
      want = hex;
    }
    EXPECT_EQ(actual[i], want)
        << where << ": word " << i << " (" << expected[i].what << ")";
  }
}

/// What hcq must encode for `chip` (gfx9 or not), by hand.
struct Words {
  std::vector<Want> words;
  void k(const std::string &what, uint32_t v) {
    words.push_back({what, v, ""});
  }
  void s(const std::string &what, const std::string &symbol) {
    words.push_back({what, std::nullopt, symbol});
  }
  void type3(const std::string &name, uint32_t opcode, uint32_t body) {
    k(name + " header", hand::type3(opcode, body));
  }
  void acquireMem(bool gfx9, bool all) {
    if (gfx9) {
      type3("ACQUIRE_MEM", hand::IT_ACQUIRE_MEM, 6);
      // Body: CP_COHER_CNTL, COHER_SIZE lo/hi (all), COHER_BASE lo/hi,
      // POLL_INTERVAL 0xA [s15 PACKET3_ACQUIRE_MEM; Linux
      // gfx_v9_0_emit_mem_sync].
      k("CP_COHER_CNTL", hand::coherCntl(all));
      k("COHER_SIZE lo", 0xFFFFFFFF);
      k("COHER_SIZE hi", 0xFFFFFFFF);
      k("COHER_BASE lo", 0);
      k("COHER_BASE hi", 0);
      k("POLL_INTERVAL", 0xA);
    } else {
      type3("ACQUIRE_MEM", hand::IT_ACQUIRE_MEM, 7);
      // Body: COHER_CNTL (reserved), size, base, poll, GCR_CNTL [nvd].
      k("COHER_CNTL", 0);
      k("COHER_SIZE lo", 0xFFFFFFFF);
      k("COHER_SIZE hi", 0xFFFFFFFF);
      k("COHER_BASE lo", 0);
      k("COHER_BASE hi", 0);
      k("POLL_INTERVAL", 0);
      k("GCR_CNTL", hand::gcrCntl(all));
    }
  }
  void setShReg(const std::string &name, uint32_t reg, uint32_t values) {
    type3("SET_SH_REG " + name, hand::IT_SET_SH_REG, values + 1);
    k(name + " offset", reg);
  }
};

void expectEncoding(const std::string &chip, bool gfx9) {
  std::vector<uint8_t> kernel = vaddWithScratch(chip);
  ASSERT_FALSE(kernel.empty());
  hcq::Expected<hcq::amd::KernelInfo> info = hcq::amd::readKernel(
      std::string_view(reinterpret_cast<const char *>(kernel.data()),
                       kernel.size()),
      "vadd");
  ASSERT_TRUE(static_cast<bool>(info)) << hcq::toString(info.takeError());
  ASSERT_TRUE(info->privateSegmentBuffer);
  ASSERT_FALSE(info->dispatchPtr);
  ASSERT_EQ(info->wave32, !gfx9); // the test kernels: wave32 on gfx11
  std::vector<std::vector<std::string>> buffers =
      encodeCommandBuffers(chip, kernel);
  ASSERT_EQ(buffers.size(), 2u);

  Words c;
  // hcq.barrier: WAIT_REG_MEM writing the HDP flush request and polling its
  // done register (OPERATION 1, register space), then ACQUIRE_MEM of every
  // cache.
  c.type3("WAIT_REG_MEM", hand::IT_WAIT_REG_MEM, 6);
  c.k("WAIT_REG_MEM control", hand::waitControl(hand::GEQ, 0, 1));
  c.k("HDP_FLUSH_REQ", hand::HDP_REQ);
  c.k("HDP_FLUSH_DONE", hand::HDP_DONE);
  c.k("reference", 0xFFFFFFFF);
  c.k("mask", 0xFFFFFFFF);
  c.k("poll interval", 4);
  c.acquireMem(gfx9, /*all=*/true);
  // hcq.wait %sig >= 3: WAIT_REG_MEM on memory; on gfx942 the barrier's
  // ACQUIRE_MEM after the last wait of a run.
  c.type3("WAIT_REG_MEM", hand::IT_WAIT_REG_MEM, 6);
  c.k("WAIT_REG_MEM control", hand::waitControl(hand::GEQ, 1, 0));
  c.s("address lo", "lo(%)");
  c.s("address hi", "hi(%)");
  c.k("reference", 3);
  c.k("mask", 0xFFFFFFFF);
  c.k("poll interval", 4);
  if (gfx9)
    c.acquireMem(gfx9, /*all=*/true);
  // hcq.launch: ACQUIRE_MEM (no I$, no L2), the registers, the dispatch.
  c.acquireMem(gfx9, /*all=*/false);
  char entry[64];
  std::snprintf(entry, sizeof entry, "(%% + %llu >> 8)",
                static_cast<unsigned long long>(info->entryOffset));
  c.setShReg("COMPUTE_PGM_LO", hand::COMPUTE_PGM_LO, 2);
  c.s("PGM_LO", std::string("lo") + entry);
  c.s("PGM_HI", std::string("hi") + entry);
  c.setShReg("COMPUTE_PGM_RSRC1", hand::COMPUTE_PGM_RSRC1, 2);
  c.k("RSRC1", info->rsrc1 | (gfx9 ? 0 : hand::RSRC1_PRIV));
  c.k("RSRC2", info->rsrc2 | hand::ldsSize((info->groupSegmentBytes + 511) /
                                           512));
  c.setShReg("COMPUTE_PGM_RSRC3", gfx9 ? hand::COMPUTE_PGM_RSRC3_GFX940
                                       : hand::COMPUTE_PGM_RSRC3_GFX11,
             1);
  c.k("RSRC3", info->rsrc3);
  // TMPRING_SIZE: WAVESIZE in 1024-byte units on gfx9, 256 on gfx11 [Mesa
  // ac_get_scratch_tmpring_size]: 16 bytes x 64 lanes = 1 unit on gfx942,
  // x 32 lanes = 2 units on gfx1100; WAVES as hcq's targets choose (gfx942
  // 4095 for the device; gfx1100 32 waves x 96 CUs over 6 engines = 512).
  c.setShReg("COMPUTE_TMPRING_SIZE", hand::COMPUTE_TMPRING_SIZE, 1);
  c.k("TMPRING_SIZE", gfx9 ? hand::tmpring(4095, 1) : hand::tmpring(512, 2));
  c.setShReg("COMPUTE_DISPATCH_SCRATCH_BASE_LO",
             hand::COMPUTE_DISPATCH_SCRATCH_BASE_LO, 2);
  c.s("SCRATCH_BASE_LO", "lo(% >> 8)");
  c.s("SCRATCH_BASE_HI", "hi(% >> 8)");
  c.setShReg("COMPUTE_RESTART_X", hand::COMPUTE_RESTART_X, 3);
  c.k("RESTART_X", 0);
  c.k("RESTART_Y", 0);
  c.k("RESTART_Z", 0);
  // User SGPRs: the scratch descriptor, then the kernel-argument pointer.
  c.setShReg("COMPUTE_USER_DATA_0", hand::COMPUTE_USER_DATA_0, 6);
  char word1[64];
  std::snprintf(word1, sizeof word1, "hi(%%) | 0x%08x",
                hand::scratchWord1Bits(gfx9));
  c.s("scratch V# word 0 (base lo)", "lo(%)");
  c.s("scratch V# word 1 (base hi, swizzle)", word1);
  c.k("scratch V# word 2 (NUM_RECORDS)", 0xFFFFFFFF);
  c.k("scratch V# word 3", hand::scratchWord3(gfx9, /*wave64=*/gfx9));
  c.s("kernarg pointer lo", "lo(%)");
  c.s("kernarg pointer hi", "hi(%)");
  c.setShReg("COMPUTE_RESOURCE_LIMITS", hand::COMPUTE_RESOURCE_LIMITS, 1);
  c.k("RESOURCE_LIMITS", 0);
  c.setShReg("COMPUTE_START_X", hand::COMPUTE_START_X, 8);
  for (uint32_t v : {0u, 0u, 0u, 32u, 1u, 1u, 0u, 0u})
    c.k("START_X.. / NUM_THREAD_X..", v);
  c.type3("DISPATCH_DIRECT", hand::IT_DISPATCH_DIRECT, 4);
  c.k("DIM_X", 2);
  c.k("DIM_Y", 1);
  c.k("DIM_Z", 1);
  c.k("DISPATCH_INITIATOR", hand::initiator(/*w32=*/!gfx9));
  c.type3("EVENT_WRITE", hand::IT_EVENT_WRITE, 1);
  c.k("CS_PARTIAL_FLUSH", hand::CS_PARTIAL_FLUSH_EVENT);
  // hcq.store %sig = 4: RELEASE_MEM with the cache flush, 32-bit data, no
  // interrupt.
  auto releaseMem = [&](const std::string &what, uint32_t event,
                        uint32_t select, const std::string &addrLo,
                        const std::string &addrHi, Want dataLo, Want dataHi,
                        Want context) {
    c.type3("RELEASE_MEM " + what, hand::IT_RELEASE_MEM, 7);
    c.k("RELEASE_MEM event " + what, event);
    c.k("RELEASE_MEM select " + what, select);
    c.s("address lo", addrLo);
    c.s("address hi", addrHi);
    c.words.push_back(dataLo);
    c.words.push_back(dataHi);
    c.words.push_back(context);
  };
  releaseMem("signal", hand::EOP_EVENT | hand::releaseFlush(gfx9),
             hand::releaseSelect(1, 0), "lo(%)", "hi(%)", {"data lo", 4, ""},
             {"data hi", 0, ""}, {"context id", 0, ""});
  // hcq.store %tl = [%tlv]: the same with the host's value, then the
  // interrupt: the event number into its mailbox, INT_SEL 2, and the
  // number as the context id on both families [kfd: gfx942 drops an
  // end-of-pipe interrupt with context id 0].
  releaseMem("timeline", hand::EOP_EVENT | hand::releaseFlush(gfx9),
             hand::releaseSelect(1, 0), "lo(%)", "hi(%)",
             {"data lo", std::nullopt, "load.lo(%)"},
             {"data hi", std::nullopt, "load.hi(%)"}, {"context id", 0, ""});
  releaseMem("interrupt", hand::EOP_EVENT, hand::releaseSelect(1, 2), "lo(%)",
             "hi(%)", {"event number", std::nullopt, "lo(%)"},
             {"data hi", 0, ""},
             {"context id = event number", std::nullopt, "lo(%)"});
  expectWords(buffers[0], c.words, chip + " compute");

  Words d;
  // hcq.wait %sig >= 4: POLL_REGMEM on memory, >=, interval 4, retry 0xFFF.
  d.k("POLL_REGMEM header", hand::pollHeader(hand::GEQ, true, false));
  d.s("address lo", "lo(%)");
  d.s("address hi", "hi(%)");
  d.k("value", 4);
  d.k("mask", 0xFFFFFFFF);
  d.k("interval/retry", hand::pollIntervalRetry(4, 0xFFF));
  // hcq.copy of 256 bytes: COPY_LINEAR, COUNT = bytes - 1 [sd6/sd4
  // SDMA_PKT_COPY_LINEAR_COUNT_count], PARAMETER 0, source, destination.
  auto copy = [&](uint32_t bytes, const std::string &src,
                  const std::string &dst) {
    d.k("COPY_LINEAR header", hand::sdmaHeader(hand::SDMA_COPY, 0));
    d.k("COUNT", bytes - 1);
    d.k("PARAMETER", 0);
    d.s("src lo", "lo(" + src + ")");
    d.s("src hi", "hi(" + src + ")");
    d.s("dst lo", "lo(" + dst + ")");
    d.s("dst hi", "hi(" + dst + ")");
  };
  copy(256, "%", "%");
  // Out of a program (VRAM the host wrote through the BAR): the HDP flush
  // first, as the kernel's SDMA rings emit it [Linux
  // sdma_v6_0_ring_emit_hdp_flush: POLL_REGMEM, HDP_FLUSH 1, FUNC 3 (==),
  // done << 2, req << 2, reference, mask, RETRY_COUNT 0xfff | INTERVAL 10],
  // once per submit.
  d.k("POLL_REGMEM HDP flush header", hand::pollHeader(hand::EQ, false, true));
  d.k("HDP_FLUSH_DONE byte address", hand::HDP_DONE << 2);
  d.k("HDP_FLUSH_REQ byte address", hand::HDP_REQ << 2);
  d.k("reference", 0xFFFFFFFF);
  d.k("mask", 0xFFFFFFFF);
  d.k("interval/retry", hand::pollIntervalRetry(10, 0xFFF));
  copy(64, "%", "%");
  copy(64, "% + 64", "% + 64");
  // hcq.store %sig = 5: FENCE, MTYPE uncached on SDMA 6, address, data.
  d.k("FENCE header", hand::fenceHeader(gfx9));
  d.s("address lo", "lo(%)");
  d.s("address hi", "hi(%)");
  d.k("data", 5);
  expectWords(buffers[1], d.words, chip + " copy");
}

} // namespace

TEST(AMDPacketWords, Gfx1100EncodingMatchesTheRegisterDocumentation) {
  expectEncoding("gfx1100", /*gfx9=*/false);
}

TEST(AMDPacketWords, Gfx942EncodingMatchesTheRegisterDocumentation) {
  expectEncoding("gfx942", /*gfx9=*/true);
}

TEST(AMDPacketWords, BuildersPlaceEveryFieldWithRealAddresses) {
  // The packet builders into plain dwords, with 64-bit addresses and data
  // whose halves differ, so a swapped or truncated half shows.
  namespace pm4 = hcq::amd::pm4;
  namespace sdma = hcq::amd::sdma;
  const uint64_t address = 0x00007F1234567890ull, other = 0x00007EDCBA987650ull;
  const uint64_t data = 0x1122334455667788ull;
  std::vector<uint32_t> got;
  hcq::amd::DwordSink s{got};

  pm4::emitReleaseMem(s,
                      pm4::releaseEvent(pm4::CACHE_FLUSH_AND_INV_TS_EVENT,
                                        pm4::EVENT_INDEX_END_OF_PIPE),
                      pm4::releaseSelect(pm4::DATA_SEL_64,
                                         pm4::INT_SEL_AFTER_WRITE_CONFIRM),
                      address, data, 0xABCu);
  EXPECT_EQ(got, (std::vector<uint32_t>{
                     hand::type3(hand::IT_RELEASE_MEM, 7), hand::EOP_EVENT,
                     hand::releaseSelect(2, 2), 0x34567890, 0x00007F12,
                     0x55667788, 0x11223344, 0xABC}));

  got.clear();
  pm4::emitWaitMemory(s, pm4::WAIT_FUNCTION_GEQ, address, data, 0x0000FFFFu);
  EXPECT_EQ(got, (std::vector<uint32_t>{hand::type3(hand::IT_WAIT_REG_MEM, 6),
                                        hand::waitControl(hand::GEQ, 1, 0),
                                        0x34567890, 0x00007F12, 0x55667788,
                                        0x0000FFFF, 4}));

  got.clear();
  pm4::emitIndirectBuffer(s, address, 1000);
  EXPECT_EQ(got,
            (std::vector<uint32_t>{hand::type3(hand::IT_INDIRECT_BUFFER, 3),
                                   0x34567890, 0x00007F12,
                                   hand::ibControl(1000)}));

  got.clear();
  sdma::emitCopyLinear(s, 0x100000, address, other);
  EXPECT_EQ(got, (std::vector<uint32_t>{hand::sdmaHeader(hand::SDMA_COPY, 0),
                                        0xFFFFF, 0, 0x34567890, 0x00007F12,
                                        0xBA987650, 0x00007EDC}));

  got.clear();
  sdma::emitFence(s, other, data, sdma::FENCE_MTYPE_UC);
  EXPECT_EQ(got, (std::vector<uint32_t>{hand::fenceHeader(/*gfx9=*/false),
                                        0xBA987650, 0x00007EDC, 0x55667788}));

  // TRAP: INT_CONTEXT [27:0] [sd6 SDMA_PKT_TRAP_INT_CONTEXT_int_context].
  got.clear();
  sdma::emitTrap(s, 0x123u);
  EXPECT_EQ(got, (std::vector<uint32_t>{hand::sdmaHeader(hand::SDMA_TRAP, 0),
                                        0x123}));

  // TIMESTAMP, GET_GLOBAL sub-op 2 [sd6 SDMA_SUBOP_TIMESTAMP_GET_GLOBAL].
  got.clear();
  sdma::emitTimestamp(s, address);
  EXPECT_EQ(got,
            (std::vector<uint32_t>{hand::sdmaHeader(hand::SDMA_TIMESTAMP, 2),
                                   0x34567890, 0x00007F12}));

  got.clear();
  sdma::emitPollMemory(s, pm4::WAIT_FUNCTION_GEQ, address, data, 0xFFFFFFFFu,
                       4, 0xFFF);
  EXPECT_EQ(got, (std::vector<uint32_t>{
                     hand::pollHeader(hand::GEQ, true, false), 0x34567890,
                     0x00007F12, 0x55667788, 0xFFFFFFFF,
                     hand::pollIntervalRetry(4, 0xFFF)}));
}
