//===- Utils.cpp - Helpers shared by the hcq passes -----------------------===//

#include "HCQ/Transforms/Utils.h"
#include "HCQ/Runtime/ABI.h"

#include "mlir/IR/Builders.h"

using namespace mlir;

namespace hcq {

/// Every `OpT` in `root` and its nested modules, not looking inside one:
/// the walk is pre-order, as a post-order one visits the children (a big
/// schedule's million calls) before the skip.
template <typename OpT> static SmallVector<OpT> collect(ModuleOp root) {
  SmallVector<OpT> ops;
  root.walk<WalkOrder::PreOrder>([&](OpT op) {
    ops.push_back(op);
    return WalkResult::skip();
  });
  return ops;
}

SmallVector<ScheduleOp> getSchedules(ModuleOp root) {
  return collect<ScheduleOp>(root);
}

bool isBuiltinCopy(KernelOp kernel) {
  return kernel.getTarget() == KernelTarget::builtin &&
         kernel.getSymbol() == abi::BUILTIN_COPY_KERNEL;
}

std::string getBuiltinCopyKernelName(std::string_view target) {
  return "hcq_copy_" + std::string(target);
}

SmallVector<ExecutableOp> getExecutables(ModuleOp root) {
  return collect<ExecutableOp>(root);
}

std::optional<amd::Target> lookupTargetOption(MLIRContext *ctx, StringRef pass,
                                              StringRef name) {
  std::optional<amd::Target> target = amd::lookupTarget(name);
  if (target)
    return target;
  emitOptionError(ctx, pass) << "unknown AMD target '" << name << "' (expected "
                             << amd::listTargetNames() << ")";
  return std::nullopt;
}

InFlightDiagnostic emitOptionError(MLIRContext *ctx, StringRef pass) {
  InFlightDiagnostic diag = emitError(UnknownLoc::get(ctx));
  diag << pass << ": ";
  return diag;
}

DiagnosticEngine::HandlerID reportAtInput(MLIRContext *ctx, Location input) {
  return ctx->getDiagEngine().registerHandler(
      [ctx, input](Diagnostic &diag) -> LogicalResult {
        if (!isa<UnknownLoc>(diag.getLocation()))
          return failure(); // for the next handler
        // The same diagnostic at the input, through the handlers again
        // (this one passes it on: it has a location now).
        Diagnostic located(input, diag.getSeverity());
        located << diag.str();
        for (Diagnostic &note : diag.getNotes())
          located.attachNote(isa<UnknownLoc>(note.getLocation())
                                 ? std::optional<Location>(input)
                                 : note.getLocation())
              << note.str();
        ctx->getDiagEngine().emit(std::move(located));
        return success();
      });
}

FailureOr<DeviceKindSet> DeviceKindSet::parse(StringRef text, StringRef option,
                                              MLIRContext *ctx,
                                              StringRef pass) {
  hcq::Expected<uint32_t> mask = parseDeviceKindSet(text);
  if (!mask) {
    emitOptionError(ctx, pass)
        << "invalid '" << option
        << "' option: " << hcq::toString(mask.takeError());
    return failure();
  }
  DeviceKindSet set;
  set.mask = *mask;
  return set;
}

bool DeviceKindSet::containsAll(DevicesAttr devices) const {
  return llvm::all_of(devices.getDevices(),
                      [&](DeviceAttr d) { return contains(d.getKind()); });
}

BufferBase getBufferBase(Value buffer) {
  BufferBase result{buffer, 0};
  while (auto view = result.base.getDefiningOp<ViewOp>()) {
    auto type = cast<BufferType>(view.getSource().getType());
    result.byteOffset += view.getOffset() * type.getElementBytes();
    result.base = view.getSource();
  }
  return result;
}

static InFlightDiagnostic emitPartlyEncoded(SubmitOp submit) {
  return submit.emitOpError(
      "is partly encoded: it holds command words beside ops to encode");
}

FailureOr<bool> isEncoded(SubmitOp submit) {
  if (submit.getBody().empty() || submit.getBody().front().empty())
    return true;
  Block &body = submit.getBody().front();
  if (!isa<CmdsOp>(body.front()))
    return false;
  if (llvm::any_of(body, [](Operation &op) { return !isa<CmdsOp>(op); }))
    return emitPartlyEncoded(submit);
  return true;
}

FailureOr<SmallVector<Operation *>> getOpsToEncode(SubmitOp submit) {
  SmallVector<Operation *> ops;
  if (submit.getBody().empty())
    return ops;
  for (Operation &op : submit.getBody().front()) {
    if (isa<CmdsOp>(op))
      return emitPartlyEncoded(submit);
    ops.push_back(&op);
  }
  return ops;
}

DevicesAttr getEnqueueDevices(QueueCallOpInterface call,
                              const DeviceKindSet &hcqKinds) {
  SmallVector<Value> buffers = call.getCallBuffers();
  if (buffers.empty())
    return {};
  auto devicesOf = [](Value v) {
    return cast<BufferType>(v.getType()).getDevices();
  };
  // Most calls have all their buffers on the same devices: those are the
  // answer (what the rules below pick from them all).
  DevicesAttr first = devicesOf(buffers.front());
  if (llvm::all_of(llvm::drop_begin(buffers),
                   [&](Value v) { return devicesOf(v) == first; }))
    return hcqKinds.containsAll(first) ? first : DevicesAttr();
  for (Value buffer : buffers)
    if (!hcqKinds.containsAll(devicesOf(buffer)))
      return {};
  // A call runs a lane per lane of its widest buffers, or it would leave
  // their other lanes untouched (a buffer on one device is shared by every
  // lane). A broadcast copy thus runs on the destination's devices, each
  // pulling the source.
  size_t lanes = 0;
  for (Value buffer : buffers)
    lanes = std::max(lanes, devicesOf(buffer).size());
  llvm::erase_if(buffers,
                 [&](Value v) { return devicesOf(v).size() != lanes; });
  // A copy's source comes first: pushing is faster than pulling.
  if (call.getQueueKind() == QueueKind::COPY)
    std::reverse(buffers.begin(), buffers.end());
  for (Value buffer : buffers)
    if (devicesOf(buffer).front().getKind() != DeviceKind::CPU)
      return devicesOf(buffer);
  return devicesOf(buffers.front());
}

OpBuilder PlaceholderCache::builderAtStart() {
  OpBuilder builder(schedule.getContext());
  if (last)
    builder.setInsertionPointAfter(last);
  else
    builder.setInsertionPointToStart(&schedule.getBody().front());
  return builder;
}

Value PlaceholderCache::get(PlaceholderTag tag, int64_t slot, BufferType type,
                            bool isVolatile) {
  Value &value =
      cache[{static_cast<uint32_t>(tag), slot, type.getAsOpaquePointer()}];
  if (value)
    return value;
  OpBuilder builder = builderAtStart();
  auto op = PlaceholderOp::create(builder, schedule.getLoc(), type, tag, slot,
                                  isVolatile);
  last = op;
  return value = op;
}

Value PlaceholderCache::getSignal(PlaceholderTag tag, int64_t slot,
                                  DevicesAttr devices) {
  Value &value =
      signals[{static_cast<uint32_t>(tag), slot, devices.getAsOpaquePointer()}];
  if (value)
    return value;
  MLIRContext *ctx = schedule.getContext();
  return value =
             get(tag, slot,
                 BufferType::get(ctx, 1, IntegerType::get(ctx, 64), devices),
                 /*isVolatile=*/true);
}

Value PlaceholderCache::getProgram(FlatSymbolRefAttr kernel,
                                   DevicesAttr devices, int64_t bytes) {
  Value &value =
      programs[{kernel.getAsOpaquePointer(), devices.getAsOpaquePointer()}];
  if (value)
    return value;
  MLIRContext *ctx = schedule.getContext();
  OpBuilder builder = builderAtStart();
  auto op =
      ProgramOp::create(builder, schedule.getLoc(),
                        BufferType::get(ctx, std::max<int64_t>(bytes, 1),
                                        IntegerType::get(ctx, 8), devices),
                        kernel);
  last = op;
  return value = op;
}

int64_t PlaceholderCache::freshSlot() {
  if (nextSlot < 0) {
    nextSlot = 1;
    schedule.walk([&](PlaceholderOp p) {
      nextSlot = std::max(nextSlot, p.getSlot() + 1);
    });
  }
  return nextSlot++;
}

} // namespace hcq
