//===- BuildExecutable.cpp - Host bodies into shared submitters -----------===//
//
// Seed sections 6 and 7: adjacent host bodies fold into one submitter whose
// parameters are canonical, so batches of the same shape share it; the
// schedule becomes the executable the runtime loads.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"

namespace hcq {
#define GEN_PASS_DEF_HCQBUILDEXECUTABLE
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

bool isHostBody(Operation *op) { return isa<SubmitterStepOpInterface>(op); }

/// The submitters of one module, so that equal bodies share one: equal by
/// OperationEquivalence (same ops, attributes and types, operands the same
/// arguments; locations ignored), found through a hash of the same.
class SubmitterTable {
public:
  /// An existing submitter equal to `candidate`, or null.
  SubmitterOp find(SubmitterOp candidate) const {
    auto it = byHash.find(hash(candidate));
    if (it == byHash.end())
      return {};
    for (SubmitterOp existing : it->second)
      if (existing.getFunctionType() == candidate.getFunctionType() &&
          OperationEquivalence::isRegionEquivalentTo(
              &existing.getBody(), &candidate.getBody(),
              OperationEquivalence::IgnoreLocations))
        return existing;
    return {};
  }
  void add(SubmitterOp submitter) {
    byHash[hash(submitter)].push_back(submitter);
    ++count;
  }
  size_t size() const { return count; }

private:
  static unsigned hash(SubmitterOp submitter) {
    llvm::hash_code h = mlir::hash_value(submitter.getFunctionType());
    auto argumentNumber = [](Value v) {
      auto arg = dyn_cast<BlockArgument>(v);
      return arg ? llvm::hash_value(arg.getArgNumber()) : llvm::hash_code(0);
    };
    for (Operation &op : submitter.getBody().front())
      h = llvm::hash_combine(h, OperationEquivalence::computeHash(
                                    &op, argumentNumber,
                                    OperationEquivalence::ignoreHashValue,
                                    OperationEquivalence::IgnoreLocations));
    return static_cast<unsigned>(static_cast<size_t>(h));
  }

  DenseMap<unsigned, SmallVector<SubmitterOp, 1>> byHash;
  size_t count = 0;
};

struct BuildExecutablePass
    : public hcq::impl::HCQBuildExecutableBase<BuildExecutablePass> {
  void runOnOperation() override {
    // Submitters per module (a schedule in a nested module gets its
    // submitters there), so equal bodies share one.
    DenseMap<Operation *, SubmitterTable> byModule;
    SmallVector<ScheduleOp> schedules = getSchedules(getOperation());
    for (ScheduleOp schedule : schedules) {
      auto module = schedule->getParentOfType<ModuleOp>();
      auto [it, inserted] = byModule.try_emplace(module);
      if (inserted)
        for (SubmitterOp existing : module.getOps<SubmitterOp>())
          it->second.add(existing);
    }
    for (ScheduleOp schedule : schedules)
      if (failed(
              build(schedule, byModule[schedule->getParentOfType<ModuleOp>()])))
        return signalPassFailure();
    // A kernel library given by a path is opened as written when the
    // executable is loaded: one that is not there now is most likely a
    // mistake, which would otherwise show only when the file is run.
    // Once per library, at its first kernel, naming every kernel in it.
    llvm::MapVector<StringRef, SmallVector<KernelOp>> missing;
    getOperation().walk([&](KernelOp kernel) {
      std::optional<StringRef> library = kernel.getLibrary();
      if (library && library->contains('/') && !llvm::sys::fs::exists(*library))
        missing[*library].push_back(kernel);
    });
    for (auto &[library, kernels] : missing) {
      InFlightDiagnostic diag = emitWarning(kernels.front().getLoc())
                                << "library '" << library << "' of";
      for (KernelOp kernel : kernels)
        diag << " @" << kernel.getSymName();
      diag << " does not exist: the runtime opens a library given by a path "
              "as written when it loads the executable (a bare name is "
              "looked for in its library search folders, hcq-run "
              "--library-path, and LD_LIBRARY_PATH)";
    }
    // What --hcq-pipeline gets wrong silently otherwise: nothing to compile.
    if (schedules.empty() && getExecutables(getOperation()).empty())
      emitWarning(getOperation().getLoc())
          << "no hcq.schedule in the module: no executable was built";
  }

  LogicalResult build(ScheduleOp schedule, SubmitterTable &submitters);
};

LogicalResult BuildExecutablePass::build(ScheduleOp schedule,
                                         SubmitterTable &submitters) {
  if (schedule.getBody().empty())
    return schedule.emitOpError("has no body");
  Block &body = schedule.getBody().front();
  for (Operation &op : body)
    if (isa<SubmitOp, EnqueueOp>(op))
      return op.emitOpError("is not lowered yet: run hcq-seal and "
                            "hcq-lower-submit before hcq-build-executable");

  // Runs of host bodies; link-time ops in between do not break a run.
  SmallVector<SmallVector<Operation *>> runs;
  bool open = false;
  for (Operation &op : body) {
    if (isHostBody(&op)) {
      if (!open)
        runs.emplace_back();
      runs.back().push_back(&op);
      open = true;
    } else if (isa<HostCallOp, QueueCallOpInterface>(op)) {
      // Host work (a host call, or a call run on the host) orders the runs.
      open = false;
    }
  }

  auto module = schedule->getParentOfType<ModuleOp>();
  OpBuilder moduleBuilder = OpBuilder::atBlockEnd(module.getBody());
  for (ArrayRef<Operation *> run : runs) {
    // Arguments: the values the run uses, in order of first use.
    llvm::SetVector<Value> params;
    for (Operation *op : run)
      params.insert(op->getOperands().begin(), op->getOperands().end());
    SmallVector<Type> types;
    for (Value v : params)
      types.push_back(v.getType());
    auto submitter = SubmitterOp::create(
        moduleBuilder, run.front()->getLoc(), "hcq_submitter",
        moduleBuilder.getFunctionType(types, {}), nullptr, nullptr, nullptr);
    Block *entry = new Block();
    submitter.getBody().push_back(entry);
    IRMapping mapping;
    for (Value v : params)
      mapping.map(v, entry->addArgument(v.getType(), v.getLoc()));
    OpBuilder bodyBuilder = OpBuilder::atBlockEnd(entry);
    for (Operation *op : run)
      bodyBuilder.clone(*op, mapping);

    SubmitterOp shared = submitters.find(submitter);
    if (shared) {
      submitter.erase();
    } else {
      submitter.setSymName(("hcq_submitter_" + Twine(submitters.size())).str());
      submitters.add(submitter);
      shared = submitter;
    }
    OpBuilder callBuilder(run.front());
    CallOp::create(callBuilder, run.front()->getLoc(),
                   FlatSymbolRefAttr::get(shared.getSymNameAttr()),
                   params.getArrayRef());
    for (Operation *op : run)
      op->erase();
  }

  // Constant kernel scalars were folded into the command streams: the
  // constants themselves have no place in an executable.
  for (Operation &op : llvm::make_early_inc_range(schedule.getBody().front()))
    if (op.use_empty() && matchPattern(&op, m_Constant()))
      op.erase();

  // The schedule becomes the executable, its body moved over unchanged.
  OpBuilder builder(schedule);
  // What its words were compiled for stays with them (hcq-print-packets).
  auto executable = ExecutableOp::create(
      builder, schedule.getLoc(), schedule.getSymName(),
      schedule.getFunctionType(), schedule.getArgAttrsAttr(),
      schedule.getResAttrsAttr(), schedule.getArgNamesAttr(),
      schedule.getTargetsAttr());
  executable.getBody().takeBody(schedule.getBody());
  schedule.erase();
  return success();
}

} // namespace
