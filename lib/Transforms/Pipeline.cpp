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
  // targets' builtin kernels.
  HCQAttachTargetsOptions targets;
  targets.amd = options.target;
  pm.addPass(createHCQAttachTargets(targets));
  pm.addPass(createHCQMaterializeBuiltins());

  // The stages of one schedule each, on every schedule at any depth (MLIR
  // may run them on several schedules at once).
  HCQCompileSchedulesOptions schedules;
  schedules.batchSize = options.batchSize;
  schedules.profile = options.profile;
  schedules.devices = options.devices;
  pm.addPass(createHCQCompileSchedules(schedules));
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
