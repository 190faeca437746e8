//===- Target.h - The host target for gpu modules ---------------*- C++ -*-===//
//
// #hcq.host_target implements upstream's gpu::TargetAttrInterface as an
// external model: gpu-module-to-binary then compiles a gpu.module's kernels
// into a host ELF shared object whose functions have hcq's CPU kernel ABI
// (hcq::cpu::KernelFunction). See docs/embedding.md.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_HOST_TARGET_H
#define HCQ_TARGET_HOST_TARGET_H

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hcq {

/// Attaches the gpu::TargetAttrInterface model to #hcq.host_target and
/// registers the LLVM IR translations it needs.
void registerHostTargetInterfaceExternalModels(mlir::DialectRegistry &registry);

} // namespace hcq

#endif // HCQ_TARGET_HOST_TARGET_H
