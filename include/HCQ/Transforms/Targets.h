//===- Targets.h - What submits compile for ---------------------*- C++ -*-===//
//
// The TargetAttrInterface models of #hcq.amd_target and #hcq.cpu_target, and
// the encoders behind them. A context that compiles hcq registers them:
//
//   mlir::DialectRegistry registry;
//   registry.insert<hcq::HCQDialect>();
//   hcq::registerTargetInterfaces(registry);
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TRANSFORMS_TARGETS_H
#define HCQ_TRANSFORMS_TARGETS_H

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Target/AMD/Target.h"

namespace mlir {
class DialectRegistry;
} // namespace mlir

namespace hcq {

/// Attaches TargetAttrInterface to #hcq.amd_target and #hcq.cpu_target.
void registerTargetInterfaces(mlir::DialectRegistry &registry);

/// The target for `kind` of the schedule or executable `scope` is in (by
/// default, `user`'s): its TargetAttrInterface, or an error on `user` saying
/// none is attached (or its interface is not registered).
mlir::FailureOr<TargetAttrInterface>
lookupScheduleTarget(mlir::Operation *user, DeviceKind kind,
                     mlir::Operation *scope = nullptr);

/// PM4 and SDMA words for `target` (EncodeAMD.cpp); no PM4 packet
/// straddles a multiple of `indirectBufferDwords`, where hcq-lower-submit
/// splits a command buffer between INDIRECT_BUFFER packets.
mlir::LogicalResult encodeAMDSubmits(const amd::Target &target,
                                     uint32_t indirectBufferDwords,
                                     ScheduleOp schedule,
                                     llvm::ArrayRef<SubmitOp> submits);
/// CPU queue entries (EncodeCPU.cpp).
mlir::LogicalResult encodeCPUSubmits(ScheduleOp schedule,
                                     llvm::ArrayRef<SubmitOp> submits);

} // namespace hcq

#endif // HCQ_TRANSFORMS_TARGETS_H
