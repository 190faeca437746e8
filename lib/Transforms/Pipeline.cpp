//===- Pipeline.cpp - The hcq-pipeline ------------------------------------===//

#include "HCQ/Transforms/Passes.h"

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

  HCQBatchDepsOptions batch;
  batch.batchSize = options.batchSize;
  batch.profile = options.profile;
  batch.devices = options.devices;
  pm.addPass(createHCQBatchDeps(batch));

  HCQEncodeAMDOptions encode;
  encode.target = options.target;
  pm.addPass(createHCQEncodeAMD(encode));
  pm.addPass(createHCQEncodeCPU());
  pm.addPass(createHCQSeal());
  pm.addPass(createHCQLowerSubmit());
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
