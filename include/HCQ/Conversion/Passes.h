//===- Passes.h - Passes between upstream gpu and hcq -----------*- C++ -*-===//

#ifndef HCQ_CONVERSION_PASSES_H
#define HCQ_CONVERSION_PASSES_H

#include "HCQ/Dialect/HCQ.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"

namespace hcq {

#define GEN_PASS_DECL
#include "HCQ/Conversion/Passes.h.inc"

/// Registers convert-gpu-to-hcq and hcq-attach-host-target.
void registerConversionPasses();

} // namespace hcq

#endif // HCQ_CONVERSION_PASSES_H
