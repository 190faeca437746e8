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

/// One blob under construction: the merged streams of one tag. Its first
/// stream's words and symbols table become its bytes and patches in place
/// (the stream's op is erased after): a million-launch command buffer's
/// hundreds of megabytes are not written again to fresh memory.
struct Blob {
  /// The bytes, kept as the dwords the hcq.blob will hold (every stream
  /// segment is padded to STREAM_ALIGNMENT bytes, so the size stays a
  /// multiple of 4).
  SmallVector<int32_t> dwords;
  /// The size `dwords` will have: every stream of the tag, laid out.
  size_t plannedBytes = 0;
  uint8_t *bytes() { return reinterpret_cast<uint8_t *>(dwords.data()); }
  /// Link-time patches (the symbols table, byte offsets), `numPatches` of
  /// them, and the values they name.
  SymbolEntries patches;
  size_t numPatches = 0;
  WordOperands operands;
  Value placeholder;

  void addPatch(int64_t at, const Word &word) {
    setSymbol(patches, numPatches++, at, word);
  }
};

/// Refuses the words seal cannot place: one that differs per lane and is
/// known only at run time, or the address of a buffer that is neither
/// linked memory nor an input. Checked before seal takes any stream apart,
/// so an error shows the stream as it was.
LogicalResult checkRunTimeWords(CmdsOp cmds) {
  ValueRange refs = cmds.getRefs();
  enum : uint8_t { Unknown, LinkTime, Input, Neither };
  SmallVector<uint8_t> facts(refs.size(), Unknown);
  auto fact = [&](size_t ref) {
    if (facts[ref] == Unknown)
      facts[ref] = isLinkTimeMemory(refs[ref])     ? LinkTime
                   : isa<BlockArgument>(refs[ref]) ? Input
                                                   : Neither;
    return facts[ref];
  };
  for (const SymbolEntry &entry : cmds.getSymbols()) {
    const Word &word = entry.word;
    bool isAddress = word.kind == WordKind::address;
    if (word.lanes == 1) {
      if (isAddress && fact(word.ref) == Neither)
        return cmds.emitOpError() << "word #" << entry.at
                                  << " takes the address of a buffer that is "
                                     "neither linked memory nor an input";
      continue;
    }
    bool linked = isAddress;
    for (size_t ref = word.ref; linked && ref < word.ref + word.lanes; ++ref)
      linked = fact(ref) == LinkTime;
    if (!linked)
      return cmds.emitOpError()
             << "word #" << entry.at
             << " differs per lane and is known only at run time: not "
                "supported";
  }
  return success();
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

  for (CmdsOp cmds : streams)
    if (failed(checkRunTimeWords(cmds)))
      return failure();

  // Lay the streams out: each in its tag's blob, every segment padded
  // (WordStream's layout).
  llvm::MapVector<PlaceholderTag, Blob> blobs;
  DenseMap<Operation *, int64_t> streamOffset;
  DenseMap<PlaceholderTag, size_t> symbolicWords;
  for (CmdsOp cmds : streams) {
    Blob &blob = blobs[cmds.getTag()];
    streamOffset[cmds] = blob.plannedBytes;
    symbolicWords[cmds.getTag()] += cmds.getSymbols().size();
    blob.plannedBytes += cmds.getStream().getPaddedBytes();
  }
  int64_t cmdbufBytes =
      streams.front().getNumWords() * (streams.front().getWordBits() / 8);
  for (auto &[tag, blob] : blobs) {
    auto type = BufferType::get(ctx, llvm::PowerOf2Ceil(blob.plannedBytes),
                                IntegerType::get(ctx, 8), devices);
    blob.placeholder = placeholders.get(tag, placeholders.freshSlot(), type,
                                        /*isVolatile=*/false);
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
    int64_t start = streamOffset[cmds];
    // Where each segment's dense words land (the 32-bit units are the
    // stream's little-endian bytes already): (begin, end, byte offset).
    SmallVector<std::tuple<size_t, size_t, uint64_t>> layout;
    WordStream stream = cmds.getStream();
    uint64_t paddedBytes = stream.getPaddedBytes();
    stream.forEachSegment([&](size_t begin, size_t end, uint64_t offset) {
      layout.push_back({begin, end, offset});
    });
    // The words of the blob's first stream are its bytes already, but for
    // the padding: spread the segments out from the last, in place. (The
    // stream's views are not read after this.)
    bool adopted = start == 0;
    if (adopted) {
      CmdsOp::Properties &props = cmds.getProperties();
      blob.dwords = std::move(props.words);
      blob.patches = std::move(props.symbols);
    }
    blob.dwords.resize(blob.plannedBytes / 4,
                       int32_t(uint32_t(PADDING_BYTE) * 0x01010101u));
    uint64_t next = start + paddedBytes;
    for (auto [begin, end, offset] : llvm::reverse(layout)) {
      uint8_t *to = blob.bytes() + start + offset;
      size_t bytes = (end - begin) * width;
      if (adopted)
        std::memmove(to, blob.bytes() + begin * width, bytes);
      else
        std::memcpy(to, cmds.getWords().data() + begin * width / 4, bytes);
      std::memset(to + bytes, PADDING_BYTE, next - (start + offset + bytes));
      next = start + offset;
    }
    blob.patches.reserve(symbolicWords.lookup(cmds.getTag()));
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
    // An adopted table is read as it is rewritten: entry k's patch is
    // written at entry k or before.
    const SymbolEntries &symbols = adopted ? blob.patches : cmds.getSymbols();
    const auto *segment = layout.begin();
    for (size_t k = 0; k < symbols.size(); ++k) {
      // A copy: an adopted entry k is overwritten below.
      SymbolEntry entry = symbols[k];
      int64_t i = entry.at;
      const Word &word = entry.word;
      while (size_t(i) >= std::get<1>(*segment))
        ++segment;
      auto [begin, end, offset] = *segment;
      int64_t at = start + int64_t(offset + (size_t(i) - begin) * width);
      uint8_t *bytes = blob.bytes() + at;
      // A 4- or 8-byte store, not a memset call per word. A pair of 32-bit
      // words is one 64-bit word here: one link patch, two run-time halves.
      bool pair = entry.pair;
      constexpr uint64_t unknown = 0x0101010101010101ull * UNKNOWN_BYTE;
      if (width == 4 && !pair)
        llvm::support::endian::write32le(bytes, uint32_t(unknown));
      else
        llvm::support::endian::write64le(bytes, unknown);
      if (word.kind == WordKind::address && word.lanes == 1) {
        SingleRef &single = singleRefs[word.ref];
        if (!single.known) {
          single.known = true;
          single.value = refs[word.ref];
          single.linkTime = isLinkTimeMemory(single.value);
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
          blob.addPatch(at, Word{WordKind::address, word.value + single.offset,
                                 single.blobRef, word.part, word.shift,
                                 word.orBits, 1});
          continue;
        }
      }
      SmallVector<Value, 4> operands(refs.slice(word.ref, word.lanes));
      if (word.kind == WordKind::address &&
          llvm::all_of(operands, isLinkTimeMemory)) {
        // An indirect stream is now its tag's placeholder at its offset.
        uint64_t value = word.value;
        for (Value &operand : operands) {
          if (auto linear = operand.getDefiningOp<CmdsOp>()) {
            value = word.value + streamOffset[linear];
            operand = blobs[linear.getTag()].placeholder;
          }
        }
        blob.addPatch(at,
                      blob.operands.word(word.kind, value, operands, word.part,
                                         word.shift, word.orBits));
        continue;
      }
      assert(word.lanes == 1 &&
             (word.kind != WordKind::address ||
              isa<BlockArgument>(operands.front())) &&
             "refused by checkRunTimeWords");
      Value source = operands.front();
      if (pair) {
        runtime.push_back(
            {cmds.getTag(), at, word.half(WordPart::lo), source, 32});
        runtime.push_back(
            {cmds.getTag(), at + 4, word.half(WordPart::hi), source, 32});
        continue;
      }
      runtime.push_back({cmds.getTag(), at, word, source, width * 8});
    }
  }

  OpBuilder builder(submit);
  Location loc = submit.getLoc();
  for (auto &[tag, blob] : blobs) {
    // The blob's bytes and patches move into the op: a big submit's command
    // buffer is not copied again.
    auto op = BlobOp::create(builder, loc, blob.placeholder,
                             ArrayRef<int32_t>{}, SymbolEntries{},
                             blob.operands.values(), /*lane=*/std::nullopt);
    op.getProperties().data = std::move(blob.dwords);
    blob.patches.truncate(blob.numPatches);
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
      Word word;
      Value source;
      unsigned bits;
      SmallVector<std::pair<int64_t, int64_t>> entries;
    };
    SmallVector<Group> groups;
    // A group's key: its tag, word (but for its one operand), source and
    // width.
    using GroupKey = std::tuple<uint32_t, uint32_t, uint32_t, uint32_t,
                                uint64_t, uint64_t, Value, unsigned>;
    llvm::DenseMap<GroupKey, size_t> groupIndex;
    for (const RuntimeWord &w : runtime) {
      bool isAddress = w.word.kind == WordKind::address;
      Value source = isAddress ? table : w.source;
      Word one = w.word;
      one.ref = 0;
      one.lanes = 1;
      GroupKey key = std::make_tuple(uint32_t(w.tag), uint32_t(one.kind),
                                     uint32_t(one.part), one.shift, one.value,
                                     one.orBits, source, w.bits);
      auto [it, inserted] = groupIndex.try_emplace(key, groups.size());
      if (inserted)
        groups.push_back({w.tag, one, source, w.bits, {}});
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
    BlobOp::create(builder, loc, offsets, pairs, SymbolEntries{}, ValueRange{},
                   /*lane=*/std::nullopt);
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
