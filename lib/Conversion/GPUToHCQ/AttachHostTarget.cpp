//===- AttachHostTarget.cpp - Add #hcq.host_target to gpu.modules ---------===//
//
// Appends #hcq.host_target to the targets of the gpu.modules whose names
// match, as upstream's rocdl-attach-target does with #rocdl.target; the
// target (lib/Target/Host) then compiles them in gpu-module-to-binary.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Conversion/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/Builders.h"
#include "llvm/Support/Regex.h"

namespace hcq {
#define GEN_PASS_DEF_HCQATTACHHOSTTARGET
#include "HCQ/Conversion/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

struct AttachHostTargetPass
    : public hcq::impl::HCQAttachHostTargetBase<AttachHostTargetPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override {
    std::string error;
    if (!moduleMatcher.empty() && !llvm::Regex(moduleMatcher).isValid(error))
      return emitError(UnknownLoc::get(ctx))
             << getArgument() << ": module regex '" << moduleMatcher
             << "' is invalid: " << error;
    if (optLevel > 3)
      return emitError(UnknownLoc::get(ctx))
             << getArgument() << ": O=" << static_cast<unsigned>(optLevel)
             << " is not 0, 1, 2 or 3";
    return success();
  }

  void runOnOperation() override {
    Builder builder(&getContext());
    auto target = HostTargetAttr::get(&getContext(), optLevel, triple, chip);
    llvm::Regex matcher(moduleMatcher);
    for (auto module : getOperation().getOps<gpu::GPUModuleOp>()) {
      if (!moduleMatcher.empty() && !matcher.match(module.getName()))
        continue;
      SmallVector<Attribute> targets;
      if (ArrayAttr existing = module.getTargetsAttr())
        targets.append(existing.begin(), existing.end());
      if (llvm::is_contained(targets, target))
        continue;
      targets.push_back(target);
      module.setTargetsAttr(builder.getArrayAttr(targets));
    }
  }
};

} // namespace
