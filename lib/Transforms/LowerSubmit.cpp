//===- LowerSubmit.cpp - Enqueues into queue pushes -----------------------===//
//
// Seed section 5 ("lower submits"): each backend's way of getting a sealed
// command buffer onto its queue. The target returns a plan (the push mode,
// and for a PM4 ring the packets that point at the command buffer); this
// pass makes the ops.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"

namespace hcq {
#define GEN_PASS_DEF_HCQLOWERSUBMIT
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

struct LowerSubmitPass : public hcq::impl::HCQLowerSubmitBase<LowerSubmitPass> {
  using Base::Base;

  void runOnOperation() override {
    ScheduleOp schedule = getOperation();
    if (schedule.getBody().empty())
      return;
    PlaceholderCache placeholders(schedule);
    for (EnqueueOp enqueue : llvm::make_early_inc_range(
             schedule.getBody().front().getOps<EnqueueOp>()))
      if (failed(lower(enqueue, placeholders)))
        return signalPassFailure();
  }

  LogicalResult lower(EnqueueOp enqueue, PlaceholderCache &placeholders) {
    DevicesAttr devices = enqueue.getDevices();
    DeviceKind kind = devices.front().getKind();
    if (!devices.allOfKind(kind))
      return enqueue.emitOpError("spans devices of several kinds: no one "
                                 "target pushes it");
    // The target says how its queue takes the command buffer (a PM4 ring an
    // INDIRECT_BUFFER packet to it); the ring, pointers and doorbell are the
    // runtime's: the push names the device queue, and the runtime checks at
    // load that the push fits its ring.
    FailureOr<TargetAttrInterface> target = lookupScheduleTarget(enqueue, kind);
    if (failed(target))
      return failure();
    FailureOr<PushPlan> plan = target->planPush(enqueue);
    if (failed(plan))
      return failure();
    OpBuilder builder(enqueue);
    Value source = enqueue.getCmdbuf();
    int64_t size = enqueue.getSize();
    if (!plan->words.empty()) {
      // The packets go in a blob of their own, whose patches name the
      // command buffer.
      MLIRContext *ctx = enqueue.getContext();
      Value packets =
          placeholders.get(PlaceholderTag::cmdbuf, placeholders.freshSlot(),
                           BufferType::get(ctx, int64_t(plan->words.size()) * 4,
                                           IntegerType::get(ctx, 8), devices),
                           /*isVolatile=*/false);
      BlobOp::create(builder, enqueue.getLoc(), packets, plan->words,
                     plan->patches, ValueRange{source},
                     /*lane=*/std::nullopt);
      source = packets;
      size = plan->pushBytes;
    }
    PushOp::create(builder, enqueue.getLoc(), source, size, plan->mode, devices,
                   enqueue.getQueue());
    enqueue.erase();
    return success();
  }
};

} // namespace
