//===- PrintPackets.cpp - Disassemble encoded submits ---------------------===//

#include "HCQ/Target/CPU/Entry.h"
#include "HCQ/Target/Disassembler.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/AsmState.h"

#include "llvm/Support/Format.h"
#include <map>

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
    // It only reads the IR.
    markAllAnalysesPreserved();
    ModuleOp module = getOperation();
    AsmState state(module);
    llvm::raw_ostream &os = llvm::outs();
    for (ScheduleOp schedule : getSchedules(module)) {
      os << "// hcq.schedule @" << schedule.getSymName() << '\n';
      WalkResult walk = schedule.walk([&](SubmitOp submit) {
        for (CmdsOp cmds : submit.getBody().getOps<CmdsOp>())
          if (failed(print(submit, cmds, state, os)))
            return WalkResult::interrupt();
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return signalPassFailure();
    }
    for (ExecutableOp exe : getExecutables(module))
      if (failed(printLinked(exe, os)))
        return signalPassFailure();
  }

  /// A linked executable: every push's bytes, followed from the submitter
  /// calls, for every lane. A push its target reads as an indirect-buffer
  /// packet (PM4's INDIRECT_BUFFER) has the command buffer it points at
  /// disassembled too.
  LogicalResult printLinked(ExecutableOp exe, llvm::raw_ostream &os) {
    os << "// hcq.executable @" << exe.getSymName() << '\n';
    // Linked bytes by (value, lane) and by address; host functions by
    // address.
    DenseMap<std::pair<Value, unsigned>, ArrayRef<int32_t>> bytesOf;
    std::map<uint64_t, ArrayRef<int32_t>> bytesAt;
    std::map<uint64_t, uint32_t> hostFunctions;
    auto addressesOf = [](Value v) -> ArrayRef<int64_t> {
      Operation *def = v.getDefiningOp();
      if (auto attr =
              def ? def->getAttrOfType<DenseI64ArrayAttr>("hcq.addresses")
                  : DenseI64ArrayAttr())
        return attr.asArrayRef();
      return {};
    };
    for (Operation &op : exe.getBody().front()) {
      if (auto p = dyn_cast<PlaceholderOp>(op))
        if (p.getTag() == PlaceholderTag::host_function)
          for (int64_t a : addressesOf(p))
            hostFunctions[a] = p.getSlot();
      auto blob = dyn_cast<BlobOp>(op);
      if (!blob)
        continue;
      if (!blob.getPatches().empty())
        return blob.emitOpError("is not linked: run hcq-link before "
                                "printing an executable's packets");
      unsigned lane = blob.getLane().value_or(0);
      bytesOf[{blob.getTarget(), lane}] = blob.getData();
      ArrayRef<int64_t> addresses = addressesOf(blob.getTarget());
      if (lane < addresses.size())
        bytesAt[addresses[lane]] = blob.getData();
    }
    auto dwords = [](ArrayRef<int32_t> data, size_t count) {
      SmallVector<DisasmWord> words;
      for (int32_t d : data.take_front(count))
        words.push_back(DisasmWord::of(static_cast<uint32_t>(d)));
      return words;
    };

    SymbolTableCollection symbols;
    for (CallOp call : exe.getBody().getOps<CallOp>()) {
      auto submitter = symbols.lookupNearestSymbolFrom<SubmitterOp>(
          call, call.getCalleeAttr());
      for (PushOp push : submitter.getBody().getOps<PushOp>()) {
        Value source = call.getOperands()[cast<BlockArgument>(push.getSource())
                                              .getArgNumber()];
        // What the executable's words are for, on the push's devices.
        FailureOr<TargetAttrInterface> target = lookupScheduleTarget(
            push, push.getDevices().front().getKind(), exe);
        if (failed(target))
          return failure();
        QueueKind queue = push.getQueue().getKind();
        for (unsigned lane = 0; lane < push.getDevices().size(); ++lane) {
          os << "// push on " << push.getDevices().getDevices()[lane].str()
             << " queue " << push.getQueue().str() << ", "
             << stringifyPushMode(push.getMode()) << ", " << push.getSize()
             << " bytes\n";
          ArrayRef<int32_t> data = bytesOf.lookup({source, lane});
          if (data.empty())
            data = bytesOf.lookup({source, 0});
          size_t count = push.getSize() / 4;
          if (data.size() < count)
            return push.emitOpError("pushes bytes no blob holds");
          llvm::Error error = llvm::Error::success();
          if (push.getMode() == PushMode::cpu) {
            SmallVector<DisasmWord> words;
            for (size_t i = 0; i + 1 < count; i += 2) {
              uint64_t w = static_cast<uint32_t>(data[i]) |
                           (uint64_t(static_cast<uint32_t>(data[i + 1])) << 32);
              DisasmWord word = DisasmWord::of(w);
              auto fn = hostFunctions.find(w);
              if (i % (2 * cpu::ENTRY_WORDS) == 0 && fn != hostFunctions.end())
                word.hostFunction = fn->second;
              words.push_back(word);
            }
            error = target->disassemble(queue, words, os);
          } else {
            error = target->disassemble(queue, dwords(data, count), os);
          }
          // A push that is an indirect-buffer packet (a PM4 ring's):
          // follow it to its command buffer, as its target reads it.
          std::optional<IndirectBuffer> indirect;
          if (!error) {
            SmallVector<uint32_t> pushed;
            for (int32_t d : data.take_front(count))
              pushed.push_back(static_cast<uint32_t>(d));
            indirect = target->followIndirectBuffer(queue, pushed);
          }
          if (indirect) {
            auto buffer = bytesAt.find(indirect->address);
            if (buffer != bytesAt.end()) {
              os << "// indirect buffer at "
                 << llvm::format_hex(indirect->address, 18) << '\n';
              error = target->disassemble(
                  queue, dwords(buffer->second, indirect->dwords), os);
            }
          }
          if (error)
            return push.emitOpError() << llvm::toString(std::move(error));
        }
      }
    }
    return success();
  }

  LogicalResult print(SubmitOp submit, CmdsOp cmds, AsmState &state,
                      llvm::raw_ostream &os) {
    unsigned bits = cmds.getWordBits();
    SmallVector<DisasmWord> words;
    cmds.getStream().forEach([&](size_t, const Word &word) {
      DisasmWord w;
      if (word.isConstant()) {
        w.value = word.value;
      } else {
        llvm::raw_string_ostream text(w.symbol);
        printWord(text, word, bits, [&](llvm::raw_ostream &out, unsigned ref) {
          cmds.getRefs()[ref].printAsOperand(out, state);
        });
        if (auto placeholder =
                cmds.getRefs()[word.ref].getDefiningOp<PlaceholderOp>())
          if (placeholder.getTag() == PlaceholderTag::host_function)
            w.hostFunction = placeholder.getSlot();
      }
      words.push_back(std::move(w));
    });

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
      // Word by word, under where each segment starts in the stream's
      // memory when there are several (a launch's arguments each).
      WordStream stream = cmds.getStream();
      stream.forEachSegment([&](size_t begin, size_t end, uint64_t offset) {
        if (stream.getNumSegments() > 1)
          os << "// segment at byte " << offset << '\n';
        for (size_t i = begin; i < end; ++i) {
          const DisasmWord &w = words[i];
          os << llvm::format_decimal(i, 4) << ": ";
          if (w.value)
            os << llvm::format_hex(*w.value, bits / 4 + 2);
          else
            os << w.symbol;
          os << '\n';
        }
      });
    } else {
      FailureOr<TargetAttrInterface> target =
          lookupScheduleTarget(submit, submit.getDevices().front().getKind());
      if (failed(target))
        return failure();
      error = target->disassemble(submit.getQueue().getKind(), words, os);
    }
    if (error)
      return cmds.emitOpError() << llvm::toString(std::move(error));
    return success();
  }
};

} // namespace
