//===- Executable.h - The executable the runtime loads ----------*- C++ -*-===//
//
// The in-memory form of an hcq executable and its file format ("HCQX"): what
// hcq-opt's --hcq-write-executable writes and the runtime reads, without
// MLIR. The format is documented in docs/executable-format.md.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_EXECUTABLE_H
#define HCQ_RUNTIME_EXECUTABLE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hcq::runtime {

struct Device {
  uint32_t kind = 0; // hcq::DeviceKind
  uint32_t index = 0;
  bool operator==(const Device &o) const {
    return kind == o.kind && index == o.index;
  }
};

/// A value the plan refers to: a buffer or a bound variable.
struct Value {
  enum Kind : uint32_t { Input, Alloc, Placeholder, Program, Variable };
  Kind kind = Input;
  /// Input and Variable: the schedule argument; Program: the kernel index.
  uint32_t index = 0;
  uint32_t tag = 0; // hcq::PlaceholderTag, for placeholders
  int64_t slot = 0;
  uint64_t bytes = 0; // per lane; for variables, their bit width
  bool isVolatile = false;
  std::vector<Device> devices;
  bool operator==(const Value &o) const;
};

/// Kernel::target, the values of hcq::KernelTarget (HCQBase.td).
enum : uint32_t { KERNEL_CPU = 0, KERNEL_AMD = 1, KERNEL_BUILTIN = 2 };

struct Kernel {
  std::string name;
  uint32_t target = KERNEL_CPU;
  std::string symbol, library;
  std::vector<uint8_t> codeObject;
  bool operator==(const Kernel &o) const;
};

/// A command word: kind, part, shift, OR bits and offset or addend, as in
/// #hcq.word; `refs` are value indices, one per lane or one for all.
struct Word {
  uint32_t kind = 0, part = 0, shift = 0;
  uint64_t value = 0, orBits = 0;
  std::vector<uint32_t> refs;
  bool operator==(const Word &o) const;
};

struct Blob {
  uint32_t target = 0;
  std::vector<uint8_t> data;
  std::vector<std::pair<uint64_t, Word>> patches; // byte offset, word
  bool operator==(const Blob &o) const;
};

struct InputsTable {
  uint32_t table = 0;
  std::vector<std::pair<uint32_t, uint32_t>> slots; // input value, lane
  bool operator==(const InputsTable &o) const;
};

/// One step of a submitter; operands index the submitter's arguments.
struct Step {
  enum Kind : uint32_t { Fence, Reset, PatchGroup, Push, Finalize };
  Kind kind = Fence;
  std::vector<uint32_t> operands;
  /// PatchGroup: start, count, bits; Push: size, mode, queue kind and index.
  std::vector<uint64_t> immediates;
  Word word;                   // PatchGroup
  std::vector<Device> devices; // Push
  bool operator==(const Step &o) const;
};

struct Submitter {
  uint32_t numArgs = 0;
  std::vector<Step> steps;
  bool operator==(const Submitter &o) const;
};

/// One step of the host plan.
struct PlanStep {
  enum Kind : uint32_t { Call, HostCall, Copy, Launch };
  Kind kind = Call;
  uint32_t callee = 0;              // Call: submitter; Launch: kernel
  std::string name;                 // HostCall: callee
  std::vector<uint32_t> operands;   // value indices
  std::vector<uint64_t> immediates; // Copy: offsets and sizes; Launch: grid
  bool operator==(const PlanStep &o) const;
};

/// A call's timestamp pair, with profiling on: `start` and `end` are
/// `timestamp` placeholder values (one slot per lane of their devices).
struct ProfileEntry {
  std::string name; // the kernel, or "copy"
  uint32_t start = 0, end = 0;
  uint32_t queueKind = 0, queueIndex = 0; // hcq::QueueKind, index
  bool operator==(const ProfileEntry &o) const;
};

struct Executable {
  std::string name;
  uint32_t numArgs = 0;
  std::vector<Value> values;
  std::vector<Kernel> kernels;
  std::vector<Blob> blobs;
  std::vector<InputsTable> inputs;
  std::vector<Submitter> submitters;
  std::vector<PlanStep> plan;
  std::vector<ProfileEntry> profile;
  bool operator==(const Executable &o) const;
};

/// What the executable's plan uses each schedule argument as.
struct ArgumentUse {
  enum Kind { Unused, Buffer, Variable };
  Kind kind = Unused;
  size_t lanes = 0;   // a buffer's lanes (at least one)
  uint64_t bytes = 0; // a buffer's bytes per lane
};
/// One entry per schedule argument, from the input and variable values.
std::vector<ArgumentUse> getArgumentUses(const Executable &exe);

/// The current format version; readers reject others. Version 2 added the
/// profile entries.
constexpr uint32_t FORMAT_VERSION = 2;

/// Serializes `exe` as an HCQX file.
std::vector<uint8_t> writeExecutable(const Executable &exe);

/// Parses an HCQX file. Never reads out of bounds: a truncated, corrupt or
/// foreign file is an error saying what is wrong and where.
llvm::Expected<Executable> readExecutable(llvm::ArrayRef<uint8_t> bytes);

/// Recomputes the checksum of a file in place (for tests that corrupt a
/// payload and want the parser, not the checksum, to catch it).
void resealExecutable(std::vector<uint8_t> &bytes);

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_EXECUTABLE_H
