//===- OpHelpers.h - What the op files share --------------------*- C++ -*-===//
//
// The value facts and syntax pieces that HCQOps.cpp (defining them) and
// CommandOps.cpp both use. Private to the dialect library.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_DIALECT_OPHELPERS_H
#define HCQ_LIB_DIALECT_OPHELPERS_H

#include "HCQ/Dialect/HCQ.h"

namespace hcq::detail {

/// Whether `type` is a signal: a one-element 64-bit buffer.
bool isSignalType(mlir::Type type);

/// The placeholder `value` is, or null.
PlaceholderOp getPlaceholder(mlir::Value value);

/// A submitter's argument: a placeholder passed in, its tag unknown here.
bool isSubmitterArgument(mlir::Value value);

/// Whether a bound variable (a schedule argument or kernel scalar) may have
/// `type`: integers, and f32 / f64 (passed as their bits).
bool isBoundVariableType(mlir::Type type);

/// Checks that `value` is a placeholder with `tag` and `bits`-wide integers
/// (or a submitter's argument standing for one); `what` names it.
mlir::LogicalResult verifyTable(mlir::Operation *op, mlir::Value value,
                                PlaceholderTag tag, unsigned bits,
                                llvm::StringRef what);

/// An optional ` + N` or ` - N` after a value.
mlir::ParseResult parseOptionalAddend(mlir::AsmParser &parser, int64_t &addend);
/// Prints what parseOptionalAddend reads (nothing for 0).
void printAddend(llvm::raw_ostream &os, int64_t addend);

} // namespace hcq::detail

#endif // HCQ_LIB_DIALECT_OPHELPERS_H
