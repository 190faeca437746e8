//===- CompileSchedules.cpp - The per-schedule stages at any depth --------===//
//
// The stages that work on one schedule each (batch-deps, encode, seal,
// lower-submit) run through a pass manager nested as deep as the input's
// schedules are, built for each run: MLIR's nesting then runs the schedules
// of a module in parallel, and a schedule in a module in a module is
// compiled like one at the top.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"

namespace hcq {
#define GEN_PASS_DEF_HCQCOMPILESCHEDULES
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

struct CompileSchedulesPass
    : public hcq::impl::HCQCompileSchedulesBase<CompileSchedulesPass> {
  using Base::Base;

  void addSchedulePasses(OpPassManager &schedules) const {
    HCQBatchDepsOptions batch;
    batch.batchSize = batchSize;
    batch.profile = profile;
    batch.devices = devices;
    schedules.addPass(createHCQBatchDeps(batch));
    schedules.addPass(createHCQEncode());
    schedules.addPass(createHCQSeal());
    schedules.addPass(createHCQLowerSubmit());
  }

  void getDependentDialects(DialectRegistry &registry) const override {
    OpPassManager schedules(ScheduleOp::getOperationName());
    addSchedulePasses(schedules);
    schedules.getDependentDialects(registry);
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    // How many modules deep the deepest schedule is; a schedule whose
    // parents are not all modules is out of any nesting's reach.
    unsigned depth = 0;
    bool found = false, unreachable = false;
    // Pre-order, so that the skip keeps the walk out of the schedules.
    module->walk<WalkOrder::PreOrder>([&](ScheduleOp schedule) {
      found = true;
      unsigned modules = 0;
      for (Operation *p = schedule->getParentOp(); p != module;
           p = p->getParentOp()) {
        if (!isa<ModuleOp>(p)) {
          schedule.emitOpError()
              << "is inside '" << p->getName()
              << "': hcq-compile-schedules compiles schedules in modules "
                 "(at any depth) only";
          unreachable = true;
          return WalkResult::skip();
        }
        ++modules;
      }
      depth = std::max(depth, modules);
      return WalkResult::skip();
    });
    if (unreachable)
      return signalPassFailure();
    if (!found)
      return;
    OpPassManager pipeline(ModuleOp::getOperationName());
    OpPassManager *modules = &pipeline;
    for (unsigned level = 0;; ++level) {
      addSchedulePasses(modules->nest<ScheduleOp>());
      if (level == depth)
        break;
      modules = &modules->nest<ModuleOp>();
    }
    if (failed(runPipeline(pipeline, module)))
      signalPassFailure();
  }
};

} // namespace
