//===- WriteExecutable.cpp - hcq.executable to an HCQX file ---------------===//
//
// The translation that writes an executable file: `hcq-translate
// --hcq-to-executable in.mlir -o out.hcqx`. An input whose schedules are not
// compiled yet is compiled first with --hcq-pipeline, so one call takes a
// schedule to the file hcq-run and the C API load.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Executable.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Pass/PassRegistry.h"
#include "mlir/Tools/mlir-translate/Translation.h"

#include "llvm/Support/CommandLine.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace hcq;

namespace {

llvm::cl::OptionCategory category("hcq-to-executable options");

llvm::cl::opt<std::string> executableName(
    "hcq-executable",
    llvm::cl::desc("The hcq.executable to write, by symbol name (default: "
                   "the module's only one)"),
    llvm::cl::init(""), llvm::cl::cat(category));

llvm::cl::opt<std::string> pipelineOptions(
    "hcq-pipeline-options",
    llvm::cl::desc("Options of the --hcq-pipeline that compiles an input "
                   "with schedules, as hcq-opt takes them: "
                   "\"target=gfx942 batch-size=8\""),
    llvm::cl::init(""), llvm::cl::cat(category));

/// Compiles the schedules of `module`, if it has any.
LogicalResult compileSchedules(ModuleOp module) {
  bool hasSchedules = false;
  // Pre-order: the first schedule ends the walk before its calls.
  module.walk<WalkOrder::PreOrder>([&](ScheduleOp) {
    hasSchedules = true;
    return WalkResult::interrupt();
  });
  if (!hasSchedules)
    return success();
  PassManager pm(module.getContext(), ModuleOp::getOperationName());
  std::string pipeline = "hcq-pipeline{" + pipelineOptions + "}";
  std::string errors;
  llvm::raw_string_ostream os(errors);
  if (failed(parsePassPipeline(pipeline, pm, os)))
    return emitError(module.getLoc()) << "invalid --hcq-pipeline-options '"
                                      << pipelineOptions << "': " << errors;
  // A bad option is reported at the input file, not at "<unknown>:0".
  DiagnosticEngine &engine = module.getContext()->getDiagEngine();
  DiagnosticEngine::HandlerID handler =
      reportAtInput(module.getContext(), module.getLoc());
  LogicalResult result = pm.run(module);
  engine.eraseHandler(handler);
  return result;
}

/// The executable to write: the one named, or the only one.
FailureOr<ExecutableOp> chooseExecutable(ModuleOp module) {
  SmallVector<ExecutableOp> executables = getExecutables(module);
  auto listNames = [&](InFlightDiagnostic &diag) {
    for (ExecutableOp exe : executables)
      diag << " @" << exe.getSymName();
  };
  if (!executableName.empty()) {
    for (ExecutableOp exe : executables)
      if (exe.getSymName() == executableName)
        return exe;
    InFlightDiagnostic diag = emitError(module.getLoc())
                              << "no hcq.schedule or hcq.executable named @"
                              << executableName;
    if (!executables.empty()) {
      diag << " (it has";
      listNames(diag);
      diag << ")";
    }
    return diag;
  }
  if (executables.size() == 1)
    return executables.front();
  if (executables.empty())
    return emitError(module.getLoc(),
                     "no hcq.schedule or hcq.executable to write");
  InFlightDiagnostic diag = emitError(module.getLoc())
                            << executables.size() << " executables,";
  listNames(diag);
  diag << ": choose one with --hcq-executable=NAME";
  return diag;
}

LogicalResult writeExecutable(Operation *op, llvm::raw_ostream &os) {
  auto module = dyn_cast<ModuleOp>(op);
  if (!module)
    return emitError(op->getLoc(), "expected a builtin.module");
  if (failed(compileSchedules(module)))
    return failure();
  FailureOr<ExecutableOp> exe = chooseExecutable(module);
  if (failed(exe))
    return failure();
  SymbolTableCollection symbols;
  FailureOr<runtime::Executable> converted = convertExecutable(*exe, symbols);
  if (failed(converted))
    return failure();
  std::vector<uint8_t> bytes = runtime::writeExecutable(*converted);
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  return success();
}

} // namespace

void hcq::registerToExecutableTranslation() {
  TranslateFromMLIRRegistration registration(
      "hcq-to-executable",
      "Write an hcq.executable as an HCQX file (compiling the input's "
      "schedules with --hcq-pipeline first)",
      writeExecutable, [](DialectRegistry &registry) {
        // hcq IR only: upstream's gpu IR is converted by hcq-opt
        // (convert-gpu-to-hcq), whose output holds no gpu op.
        registry.insert<HCQDialect, arith::ArithDialect, func::FuncDialect>();
        registerTargetInterfaces(registry);
      });
}
