//===- ExecutableConversion.h - hcq.executable to its runtime form -*- C++ -*-//
//
// The one conversion from the IR to the runtime's executable, used to write
// files (hcq-translate --hcq-to-executable) and to link (hcq-link).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TRANSFORMS_EXECUTABLECONVERSION_H
#define HCQ_TRANSFORMS_EXECUTABLECONVERSION_H

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Runtime/Executable.h"

namespace hcq {

/// The runtime form of `exe`, with its kernels and submitters. When given,
/// `valueIndices` receives the index each IR value got.
mlir::FailureOr<runtime::Executable> convertExecutable(
    ExecutableOp exe, mlir::SymbolTableCollection &symbols,
    llvm::DenseMap<mlir::Value, uint32_t> *valueIndices = nullptr);

/// Registers the translation `hcq-to-executable`: a module's hcq.executable
/// (its schedules compiled first with --hcq-pipeline when they are not yet)
/// as the bytes of an HCQX file (docs/executable-format.md).
void registerToExecutableTranslation();

} // namespace hcq

#endif // HCQ_TRANSFORMS_EXECUTABLECONVERSION_H
