//===- Passes.h - HCQ passes ------------------------------------*- C++ -*-===//

#ifndef HCQ_TRANSFORMS_PASSES_H
#define HCQ_TRANSFORMS_PASSES_H

#include "HCQ/Dialect/HCQ.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace hcq {

#define GEN_PASS_DECL
#include "HCQ/Transforms/Passes.h.inc"

/// Options of the whole pipeline; each stage takes the ones it needs.
struct PipelineOptions : public mlir::PassPipelineOptions<PipelineOptions> {};

/// Appends every stage of the hcq pipeline that exists to `pm`.
void buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers every hcq pass and the `hcq-pipeline` pipeline.
void registerPasses();

} // namespace hcq

#endif // HCQ_TRANSFORMS_PASSES_H
