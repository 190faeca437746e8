//===- TargetAttr.h - #hcq.amd_target's model -------------------*- C++ -*-===//
//
// #hcq.amd_target implements hcq::TargetAttrInterface as an external model,
// as upstream's #rocdl.target implements gpu::TargetAttrInterface
// (mlir/Target/LLVM/ROCDL/Target.h): a context that compiles for AMD devices
// registers it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_TARGETATTR_H
#define HCQ_TARGET_AMD_TARGETATTR_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hcq {

/// Attaches hcq::TargetAttrInterface to #hcq.amd_target.
void registerAMDTargetInterfaceExternalModels(mlir::DialectRegistry &registry);

} // namespace hcq

#endif // HCQ_TARGET_AMD_TARGETATTR_H
