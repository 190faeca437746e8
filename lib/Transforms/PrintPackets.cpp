//===- PrintPackets.cpp - Disassemble encoded submits ---------------------===//

#include "HCQ/Target/CPU/Entry.h"
#include "HCQ/Target/Disassembler.h"
#include "HCQ/Transforms/Passes.h"

#include "mlir/IR/AsmState.h"
#include "llvm/Support/Format.h"

namespace hcq {
#define GEN_PASS_DEF_HCQPRINTPACKETS
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

struct PrintPacketsPass
    : public hcq::impl::HCQPrintPacketsBase<PrintPacketsPass> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    std::optional<amd::Target> amdTarget = amd::lookupTarget(target);
    if (!amdTarget) {
      emitError(module.getLoc()) << "unknown AMD target '" << target << "'";
      return signalPassFailure();
    }
    AsmState state(module);
    llvm::raw_ostream &os = llvm::outs();
    for (ScheduleOp schedule : module.getOps<ScheduleOp>()) {
      os << "// hcq.schedule @" << schedule.getSymName() << '\n';
      WalkResult walk = schedule.walk([&](SubmitOp submit) {
        for (CmdsOp cmds : submit.getBody().getOps<CmdsOp>())
          if (failed(print(submit, cmds, *amdTarget, state, os)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
  }

  LogicalResult print(SubmitOp submit, CmdsOp cmds, const amd::Target &amd,
                      AsmState &state, llvm::raw_ostream &os) {
    unsigned bits = cmds.getWordBits();
    SmallVector<DisasmWord> words;
    for (Attribute attr : cmds.getWords()) {
      auto word = cast<WordAttr>(attr);
      DisasmWord w;
      if (word.isConstant()) {
        w.value = word.getValue();
      } else {
        llvm::raw_string_ostream text(w.symbol);
        printWord(text, word, cmds.getRefs(), bits,
                  [&](llvm::raw_ostream &out, Value v) {
                    v.printAsOperand(out, state);
                  });
        if (auto placeholder =
                cmds.getRefs()[word.getRef()].getDefiningOp<PlaceholderOp>())
          if (placeholder.getTag() == PlaceholderTag::host_function)
            w.hostFunction = placeholder.getSlot();
      }
      words.push_back(std::move(w));
    }

    os << "// submit on ";
    llvm::interleaveComma(submit.getDevices().getDevices(), os,
                          [&](DeviceAttr d) { os << d.str(); });
    os << " queue " << submit.getQueue().str() << ", "
       << stringifyPlaceholderTag(cmds.getTag());
    if (Value linear = cmds.getLinear()) {
      os << ' ';
      linear.printAsOperand(os, state);
    }
    os << ", " << words.size() << " words\n";
    llvm::Error error = llvm::Error::success();
    if (cmds.getTag() != PlaceholderTag::cmdbuf) {
      for (auto [i, w] : llvm::enumerate(words)) {
        os << llvm::format_decimal(i, 4) << ": ";
        if (w.value)
          os << llvm::format_hex(*w.value, bits / 4 + 2);
        else
          os << w.symbol;
        os << '\n';
      }
    } else if (submit.getDevices().allOfKind(DeviceKind::CPU)) {
      error = disassembleCPU(words, os);
    } else if (submit.getQueue().getKind() == QueueKind::COPY) {
      error = disassembleSDMA(words, amd, os);
    } else {
      error = disassemblePM4(words, amd, os);
    }
    if (error)
      return cmds.emitOpError() << llvm::toString(std::move(error));
    return success();
  }
};

} // namespace
