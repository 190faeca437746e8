//===- Targets.cpp - What submits compile for -----------------------------===//
//
// The passes' way to a schedule's target; the targets are libraries under
// lib/Target.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Targets.h"
#include "HCQ/Target/AMD/TargetAttr.h"
#include "HCQ/Target/CPU/TargetAttr.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace hcq;

void hcq::registerTargetInterfaces(DialectRegistry &registry) {
  registerAMDTargetInterfaceExternalModels(registry);
  registerCPUTargetInterfaceExternalModels(registry);
}

FailureOr<TargetAttrInterface>
hcq::lookupScheduleTarget(Operation *user, DeviceKind kind, Operation *scope) {
  Attribute attr = getTargetAttr(scope ? scope : user, kind);
  if (!attr)
    return user->emitOpError()
           << "is on " << stringifyDeviceKind(kind) << " devices but its "
           << "schedule names no target for them in its 'targets': run "
              "hcq-attach-targets";
  // The dialect promises the model: until it is registered, a cast aborts
  // in a build with assertions, so ask about the promise first.
  auto target = attr.getDialect().hasPromisedInterface(
                    attr.getTypeID(), TargetAttrInterface::getInterfaceID())
                    ? TargetAttrInterface()
                    : dyn_cast<TargetAttrInterface>(attr);
  if (!target)
    return user->emitOpError()
           << "has target " << attr
           << " but its interface is not registered: call "
              "hcq::registerTargetInterfaces on the context's registry";
  return target;
}
