//===- gpu-conversion.cpp - Fuzz convert-gpu-to-hcq -----------------------===//
//
// Any text: parsed as a module of the upstream dialects an ML compiler's gpu
// path leaves (gpu, func, arith, memref, llvm, rocdl) and hcq's; what parses
// and verifies is converted for an AMD device and for CPU:0, and what
// converts goes through --hcq-pipeline. Diagnostics are fine; a crash, an
// assertion failure, a hang, and a conversion that succeeds but leaves IR
// that does not verify are findings.
//
//===----------------------------------------------------------------------===//

#include "QuietModule.h"

#include "HCQ/Conversion/Passes.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"

#include <cstdio>
#include <cstdlib>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  hcq::fuzz::QuietContext<mlir::arith::ArithDialect, mlir::func::FuncDialect,
                          mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                          mlir::memref::MemRefDialect,
                          mlir::ROCDL::ROCDLDialect>
      context;
  mlir::OwningOpRef<mlir::ModuleOp> source = context.parse(data, size);
  if (!source)
    return 0;
  hcq::ConvertGPUToHCQOptions forAMD, forCPU;
  forAMD.chip = "gfx1100";
  forCPU.device = "CPU:0";
  for (const hcq::ConvertGPUToHCQOptions &options : {forAMD, forCPU}) {
    mlir::OwningOpRef<mlir::ModuleOp> module(source->clone());
    // Without the pass manager's verifier, so that a conversion that
    // succeeds with invalid IR is told apart from one that fails.
    mlir::PassManager convert(&context.get());
    convert.enableVerifier(false);
    convert.addPass(hcq::createConvertGPUToHCQ(options));
    if (mlir::failed(convert.run(*module)))
      continue;
    if (mlir::failed(mlir::verify(*module))) {
      std::fprintf(stderr,
                   "convert-gpu-to-hcq{device=%s chip=%s} succeeded with IR "
                   "that does not verify\n",
                   options.device.c_str(), options.chip.c_str());
      std::abort();
    }
    mlir::PassManager pipeline(&context.get());
    hcq::PipelineOptions pipelineOptions;
    hcq::buildPipeline(pipeline, pipelineOptions);
    (void)pipeline.run(*module);
  }
  return 0;
}
