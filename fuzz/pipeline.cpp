//===- pipeline.cpp - Fuzz the parser, the verifier and --hcq-pipeline ----===//
//
// Any text: parsed as a module of the hcq, arith and func dialects; what
// parses and verifies goes through --hcq-pipeline. Diagnostics are fine;
// crashes, assertion failures and hangs are findings.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  mlir::DialectRegistry registry;
  registry.insert<hcq::HCQDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect>();
  hcq::registerTargetInterfaces(registry);
  mlir::MLIRContext context(registry, mlir::MLIRContext::Threading::DISABLED);
  context.loadAllAvailableDialects();
  // Diagnostics are expected: swallow them.
  mlir::ScopedDiagnosticHandler quiet(
      &context, [](mlir::Diagnostic &) { return mlir::success(); });
  // MLIR's lexer reads its buffer up to a terminating NUL, as every file
  // and string MLIR parses has: give it one (libFuzzer's data has none).
  std::string text(reinterpret_cast<const char *>(data), size);
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &context);
  if (!module || mlir::failed(mlir::verify(*module)))
    return 0;
  mlir::PassManager pm(&context);
  hcq::PipelineOptions options;
  hcq::buildPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
