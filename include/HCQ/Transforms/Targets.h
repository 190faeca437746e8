//===- Targets.h - What submits compile for ---------------------*- C++ -*-===//
//
// Finding a schedule's target, and registering every target hcq has. The
// targets themselves are libraries under lib/Target (HCQ/Target/AMD/
// TargetAttr.h, HCQ/Target/CPU/TargetAttr.h). A context that compiles hcq
// registers them:
//
//   mlir::DialectRegistry registry;
//   registry.insert<hcq::HCQDialect>();
//   hcq::registerTargetInterfaces(registry);
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TRANSFORMS_TARGETS_H
#define HCQ_TRANSFORMS_TARGETS_H

#include "HCQ/Dialect/HCQ.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hcq {

/// Attaches TargetAttrInterface to #hcq.amd_target and #hcq.cpu_target
/// (registerAMDTargetInterfaceExternalModels and
/// registerCPUTargetInterfaceExternalModels).
void registerTargetInterfaces(mlir::DialectRegistry &registry);

/// The target for `kind` of the schedule or executable `scope` is in (by
/// default, `user`'s): its TargetAttrInterface, or an error on `user` saying
/// none is attached (or its interface is not registered).
mlir::FailureOr<TargetAttrInterface>
lookupScheduleTarget(mlir::Operation *user, DeviceKind kind,
                     mlir::Operation *scope = nullptr);

} // namespace hcq

#endif // HCQ_TRANSFORMS_TARGETS_H
