//===- LowerSubmit.cpp - Enqueues into queue pushes -----------------------===//
//
// Seed section 5 ("lower submits"): each backend's way of getting a sealed
// command buffer onto its queue.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"

namespace hcq {
#define GEN_PASS_DEF_HCQLOWERSUBMIT
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;
namespace pm4 = hcq::amd::pm4;

namespace {

struct LowerSubmitPass : public hcq::impl::HCQLowerSubmitBase<LowerSubmitPass> {
  using Base::Base;

  void runOnOperation() override {
    ScheduleOp schedule = getOperation();
    if (schedule.getBody().empty())
      return;
    PlaceholderCache placeholders(schedule);
    for (EnqueueOp enqueue : llvm::make_early_inc_range(
             schedule.getBody().front().getOps<EnqueueOp>()))
      if (failed(lower(enqueue, placeholders)))
        return signalPassFailure();
  }

  LogicalResult lower(EnqueueOp enqueue, PlaceholderCache &placeholders) {
    MLIRContext *ctx = enqueue.getContext();
    DevicesAttr devices = enqueue.getDevices();
    QueueAttr queue = enqueue.getQueue();
    OpBuilder builder(enqueue);
    Location loc = enqueue.getLoc();

    Value source = enqueue.getCmdbuf();
    int64_t size = enqueue.getSize();
    PushMode mode;
    if (devices.allOfKind(DeviceKind::CPU)) {
      mode = PushMode::cpu;
    } else if (queue.getKind() == QueueKind::COPY) {
      mode = PushMode::sdma;
    } else {
      // The ring carries one INDIRECT_BUFFER packet [nvd PACKET3_INDIRECT_
      // BUFFER]: address of the command buffer, its size in dwords, VALID.
      mode = PushMode::pm4;
      if (size % 4 || size / 4 > pm4::IB_MAX_DWORDS)
        return enqueue.emitOpError()
               << "command buffer of " << size
               << " bytes does not fit one INDIRECT_BUFFER";
      constexpr int64_t packetBytes = 16, blobBytes = 128;
      SmallVector<int32_t> data(blobBytes / 4,
                                static_cast<int32_t>(0xbfbfbfbf));
      data[0] = static_cast<int32_t>(pm4::packet3(pm4::INDIRECT_BUFFER, 3));
      data[1] = data[2] = static_cast<int32_t>(0xbebebebe);
      data[3] = static_cast<int32_t>((size / 4) | pm4::IB_VALID);
      Value packet = placeholders.get(
          PlaceholderTag::cmdbuf, placeholders.freshSlot(),
          BufferType::get(ctx, blobBytes, IntegerType::get(ctx, 8), devices),
          /*isVolatile=*/false);
      SmallVector<int64_t> patches;
      appendSymbol(patches, 4, Word{WordKind::address, 0, 0, WordPart::lo});
      appendSymbol(patches, 8, Word{WordKind::address, 0, 0, WordPart::hi});
      BlobOp::create(builder, loc, packet, data, patches, ValueRange{source},
                     /*lane=*/nullptr);
      source = packet;
      size = packetBytes;
    }
    // The queue's ring, pointers and doorbell are the runtime's: the push
    // names the device queue, and the runtime checks at load that the push
    // fits its ring.
    PushOp::create(builder, loc, source, size, mode, devices, queue);
    enqueue.erase();
    return success();
  }
};

} // namespace
