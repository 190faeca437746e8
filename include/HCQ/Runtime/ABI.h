//===- ABI.h - The facts compiler and runtime share -------------*- C++ -*-===//
//
// Every enum the executable file stores, and the command word, defined
// once: the compiler's executable conversion writes these values, the
// runtime's reader and link read them. The dialect's ODS enums (HCQBase.td)
// carry the same values; lib/Dialect/HCQDialect.cpp ties each case to this
// header with a static_assert, so neither side can drift. The dialect uses
// the word and its two enums as they are. Plain C++: no LLVM, no MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_ABI_H
#define HCQ_RUNTIME_ABI_H

#include <cstdint>

namespace hcq::abi {

/// The executable file's format version; readers refuse every other.
/// 1: first; 2: profile entries; 3: pushes name their device queue (no ring
/// placeholders), placeholders carry their scope, typed step records; 4: the
/// device's interrupt event and its mailbox (placeholder tags 14 and 15,
/// scope DeviceNumber); 5: argument records (name, type, count, access); 6:
/// AMD kernels as loaded images (one per code object) and the descriptor
/// facts the runtime needs, read by the compiler; 7: host objects (host ELF
/// shared objects of #hcq.host_target) and each kernel's host object; 8:
/// sections with their own lengths (a reader skips an optional section it
/// does not know, so adding one needs no new version).
constexpr uint32_t FORMAT_VERSION = 8;

/// The file's header, before its payload (docs/executable-format.md): the
/// magic, FORMAT_VERSION (u32), the payload's size (u64), the CRC-32 of the
/// payload (u32) and a reserved zero (u32), little-endian.
constexpr char FILE_MAGIC[4] = {'H', 'C', 'Q', 'X'};
constexpr unsigned FILE_VERSION_OFFSET = 4;
constexpr unsigned FILE_PAYLOAD_SIZE_OFFSET = 8;
constexpr unsigned FILE_CHECKSUM_OFFSET = 16;
constexpr unsigned FILE_RESERVED_OFFSET = 20;
constexpr unsigned FILE_HEADER_BYTES = 24;

/// What a placeholder becomes when linked (hcq::PlaceholderTag).
enum class PlaceholderTag : uint32_t {
  signal = 0,
  timeline_signal = 1,
  timeline_value = 2,
  epoch = 3,
  sentinel_signal = 4,
  timestamp = 5,
  staging = 6,
  cmdbuf = 7,
  kernargs = 8,
  program = 9,
  scratch = 10,
  inputs = 11,
  offtbl = 12,
  host_function = 13,
  event_mailbox = 14,
  interrupt_event = 15,
};
constexpr uint32_t NUM_PLACEHOLDER_TAGS = 16;

/// The tag as the IR spells it.
constexpr const char *getPlaceholderTagName(PlaceholderTag tag) {
  constexpr const char *names[NUM_PLACEHOLDER_TAGS] = {
      "signal",         "timeline_signal", "timeline_value",
      "epoch",          "sentinel_signal", "timestamp",
      "staging",        "cmdbuf",          "kernargs",
      "program",        "scratch",         "inputs",
      "offtbl",         "host_function",   "event_mailbox",
      "interrupt_event"};
  uint32_t i = static_cast<uint32_t>(tag);
  return i < NUM_PLACEHOLDER_TAGS ? names[i] : "?";
}

/// Whose a placeholder's memory is.
enum class PlaceholderScope : uint32_t {
  /// The executable's own: every executable loaded gets its own memory for
  /// it, keyed by (tag, slot, device) within the executable.
  Executable = 0,
  /// The device's: one memory per (tag, device) for the whole process,
  /// shared by every executable on that device. Such placeholders have no
  /// slot.
  Device = 1,
  /// Not memory: the address of the runtime's entry function `slot`
  /// (hcq::cpu::HostFunction).
  Runtime = 2,
  /// Not memory: a number the device gives, one per (tag, device) for the
  /// whole process (its interrupt event). No slot, as Device.
  DeviceNumber = 3,
};

/// The scope of each tag. Device-scoped are what the seed's device object
/// owns (`signal("timeline")`, `signal("value")`, `signal("sentinel")`) and
/// the AMD scratch a device's compute queue uses. A queue's completion
/// signal (`signal`) is the executable's: its values are the schedule's own
/// submit numbers and the schedule's reset zeroes it every run, so two
/// executables sharing one would satisfy each other's waits. Staging is the
/// executable's too: several devices' queues read and write it, and the
/// timeline of one device does not order another's.
///
/// The event mailbox and the interrupt event are how a device wakes a host
/// that sleeps on its timeline: after a timeline store the host may wait
/// for, the queue writes the event's number into the mailbox and raises an
/// interrupt carrying that number (under KFD: the event's slot of the
/// process's event page, and its event id; docs/runtime.md).
constexpr PlaceholderScope getPlaceholderScope(PlaceholderTag tag) {
  switch (tag) {
  case PlaceholderTag::timeline_signal:
  case PlaceholderTag::timeline_value:
  case PlaceholderTag::sentinel_signal:
  case PlaceholderTag::scratch:
  case PlaceholderTag::event_mailbox:
    return PlaceholderScope::Device;
  case PlaceholderTag::interrupt_event:
    return PlaceholderScope::DeviceNumber;
  case PlaceholderTag::host_function:
    return PlaceholderScope::Runtime;
  default:
    return PlaceholderScope::Executable;
  }
}

/// Where a kernel's code comes from (hcq::KernelTarget).
enum class KernelTarget : uint32_t { cpu = 0, amd = 1, builtin = 2 };

/// The symbol of the one builtin kernel: a copy, element x of a [n, 1, 1]
/// grid in workgroup x (made by hcq-stage-copies, run by every device).
constexpr const char *BUILTIN_COPY_KERNEL = "copy";

/// How a queue takes a push (hcq::PushMode).
enum class PushMode : uint32_t { pm4 = 0, sdma = 1, cpu = 2 };

/// What a command word holds (the dialect's hcq::WordKind is this one). A
/// byte in memory (the file stores a u32): the compiler keeps hundreds of
/// thousands of words in its symbol tables.
enum class WordKind : uint8_t {
  constant = 0,
  address = 1,
  variable = 2,
  load = 3
};

/// Which 32 bits of a 64-bit value a word holds (hcq::WordPart is this
/// one; a byte in memory, a u32 in the file).
enum class WordPart : uint8_t { full = 0, lo = 1, hi = 2 };

/// A command word but for the values it names, which each holder names its
/// own way: the compiler's ops by operand (hcq::Word, HCQ/Dialect/Words.h),
/// the executable file by value index (runtime::Word,
/// HCQ/Runtime/Executable.h). One definition of what a word is:
///
/// * `constant`: `value` is the word itself;
/// * `address`: the address of a value (a buffer or an indirect stream)
///   plus the byte offset `value`, shifted right by `shift`; `part` picks
///   its `lo` or `hi` half, or the `full` 64 bits;
/// * `variable`: the run-time value of a bound variable;
/// * `load`: the 64-bit host value a placeholder holds when the submit is
///   pushed, plus `value` as a signed addend (`part` may pick a half).
///
/// `orBits` are OR-ed into the result (flag bits sharing a word with an
/// address half).
struct Word {
  WordKind kind = WordKind::constant;
  WordPart part = WordPart::full;
  uint32_t shift = 0;
  /// The constant; an address's byte offset; a load's signed addend.
  uint64_t value = 0;
  /// Constant bits OR-ed into a symbolic word.
  uint64_t orBits = 0;

  bool isConstant() const { return kind == WordKind::constant; }
  bool operator==(const Word &o) const {
    return kind == o.kind && part == o.part && shift == o.shift &&
           value == o.value && orBits == o.orBits;
  }
  bool operator!=(const Word &o) const { return !(*this == o); }
};

/// How a schedule uses a buffer argument (the hcq.access argument
/// attribute); none for a variable or a buffer no call touches.
enum class ArgumentAccess : uint32_t {
  none = 0,
  read = 1,
  write = 2,
  readwrite = 3
};

/// What a value of the executable is.
enum class ValueKind : uint32_t {
  Input = 0,       // a schedule buffer argument
  Alloc = 1,       // an hcq.alloc
  Placeholder = 2, // an hcq.placeholder
  Program = 3,     // an hcq.program
  Variable = 4,    // a schedule integer argument
};

/// A step of a submitter (hcq.fence, hcq.reset, hcq.patch_group, hcq.push,
/// hcq.finalize).
enum class StepKind : uint32_t {
  Fence = 0,
  Reset = 1,
  PatchGroup = 2,
  Push = 3,
  Finalize = 4,
};
constexpr uint32_t NUM_STEP_KINDS = 5;

/// The op a step kind comes from, for messages.
constexpr const char *getStepKindName(StepKind kind) {
  switch (kind) {
  case StepKind::Fence:
    return "hcq.fence";
  case StepKind::Reset:
    return "hcq.reset";
  case StepKind::PatchGroup:
    return "hcq.patch_group";
  case StepKind::Push:
    return "hcq.push";
  case StepKind::Finalize:
    return "hcq.finalize";
  }
  return "?";
}

/// The operands each step kind reads (its submitter arguments): fence
/// (timeline signal, epoch), reset (signals...), patch group (target blob,
/// offset table, source), push (command buffer), finalize (timeline value,
/// epoch).
constexpr uint32_t getStepOperandCount(StepKind kind) {
  switch (kind) {
  case StepKind::Fence:
  case StepKind::Finalize:
    return 2;
  case StepKind::Reset:
    return 0; // any number
  case StepKind::PatchGroup:
    return 3;
  case StepKind::Push:
    return 1;
  }
  return 0;
}

/// A step of the host plan.
enum class PlanStepKind : uint32_t {
  Call = 0,     // a submitter
  HostCall = 1, // an hcq.host_call
  Copy = 2,     // a copy outside the HCQ devices, run by the host
  Launch = 3,   // a CPU kernel outside the HCQ devices, run by the host
};
constexpr uint32_t NUM_PLAN_STEP_KINDS = 4;

} // namespace hcq::abi

#endif // HCQ_RUNTIME_ABI_H
