//===- Passes.h - HCQ passes ------------------------------------*- C++ -*-===//

#ifndef HCQ_TRANSFORMS_PASSES_H
#define HCQ_TRANSFORMS_PASSES_H

#include "HCQ/Dialect/HCQ.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassOptions.h"

namespace hcq {

#define GEN_PASS_DECL
#include "HCQ/Transforms/Passes.h.inc"

/// Options of the whole pipeline; each stage takes the ones it needs. The
/// defaults are the passes' own.
struct PipelineOptions : public mlir::PassPipelineOptions<PipelineOptions> {
  Option<std::string> devices{
      *this, "devices",
      llvm::cl::desc("Device kinds with command queues (the seed's HCQ_DEVS)"),
      llvm::cl::init("AMD,CPU")};
  Option<std::string> copyQueues{
      *this, "copy-queues",
      llvm::cl::desc("Device kinds that have a copy queue"),
      llvm::cl::init("AMD,CPU")};
  Option<int64_t> stagingSize{
      *this, "staging-size",
      llvm::cl::desc("Bytes of the pinned CPU staging buffer"),
      llvm::cl::init(128 << 20)};
  Option<int64_t> stagingSlots{
      *this, "staging-slots",
      llvm::cl::desc("Slots the staging buffer is split into"),
      llvm::cl::init(2)};
  Option<int64_t> batchSize{
      *this, "batch-size",
      llvm::cl::desc("Submits merged before the limit doubles; 0: unlimited"),
      llvm::cl::init(32)};
  Option<bool> profile{*this, "profile",
                       llvm::cl::desc("Bracket every call with timestamps"),
                       llvm::cl::init(false)};
  Option<std::string> target{
      *this, "target",
      llvm::cl::desc("AMD GPU generation: gfx1100, gfx1101, gfx1102, gfx942"),
      llvm::cl::init("gfx1100")};
};

/// Appends every stage of the hcq pipeline that exists to `pm`.
void buildPipeline(mlir::OpPassManager &pm, const PipelineOptions &options);

/// Registers every hcq pass and the `hcq-pipeline` pipeline.
void registerPasses();

} // namespace hcq

#endif // HCQ_TRANSFORMS_PASSES_H
