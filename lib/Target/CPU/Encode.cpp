//===- Encode.cpp - CPU queue entries of CPU submits ----------------------===//
//
// Seed section 3 for the CPU backend: every op of a submit becomes one entry
// of the CPU queue (include/HCQ/Target/CPU/Entry.h, docs/cpu-queue.md). The
// encoder only reads the IR: it returns the words, and hcq-encode makes the
// ops.
//
//===----------------------------------------------------------------------===//

#include "Encode.h"

#include "HCQ/Target/CPU/Entry.h"
#include "HCQ/Transforms/CommandStream.h"

#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace hcq;

namespace {

class Encoder : public SubmitEncoder {
public:
  FailureOr<EncodedSubmit>
  encode(SubmitOp submit, ArrayRef<Operation *> ops,
         function_ref<void(Operation *)> encoded) override;

private:
  SymbolTableCollection symbols;
};

FailureOr<EncodedSubmit>
Encoder::encode(SubmitOp submit, ArrayRef<Operation *> original,
                function_ref<void(Operation *)> encodedOp) {
  DevicesAttr devices = submit.getDevices();
  CommandStream cmds(64);
  // What the words name that the pass makes.
  DeferredRefs deferred;
  // The kernel arguments of every launch: one stream, a segment each (the
  // submit's indirect stream 0).
  IndirectStream kernargStream(PlaceholderTag::kernargs, 64);

  // One entry: the host function, then its arguments, zero-padded.
  auto entry = [&](cpu::HostFunction function, auto &&fillArguments) {
    size_t start = cmds.size();
    uint32_t fn =
        deferred.placeholder(PlaceholderTag::host_function,
                             static_cast<uint32_t>(function), devices, 1);
    cmds.deferred(fn, WordPart::full);
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
              uint64_t argsOffset = kernargStream.beginSegment(launch.getLoc());
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
              uint32_t args = deferred.stream(0);
              uint32_t program =
                  deferred.program(launch.getKernelAttr(), devices, 1);
              ArrayRef<int64_t> global = launch.getGlobalSize();
              entry(cpu::HostFunction::Launch, [&] {
                cmds.deferred(program, WordPart::full);
                cmds.deferred(args, WordPart::full, argsOffset);
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
    encodedOp(op);
  }
  EncodedSubmit encoded;
  encoded.deferred = deferred.take();
  if (std::optional<EncodedStream> kernargs = kernargStream.finish())
    encoded.indirect.push_back(std::move(*kernargs));
  encoded.commands = std::move(cmds).take(PlaceholderTag::cmdbuf);
  return encoded;
}

} // namespace

std::unique_ptr<SubmitEncoder> hcq::cpu::createSubmitEncoder() {
  return std::make_unique<Encoder>();
}
