//===- hcq-opt.cpp - The hcq optimizer driver -----------------------------===//
//
// mlir-opt with the hcq dialect, every hcq pass and --hcq-pipeline, and the
// upstream dialects --convert-gpu-to-hcq reads (gpu, rocdl, nvvm, llvm), and
// #hcq.host_target with upstream's gpu-module-to-binary; with #rocdl.target,
// convert-gpu-to-rocdl and rocdl-attach-target, so that one
// gpu-module-to-binary makes a gpu.module's AMD and host objects together.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Conversion/Passes.h"
#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Support/HugePages.h"
#include "HCQ/Target/Host/Target.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlow.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/GPU/Transforms/Passes.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/NVVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/FileUtilities.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/ToolOutputFile.h"

#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

static llvm::cl::opt<bool> releaseFreedMemory(
    "release-freed-memory",
    llvm::cl::desc("After each pass, and in hcq-encode as it erases the calls "
                   "it encoded, give the heap memory freed back to the system "
                   "(glibc's malloc_trim)"),
    llvm::cl::init(true));

namespace {
/// Gives freed heap memory back to the system: glibc keeps freed pages
/// resident, so the ops hcq-encode turns into words and the streams
/// hcq-seal turns into blobs would stay in the process's memory beside what
/// replaced them (a big stream's words are mapped afresh, never in those
/// pages). This is hcq-opt's allocator policy; an application embedding
/// the passes keeps its own.
void releaseFreedHeap() {
#if defined(__GLIBC__)
  malloc_trim(0);
#endif
}

/// Releases after each pass, before the next one allocates.
struct ReleaseFreedMemory : public mlir::PassInstrumentation {
  void runAfterPass(mlir::Pass *, mlir::Operation *) override {
    releaseFreedHeap();
  }
};
} // namespace

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<hcq::HCQDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::math::MathDialect, mlir::NVVM::NVVMDialect,
                  mlir::ROCDL::ROCDLDialect>();
  hcq::registerTargetInterfaces(registry);
  hcq::registerHostTargetInterfaceExternalModels(registry);
  mlir::ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  // What convert-gpu-to-rocdl lowers the kernels' arith, cf, func and memref
  // ops with.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
  mlir::registerConvertMathToLLVMInterface(registry);
  mlir::registerConvertFuncToLLVMInterface(registry);
  mlir::registerConvertMemRefToLLVMInterface(registry);
  mlir::registerGPUDialectTranslation(registry);
  mlir::registerROCDLDialectTranslation(registry);
  mlir::registerCSEPass();
  mlir::registerCanonicalizerPass();
  mlir::registerSymbolDCEPass();
  mlir::registerGpuModuleToBinaryPass();
  mlir::registerGpuROCDLAttachTarget();
  mlir::registerConvertGpuOpsToROCDLOps();
  mlir::registerSCFToControlFlowPass();
  hcq::registerPasses();
  hcq::registerConversionPasses();

  // As mlir::MlirOptMain(argc, argv, ...), but with a pipeline that reports
  // a bad pass option at the input file, not at "<unknown>:0".
  llvm::InitLLVM init(argc, argv);
  auto [inputFilename, outputFilename] = mlir::registerAndParseCLIOptions(
      argc, argv, "hcq optimizer driver\n", registry);
  // A big input is compiled with the heap on transparent huge pages: this
  // may start the program again, once, with glibc's tunable set
  // (HCQ/Support/HugePages.h).
  hcq::maybeRunWithHugePages(argv, inputFilename);
  mlir::MlirOptMainConfig config =
      mlir::MlirOptMainConfig::createFromCLOptions();
  if (config.shouldShowDialects() || config.shouldListPasses())
    return mlir::asMainReturnCode(
        mlir::MlirOptMain(argc, argv, inputFilename, outputFilename, registry));
  std::string input = inputFilename == "-" ? "<stdin>" : inputFilename;
  mlir::MlirOptMainConfig located = config;
  located.setPassPipelineSetupFn([&config, input](mlir::PassManager &pm) {
    // Each input (or split of one) has a context of its own, which the
    // handler lives as long as.
    mlir::MLIRContext *ctx = pm.getContext();
    hcq::reportAtInput(ctx, mlir::FileLineColLoc::get(ctx, input, 0, 0));
    if (releaseFreedMemory) {
      pm.addInstrumentation(std::make_unique<ReleaseFreedMemory>());
      // And within hcq-encode, as it erases the ops it turned into words.
      ctx->getOrLoadDialect<hcq::HCQDialect>()->setReleaseFreedMemory(
          releaseFreedHeap);
    }
    return config.setupPassPipeline(pm);
  });
  if (inputFilename == "-" &&
      llvm::sys::Process::FileDescriptorIsDisplayed(fileno(stdin)))
    llvm::errs() << "(processing input from stdin now, hit ctrl-c/ctrl-d to "
                    "interrupt)\n";
  std::string error;
  std::unique_ptr<llvm::MemoryBuffer> file =
      mlir::openInputFile(inputFilename, &error);
  if (!file) {
    llvm::errs() << error << "\n";
    return 1;
  }
  std::unique_ptr<llvm::ToolOutputFile> output =
      mlir::openOutputFile(outputFilename, &error);
  if (!output) {
    llvm::errs() << error << "\n";
    return 1;
  }
  if (mlir::failed(
          mlir::MlirOptMain(output->os(), std::move(file), registry, located)))
    return 1;
  output->keep();
  return 0;
}
