//===- Encode.cpp - Submits into command words ----------------------------===//
//
// Seed section 3: every submit of a schedule becomes its target's command
// words. The target (the schedule's hcq.targets, TargetAttrInterface) does
// the encoding; this pass finds each submit's.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "llvm/ADT/MapVector.h"

namespace hcq {
#define GEN_PASS_DEF_HCQENCODE
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

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
    for (auto &[kind, submits] : byKind) {
      FailureOr<TargetAttrInterface> target =
          lookupScheduleTarget(submits.front(), kind);
      if (failed(target) || failed(target->encodeSubmits(schedule, submits)))
        return signalPassFailure();
    }
  }
};

} // namespace
