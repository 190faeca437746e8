//===- HCQTargetKindInterface.td - A target's device kind --*- tablegen -*-===//
//
// What kind of devices a target attribute compiles for. A file of its own,
// not a place in HCQInterfaces.td, because the attributes implement it in
// their definitions (HCQAttrs.td): it is declared before them, while
// TargetAttrInterface names ops and is declared after them.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_KIND_INTERFACE
#define HCQ_TARGET_KIND_INTERFACE

include "mlir/IR/OpBase.td"

def HCQ_TargetKindAttrInterface : AttrInterface<"TargetKindAttrInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    The kind of devices a target (`#hcq.amd_target`, `#hcq.cpu_target`)
    compiles submits for. Every target implements it in its definition, not
    through a model registered apart as TargetAttrInterface is, so the
    dialect checks a schedule's `targets` (one per device kind) and finds
    the target of a device kind in a context without the target models.
  }];
  let methods = [
    InterfaceMethod<"The kind of devices whose submits it compiles.",
      "::hcq::DeviceKind", "getDeviceKind">,
  ];
}

#endif // HCQ_TARGET_KIND_INTERFACE
