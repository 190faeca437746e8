//===- HCQEnums.h - HCQ dialect enumerations --------------------*- C++ -*-===//
//
// The ODS enumerations alone, for headers that need them without the ops.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_DIALECT_HCQENUMS_H
#define HCQ_DIALECT_HCQENUMS_H

#include "mlir/IR/Attributes.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>

#include "HCQ/Dialect/HCQEnums.h.inc"

#endif // HCQ_DIALECT_HCQENUMS_H
