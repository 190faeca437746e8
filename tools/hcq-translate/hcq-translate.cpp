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

#include "HCQ/Support/HugePages.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/Tools/mlir-translate/MlirTranslateMain.h"

int main(int argc, char **argv) {
  // A big input is compiled with the heap on transparent huge pages, as by
  // hcq-opt (HCQ/Support/HugePages.h); mlirTranslateMain parses the input
  // option itself, so the input is found in argv beforehand.
  hcq::maybeRunWithHugePages(argv, hcq::guessInputArgument(argc, argv));
  hcq::registerPasses();
  hcq::registerToExecutableTranslation();
  return mlir::failed(
             mlir::mlirTranslateMain(argc, argv, "hcq translation driver\n"))
             ? 1
             : 0;
}
