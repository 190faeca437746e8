//===- MaterializeBuiltins.cpp - The target's builtin kernels -------------===//
//
// Adds `@hcq_copy_<chip>`, the amd kernel of the builtin copy code object
// of the schedule's AMD target, to every module whose schedules launch a
// builtin copy on AMD devices; hcq-encode, which runs on one schedule at a
// time, dispatches it.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/AMD/Target.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"

namespace hcq {
#define GEN_PASS_DEF_HCQMATERIALIZEBUILTINS
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

/// Whether `launch` runs a builtin copy on AMD devices: one of its buffers
/// is on an AMD device (a non-CPU device is where a call is enqueued,
/// getEnqueueDevices). `builtinKernels` remembers, by name, whether each
/// kernel is the builtin copy: the launches of a schedule name a few
/// kernels, and each lookup probes two hash tables.
bool isAMDBuiltinCopy(LaunchOp launch, SymbolTableCollection &symbols,
                      DenseMap<Attribute, bool> &builtinKernels) {
  auto [known, inserted] =
      builtinKernels.try_emplace(launch.getKernelAttr(), false);
  if (inserted) {
    KernelOp kernel = launch.lookupKernel(symbols);
    known->second = kernel && isBuiltinCopy(kernel);
  }
  if (!known->second)
    return false;
  return llvm::any_of(launch.getBuffers(), [](Value buffer) {
    auto type = dyn_cast<BufferType>(buffer.getType());
    return type &&
           llvm::any_of(type.getDevices().getDevices(), [](DeviceAttr d) {
             return d.getKind() == DeviceKind::AMD;
           });
  });
}

struct MaterializeBuiltinsPass
    : public hcq::impl::HCQMaterializeBuiltinsBase<MaterializeBuiltinsPass> {
  void runOnOperation() override {
    SymbolTableCollection symbols;
    bool changed = false;
    for (ScheduleOp schedule : getSchedules(getOperation())) {
      DenseMap<Attribute, bool> builtinKernels;
      WalkResult needed = schedule.walk([&](LaunchOp launch) {
        return isAMDBuiltinCopy(launch, symbols, builtinKernels)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      });
      if (!needed.wasInterrupted())
        continue;
      auto target =
          dyn_cast_or_null<AMDTargetAttr>(schedule.getTarget(DeviceKind::AMD));
      if (!target) {
        schedule.emitOpError()
            << "launches a builtin copy on AMD devices but names no AMD "
               "target in its 'targets': run hcq-attach-targets";
        return signalPassFailure();
      }
      amd::Target chip = *amd::lookupTarget(target.getChip());
      std::string name = getBuiltinCopyKernelName(chip.name);
      auto module = schedule->getParentOfType<ModuleOp>();
      auto nameAttr = StringAttr::get(module.getContext(), name);
      if (symbols.lookupSymbolIn(module, nameAttr))
        continue;
      MLIRContext *ctx = module.getContext();
      OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
      Span<const uint8_t> bytes = chip.builtinCopyCodeObject;
      auto kernel = KernelOp::create(
          builder, module.getLoc(), name, KernelTarget::amd,
          builder.getArrayAttr({AccessAttr::get(ctx, Access::write),
                                AccessAttr::get(ctx, Access::read)}),
          builder.getTypeArrayAttr({builder.getI8Type(), builder.getI8Type()}),
          /*num_vars=*/0, builder.getStringAttr(amd::BUILTIN_COPY_SYMBOL),
          /*library=*/nullptr,
          builder.getStringAttr(StringRef(
              reinterpret_cast<const char *>(bytes.data()), bytes.size())));
      symbols.getSymbolTable(module).insert(kernel);
      changed = true;
    }
    // Unchanged IR needs no verification after the pass.
    if (!changed)
      markAllAnalysesPreserved();
  }
};

} // namespace
