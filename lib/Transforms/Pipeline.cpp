//===- Pipeline.cpp - The hcq-pipeline ------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace hcq {

#define GEN_PASS_REGISTRATION
#include "HCQ/Transforms/Passes.h.inc"

void buildPipeline(OpPassManager &pm, const PipelineOptions &options) {
  HCQStageCopiesOptions stage;
  stage.stagingSize = options.stagingSize;
  stage.stagingSlots = options.stagingSlots;
  stage.devices = options.devices;
  stage.copyQueues = options.copyQueues;
  pm.addPass(createHCQStageCopies(stage));

  // The schedules name their targets, then one module pass adds the
  // targets' builtin kernels; the passes after it work on one schedule each
  // (MLIR may run them on several schedules at once), in the top-level
  // module and in modules nested in it.
  HCQAttachTargetsOptions targets;
  targets.amd = options.target;
  pm.addPass(createHCQAttachTargets(targets));
  pm.addPass(createHCQMaterializeBuiltins());

  HCQBatchDepsOptions batch;
  batch.batchSize = options.batchSize;
  batch.profile = options.profile;
  batch.devices = options.devices;
  auto addSchedulePasses = [&](OpPassManager &schedules) {
    schedules.addPass(createHCQBatchDeps(batch));
    schedules.addPass(createHCQEncode());
    schedules.addPass(createHCQSeal());
    schedules.addPass(createHCQLowerSubmit());
  };
  OpPassManager *modules = &pm;
  for (unsigned depth = 0;; ++depth) {
    addSchedulePasses(modules->nest<ScheduleOp>());
    if (depth + 1 == MAX_MODULE_NESTING)
      break;
    modules = &modules->nest<ModuleOp>();
  }
  pm.addPass(createHCQBuildExecutable());
}

void registerPasses() {
  registerHCQPasses();
  PassPipelineRegistration<PipelineOptions>(
      "hcq-pipeline",
      "Compile an hcq schedule through every stage that exists so far",
      buildPipeline);
}

} // namespace hcq
