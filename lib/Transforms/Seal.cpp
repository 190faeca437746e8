//===- Seal.cpp - Command words into blobs and patch tables ---------------===//
//
// Seed section 4 ("seal"): every submit's streams become blobs with
// link-time patches, run-time patches through the inputs and offset tables,
// and an enqueue of the command buffer.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Transforms/CommandStream.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MathExtras.h"

namespace hcq {
#define GEN_PASS_DEF_HCQSEAL
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

/// Bytes the unknown words and the padding are filled with, so a dump shows
/// at once what the link or the run has still to write (seed section 4).
constexpr uint8_t UNKNOWN_BYTE = 0xbe, PADDING_BYTE = 0xbf;

/// One blob under construction: the merged streams of one tag.
struct Blob {
  /// The bytes, kept as the dwords the hcq.blob will hold (every stream
  /// segment is padded to STREAM_ALIGNMENT bytes, so the size stays a
  /// multiple of 4).
  SmallVector<int32_t> dwords;
  size_t size() const { return dwords.size() * 4; }
  uint8_t *bytes() { return reinterpret_cast<uint8_t *>(dwords.data()); }
  void resize(size_t bytes, uint8_t fill) {
    dwords.resize(bytes / 4, int32_t(uint32_t(fill) * 0x01010101u));
  }
  /// Link-time patches (the symbols table, byte offsets) and the values
  /// they name.
  SmallVector<int64_t> patches;
  WordOperands operands;
  Value placeholder;
};

/// Whether the link gives `value` its memory.
bool isLinkTime(Value value) {
  if (isa<LinearType>(value.getType()))
    return true;
  Operation *def = value.getDefiningOp();
  return isa_and_nonnull<PlaceholderOp, ProgramOp, AllocOp>(def);
}

struct SealPass : public hcq::impl::HCQSealBase<SealPass> {
  void runOnOperation() override {
    ScheduleOp schedule = getOperation();
    if (schedule.getBody().empty())
      return;
    PlaceholderCache placeholders(schedule);
    for (SubmitOp submit : llvm::make_early_inc_range(
             schedule.getBody().front().getOps<SubmitOp>()))
      if (failed(seal(submit, placeholders)))
        return signalPassFailure();
  }

  LogicalResult seal(SubmitOp submit, PlaceholderCache &placeholders);
};

LogicalResult SealPass::seal(SubmitOp submit, PlaceholderCache &placeholders) {
  MLIRContext *ctx = submit.getContext();
  DevicesAttr devices = submit.getDevices();
  size_t lanes = devices.size();
  if (submit.getBody().empty() || submit.getBody().front().empty()) {
    submit.erase();
    return success();
  }

  // The streams, the command buffer first (it starts its blob).
  SmallVector<CmdsOp> streams;
  for (Operation &op : submit.getBody().front()) {
    auto cmds = dyn_cast<CmdsOp>(op);
    if (!cmds)
      return op.emitOpError("is not encoded: run hcq-encode before "
                            "hcq-seal");
    if (cmds.getTag() == PlaceholderTag::cmdbuf)
      streams.insert(streams.begin(), cmds);
    else
      streams.push_back(cmds);
  }
  if (streams.front().getTag() != PlaceholderTag::cmdbuf ||
      (streams.size() > 1 && streams[1].getTag() == PlaceholderTag::cmdbuf))
    return submit.emitOpError("needs exactly one 'cmdbuf' stream");

  // Lay the streams out: each in its tag's blob, every segment padded
  // (WordStream's layout).
  llvm::MapVector<PlaceholderTag, Blob> blobs;
  DenseMap<Operation *, int64_t> streamOffset;
  DenseMap<PlaceholderTag, size_t> symbolicWords;
  for (CmdsOp cmds : streams) {
    Blob &blob = blobs[cmds.getTag()];
    streamOffset[cmds] = blob.size();
    symbolicWords[cmds.getTag()] += cmds.getSymbols().size() / SYMBOL_FIELDS;
    blob.resize(blob.size() + cmds.getStream().getPaddedBytes(), PADDING_BYTE);
  }
  int64_t cmdbufBytes =
      streams.front().getNumWords() * (streams.front().getWordBits() / 8);
  for (auto &[tag, blob] : blobs) {
    auto type = BufferType::get(ctx, llvm::PowerOf2Ceil(blob.size()),
                                IntegerType::get(ctx, 8), devices);
    blob.placeholder = placeholders.get(tag, placeholders.freshSlot(), type,
                                        /*isVolatile=*/false);
    // At most every symbolic word is a link patch.
    blob.patches.reserve(symbolicWords.lookup(tag) * SYMBOL_FIELDS);
  }

  // Words: constants into the bytes, the rest into patches.
  struct RuntimeWord {
    PlaceholderTag tag;
    int64_t offset;
    Word word;
    Value source;
    unsigned bits;
  };
  SmallVector<RuntimeWord> runtime;
  for (CmdsOp cmds : streams) {
    unsigned width = cmds.getWordBits() / 8;
    Blob &blob = blobs[cmds.getTag()];
    ValueRange refs = cmds.getRefs();
    WordStream stream = cmds.getStream();
    // Each segment's dense words as they are (the 32-bit units are the
    // stream's little-endian bytes already); where each word lands.
    ArrayRef<int32_t> dwords = cmds.getWords();
    int64_t start = streamOffset[cmds];
    SmallVector<std::pair<size_t, int64_t>> segmentAt; // (end word, byte)
    stream.forEachSegment([&](size_t begin, size_t end, uint64_t offset) {
      std::memcpy(blob.bytes() + start + offset,
                  dwords.data() + begin * width / 4, (end - begin) * width);
      segmentAt.push_back(
          {end, start + int64_t(offset) - int64_t(begin * width)});
    });
    // Then each symbolic word. The commonest is the address of one value the
    // link places: what that value becomes (an indirect stream: its tag's
    // placeholder at its offset) and the blob operand naming it are worked
    // out once per operand of the stream.
    struct SingleRef {
      bool known = false, linkTime = false;
      Value value;
      uint64_t offset = 0;
      int32_t blobRef = -1;
    };
    SmallVector<SingleRef> singleRefs(refs.size());
    SymbolicWords symbols = stream.getSymbols();
    const std::pair<size_t, int64_t> *segment = segmentAt.begin();
    for (size_t k = 0; k < symbols.size(); ++k) {
      int64_t i = symbols.at(k);
      Word word = symbols.word(k);
      while (size_t(i) >= segment->first)
        ++segment;
      int64_t at = segment->second + i * width;
      uint8_t *bytes = blob.bytes() + at;
      // A 4- or 8-byte store, not a memset call per word.
      constexpr uint64_t unknown = 0x0101010101010101ull * UNKNOWN_BYTE;
      if (width == 4)
        llvm::support::endian::write32le(bytes, uint32_t(unknown));
      else
        llvm::support::endian::write64le(bytes, unknown);
      if (word.kind == WordKind::address && word.lanes == 1) {
        SingleRef &single = singleRefs[word.ref];
        if (!single.known) {
          single.known = true;
          single.value = refs[word.ref];
          single.linkTime = isLinkTime(single.value);
          if (auto linear = single.value.getDefiningOp<CmdsOp>()) {
            single.offset = streamOffset[linear];
            single.value = blobs[linear.getTag()].placeholder;
          }
        }
        if (single.linkTime) {
          if (single.blobRef < 0)
            single.blobRef = blob.operands
                                 .word(WordKind::address, 0, single.value,
                                       WordPart::full, 0, 0)
                                 .ref;
          appendSymbol(blob.patches, at,
                       Word{WordKind::address, word.value + single.offset,
                            single.blobRef, word.part, word.shift, word.orBits,
                            1});
          continue;
        }
      }
      SmallVector<Value, 4> operands(refs.slice(word.ref, word.lanes));
      if (word.kind == WordKind::address &&
          llvm::all_of(operands, isLinkTime)) {
        // An indirect stream is now its tag's placeholder at its offset.
        uint64_t value = word.value;
        for (Value &operand : operands) {
          if (auto linear = operand.getDefiningOp<CmdsOp>()) {
            value = word.value + streamOffset[linear];
            operand = blobs[linear.getTag()].placeholder;
          }
        }
        appendSymbol(blob.patches, at,
                     blob.operands.word(word.kind, value, operands, word.part,
                                        word.shift, word.orBits));
        continue;
      }
      if (word.lanes != 1)
        return cmds.emitOpError()
               << "word #" << i
               << " differs per lane and is known only at run time: not "
                  "supported";
      Value source = operands.front();
      if (word.kind == WordKind::address && !isa<BlockArgument>(source))
        return cmds.emitOpError() << "word #" << i
                                  << " takes the address of a buffer that is "
                                     "neither linked memory nor an input";
      runtime.push_back({cmds.getTag(), at, word, source, width * 8});
    }
  }

  OpBuilder builder(submit);
  Location loc = submit.getLoc();
  for (auto &[tag, blob] : blobs) {
    // The blob's bytes and patches move into the op: a big submit's command
    // buffer is not copied again.
    auto op = BlobOp::create(builder, loc, blob.placeholder,
                             ArrayRef<int32_t>{}, ArrayRef<int64_t>{},
                             blob.operands.values(), /*lane=*/std::nullopt);
    op.getProperties().data = std::move(blob.dwords);
    op.getProperties().patches = std::move(blob.patches);
  }

  if (!runtime.empty()) {
    // The inputs table: a slot per input and lane.
    llvm::MapVector<Value, int64_t> inputSlots;
    for (const RuntimeWord &w : runtime)
      if (w.word.kind == WordKind::address)
        inputSlots.try_emplace(w.source, inputSlots.size() * lanes);
    Value table;
    if (!inputSlots.empty()) {
      SmallVector<Value> inputs;
      SmallVector<int32_t> inputLanes;
      for (auto &[input, slot] : inputSlots) {
        size_t inputLaneCount = cast<BufferType>(input.getType()).getNumLanes();
        for (size_t lane = 0; lane < lanes; ++lane) {
          inputs.push_back(input);
          inputLanes.push_back(inputLaneCount == 1 ? 0 : lane);
        }
      }
      auto cpu =
          DevicesAttr::get(ctx, {DeviceAttr::get(ctx, DeviceKind::CPU, 0)});
      table = placeholders.get(
          PlaceholderTag::inputs, placeholders.freshSlot(),
          BufferType::get(ctx, llvm::PowerOf2Ceil(inputs.size()),
                          IntegerType::get(ctx, 64), cpu),
          /*isVolatile=*/false);
      InputsOp::create(builder, loc, table, inputs,
                       builder.getDenseI32ArrayAttr(inputLanes));
    }

    // Groups: same target, same value form, same width.
    struct Group {
      PlaceholderTag tag;
      WordAttr word;
      Value source;
      unsigned bits;
      SmallVector<std::pair<int64_t, int64_t>> entries;
    };
    SmallVector<Group> groups;
    llvm::DenseMap<std::tuple<uint32_t, Attribute, Value, unsigned>, size_t>
        groupIndex;
    for (const RuntimeWord &w : runtime) {
      bool isAddress = w.word.kind == WordKind::address;
      Value source = isAddress ? table : w.source;
      Word one = w.word;
      one.ref = 0;
      one.lanes = 1;
      WordAttr normalized = getWordAttr(ctx, one);
      auto key = std::make_tuple(static_cast<uint32_t>(w.tag),
                                 Attribute(normalized), source, w.bits);
      auto [it, inserted] = groupIndex.try_emplace(key, groups.size());
      if (inserted)
        groups.push_back({w.tag, normalized, source, w.bits, {}});
      groups[it->second].entries.push_back(
          {w.offset, isAddress ? inputSlots.lookup(w.source) : 0});
    }
    SmallVector<int32_t> pairs;
    for (const Group &g : groups)
      for (auto [offset, slot] : g.entries)
        pairs.append(
            {static_cast<int32_t>(offset), static_cast<int32_t>(slot)});
    auto cpu =
        DevicesAttr::get(ctx, {DeviceAttr::get(ctx, DeviceKind::CPU, 0)});
    Value offsets =
        placeholders.get(PlaceholderTag::offtbl, placeholders.freshSlot(),
                         BufferType::get(ctx, llvm::PowerOf2Ceil(pairs.size()),
                                         IntegerType::get(ctx, 32), cpu),
                         /*isVolatile=*/false);
    BlobOp::create(builder, loc, offsets, pairs, ArrayRef<int64_t>{},
                   ValueRange{}, /*lane=*/std::nullopt);
    int64_t start = 0;
    for (const Group &g : groups) {
      PatchGroupOp::create(builder, loc, blobs[g.tag].placeholder, offsets,
                           start, g.entries.size(), g.bits, g.word, g.source);
      start += g.entries.size();
    }
  }

  EnqueueOp::create(builder, loc, blobs[PlaceholderTag::cmdbuf].placeholder,
                    cmdbufBytes, devices, submit.getQueue());
  submit.erase();
  return success();
}

} // namespace
