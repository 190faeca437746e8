//===- hcq-opt.cpp - The hcq optimizer driver -----------------------------===//
//
// mlir-opt with the hcq dialect, every hcq pass and --hcq-pipeline.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  registry.insert<hcq::HCQDialect, mlir::arith::ArithDialect,
                  mlir::func::FuncDialect, mlir::memref::MemRefDialect,
                  mlir::scf::SCFDialect>();
  mlir::registerCSEPass();
  mlir::registerCanonicalizerPass();
  mlir::registerSymbolDCEPass();
  hcq::registerPasses();
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "hcq optimizer driver\n", registry));
}
