//===- Disassembler.cpp - PM4, SDMA and CPU entry disassembly -------------===//

#include "HCQ/Target/Disassembler.h"
#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/SDMA.h"
#include "HCQ/Target/CPU/Entry.h"

#include "llvm/Support/Format.h"

using namespace llvm;

namespace hcq {
namespace {

/// Prints fields of one packet; a symbolic word prints as its symbol.
class Printer {
public:
  Printer(ArrayRef<DisasmWord> words, raw_ostream &os, unsigned digits)
      : words(words), os(os), digits(digits) {}

  void word(size_t i) {
    const DisasmWord &w = words[i];
    if (w.value)
      os << format_hex(*w.value, digits + 2);
    else
      os << w.symbol;
  }
  void field(StringRef name, size_t i) {
    os << ' ' << name << '=';
    word(i);
  }
  /// A 64-bit address in two 32-bit words.
  void address(StringRef name, size_t lo) {
    const DisasmWord &l = words[lo], &h = words[lo + 1];
    os << ' ' << name << '=';
    if (l.value && h.value)
      os << format_hex(*l.value | (*h.value << 32), 18);
    else {
      os << '{';
      word(lo);
      os << ", ";
      word(lo + 1);
      os << '}';
    }
  }
  std::optional<uint64_t> value(size_t i) const { return words[i].value; }

private:
  ArrayRef<DisasmWord> words;
  raw_ostream &os;
  unsigned digits;
};

Error failAt(StringRef what, size_t offset, const Twine &why) {
  return createStringError(inconvertibleErrorCode(),
                           what + " at dword " + Twine(offset) + ": " + why);
}

/// The constant header of the packet at `at`.
Expected<uint32_t> packetHeader(ArrayRef<DisasmWord> words, size_t at,
                                StringRef what) {
  if (!words[at].value)
    return failAt(what, at,
                  "header is not a constant (" + words[at].symbol + ")");
  return static_cast<uint32_t>(*words[at].value);
}

StringRef shRegisterName(uint32_t reg, const amd::Target &target) {
  // A per-target register is named only at the target's own offset.
  if (reg == target.rsrc3Register())
    return "COMPUTE_PGM_RSRC3";
  switch (reg) {
#define HCQ_SH_REGISTER(NAME, OFFSET)                                          \
  case OFFSET:                                                                 \
    return #NAME;
#define HCQ_SH_REGISTER_VARIANT(NAME, VARIANT, OFFSET)
#include "HCQ/Target/AMD/ShRegisters.def"
  default:
    return "";
  }
}

} // namespace

Error disassemblePM4(ArrayRef<DisasmWord> words, const amd::Target &target,
                     raw_ostream &os) {
  using namespace amd::pm4;
  Printer p(words, os, 8);
  for (size_t at = 0; at < words.size();) {
    Expected<uint32_t> headerOrError = packetHeader(words, at, "PM4 packet");
    if (!headerOrError)
      return headerOrError.takeError();
    uint32_t header = *headerOrError;
    os << format_decimal(at, 4) << ": ";
    if (header == 0x80000000) { // type-2 filler [sid PKT2_NOP_PAD]
      os << "TYPE2_NOP\n";
      ++at;
      continue;
    }
    if (header == NOP_PAD) {
      os << "NOP_PAD\n";
      ++at;
      continue;
    }
    if (packetType(header) != 3)
      return failAt("PM4 packet", at,
                    "not a type-3 header (" + Twine::utohexstr(header) + ")");
    size_t body = packetCount(header) + 1;
    if (at + 1 + body > words.size())
      return failAt("PM4 packet", at,
                    "truncated: header says " + Twine(body) + " body dwords, " +
                        Twine(words.size() - at - 1) + " remain");
    size_t b = at + 1;
    auto expect = [&](StringRef name, size_t n) -> Error {
      if (body != n)
        return failAt("PM4 " + name.str(), at,
                      "expected " + Twine(n) + " body dwords, got " +
                          Twine(body));
      return Error::success();
    };
    switch (packetOpcode(header)) {
    case NOP:
      os << "NOP dwords=" << body << '\n';
      break;
    case SET_SH_REG: {
      if (body < 2)
        return failAt("PM4 SET_SH_REG", at, "no register values");
      if (!p.value(b))
        return failAt("PM4 SET_SH_REG", at, "register offset is symbolic");
      auto reg = static_cast<uint32_t>(*p.value(b));
      StringRef name = shRegisterName(reg, target);
      os << "SET_SH_REG " << (name.empty() ? "reg" : name) << '('
         << format_hex(reg, 5) << ") =";
      for (size_t i = b + 1; i < b + body; ++i) {
        os << ' ';
        p.word(i);
      }
      os << '\n';
      break;
    }
    case WAIT_REG_MEM: {
      namespace wrm = wait_reg_mem;
      if (Error e = expect("WAIT_REG_MEM", wrm::BODY_DWORDS))
        return e;
      if (!p.value(b + wrm::CONTROL))
        return failAt("PM4 WAIT_REG_MEM", at, "control dword is symbolic");
      auto control = static_cast<uint32_t>(*p.value(b + wrm::CONTROL));
      bool memory = waitMemSpaceOf(control);
      os << "WAIT_REG_MEM " << (memory ? "mem" : "reg")
         << " function=" << waitFunctionOf(control)
         << " operation=" << waitOperationOf(control);
      if (memory)
        p.address("addr", b + wrm::ADDRESS_LO);
      else {
        p.field("reg", b + wrm::REGISTER);
        p.field("reg_done", b + wrm::REGISTER_DONE);
      }
      p.field("ref", b + wrm::REFERENCE);
      p.field("mask", b + wrm::MASK);
      p.field("poll", b + wrm::POLL_INTERVAL);
      os << '\n';
      break;
    }
    case ACQUIRE_MEM: {
      namespace am = acquire_mem;
      bool gfx9 = target.isGfx9();
      if (Error e = expect("ACQUIRE_MEM",
                           gfx9 ? am::BODY_DWORDS_GFX9 : am::BODY_DWORDS_GFX10))
        return e;
      os << "ACQUIRE_MEM";
      if (gfx9)
        p.field("coher_cntl", b + am::COHER_CNTL);
      p.address("size", b + am::SIZE_LO);
      p.address("base", b + am::BASE_LO);
      p.field("poll", b + am::POLL_INTERVAL);
      if (!gfx9)
        p.field("gcr_cntl", b + am::GCR_CNTL);
      os << '\n';
      break;
    }
    case RELEASE_MEM: {
      namespace rm = release_mem;
      if (Error e = expect("RELEASE_MEM", rm::BODY_DWORDS))
        return e;
      if (!p.value(b + rm::EVENT) || !p.value(b + rm::SELECT))
        return failAt("PM4 RELEASE_MEM", at, "control dwords are symbolic");
      auto event = static_cast<uint32_t>(*p.value(b + rm::EVENT));
      auto select = static_cast<uint32_t>(*p.value(b + rm::SELECT));
      os << "RELEASE_MEM event=" << format_hex(eventTypeOf(event), 4)
         << " index=" << eventIndexOf(event)
         << " cache=" << format_hex(releaseCacheOf(event), 10)
         << " data_sel=" << releaseDataSelOf(select)
         << " int_sel=" << releaseIntSelOf(select);
      p.address("addr", b + rm::ADDRESS_LO);
      p.address("data", b + rm::DATA_LO);
      p.field("ctxid", b + rm::CONTEXT_ID);
      os << '\n';
      break;
    }
    case DISPATCH_DIRECT: {
      namespace dd = dispatch_direct;
      if (Error e = expect("DISPATCH_DIRECT", dd::BODY_DWORDS))
        return e;
      os << "DISPATCH_DIRECT";
      p.field("x", b + dd::X);
      p.field("y", b + dd::Y);
      p.field("z", b + dd::Z);
      p.field("initiator", b + dd::INITIATOR);
      os << '\n';
      break;
    }
    case EVENT_WRITE: {
      if (Error e = expect("EVENT_WRITE", 1))
        return e;
      if (!p.value(b))
        return failAt("PM4 EVENT_WRITE", at, "event dword is symbolic");
      auto event = static_cast<uint32_t>(*p.value(b));
      os << "EVENT_WRITE type=" << eventTypeOf(event)
         << (eventTypeOf(event) == CS_PARTIAL_FLUSH ? " (CS_PARTIAL_FLUSH)"
                                                    : "")
         << " index=" << eventIndexOf(event) << '\n';
      break;
    }
    case INDIRECT_BUFFER: {
      namespace ib = indirect_buffer;
      if (Error e = expect("INDIRECT_BUFFER", ib::BODY_DWORDS))
        return e;
      os << "INDIRECT_BUFFER";
      p.address("addr", b + ib::BASE_LO);
      if (auto control = p.value(b + ib::CONTROL))
        os << " dwords=" << ibSizeOf(*control)
           << ((*control & IB_VALID) ? " valid" : "");
      else
        p.field("control", b + ib::CONTROL);
      os << '\n';
      break;
    }
    default:
      return failAt("PM4 packet", at,
                    "unknown opcode " + Twine::utohexstr(packetOpcode(header)));
    }
    at += 1 + body;
  }
  return Error::success();
}

Error disassembleSDMA(ArrayRef<DisasmWord> words, const amd::Target &target,
                      raw_ostream &os) {
  using namespace amd::sdma;
  Printer p(words, os, 8);
  for (size_t at = 0; at < words.size();) {
    Expected<uint32_t> headerOrError = packetHeader(words, at, "SDMA packet");
    if (!headerOrError)
      return headerOrError.takeError();
    uint32_t header = *headerOrError;
    auto need = [&](StringRef name, size_t n) -> Error {
      if (at + n > words.size())
        return failAt("SDMA " + name.str(), at,
                      "truncated: needs " + Twine(n) + " dwords, " +
                          Twine(words.size() - at) + " remain");
      return Error::success();
    };
    os << format_decimal(at, 4) << ": ";
    size_t length;
    switch (headerOp(header)) {
    case OP_NOP:
      length = 1 + nopCountOf(header);
      if (Error e = need("NOP", length))
        return e;
      os << "NOP dwords=" << length << '\n';
      break;
    case OP_COPY:
      if (headerSubOp(header) != SUBOP_COPY_LINEAR)
        return failAt("SDMA COPY", at,
                      "unknown sub-op " + Twine(headerSubOp(header)));
      length = COPY_LINEAR_DWORDS;
      if (Error e = need("COPY_LINEAR", length))
        return e;
      os << "COPY_LINEAR";
      if (auto count = p.value(at + copy_linear::COUNT))
        os << " bytes=" << (*count + 1);
      else
        p.field("count", at + copy_linear::COUNT);
      p.field("parameter", at + copy_linear::PARAMETER);
      p.address("src", at + copy_linear::SRC_LO);
      p.address("dst", at + copy_linear::DST_LO);
      os << '\n';
      break;
    case OP_POLL_REGMEM:
      length = POLL_REGMEM_DWORDS;
      if (Error e = need("POLL_REGMEM", length))
        return e;
      os << "POLL_REGMEM " << ((header & POLL_MEM) ? "mem" : "reg");
      if (header & POLL_HDP_FLUSH)
        os << " hdp_flush";
      os << " function=" << pollFunctionOf(header);
      if (header & POLL_MEM) {
        p.address("addr", at + poll_regmem::ADDRESS_LO);
      } else {
        // Registers as byte addresses: printed as dword offsets, the way
        // WAIT_REG_MEM's are.
        for (auto [name, i] : {std::pair{"reg", poll_regmem::REGISTER_REQUEST},
                               {"reg_done", poll_regmem::REGISTER_DONE}}) {
          if (auto v = p.value(at + i))
            os << ' ' << name << '=' << format_hex(*v >> 2, 10);
          else
            p.field(name, at + i);
        }
      }
      p.field("value", at + poll_regmem::VALUE);
      p.field("mask", at + poll_regmem::MASK);
      if (auto dw5 = p.value(at + poll_regmem::INTERVAL_RETRY))
        os << " interval=" << pollIntervalOf(*dw5)
           << " retry=" << format_hex(pollRetryOf(*dw5), 5);
      os << '\n';
      break;
    case OP_FENCE:
      length = FENCE_DWORDS;
      if (Error e = need("FENCE", length))
        return e;
      os << "FENCE";
      if (!target.isGfx9())
        os << " mtype=" << fenceMTypeOf(header);
      p.address("addr", at + fence::ADDRESS_LO);
      p.field("data", at + fence::DATA);
      os << '\n';
      break;
    case OP_TRAP:
      length = TRAP_DWORDS;
      if (Error e = need("TRAP", length))
        return e;
      os << "TRAP";
      p.field("int_context", at + trap::INT_CONTEXT);
      os << '\n';
      break;
    case OP_TIMESTAMP:
      if (headerSubOp(header) != SUBOP_TIMESTAMP_GET_GLOBAL)
        return failAt("SDMA TIMESTAMP", at,
                      "unknown sub-op " + Twine(headerSubOp(header)));
      length = TIMESTAMP_DWORDS;
      if (Error e = need("TIMESTAMP", length))
        return e;
      os << "TIMESTAMP global";
      p.address("addr", at + timestamp::ADDRESS_LO);
      os << '\n';
      break;
    default:
      return failAt("SDMA packet", at,
                    "unknown opcode " + Twine(headerOp(header)));
    }
    at += length;
  }
  return Error::success();
}

Error disassembleCPU(ArrayRef<DisasmWord> words, raw_ostream &os) {
  using namespace cpu;
  if (words.size() % ENTRY_WORDS)
    return createStringError(inconvertibleErrorCode(),
                             "CPU stream of " + Twine(words.size()) +
                                 " words is not whole " + Twine(ENTRY_WORDS) +
                                 "-word entries");
  Printer p(words, os, 16);
  static const char *const argNames[NUM_HOST_FUNCTIONS][7] = {
      {"kernel", "kernargs", "x", "y", "z", "", ""},
      {"signal", "value", "", "", "", "", ""},
      {"signal", "value", "", "", "", "", ""},
      {"slot", "", "", "", "", "", ""},
      {"dst", "src", "bytes", "", "", "", ""},
  };
  for (size_t at = 0; at < words.size(); at += ENTRY_WORDS) {
    const DisasmWord &fn = words[at];
    if (!fn.hostFunction || *fn.hostFunction >= NUM_HOST_FUNCTIONS)
      return createStringError(
          inconvertibleErrorCode(),
          "CPU entry at word " + Twine(at) +
              ": word 0 is not a runtime host function (" +
              (fn.value ? Twine::utohexstr(*fn.value) : Twine(fn.symbol)) +
              ")");
    os << format_decimal(at / ENTRY_WORDS, 4) << ": "
       << getHostFunctionName(static_cast<HostFunction>(*fn.hostFunction));
    for (unsigned i = 0; i < 7; ++i) {
      StringRef name = argNames[*fn.hostFunction][i];
      if (!name.empty())
        p.field(name, at + 1 + i);
      else if (!words[at + 1 + i].value || *words[at + 1 + i].value != 0)
        return createStringError(inconvertibleErrorCode(),
                                 "CPU entry at word " + Twine(at) +
                                     ": unused word " + Twine(i + 1) +
                                     " is not zero");
    }
    os << '\n';
  }
  return Error::success();
}

} // namespace hcq
