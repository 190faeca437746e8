//===- TargetAttr.h - #hcq.cpu_target's model -------------------*- C++ -*-===//
//
// #hcq.cpu_target implements hcq::TargetAttrInterface as an external model,
// as upstream's #rocdl.target implements gpu::TargetAttrInterface
// (mlir/Target/LLVM/ROCDL/Target.h): a context that compiles for CPU devices
// registers it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_CPU_TARGETATTR_H
#define HCQ_TARGET_CPU_TARGETATTR_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hcq {

/// Attaches hcq::TargetAttrInterface to #hcq.cpu_target.
void registerCPUTargetInterfaceExternalModels(mlir::DialectRegistry &registry);

} // namespace hcq

#endif // HCQ_TARGET_CPU_TARGETATTR_H
