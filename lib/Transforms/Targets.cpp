//===- Targets.cpp - What submits compile for -----------------------------===//
//
// The TargetAttrInterface models: each target's encoder, its way of pushing
// a sealed command buffer (seed section 5) and its disassembler.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/Targets.h"
#include "HCQ/Target/AMD/PM4.h"
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

struct AMDTargetModel
    : public TargetAttrInterface::ExternalModel<AMDTargetModel, AMDTargetAttr> {
  LogicalResult encodeSubmits(Attribute attr, ScheduleOp schedule,
                              ArrayRef<SubmitOp> submits,
                              int64_t maxCommandDwords) const {
    return encodeAMDSubmits(targetOf(attr), schedule, submits,
                            maxCommandDwords);
  }

  LogicalResult lowerEnqueue(Attribute, EnqueueOp enqueue,
                             PlaceholderCache &placeholders, PushMode &mode,
                             Value &source, int64_t &size) const {
    if (enqueue.getQueue().getKind() == QueueKind::COPY) {
      mode = PushMode::sdma;
      return success();
    }
    // The ring carries one INDIRECT_BUFFER packet [nvd PACKET3_INDIRECT_
    // BUFFER]: address of the command buffer, its size in dwords, VALID.
    mode = PushMode::pm4;
    if (size % 4 || size / 4 > pm4::IB_MAX_DWORDS)
      return enqueue.emitOpError() << "command buffer of " << size
                                   << " bytes does not fit one INDIRECT_BUFFER";
    MLIRContext *ctx = enqueue.getContext();
    constexpr int64_t packetBytes = 16, blobBytes = 128;
    SmallVector<int32_t> data(blobBytes / 4, static_cast<int32_t>(0xbfbfbfbf));
    data[0] = static_cast<int32_t>(pm4::packet3(pm4::INDIRECT_BUFFER, 3));
    data[1] = data[2] = static_cast<int32_t>(0xbebebebe);
    data[3] = static_cast<int32_t>((size / 4) | pm4::IB_VALID);
    Value packet = placeholders.get(
        PlaceholderTag::cmdbuf, placeholders.freshSlot(),
        BufferType::get(ctx, blobBytes, IntegerType::get(ctx, 8),
                        enqueue.getDevices()),
        /*isVolatile=*/false);
    SmallVector<int64_t> patches;
    appendSymbol(patches, 4, Word{WordKind::address, 0, 0, WordPart::lo});
    appendSymbol(patches, 8, Word{WordKind::address, 0, 0, WordPart::hi});
    OpBuilder builder(enqueue);
    BlobOp::create(builder, enqueue.getLoc(), packet, data, patches,
                   ValueRange{source}, /*lane=*/nullptr);
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
                              ArrayRef<SubmitOp> submits, int64_t) const {
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
