//===- Utils.h - Helpers shared by the hcq passes ---------------*- C++ -*-===//

#ifndef HCQ_TRANSFORMS_UTILS_H
#define HCQ_TRANSFORMS_UTILS_H

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Target/AMD/Target.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"

namespace hcq {

/// Reports a bad pass option, naming the pass, e.g. "hcq-batch-deps:
/// 'batch-size' must not be negative", when the pass manager is set up,
/// before any pass runs: there is no op yet, so the diagnostic has no
/// location, and the driver gives it the input's (reportAtInput).
mlir::InFlightDiagnostic emitOptionError(mlir::MLIRContext *ctx,
                                         llvm::StringRef pass);

/// Registers a handler on `ctx` that reports every diagnostic without a
/// location (a bad pass option) at `input` instead, the input file's
/// location, so no error reads "<unknown>:0". Returns its id, for
/// DiagnosticEngine::eraseHandler. hcq-opt and hcq-translate
/// --hcq-to-executable register it before running a pipeline.
mlir::DiagnosticEngine::HandlerID reportAtInput(mlir::MLIRContext *ctx,
                                                mlir::Location input);

/// The AMD target a pass option names; an unknown one is reported (naming
/// the pass and the targets there are) and gives nothing.
std::optional<amd::Target> lookupTargetOption(mlir::MLIRContext *ctx,
                                              llvm::StringRef pass,
                                              llvm::StringRef name);

/// A set of device kinds, parsed from a pass option such as "AMD,CPU".
class DeviceKindSet {
public:
  /// Parses `text`; on error reports it as a bad option `option` of `pass`.
  static mlir::FailureOr<DeviceKindSet> parse(llvm::StringRef text,
                                              llvm::StringRef option,
                                              mlir::MLIRContext *ctx,
                                              llvm::StringRef pass);

  bool contains(DeviceKind kind) const {
    return mask & (1u << static_cast<uint32_t>(kind));
  }
  /// Whether every device of the tuple is of a kind in the set.
  bool containsAll(DevicesAttr devices) const;

private:
  uint32_t mask = 0;
};

/// The buffer a value views, and the byte offset of the view in it.
struct BufferBase {
  mlir::Value base;
  int64_t byteOffset = 0;
};
BufferBase getBufferBase(mlir::Value buffer);

/// Every hcq.schedule of `root` and of the modules nested in it, in order:
/// a schedule in a nested module compiles there, against that module's
/// kernels.
llvm::SmallVector<ScheduleOp> getSchedules(mlir::ModuleOp root);
/// Likewise every hcq.executable.
llvm::SmallVector<ExecutableOp> getExecutables(mlir::ModuleOp root);

/// Whether `kernel` is the builtin copy (abi::BUILTIN_COPY_KERNEL), which
/// AMD devices run as their chip's copy kernel.
bool isBuiltinCopy(KernelOp kernel);

/// The amd kernel hcq-materialize-builtins adds for the builtin copy on
/// `target`, "hcq_copy_<target>", which hcq-encode dispatches.
std::string getBuiltinCopyKernelName(std::string_view target);

/// Whether `submit` is encoded already (only command words left): an
/// encoder then leaves it as it is. It is, when its first op is command
/// words. One holding both command words and ops to encode is refused,
/// naming it: an encoder that stopped halfway, or hand-mixed input, would
/// otherwise be encoded twice or not at all. Here when the words come
/// first, by getOpsToEncode otherwise (an encoder reads every op anyway).
mlir::FailureOr<bool> isEncoded(SubmitOp submit);

/// The ops of a submit to encode, in order, read once (a big submit's ops
/// are far apart in memory); refuses command words among them.
mlir::FailureOr<llvm::SmallVector<mlir::Operation *>>
getOpsToEncode(SubmitOp submit);

/// The devices a queue call is enqueued on (seed `_get_enqueue_devs`), or
/// null when it cannot be enqueued: no buffers, or a buffer on a device kind
/// outside `hcqKinds`. Only the buffers with the most lanes are candidates
/// (so a broadcast copy runs on its destination's devices); among them,
/// copies look at the source first (pushing is faster than pulling),
/// kernels at their buffers in order; a non-CPU device wins.
DevicesAttr getEnqueueDevices(QueueCallOpInterface call,
                              const DeviceKindSet &hcqKinds);

/// Creates each placeholder (and kernel program) of a schedule once, at its
/// start, so every op of the schedule may use it.
class PlaceholderCache {
public:
  explicit PlaceholderCache(ScheduleOp schedule) : schedule(schedule) {}

  mlir::Value get(PlaceholderTag tag, int64_t slot, BufferType type,
                  bool isVolatile);
  /// A one-word volatile signal-like placeholder (`!hcq.buffer<1xi64>`).
  mlir::Value getSignal(PlaceholderTag tag, int64_t slot, DevicesAttr devices);
  /// `hcq.program @kernel` on `devices`, `bytes` long.
  mlir::Value getProgram(mlir::FlatSymbolRefAttr kernel, DevicesAttr devices,
                         int64_t bytes);
  /// A slot no placeholder of the schedule has yet (above all in use).
  int64_t freshSlot();

private:
  mlir::OpBuilder builderAtStart();

  ScheduleOp schedule;
  mlir::Operation *last = nullptr;
  int64_t nextSlot = -1;
  /// By (tag, slot, type); signals also by (tag, slot, devices), which
  /// spares building their type.
  llvm::DenseMap<std::tuple<uint32_t, int64_t, const void *>, mlir::Value>
      cache, signals;
  llvm::DenseMap<std::pair<const void *, const void *>, mlir::Value> programs;
};

} // namespace hcq

#endif // HCQ_TRANSFORMS_UTILS_H
