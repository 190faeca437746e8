//===- AttachTargets.cpp - Name what schedules compile for ----------------===//
//
// Gives every schedule without targets the targets of the options, as
// upstream's rocdl-attach-target gives gpu.modules a #rocdl.target: the
// passes after it (hcq-encode, hcq-lower-submit, hcq-print-packets) read the
// targets from the IR, not from options of their own.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"

namespace hcq {
#define GEN_PASS_DEF_HCQATTACHTARGETS
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

struct AttachTargetsPass
    : public hcq::impl::HCQAttachTargetsBase<AttachTargetsPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    return success(lookupTargetOption(ctx, getArgument(), amd).has_value());
  }

  void runOnOperation() override {
    Builder builder(&getContext());
    ArrayAttr targets =
        builder.getArrayAttr({AMDTargetAttr::get(&getContext(), amd),
                              CPUTargetAttr::get(&getContext())});
    // A schedule that names its targets keeps them.
    for (ScheduleOp schedule : getSchedules(getOperation())) {
      if (schedule.getTargetsAttr())
        continue;
      schedule.setTargetsAttr(targets);
      // Only the targets changed, and no verifier but theirs reads them:
      // that one rule is checked here. (mlir::verify, even not recursive,
      // checks the dominance of every op in the body: 3% of a
      // 100,000-call compile.)
      if (failed(hcq::detail::verifyTargets(schedule)))
        return signalPassFailure();
    }
    // Nothing else changed and no analysis reads the targets, so the pass
    // manager is told all are preserved, which also spares it verifying
    // every op of the module again (20-40 ms at 100,000 calls).
    markAllAnalysesPreserved();
  }
};

} // namespace
