//===- hcq-translate.cpp - hcq's translations
//------------------------------===//
//
// mlir-translate with hcq's translation to its executable file:
//
//   hcq-translate --hcq-to-executable schedule.mlir -o schedule.hcqx
//
// compiles the schedule with --hcq-pipeline (options through
// --hcq-pipeline-options) when it is not compiled yet, and writes its
// executable (--hcq-executable=NAME when the module has several).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  hcq::registerPasses();
  hcq::registerToExecutableTranslation();
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "hcq translation driver\n"))
             ? 1
             : 0;
}
