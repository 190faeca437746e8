//===- EncodeCPU.cpp - CPU queue entries of CPU submits -------------------===//
//
// Seed section 3 for the CPU backend: every op of a submit becomes one entry
// of the CPU queue (include/HCQ/Target/CPU/Entry.h, docs/cpu-queue.md).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/CPU/Entry.h"
#include "HCQ/Transforms/CommandStream.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hcq;

namespace {

/// Encodes one submit not encoded yet.
LogicalResult encodeSubmit(SubmitOp submit, PlaceholderCache &placeholders,
                           SymbolTableCollection &symbols) {
  Block &body = submit.getBody().front();
  MLIRContext *ctx = submit.getContext();
  DevicesAttr devices = submit.getDevices();
  FailureOr<SmallVector<Operation *>> ops = getOpsToEncode(submit);
  if (failed(ops))
    return failure();
  ArrayRef<Operation *> original = *ops;
  OpBuilder builder = OpBuilder::atBlockEnd(&body);
  CommandStream cmds(64);
  // The kernel arguments of every launch: one stream, a segment each.
  IndirectStream kernargStream(PlaceholderTag::kernargs, 64);

  // One entry: the host function, then its arguments, zero-padded.
  auto entry = [&](cpu::HostFunction function, auto &&fillArguments) {
    size_t start = cmds.size();
    Value fn = placeholders.get(
        PlaceholderTag::host_function, static_cast<uint32_t>(function),
        BufferType::get(ctx, 1, IntegerType::get(ctx, 8), devices),
        /*isVolatile=*/false);
    cmds.address(fn, WordPart::full);
    fillArguments();
    while (cmds.size() - start < cpu::ENTRY_WORDS)
      cmds.constant(0);
  };
  bool isCopyQueue = submit.getQueue().getKind() == QueueKind::COPY;

  for (Operation *op : original) {
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](BarrierOp) { return success(); })
            .Case([&](WaitOp wait) {
              entry(cpu::HostFunction::Wait, [&] {
                cmds.address(llvm::to_vector(wait.getSignals()),
                             WordPart::full);
                cmds.signalValue(wait.getValueBuffer(), wait.getValue(),
                                 WordPart::full);
              });
              return success();
            })
            .Case([&](StoreOp store) {
              entry(cpu::HostFunction::Signal, [&] {
                cmds.address(llvm::to_vector(store.getSignals()),
                             WordPart::full);
                cmds.signalValue(store.getValueBuffer(), store.getValue(),
                                 WordPart::full);
              });
              return success();
            })
            .Case([&](TimestampOp ts) {
              entry(cpu::HostFunction::Timestamp, [&] {
                cmds.address(llvm::to_vector(ts.getSlots()), WordPart::full);
              });
              return success();
            })
            .Case([&](CopyOp copy) -> LogicalResult {
              if (!isCopyQueue)
                return copy.emitOpError(
                    "on a CPU COMPUTE queue needs a kernel copy "
                    "(hcq-stage-copies)");
              entry(cpu::HostFunction::Copy, [&] {
                cmds.address(copy.getDst(), WordPart::full,
                             copy.getDstOffset());
                cmds.address(copy.getSrc(), WordPart::full,
                             copy.getSrcOffset());
                cmds.constant(copy.getSrcSize());
              });
              return success();
            })
            .Case([&](LaunchOp launch) -> LogicalResult {
              if (isCopyQueue)
                return launch.emitOpError("cannot run on a CPU COPY queue");
              KernelOp kernel = launch.lookupKernel(symbols);
              if (kernel.getTarget() == KernelTarget::amd)
                return launch.emitOpError()
                       << "launches the amd kernel @" << launch.getKernel()
                       << " on a CPU queue";
              // One 64-bit word per buffer address and bound variable, a
              // segment of the submit's kernel-argument stream.
              uint64_t argsOffset =
                  kernargStream.beginSegment(builder, launch.getLoc());
              CommandStream &kernargs = kernargStream.getWords();
              for (Value buffer : launch.getBuffers())
                kernargs.address(buffer, WordPart::full);
              for (Value var : launch.getVars())
                kernargs.variable(var);
              // The runtime's builtin copy is one function for every
              // element type: it takes the element's byte size third.
              if (kernel.getTarget() == KernelTarget::builtin)
                kernargs.constant(
                    cast<BufferType>(launch.getBuffers().front().getType())
                        .getElementBytes());
              if (kernargs.segmentSize() == 0)
                kernargs.constant(0);
              Value args = kernargStream.getLinear();
              Value program =
                  placeholders.getProgram(launch.getKernelAttr(), devices, 1);
              ArrayRef<int64_t> global = launch.getGlobalSize();
              entry(cpu::HostFunction::Launch, [&] {
                cmds.address(program, WordPart::full);
                cmds.address(args, WordPart::full, argsOffset);
                for (int64_t g : global)
                  cmds.constant(g);
              });
              return success();
            })
            .Default([&](Operation *other) {
              return other->emitOpError() << "cannot be encoded on a CPU queue";
            });
    if (failed(result))
      return failure();
  }
  kernargStream.finish();
  std::move(cmds).build(builder, submit.getLoc(), PlaceholderTag::cmdbuf);
  for (Operation *op : original)
    op->erase();
  return success();
}

} // namespace

LogicalResult hcq::encodeCPUSubmits(ScheduleOp schedule,
                                    ArrayRef<SubmitOp> submits) {
  SymbolTableCollection symbols;
  PlaceholderCache placeholders(schedule);
  for (SubmitOp submit : submits)
    if (failed(encodeSubmit(submit, placeholders, symbols)))
      return failure();
  return success();
}
