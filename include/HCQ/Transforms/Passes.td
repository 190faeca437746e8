//===- Passes.td - HCQ passes ------------------------------*- tablegen -*-===//

#ifndef HCQ_TRANSFORMS_PASSES_TD
#define HCQ_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

#endif // HCQ_TRANSFORMS_PASSES_TD
