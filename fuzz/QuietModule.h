//===- QuietModule.h - What the MLIR fuzz targets share ---------*- C++ -*-===//
//
// A single-threaded context of hcq's dialect and the given upstream ones,
// whose diagnostics go nowhere (a fuzzer's inputs are mostly errors), and
// the module an input holds when it parses and verifies.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_FUZZ_QUIETMODULE_H
#define HCQ_FUZZ_QUIETMODULE_H

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace hcq::fuzz {

template <typename... Dialects> class QuietContext {
public:
  QuietContext()
      : context(registry(), mlir::MLIRContext::Threading::DISABLED),
        quiet(&context, [](mlir::Diagnostic &) { return mlir::success(); }) {
    context.loadAllAvailableDialects();
  }

  mlir::MLIRContext &get() { return context; }

  /// The module `data` holds, or null if it does not parse or verify.
  mlir::OwningOpRef<mlir::ModuleOp> parse(const uint8_t *data, size_t size) {
    // MLIR's lexer reads its buffer up to a terminating NUL, as every file
    // and string MLIR parses has: give it one (libFuzzer's data has none).
    std::string text(reinterpret_cast<const char *>(data), size);
    mlir::OwningOpRef<mlir::ModuleOp> module =
        mlir::parseSourceString<mlir::ModuleOp>(text, &context);
    if (!module || mlir::failed(mlir::verify(*module)))
      return nullptr;
    return module;
  }

private:
  static mlir::DialectRegistry registry() {
    mlir::DialectRegistry registry;
    registry.insert<hcq::HCQDialect, Dialects...>();
    hcq::registerTargetInterfaces(registry);
    return registry;
  }

  mlir::MLIRContext context;
  mlir::ScopedDiagnosticHandler quiet;
};

} // namespace hcq::fuzz

#endif // HCQ_FUZZ_QUIETMODULE_H
