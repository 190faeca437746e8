//===- TestCompile.h - Schedules compiled for tests and benchmarks -*- C++
//-*-===//
//
// Compiles schedule text through --hcq-pipeline into the runtime's
// executable (by way of the file format, as the runtime reads it) and loads
// it. Shared by the runtime tests and bench/replay.cpp; every failure is
// printed to stderr and answered with nothing, for the caller to assert on.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_UNITTESTS_TESTCOMPILE_H
#define HCQ_UNITTESTS_TESTCOMPILE_H

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Transforms/CompileCache.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>

namespace hcq::test {

/// The test kernel library: CPU kernels and CPU twins of the AMD kernels.
inline const std::string kernelLibrary =
    HCQ_TEST_INPUTS "/libhcqtestkernels.so";

/// `source` with every @LIB@ replaced by the test kernel library's path.
inline std::string withLibrary(std::string text) {
  for (size_t at; (at = text.find("@LIB@")) != std::string::npos;)
    text.replace(at, 5, kernelLibrary);
  return text;
}

/// An `hcq.kernel` op of target amd holding the code object at `path` (as
/// scripts/embed-code-object.py prints it).
inline std::string amdKernel(const std::string &path, const std::string &name,
                             const std::string &signature, unsigned vars) {
  auto file = llvm::MemoryBuffer::getFile(path);
  if (!file) {
    llvm::errs() << "cannot read " << path << "\n";
    return "";
  }
  std::string op = "hcq.kernel @" + name + " amd " + signature;
  if (vars)
    op += " vars " + std::to_string(vars);
  op += " symbol \"" + name + "\" code_object \"";
  static const char digits[] = "0123456789ABCDEF";
  for (unsigned char c : (*file)->getBuffer()) {
    op += '\\';
    op += digits[c >> 4];
    op += digits[c & 15];
  }
  return op + "\"\n";
}

/// Compiles the only schedule of `source` into an executable.
inline std::optional<runtime::Executable>
compileExecutable(const std::string &source, PipelineOptions &options) {
  mlir::DialectRegistry registry;
  registerTargetInterfaces(registry);
  mlir::MLIRContext ctx(registry);
  ctx.loadDialect<HCQDialect, mlir::arith::ArithDialect>();
  // Diagnostics go to stderr through MLIR's default handler.
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(withLibrary(source), &ctx);
  if (!module)
    return std::nullopt;
  CompileCache cache;
  mlir::FailureOr<mlir::ModuleOp> compiled = cache.compile(*module, options);
  if (mlir::failed(compiled))
    return std::nullopt;
  mlir::SymbolTableCollection symbols;
  auto exe = *compiled->getOps<ExecutableOp>().begin();
  mlir::FailureOr<runtime::Executable> converted =
      convertExecutable(exe, symbols);
  if (mlir::failed(converted))
    return std::nullopt;
  // The file format on the way, as the runtime would read it.
  auto reread = runtime::readExecutable(runtime::writeExecutable(*converted));
  if (!reread) {
    llvm::errs() << hcq::toString(reread.takeError()) << "\n";
    return std::nullopt;
  }
  return std::move(*reread);
}

/// Compiles `source` and loads it onto `runtime`.
inline std::unique_ptr<runtime::LoadedExecutable>
compileAndLoad(const std::string &source, PipelineOptions &options,
               runtime::Runtime &runtime) {
  std::optional<runtime::Executable> exe = compileExecutable(source, options);
  if (!exe)
    return nullptr;
  auto loaded = runtime.load(*exe);
  if (!loaded) {
    llvm::errs() << hcq::toString(loaded.takeError()) << "\n";
    return nullptr;
  }
  return std::move(*loaded);
}

/// Compiles `source` and loads it onto a runtime of its own (which the
/// executable keeps alive).
inline std::unique_ptr<runtime::LoadedExecutable>
compileAndLoad(const std::string &source, PipelineOptions &options,
               runtime::RuntimeOptions runtimeOptions = {}) {
  auto runtime = runtime::Runtime::create(std::move(runtimeOptions));
  return compileAndLoad(source, options, *runtime);
}

} // namespace hcq::test

#endif // HCQ_UNITTESTS_TESTCOMPILE_H
