//===- LowerSubmit.cpp - Enqueues into queue pushes -----------------------===//
//
// Seed section 5 ("lower submits"): each backend's way of getting a sealed
// command buffer onto its queue.
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
    PushMode mode;
    Value source = enqueue.getCmdbuf();
    int64_t size = enqueue.getSize();
    if (failed(target->lowerEnqueue(enqueue, placeholders, mode, source, size)))
      return failure();
    OpBuilder builder(enqueue);
    PushOp::create(builder, enqueue.getLoc(), source, size, mode, devices,
                   enqueue.getQueue());
    enqueue.erase();
    return success();
  }
};

} // namespace
