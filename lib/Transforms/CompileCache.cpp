//===- CompileCache.cpp - Pipeline results by content ---------------------===//

#include "HCQ/Transforms/CompileCache.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/SHA1.h"

using namespace mlir;

namespace hcq {

FailureOr<ModuleOp> CompileCache::compile(ModuleOp input,
                                          const PipelineOptions &options) {
  // The key: a digest of the module's text (generic form, no locations) and
  // of the options.
  std::string text;
  llvm::raw_string_ostream os(text);
  input->print(os, OpPrintingFlags().printGenericOpForm());
  options.print(os);
  llvm::SHA1 sha;
  sha.update(text);
  auto digest = sha.final();
  std::string key(digest.begin(), digest.end());

  auto it = results.find(key);
  if (it != results.end()) {
    ++hitCount;
    return it->second.get();
  }
  OwningOpRef<ModuleOp> result = cast<ModuleOp>(input->clone());
  PassManager pm(input.getContext());
  buildPipeline(pm, options);
  if (failed(pm.run(*result)))
    return failure();
  ModuleOp compiled = result.get();
  results.emplace(std::move(key), std::move(result));
  return compiled;
}

} // namespace hcq
