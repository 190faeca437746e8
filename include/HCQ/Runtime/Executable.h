//===- Executable.h - The executable the runtime loads ----------*- C++ -*-===//
//
// The in-memory form of an hcq executable and its file format ("HCQX"): what
// hcq-translate --hcq-to-executable writes and the runtime reads, without
// MLIR. The format is documented in docs/executable-format.md.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_EXECUTABLE_H
#define HCQ_RUNTIME_EXECUTABLE_H

#include "HCQ/Base/Device.h"
#include "HCQ/Runtime/ABI.h"

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <cstdint>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

namespace hcq::runtime {

using abi::ArgumentAccess;
using abi::KernelTarget;
using abi::PlaceholderScope;
using abi::PlaceholderTag;
using abi::PlanStepKind;
using abi::PushMode;
using abi::StepKind;
using abi::ValueKind;
using abi::WordKind;
using abi::WordPart;

/// A device as the file names it: kind and index ("AMD:1").
struct DeviceId {
  DeviceKind kind = DeviceKind::AMD;
  uint32_t index = 0;
  bool operator==(const DeviceId &o) const {
    return kind == o.kind && index == o.index;
  }
  bool operator<(const DeviceId &o) const {
    return kind != o.kind ? kind < o.kind : index < o.index;
  }
  /// "AMD:1".
  std::string str() const { return DeviceName{kind, index}.str(); }
};

/// A value the plan refers to: a buffer or a bound variable.
struct Value {
  ValueKind kind = ValueKind::Input;
  /// Input and Variable: the schedule argument; Program: the kernel index.
  uint32_t index = 0;
  PlaceholderTag tag = PlaceholderTag::signal; // placeholders only
  int64_t slot = 0;   // executable-scoped placeholders; 0 otherwise
  uint64_t bytes = 0; // per lane; for variables, their bit width
  bool isVolatile = false;
  std::vector<DeviceId> devices;
  bool isPlaceholder(PlaceholderTag t) const {
    return kind == ValueKind::Placeholder && tag == t;
  }
  /// How many lanes the value has: one per device, at least one.
  size_t lanes() const { return devices.empty() ? 1 : devices.size(); }
  /// Whose memory the value is: a placeholder's tag says; every other
  /// buffer is the executable's.
  PlaceholderScope scope() const {
    return kind == ValueKind::Placeholder ? abi::getPlaceholderScope(tag)
                                          : PlaceholderScope::Executable;
  }
};

/// What the runtime needs of an AMD kernel, read from its code object by
/// the compiler, so that loading parses no ELF: the loaded image it lives
/// in (Executable::images, one per code object) and its program's facts.
struct AMDKernelFacts : amd::ProgramFacts {
  uint32_t image = 0;
  /// The facts of `info`, whose image is `image` of the executable.
  static AMDKernelFacts of(const amd::KernelInfo &info, uint32_t image) {
    AMDKernelFacts facts;
    static_cast<amd::ProgramFacts &>(facts) = info;
    facts.image = image;
    return facts;
  }
};

/// Bytes an executable holds (an AMD image, a host object): a view of the
/// file the executable was read from, which every record and every copy of
/// the executable shares, or bytes of its own (what the compiler builds).
class SharedBytes {
public:
  SharedBytes() = default;
  SharedBytes(std::vector<uint8_t> bytes);
  SharedBytes(std::initializer_list<uint8_t> bytes)
      : SharedBytes(std::vector<uint8_t>(bytes)) {}
  /// `view` of memory `owner` keeps alive.
  SharedBytes(std::shared_ptr<const void> owner, Span<const uint8_t> view)
      : owner(std::move(owner)), view(view) {}

  const uint8_t *data() const { return view.data(); }
  size_t size() const { return view.size(); }
  const uint8_t *begin() const { return view.begin(); }
  const uint8_t *end() const { return view.end(); }
  /// Equal content.
  bool operator==(const SharedBytes &o) const;
  bool operator!=(const SharedBytes &o) const { return !(*this == o); }

private:
  std::shared_ptr<const void> owner;
  Span<const uint8_t> view;
};

/// Kernel::hostObject of a kernel without one.
constexpr uint32_t NO_HOST_OBJECT = ~0u;

struct Kernel {
  std::string name;
  KernelTarget target = KernelTarget::cpu;
  std::string symbol, library;
  AMDKernelFacts amd; // AMD kernels only
  /// The host object (Executable::hostObjects) holding the kernel's host
  /// code: a CPU kernel's `symbol` (instead of a library), an AMD kernel's
  /// CPU twin `hcq_twin_<symbol>`; NO_HOST_OBJECT if none.
  uint32_t hostObject = NO_HOST_OBJECT;
  bool hasHostObject() const { return hostObject != NO_HOST_OBJECT; }
};

/// A command word (abi::Word, the compiler's too) and the values it names:
/// `refs` are value indices, one per lane or one for all.
struct Word : abi::Word {
  std::vector<uint32_t> refs;
};

struct Blob {
  uint32_t target = 0;
  std::vector<uint8_t> data;
  std::vector<std::pair<uint64_t, Word>> patches; // byte offset, word
};

struct InputsTable {
  uint32_t table = 0;
  std::vector<std::pair<uint32_t, uint32_t>> slots; // input value, lane
};

/// A patch group's range of the offset table: entries [start, start+count),
/// each a `bits`-wide word (32 or 64) of `word` written into the target.
struct PatchGroup {
  uint64_t start = 0, count = 0;
  uint32_t bits = 0;
  Word word;
};

/// A push: the first `bytes` of the command buffer (operand 0) onto device
/// queue `queue` of each of `devices`, one lane each, in `mode`'s way. The
/// runtime owns the queue's ring, pointers and doorbell.
struct Push {
  uint64_t bytes = 0;
  PushMode mode = PushMode::cpu;
  QueueName queue{QueueKind::COMPUTE, 0};
  std::vector<DeviceId> devices;
};

/// One step of a submitter; operands index the submitter's arguments
/// (abi::getStepOperandCount says how many each kind reads). `patch` is a
/// PatchGroup's, `push` a Push's.
struct Step {
  StepKind kind = StepKind::Fence;
  std::vector<uint32_t> operands;
  PatchGroup patch;
  Push push;
};

struct Submitter {
  uint32_t numArgs = 0;
  std::vector<Step> steps;
};

/// A host-run copy's byte ranges: operand 0 is the destination, 1 the
/// source.
struct CopyRanges {
  uint64_t dstOffset = 0, dstBytes = 0, srcOffset = 0, srcBytes = 0;
};

/// A host-run launch's grid: global and local sizes.
struct LaunchGrid {
  uint64_t global[3] = {1, 1, 1}, local[3] = {1, 1, 1};
};

/// One step of the host plan.
struct PlanStep {
  PlanStepKind kind = PlanStepKind::Call;
  uint32_t callee = 0;            // Call: submitter; Launch: kernel
  std::string name;               // HostCall: callee
  std::vector<uint32_t> operands; // value indices
  CopyRanges copy;                // Copy
  LaunchGrid grid;                // Launch
};

/// A call's timestamp pair, with profiling on: `start` and `end` are
/// `timestamp` placeholder values (one slot per lane of their devices).
struct ProfileEntry {
  std::string name; // the kernel, or "copy"
  uint32_t start = 0, end = 0;
  QueueName queue{QueueKind::COMPUTE, 0};
};

/// A schedule argument as its author wrote it, for whoever runs the
/// executable (hcq-run --list-arguments, --input, --output).
struct ArgumentInfo {
  std::string name;        // as written ("x"), or "" when it was numeric
  bool isBuffer = false;   // else a bound variable
  std::string elementType; // "f32", "i32", ...: a variable's own type
  uint64_t count = 1;      // a buffer's elements per lane; 1 for a variable
  ArgumentAccess access = ArgumentAccess::none;
};

struct Executable {
  std::string name;
  uint32_t numArgs = 0;
  /// One per argument (numArgs of them).
  std::vector<ArgumentInfo> arguments;
  /// AMD kernels' loaded images (relocated), each stored once however many
  /// kernels it holds.
  std::vector<SharedBytes> images;
  /// Host ELF shared objects (#hcq.host_target's), each stored once however
  /// many kernels it holds; the runtime loads them from memory.
  std::vector<SharedBytes> hostObjects;
  std::vector<Value> values;
  std::vector<Kernel> kernels;
  std::vector<Blob> blobs;
  std::vector<InputsTable> inputs;
  std::vector<Submitter> submitters;
  std::vector<PlanStep> plan;
  std::vector<ProfileEntry> profile;
  /// The same file: equal records, compared as writeExecutable writes
  /// them (one definition of what a record holds).
  bool operator==(const Executable &o) const;
};

/// Argument `index` as hcq-run and hcq-exe-dump print it: "%x: buffer
/// 64xf32, read" ("arg 3" where the name was numeric, nothing after the
/// type for an argument no call uses).
std::string formatArgument(const ArgumentInfo &argument, size_t index);

/// What the executable's plan uses each schedule argument as.
struct ArgumentUse {
  enum Kind { Unused, Buffer, Variable };
  Kind kind = Unused;
  size_t lanes = 0;   // a buffer's lanes (at least one)
  uint64_t bytes = 0; // a buffer's bytes per lane
  /// Each lane's device, where the executable says (its widest use).
  std::vector<DeviceId> devices;
};
/// One entry per schedule argument, from the input and variable values.
std::vector<ArgumentUse> getArgumentUses(const Executable &exe);

/// Limits the reader enforces: arguments of an executable, bytes of one value
/// (per lane).
constexpr uint32_t MAX_ARGUMENTS = 1 << 16;
constexpr uint64_t MAX_VALUE_BYTES = uint64_t(1) << 40;
/// The largest executable file (header and payload) the reader reads: its
/// blobs, AMD code objects and host objects, never its buffers, are in the
/// file.
constexpr uint64_t MAX_EXECUTABLE_BYTES = uint64_t(1) << 30;

/// The current format version (abi::FORMAT_VERSION); readers reject others.
using abi::FORMAT_VERSION;

/// Serializes `exe` as an HCQX file.
std::vector<uint8_t> writeExecutable(const Executable &exe);

/// Parses an HCQX file. Never reads out of bounds: a truncated, corrupt or
/// foreign file is an error (code InvalidFile) saying what is wrong and
/// where.
Expected<Executable> readExecutable(Span<const uint8_t> bytes);

/// Reads and parses the HCQX file at `path`, reading its 24-byte header
/// first and then only the size it gives (at most MAX_EXECUTABLE_BYTES): a
/// file of another size is refused before anything is allocated, naming the
/// file and both sizes. Errors of the file's content start with "'PATH': ".
Expected<Executable> readExecutableFile(const std::string &path);

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_EXECUTABLE_H
