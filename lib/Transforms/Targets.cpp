//===- Targets.cpp - What submits compile for -----------------------------===//
//
// The TargetAttrInterface models: each target's encoder, its way of pushing
// a sealed command buffer (seed section 5) and its disassembler.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Targets.h"
#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/PacketSink.h"
#include "HCQ/Target/Disassembler.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace hcq;
namespace pm4 = hcq::amd::pm4;

namespace {

/// The generation an #hcq.amd_target names (its verifier checked it).
amd::Target targetOf(Attribute attr) {
  return *amd::lookupTarget(cast<AMDTargetAttr>(attr).getChip());
}

/// The packet builders' sink (PacketSink.h) over a blob's data: a quantity
/// is a byte offset into the command buffer, patched at link time.
struct BlobSink {
  SmallVectorImpl<int32_t> &data;
  SmallVectorImpl<int64_t> &patches;

  void packet(uint32_t) {}
  void dword(uint32_t d) { data.push_back(static_cast<int32_t>(d)); }
  void low(uint64_t offset) { patch(offset, WordPart::lo); }
  void high(uint64_t offset) {
    // Right after its low half: one 64-bit patch, as hcq-seal makes of a
    // stream's lo/hi pair.
    SymbolicWords table(patches);
    size_t n = table.size();
    int64_t lowAt = (int64_t(data.size()) - 1) * 4;
    Word low = n ? table.word(n - 1) : Word();
    if (n && table.at(n - 1) == lowAt && low.part == WordPart::lo &&
        low.value == offset) {
      setSymbol(patches, n - 1, lowAt,
                Word{WordKind::address, offset, 0, WordPart::full});
      data.push_back(static_cast<int32_t>(0xbebebebe));
      return;
    }
    patch(offset, WordPart::hi);
  }
  void patch(uint64_t offset, WordPart part) {
    appendSymbol(patches, int64_t(data.size()) * 4,
                 Word{WordKind::address, offset, 0, part});
    data.push_back(static_cast<int32_t>(0xbebebebe));
  }
};

struct AMDTargetModel
    : public TargetAttrInterface::ExternalModel<AMDTargetModel, AMDTargetAttr> {
  LogicalResult encodeSubmits(Attribute attr, ScheduleOp schedule,
                              ArrayRef<SubmitOp> submits) const {
    return encodeAMDSubmits(targetOf(attr),
                            cast<AMDTargetAttr>(attr).getIndirectBufferDwords(),
                            schedule, submits);
  }

  LogicalResult lowerEnqueue(Attribute attr, EnqueueOp enqueue,
                             PlaceholderCache &placeholders, PushMode &mode,
                             Value &source, int64_t &size) const {
    if (enqueue.getQueue().getKind() == QueueKind::COPY) {
      mode = PushMode::sdma;
      return success();
    }
    // The ring carries INDIRECT_BUFFER packets [nvd PACKET3_INDIRECT_
    // BUFFER], one per `split` dwords of the command buffer (the encoder
    // kept packets from straddling a split).
    mode = PushMode::pm4;
    uint64_t split = cast<AMDTargetAttr>(attr).getIndirectBufferDwords();
    if (size % 4)
      return enqueue.emitOpError()
             << "command buffer of " << size << " bytes is not whole dwords";
    MLIRContext *ctx = enqueue.getContext();
    SmallVector<int32_t> data;
    SmallVector<int64_t> patches;
    BlobSink sink{data, patches};
    uint64_t dwords = size / 4;
    for (uint64_t at = 0; at == 0 || at < dwords; at += split)
      pm4::emitIndirectBuffer(
          sink, at * 4, static_cast<uint32_t>(std::min(split, dwords - at)));
    // The packets, then a fill the ring never reads, to a 128-byte blob.
    int64_t packetBytes = int64_t(data.size()) * 4;
    int64_t blobBytes = llvm::alignTo(packetBytes, 128);
    data.resize(blobBytes / 4, static_cast<int32_t>(0xbfbfbfbf));
    Value packet = placeholders.get(
        PlaceholderTag::cmdbuf, placeholders.freshSlot(),
        BufferType::get(ctx, blobBytes, IntegerType::get(ctx, 8),
                        enqueue.getDevices()),
        /*isVolatile=*/false);
    OpBuilder builder(enqueue);
    BlobOp::create(builder, enqueue.getLoc(), packet, data, patches,
                   ValueRange{source}, /*lane=*/std::nullopt);
    source = packet;
    size = packetBytes;
    return success();
  }

  llvm::Error disassemble(Attribute attr, QueueKind queue,
                          ArrayRef<DisasmWord> words,
                          llvm::raw_ostream &os) const {
    if (queue == QueueKind::COPY)
      return disassembleSDMA(words, targetOf(attr), os);
    return disassemblePM4(words, targetOf(attr), os);
  }
};

struct CPUTargetModel
    : public TargetAttrInterface::ExternalModel<CPUTargetModel, CPUTargetAttr> {
  LogicalResult encodeSubmits(Attribute, ScheduleOp schedule,
                              ArrayRef<SubmitOp> submits) const {
    return encodeCPUSubmits(schedule, submits);
  }

  LogicalResult lowerEnqueue(Attribute, EnqueueOp, PlaceholderCache &,
                             PushMode &mode, Value &, int64_t &) const {
    mode = PushMode::cpu;
    return success();
  }

  llvm::Error disassemble(Attribute, QueueKind, ArrayRef<DisasmWord> words,
                          llvm::raw_ostream &os) const {
    return disassembleCPU(words, os);
  }
};

} // namespace

void hcq::registerTargetInterfaces(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, HCQDialect *) {
    AMDTargetAttr::attachInterface<AMDTargetModel>(*ctx);
    CPUTargetAttr::attachInterface<CPUTargetModel>(*ctx);
  });
}

FailureOr<TargetAttrInterface>
hcq::lookupScheduleTarget(Operation *user, DeviceKind kind, Operation *scope) {
  Attribute attr = getTargetAttr(scope ? scope : user, kind);
  if (!attr)
    return user->emitOpError()
           << "is on " << stringifyDeviceKind(kind) << " devices but its "
           << "schedule names no target for them in '" << TARGETS_ATTR
           << "': run hcq-attach-targets";
  auto target = dyn_cast<TargetAttrInterface>(attr);
  if (!target)
    return user->emitOpError()
           << "has target " << attr
           << " but its interface is not registered: call "
              "hcq::registerTargetInterfaces on the context's registry";
  return target;
}
