//===- TargetInterface.h - What a target returns ----------------*- C++ -*-===//
//
// The data TargetAttrInterface's methods return. A target reads ops and
// answers with words, as upstream's gpu::TargetAttrInterface answers
// serializeToObject with bytes: hcq-encode and hcq-lower-submit make the ops
// and decide where they go. A target changes no IR; hcq-encode erases each
// op the target is done with (SubmitEncoder::encode), so a target never
// sees an op it was given disappear before it said so.
//
// HCQ/Dialect/HCQ.h includes it where the interface needs it (after the
// attributes and ops): include that, not this.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_DIALECT_TARGETINTERFACE_H
#define HCQ_DIALECT_TARGETINTERFACE_H

#include "HCQ/Dialect/Words.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Location.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/STLFunctionalExtras.h"

#include <memory>

namespace hcq {

struct DisasmWord;

/// Memory a submit's words name that has no value while the target encodes:
/// the pass makes it once the submit is encoded. A placeholder or a
/// kernel's program is made once per schedule (at its start, in the order
/// the target asked for them: PlaceholderCache); a stream is another
/// hcq.cmds of the same submit (a launch's kernel arguments), whose op the
/// pass makes before the words that address it.
struct DeferredRef {
  enum class Kind : uint8_t {
    /// `bytes` bytes (i8) on `devices`, not volatile.
    placeholder,
    /// A one-word volatile signal-like placeholder on `devices`.
    signal,
    /// `hcq.program @kernel` on `devices`, `bytes` long.
    program,
    /// EncodedSubmit::indirect[stream]'s memory.
    stream,
  };
  Kind kind = Kind::placeholder;
  PlaceholderTag tag = PlaceholderTag::cmdbuf;
  int64_t slot = 0;
  int64_t bytes = 1;
  /// Null for a stream.
  DevicesAttr devices;
  /// A program's kernel.
  mlir::FlatSymbolRefAttr kernel;
  unsigned stream = 0;
};

/// One hcq.cmds op's worth of words: its properties, built in the op's own
/// form so they move into it, and the values its words name (its operands).
/// A word naming a DeferredRef has a null value in `refs` until the pass
/// fills it (`deferredRefs`).
struct EncodedStream {
  explicit EncodedStream(unsigned bits) : words(bits) {}

  PlaceholderTag tag = PlaceholderTag::cmdbuf;
  /// Where the op goes in diagnostics; null: the submit's.
  mlir::LocationAttr loc;
  WordStreamBuilder words;
  llvm::SmallVector<mlir::Value> refs;
  /// (index in `refs`, index in EncodedSubmit::deferred).
  llvm::SmallVector<std::pair<int32_t, uint32_t>> deferredRefs;
};

/// A submit's body as its target encodes it: command words for its queue,
/// and the indirect streams they address, made first (before `commands`, in
/// order, at the end of the submit's body).
struct EncodedSubmit {
  EncodedSubmit() : commands(32) {}

  /// In the order the target asked for them.
  llvm::SmallVector<DeferredRef> deferred;
  llvm::SmallVector<EncodedStream, 1> indirect;
  EncodedStream commands;
};

/// Encodes the submits of one schedule on one target's devices, one at a
/// time, keeping what they share (each kernel's code object read once).
class SubmitEncoder {
public:
  virtual ~SubmitEncoder() = default;

  /// The words for `ops`, the body of `submit` (not encoded yet). It changes
  /// no IR: diagnostics name the op that cannot be encoded. Once done with
  /// an op, it calls `encoded` with it, in order, and reads it no more: the
  /// caller may erase it then, so that a big submit's ops are freed as its
  /// words grow.
  virtual mlir::FailureOr<EncodedSubmit>
  encode(SubmitOp submit, llvm::ArrayRef<mlir::Operation *> ops,
         llvm::function_ref<void(mlir::Operation *)> encoded) = 0;
};

/// How a sealed command buffer is pushed onto its queue.
struct PushPlan {
  PushMode mode = PushMode::cpu;
  /// Empty when the queue takes the command buffer itself. Otherwise the
  /// words of a blob pushed instead (packets that point at the command
  /// buffer, then fill the queue never reads), its link patches naming the
  /// command buffer (hcq.blob `patches`, ref 0), and how many of its bytes
  /// are pushed.
  llvm::SmallVector<int32_t> words;
  SymbolEntries patches;
  int64_t pushBytes = 0;
};

/// What an indirect-buffer packet runs: `dwords` dwords at `address`.
struct IndirectBuffer {
  uint64_t address = 0;
  uint32_t dwords = 0;
};

} // namespace hcq

#endif // HCQ_DIALECT_TARGETINTERFACE_H
