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
#include "HCQ/Target/Host/Target.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVM.h"
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
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Target/LLVM/ROCDL/Target.h"
#include "mlir/Target/LLVMIR/Dialect/GPU/GPUToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/ROCDL/ROCDLToLLVMIRTranslation.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<hcq::HCQDialect, mlir::arith::ArithDialect,
                  mlir::cf::ControlFlowDialect, mlir::func::FuncDialect,
                  mlir::memref::MemRefDialect, mlir::scf::SCFDialect,
                  mlir::gpu::GPUDialect, mlir::LLVM::LLVMDialect,
                  mlir::NVVM::NVVMDialect, mlir::ROCDL::ROCDLDialect>();
  hcq::registerTargetInterfaces(registry);
  hcq::registerHostTargetInterfaceExternalModels(registry);
  mlir::ROCDL::registerROCDLTargetInterfaceExternalModels(registry);
  // What convert-gpu-to-rocdl lowers the kernels' arith, cf, func and memref
  // ops with.
  mlir::arith::registerConvertArithToLLVMInterface(registry);
  mlir::cf::registerConvertControlFlowToLLVMInterface(registry);
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
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "hcq optimizer driver\n", registry));
}
