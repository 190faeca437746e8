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

namespace hcq {
#define GEN_PASS_DEF_HCQBUILDEXECUTABLE
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

bool isHostBody(Operation *op) {
  return op->hasTrait<hcq::OpTrait::HostStep>();
}

struct BuildExecutablePass
    : public hcq::impl::HCQBuildExecutableBase<BuildExecutablePass> {
  void runOnOperation() override {
    // Submitters by their printed body, so equal shapes share one, per
    // module (a schedule in a nested module gets its submitters there).
    DenseMap<Operation *, llvm::StringMap<SubmitterOp>> byModule;
    SmallVector<ScheduleOp> schedules = getSchedules(getOperation());
    for (ScheduleOp schedule : schedules) {
      auto module = schedule->getParentOfType<ModuleOp>();
      auto [it, inserted] = byModule.try_emplace(module);
      if (inserted)
        for (SubmitterOp existing : module.getOps<SubmitterOp>())
          it->second[key(existing)] = existing;
    }
    for (ScheduleOp schedule : schedules)
      if (failed(
              build(schedule, byModule[schedule->getParentOfType<ModuleOp>()])))
        return signalPassFailure();
    // What --hcq-pipeline gets wrong silently otherwise: nothing to compile.
    if (schedules.empty() && getExecutables(getOperation()).empty())
      emitWarning(getOperation().getLoc())
          << "no hcq.schedule in the module: no executable was built";
  }

  /// The submitter's identity: its text with the symbol name left out.
  static std::string key(SubmitterOp submitter) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << submitter.getFunctionType();
    for (Operation &op : submitter.getBody().front())
      op.print(os, OpPrintingFlags().printGenericOpForm().useLocalScope());
    return text;
  }

  LogicalResult build(ScheduleOp schedule,
                      llvm::StringMap<SubmitterOp> &submitters);
};

LogicalResult
BuildExecutablePass::build(ScheduleOp schedule,
                           llvm::StringMap<SubmitterOp> &submitters) {
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

    std::string identity = key(submitter);
    auto [it, inserted] = submitters.try_emplace(identity, submitter);
    if (inserted) {
      std::string name =
          ("hcq_submitter_" + Twine(submitters.size() - 1)).str();
      submitter.setSymName(name);
    } else {
      submitter.erase();
    }
    OpBuilder callBuilder(run.front());
    CallOp::create(callBuilder, run.front()->getLoc(),
                   FlatSymbolRefAttr::get(it->second.getSymNameAttr()),
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
  auto executable = ExecutableOp::create(
      builder, schedule.getLoc(), schedule.getSymName(),
      schedule.getFunctionType(), schedule.getArgAttrsAttr(),
      schedule.getResAttrsAttr(), schedule.getArgNamesAttr());
  executable.getBody().takeBody(schedule.getBody());
  schedule.erase();
  return success();
}

} // namespace
