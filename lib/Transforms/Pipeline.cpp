//===- Pipeline.cpp - The hcq-pipeline ------------------------------------===//

#include "HCQ/Transforms/Passes.h"

#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"

using namespace mlir;

namespace hcq {

#define GEN_PASS_REGISTRATION
#include "HCQ/Transforms/Passes.h.inc"

void buildPipeline(OpPassManager &pm, const PipelineOptions &options) {
  (void)pm;
  (void)options;
}

void registerPasses() {
  registerHCQPasses();
  PassPipelineRegistration<PipelineOptions>(
      "hcq-pipeline",
      "Compile an hcq schedule through every stage that exists so far",
      buildPipeline);
}

} // namespace hcq
