//===- Encode.cpp - Submits into command words ----------------------------===//
//
// Seed section 3: every submit of a schedule becomes its target's command
// words. The target (in the schedule's targets, TargetAttrInterface)
// returns the words of each submit; this pass makes the ops that hold them,
// and the placeholders and programs they name, and erases the ops they
// replace, as upstream's gpu-module-to-binary makes gpu.binary from the
// bytes a gpu::TargetAttrInterface returns.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"

namespace hcq {
#define GEN_PASS_DEF_HCQENCODE
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

/// Makes the placeholder or program `ref` names, or finds it: each once per
/// schedule (`placeholders`). A stream is made with its submit's ops.
Value materialize(const DeferredRef &ref, PlaceholderCache &placeholders) {
  MLIRContext *ctx = ref.devices.getContext();
  switch (ref.kind) {
  case DeferredRef::Kind::placeholder:
    return placeholders.get(
        ref.tag, ref.slot,
        BufferType::get(ctx, ref.bytes, IntegerType::get(ctx, 8), ref.devices),
        /*isVolatile=*/false);
  case DeferredRef::Kind::signal:
    return placeholders.getSignal(ref.tag, ref.slot, ref.devices);
  case DeferredRef::Kind::program:
    return placeholders.getProgram(ref.kernel, ref.devices, ref.bytes);
  case DeferredRef::Kind::stream:
    break;
  }
  llvm_unreachable("a stream is no placeholder");
}

/// Makes the hcq.cmds op holding `stream` at the builder's insertion point;
/// its words name `resolved[i]` for the submit's DeferredRef i. Fails, on
/// `submit`, when one is not made yet (a stream named before it is made).
FailureOr<CmdsOp> buildCmds(OpBuilder &builder, SubmitOp submit,
                            EncodedStream stream, ArrayRef<Value> resolved) {
  for (auto [ref, deferred] : stream.deferredRefs)
    if (!(stream.refs[ref] = resolved[deferred]))
      return submit.emitOpError()
             << "has " << stringifyPlaceholderTag(stream.tag)
             << " words naming an indirect stream its target did not return "
                "before them";
  Type result = stream.tag == PlaceholderTag::cmdbuf
                    ? Type()
                    : LinearType::get(builder.getContext());
  Location loc = stream.loc ? Location(stream.loc) : submit.getLoc();
  // Made empty, then the words move in: a big stream is not copied.
  auto op =
      CmdsOp::create(builder, loc, result ? TypeRange{result} : TypeRange{},
                     stream.tag, stream.words.bits(), ArrayRef<int32_t>{},
                     SymbolEntries{}, ArrayRef<int32_t>{}, ValueRange{});
  op->setOperands(stream.refs);
  CmdsOp::Properties &props = op.getProperties();
  props.words = std::move(stream.words.units);
  props.symbols = std::move(stream.words.symbols);
  props.segments = std::move(stream.words.segments);
  return op;
}

/// Ops erased between two calls of the context's release hook
/// (HCQDialect::releaseFreedMemory): a few MB of ops (128 to 188 bytes
/// each), so that a schedule of a million calls (1.6 million ops once
/// hcq-batch-deps added its waits and stores) calls it 24 times.
constexpr size_t RELEASE_EVERY_OPS = 1 << 16;

/// Replaces the body of `submit`, whose ops the encoder erased, by
/// `encoded`'s streams.
LogicalResult replaceBody(SubmitOp submit, EncodedSubmit encoded,
                          PlaceholderCache &placeholders) {
  // Placeholders and programs first, in the order the target asked for them
  // (they go at the schedule's start in that order).
  SmallVector<Value> resolved(encoded.deferred.size());
  for (auto [ref, value] : llvm::zip_equal(encoded.deferred, resolved))
    if (ref.kind != DeferredRef::Kind::stream)
      value = materialize(ref, placeholders);
  // The indirect streams, each before the words that address it.
  OpBuilder builder = OpBuilder::atBlockEnd(&submit.getBody().front());
  for (auto [index, stream] : llvm::enumerate(encoded.indirect)) {
    FailureOr<CmdsOp> op =
        buildCmds(builder, submit, std::move(stream), resolved);
    if (failed(op))
      return failure();
    for (auto [ref, value] : llvm::zip_equal(encoded.deferred, resolved))
      if (ref.kind == DeferredRef::Kind::stream && ref.stream == index)
        value = op->getLinear();
  }
  return buildCmds(builder, submit, std::move(encoded.commands), resolved);
}

struct EncodePass : public hcq::impl::HCQEncodeBase<EncodePass> {
  using Base::Base;

  void runOnOperation() override {
    ScheduleOp schedule = getOperation();
    // The submits still to encode, by device kind; a CPU SUBMIT queue is
    // the host's (the batched submitter), not encoded.
    llvm::MapVector<DeviceKind, SmallVector<SubmitOp>> byKind;
    // Not into a submit's body: it holds no submit, and a big one's ops are
    // many.
    WalkResult walk = schedule.walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto submit = dyn_cast<SubmitOp>(op);
      if (!submit)
        return WalkResult::advance();
      FailureOr<bool> encoded = isEncoded(submit);
      if (failed(encoded))
        return WalkResult::interrupt();
      DevicesAttr devices = submit.getDevices();
      if (*encoded || submit.getQueue().getKind() == QueueKind::SUBMIT)
        return WalkResult::skip();
      DeviceKind kind = devices.front().getKind();
      if (!devices.allOfKind(kind)) {
        submit.emitOpError("spans devices of several kinds: no one target "
                           "encodes it");
        return WalkResult::interrupt();
      }
      byKind[kind].push_back(submit);
      return WalkResult::skip();
    });
    if (walk.wasInterrupted())
      return signalPassFailure();
    auto *dialect = schedule->getContext()->getLoadedDialect<HCQDialect>();
    size_t erasedOps = 0;
    for (auto &[kind, submits] : byKind) {
      FailureOr<TargetAttrInterface> target =
          lookupScheduleTarget(submits.front(), kind);
      if (failed(target))
        return signalPassFailure();
      // One placeholder table per target: its placeholders stay together at
      // the schedule's start.
      PlaceholderCache placeholders(schedule);
      std::unique_ptr<SubmitEncoder> encoder = target->createSubmitEncoder();
      for (SubmitOp submit : submits) {
        FailureOr<SmallVector<Operation *>> ops = getOpsToEncode(submit);
        if (failed(ops))
          return signalPassFailure();
        // Each op is erased as soon as it is encoded. The memory freed
        // is what the words could take, but an allocator keeps it apart
        // from the big arrays words are: the application may give it back
        // (at 1,000,000 one-device calls, hcq-opt's peak was 678-691 MB
        // without, 566-571 MB giving it back after each submit; 556-558
        // against 569-571 MB erasing each op as it is encoded, without
        // huge pages).
        size_t erased = 0;
        auto eraseEncoded = [&](Operation *op) {
          assert(op == (*ops)[erased] && "ops encoded out of order");
          op->erase();
          ++erased;
          if (++erasedOps >= RELEASE_EVERY_OPS) {
            dialect->releaseFreedMemory();
            erasedOps = 0;
          }
        };
        FailureOr<EncodedSubmit> encoded =
            encoder->encode(submit, *ops, eraseEncoded);
        if (failed(encoded))
          return signalPassFailure();
        // An encoder passes every op it encoded to eraseEncoded; those
        // left (none, from hcq's encoders) go now.
        for (Operation *op : ArrayRef(*ops).drop_front(erased))
          op->erase();
        if (failed(replaceBody(submit, std::move(*encoded), placeholders)))
          return signalPassFailure();
      }
    }
  }
};

} // namespace
