//===- WriteExecutable.cpp - hcq.executable into an HCQX file -------------===//

#include "HCQ/Runtime/Executable.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

namespace hcq {
#define GEN_PASS_DEF_HCQWRITEEXECUTABLE
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;
namespace rt = hcq::runtime;

namespace {

struct WriteExecutablePass
    : public hcq::impl::HCQWriteExecutableBase<WriteExecutablePass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    for (ExecutableOp exe : getExecutables(getOperation())) {
      FailureOr<rt::Executable> converted = convertExecutable(exe, symbols);
      if (failed(converted))
        return signalPassFailure();
      std::vector<uint8_t> bytes = rt::writeExecutable(*converted);
      llvm::SmallString<256> path(dir);
      llvm::sys::path::append(path, exe.getSymName() + ".hcqx");
      // Through a temporary file in the same folder, renamed over the path
      // once complete: a full disk or a killed process never leaves a
      // truncated executable where a good one was.
      if (llvm::Error error =
              llvm::writeToOutput(path, [&](llvm::raw_ostream &os) {
                os.write(reinterpret_cast<const char *>(bytes.data()),
                         bytes.size());
                return llvm::Error::success();
              })) {
        // The error names the file: "'<path>': <reason>".
        exe.emitOpError() << "cannot write "
                          << llvm::toString(std::move(error));
        return signalPassFailure();
      }
    }
  }
};

} // namespace
