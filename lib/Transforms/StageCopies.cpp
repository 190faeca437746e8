//===- StageCopies.cpp - Staging copies and kernel copies -----------------===//
//
// Seed sections 1.1 (staging copies) and 1.2 (kernel copies).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/ABI.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/PatternMatch.h"

#include <limits>

namespace hcq {
#define GEN_PASS_DEF_HCQSTAGECOPIES
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

BufferType getBufferType(Value v) { return cast<BufferType>(v.getType()); }

struct StageCopiesPass : public hcq::impl::HCQStageCopiesBase<StageCopiesPass> {
  using Base::Base;

  LogicalResult initialize(MLIRContext *ctx) override;
  void runOnOperation() override;

private:
  /// Whether a copy from `a` to `b` (or back) must go through host memory:
  /// `a` is on a non-CPU HCQ device, `b` not on an HCQ device at all.
  bool needsStaging(BufferType a, BufferType b) const {
    DevicesAttr da = a.getDevices(), db = b.getDevices();
    bool aOnQueueGpu = hcqKinds.containsAll(da) &&
                       llvm::none_of(da.getDevices(), [](DeviceAttr d) {
                         return d.getKind() == DeviceKind::CPU;
                       });
    return aOnQueueGpu && !hcqKinds.containsAll(db);
  }
  /// Whether a copy from `src` to `dst` is a broadcast from a non-CPU HCQ
  /// device into lanes of which one is on a CPU device. A broadcast runs on
  /// the destination's devices, and a CPU queue cannot be expected to read
  /// GPU memory (VRAM the host does not map), so it goes through CPU:0's
  /// staging buffer: pushed there by the GPU, broadcast from host memory.
  bool isBroadcastToCPU(BufferType src, BufferType dst) const {
    DevicesAttr ds = src.getDevices(), dd = dst.getDevices();
    return ds.size() == 1 && dd.size() > 1 && hcqKinds.containsAll(ds) &&
           hcqKinds.containsAll(dd) &&
           ds.front().getKind() != DeviceKind::CPU &&
           llvm::any_of(dd.getDevices(), [](DeviceAttr d) {
             return d.getKind() == DeviceKind::CPU;
           });
  }

  LogicalResult stageCopy(IRRewriter &rewriter, CopyOp copy,
                          SmallVectorImpl<CopyOp> &result);
  /// Replaces `copy` by a builtin copy kernel launch when its devices have
  /// no copy queue; returns whether it did.
  bool lowerToKernelCopy(IRRewriter &rewriter, CopyOp copy);
  Value getStagingBuffer(IRRewriter &rewriter, ScheduleOp schedule,
                         size_t lanes);
  FlatSymbolRefAttr getCopyKernel(ModuleOp module, Type dstType, Type srcType);

  DeviceKindSet hcqKinds, copyQueueKinds;
  /// By schedule and lane count.
  DenseMap<std::pair<Operation *, size_t>, Value> stagingBuffers;
  ModuleOp module;
};

} // namespace

/// The staging buffer of copies of `lanes` lanes: on CPU:0 for one, on
/// [CPU:0, ..., CPU:<lanes - 1>] for several, so that each lane is staged in
/// its own memory. Slot `lanes - 1`: no two of them share memory, as
/// dependencies are tracked per placeholder.
Value StageCopiesPass::getStagingBuffer(IRRewriter &rewriter,
                                        ScheduleOp schedule, size_t lanes) {
  Value &staging = stagingBuffers[{schedule, lanes}];
  if (staging)
    return staging;
  OpBuilder::InsertionGuard guard(rewriter);
  rewriter.setInsertionPointToStart(&schedule.getBody().front());
  MLIRContext *ctx = rewriter.getContext();
  SmallVector<DeviceAttr> cpus;
  for (size_t i = 0; i < lanes; ++i)
    cpus.push_back(DeviceAttr::get(ctx, DeviceKind::CPU, i));
  auto type = BufferType::get(ctx, stagingSize, rewriter.getIntegerType(8),
                              DevicesAttr::get(ctx, cpus));
  staging = PlaceholderOp::create(rewriter, schedule.getLoc(), type,
                                  PlaceholderTag::staging, lanes - 1,
                                  /*is_volatile=*/false);
  return staging;
}

LogicalResult StageCopiesPass::stageCopy(IRRewriter &rewriter, CopyOp copy,
                                         SmallVectorImpl<CopyOp> &result) {
  BufferType dstType = getBufferType(copy.getDst());
  BufferType srcType = getBufferType(copy.getSrc());
  bool broadcastToCPU = isBroadcastToCPU(srcType, dstType);
  if (!needsStaging(srcType, dstType) && !needsStaging(dstType, srcType) &&
      !broadcastToCPU) {
    result.push_back(copy);
    return success();
  }
  // Chunks are whole elements for a device outside the HCQ set; a
  // broadcast into CPU lanes may go by bytes.
  int64_t elementBytes = srcType.getElementBytes();
  if (dstType.getElementBytes() != elementBytes) {
    if (!broadcastToCPU)
      return copy.emitOpError()
             << "staged copy needs one element size on both sides, got "
             << srcType.getElementType() << " and " << dstType.getElementType();
    elementBytes = 1;
  }
  int64_t chunk = stagingSize / stagingSlots / elementBytes * elementBytes;
  if (chunk == 0)
    return copy.emitOpError()
           << "staging slots of " << stagingSize / stagingSlots
           << " bytes cannot hold one " << elementBytes << "-byte element";

  // As many staging lanes as source lanes: lane i through lane i, or one
  // lane broadcast from staging (CopyOp::verify allows nothing else).
  auto schedule = copy->getParentOfType<ScheduleOp>();
  Value staging =
      getStagingBuffer(rewriter, schedule, srcType.getDevices().size());
  rewriter.setInsertionPoint(copy);
  int64_t size = copy.getSrcSize();
  for (int64_t i = 0, done = 0; done < size; ++i, done += chunk) {
    int64_t n = std::min(chunk, size - done);
    int64_t slotOffset = (i % stagingSlots) * chunk;
    result.push_back(CopyOp::create(rewriter, copy.getLoc(), staging,
                                    slotOffset, n, copy.getSrc(),
                                    copy.getSrcOffset() + done, n));
    result.push_back(CopyOp::create(rewriter, copy.getLoc(), copy.getDst(),
                                    copy.getDstOffset() + done, n, staging,
                                    slotOffset, n));
  }
  rewriter.eraseOp(copy);
  return success();
}

FlatSymbolRefAttr StageCopiesPass::getCopyKernel(ModuleOp module, Type dstType,
                                                 Type srcType) {
  std::string name;
  llvm::raw_string_ostream os(name);
  os << "hcq_copy_" << dstType << "_" << srcType;
  MLIRContext *ctx = module.getContext();
  if (!SymbolTable::lookupSymbolIn(module, name)) {
    OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
    Builder b(ctx);
    KernelOp::create(builder, module.getLoc(), name, KernelTarget::builtin,
                     b.getArrayAttr({AccessAttr::get(ctx, Access::write),
                                     AccessAttr::get(ctx, Access::read)}),
                     b.getTypeArrayAttr({dstType, srcType}), /*num_vars=*/0,
                     b.getStringAttr(abi::BUILTIN_COPY_KERNEL),
                     /*library=*/nullptr,
                     /*code_object=*/nullptr);
  }
  return FlatSymbolRefAttr::get(ctx, name);
}

/// A view of `bytes` bytes at byte `offset` of `buffer` as `elementType`, or
/// the buffer itself when that is what it already is.
static Value viewRange(IRRewriter &rewriter, Location loc, Value buffer,
                       int64_t offset, int64_t bytes, Type elementType) {
  BufferType type = getBufferType(buffer);
  if (offset == 0 && bytes == type.getByteSize() &&
      type.getElementType() == elementType)
    return buffer;
  // The view offset counts source elements: view bytes when it is not whole.
  if (offset % type.getElementBytes()) {
    auto bytesType =
        BufferType::get(rewriter.getContext(), type.getByteSize(),
                        rewriter.getIntegerType(8), type.getDevices());
    buffer = ViewOp::create(rewriter, loc, bytesType, buffer, 0);
    type = bytesType;
  }
  auto viewType = BufferType::get(
      rewriter.getContext(), bytes / (elementType.getIntOrFloatBitWidth() / 8),
      elementType, type.getDevices());
  return ViewOp::create(rewriter, loc, viewType, buffer,
                        offset / type.getElementBytes());
}

bool StageCopiesPass::lowerToKernelCopy(IRRewriter &rewriter, CopyOp copy) {
  DevicesAttr devices = getEnqueueDevices(copy, hcqKinds);
  if (!devices || copyQueueKinds.contains(devices.front().getKind()))
    return false;
  BufferType dstType = getBufferType(copy.getDst());
  BufferType srcType = getBufferType(copy.getSrc());
  int64_t size = copy.getSrcSize();
  // Copy whole elements when both sides agree on their size and the ranges
  // are aligned to it; bytes otherwise.
  Type dstElement = dstType.getElementType();
  Type srcElement = srcType.getElementType();
  int64_t elementBytes = dstType.getElementBytes();
  if (srcType.getElementBytes() != elementBytes ||
      copy.getDstOffset() % elementBytes ||
      copy.getSrcOffset() % elementBytes || size % elementBytes) {
    dstElement = srcElement = rewriter.getIntegerType(8);
    elementBytes = 1;
  }

  rewriter.setInsertionPoint(copy);
  Location loc = copy.getLoc();
  FlatSymbolRefAttr kernel =
      getCopyKernel(copy->getParentOfType<ModuleOp>(), dstElement, srcElement);
  // One thread per element: the builtin copies element x of a [n, 1, 1] grid,
  // and a grid dimension has at most 2^32 - 1 workgroups (hcq.launch), so a
  // larger copy is several launches. The verified ranges bound every offset.
  constexpr int64_t maxElements = std::numeric_limits<uint32_t>::max();
  int64_t elements = size / elementBytes;
  for (int64_t done = 0; done < elements; done += maxElements) {
    int64_t n = std::min(maxElements, elements - done);
    int64_t at = done * elementBytes, bytes = n * elementBytes;
    Value dst = viewRange(rewriter, loc, copy.getDst(),
                          copy.getDstOffset() + at, bytes, dstElement);
    Value src = viewRange(rewriter, loc, copy.getSrc(),
                          copy.getSrcOffset() + at, bytes, srcElement);
    LaunchOp::create(rewriter, loc, kernel, ValueRange{dst, src}, ValueRange{},
                     rewriter.getDenseI64ArrayAttr({n, 1, 1}),
                     rewriter.getDenseI64ArrayAttr({1, 1, 1}));
  }
  rewriter.eraseOp(copy);
  return true;
}

/// Options are checked when the pass manager is set up, before any pass
/// runs.
LogicalResult StageCopiesPass::initialize(MLIRContext *ctx) {
  if (stagingSlots <= 0)
    return emitOptionError(ctx, getArgument())
           << "'staging-slots' must be positive, got "
           << static_cast<int64_t>(stagingSlots);
  if (stagingSize <= 0)
    return emitOptionError(ctx, getArgument())
           << "'staging-size' must be positive, got "
           << static_cast<int64_t>(stagingSize);
  FailureOr<DeviceKindSet> hcq =
      DeviceKindSet::parse(devices, "devices", ctx, getArgument());
  FailureOr<DeviceKindSet> copy =
      DeviceKindSet::parse(copyQueues, "copy-queues", ctx, getArgument());
  if (failed(hcq) || failed(copy))
    return failure();
  hcqKinds = *hcq;
  copyQueueKinds = *copy;
  return success();
}

void StageCopiesPass::runOnOperation() {
  module = getOperation();
  stagingBuffers.clear();

  SmallVector<CopyOp> copies;
  module.walk([&](CopyOp op) {
    if (op->getParentOfType<ScheduleOp>())
      copies.push_back(op);
  });
  IRRewriter rewriter(&getContext());
  bool changed = false;
  for (CopyOp op : copies) {
    SmallVector<CopyOp> staged;
    if (failed(stageCopy(rewriter, op, staged)))
      return signalPassFailure();
    changed |= staged.size() != 1 || staged.front() != op;
    for (CopyOp part : staged)
      changed |= lowerToKernelCopy(rewriter, part);
  }
  // Unchanged IR needs no verification after the pass.
  if (!changed)
    markAllAnalysesPreserved();
}
