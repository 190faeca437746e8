//===- Link.cpp - Executables against a deterministic address map ---------===//
//
// Seed sections 9 and 10, for tests and inspection: the runtime's link run
// against addresses the pass picks, so every word a link resolves shows up
// resolved in the IR.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Link.h"
#include "HCQ/Transforms/ExecutableConversion.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"

namespace hcq {
#define GEN_PASS_DEF_HCQLINK
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

struct LinkPass : public hcq::impl::HCQLinkBase<LinkPass> {
  using Base::Base;

  void runOnOperation() override {
    SymbolTableCollection symbols;
    for (ExecutableOp exe : getExecutables(getOperation())) {
      DenseMap<Value, uint32_t> indices;
      FailureOr<runtime::Executable> converted =
          convertExecutable(exe, symbols, &indices);
      if (failed(converted))
        return signalPassFailure();
      runtime::AddressMap memory(base);
      hcq::Expected<runtime::LinkResult> linked =
          runtime::link(*converted, memory);
      if (!linked) {
        exe.emitOpError() << hcq::toString(linked.takeError());
        return signalPassFailure();
      }
      Builder builder(exe.getContext());
      for (auto &[value, index] : indices) {
        Operation *def = value.getDefiningOp();
        if (!def)
          continue;
        ArrayRef<uint64_t> lanes = linked->addresses[index];
        SmallVector<int64_t> addresses(lanes.begin(), lanes.end());
        def->setAttr("hcq.addresses", builder.getDenseI64ArrayAttr(addresses));
      }
      // Blobs in the order the conversion met them: the body's order.
      size_t next = 0;
      for (BlobOp blob :
           llvm::make_early_inc_range(exe.getBody().front().getOps<BlobOp>())) {
        const auto &lanes = linked->blobs[next++];
        OpBuilder at(blob);
        for (auto [lane, bytes] : llvm::enumerate(lanes)) {
          SmallVector<int32_t> dwords(bytes.size() / 4);
          std::memcpy(dwords.data(), bytes.data(), dwords.size() * 4);
          BlobOp::create(at, blob.getLoc(), blob.getTarget(), dwords,
                         SymbolEntries{}, ValueRange{},
                         lanes.size() > 1 ? std::optional<int32_t>(lane)
                                          : std::nullopt);
        }
        blob.erase();
      }
    }
  }
};

} // namespace
