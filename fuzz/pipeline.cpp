//===- pipeline.cpp - Fuzz the parser, the verifier and --hcq-pipeline ----===//
//
// Any text: parsed as a module of the hcq, arith and func dialects; what
// parses and verifies goes through --hcq-pipeline. Diagnostics are fine;
// crashes, assertion failures and hangs are findings.
//
//===----------------------------------------------------------------------===//

#include "QuietModule.h"

#include "HCQ/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hcq::fuzz::QuietContext<mlir::arith::ArithDialect, mlir::func::FuncDialect>
      context;
  mlir::OwningOpRef<mlir::ModuleOp> module = context.parse(data, size);
  if (!module)
    return 0;
  mlir::PassManager pm(&context.get());
  hcq::PipelineOptions options;
  hcq::buildPipeline(pm, options);
  (void)pm.run(*module);
  return 0;
}
