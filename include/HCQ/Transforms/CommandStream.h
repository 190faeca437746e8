//===- CommandStream.h - Building hcq.cmds streams --------------*- C++ -*-===//
//
// What the encoders share: a stream of words under construction, with its
// operands deduplicated, returned as an EncodedStream at the end (hcq-encode
// makes the hcq.cmds op).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TRANSFORMS_COMMANDSTREAM_H
#define HCQ_TRANSFORMS_COMMANDSTREAM_H

#include "HCQ/Dialect/HCQ.h"

#include "llvm/ADT/MapVector.h"

#include <array>
#include <optional>

namespace hcq {

/// The operands words refer to, each run of lanes once, in order of first
/// use; makes the Word that names them.
class WordOperands {
public:
  WordOperands() = default;

  /// A word of `kind` on `lanes` (one value for every lane, or one per lane).
  Word word(WordKind kind, uint64_t value, llvm::ArrayRef<mlir::Value> lanes,
            WordPart part, uint32_t shift, uint64_t orBits);
  /// A word of `kind` on the submit's DeferredRef `id`: its operand is null
  /// until the pass makes what it names.
  Word deferredWord(WordKind kind, uint64_t value, uint32_t id, WordPart part,
                    uint32_t shift, uint64_t orBits);
  llvm::ArrayRef<mlir::Value> values() const { return refs; }

private:
  friend class CommandStream;

  llvm::SmallVector<mlir::Value> refs;
  /// Where each single value and each run of per-lane values starts.
  llvm::DenseMap<mlir::Value, int32_t> singles;
  std::map<std::vector<const void *>, int32_t> runs;
  /// Where each DeferredRef's operand is, by id; and as (operand, id).
  llvm::DenseMap<uint32_t, int32_t> deferred;
  llvm::SmallVector<std::pair<int32_t, uint32_t>> deferredRefs;
};

/// The memory a submit's words name that the pass makes after encoding
/// (EncodedSubmit::deferred): each asked for once per submit, numbered in
/// the order asked for.
class DeferredRefs {
public:
  /// `bytes` bytes (i8) on `devices`.
  uint32_t placeholder(PlaceholderTag tag, int64_t slot, DevicesAttr devices,
                       int64_t bytes);
  /// A one-word volatile signal-like placeholder on `devices`.
  uint32_t signal(PlaceholderTag tag, int64_t slot, DevicesAttr devices);
  /// `hcq.program @kernel` on `devices`, `bytes` long (the first size asked
  /// for a kernel and devices is its size).
  uint32_t program(mlir::FlatSymbolRefAttr kernel, DevicesAttr devices,
                   int64_t bytes);
  /// The memory of the submit's indirect stream `index`.
  uint32_t stream(unsigned index);
  /// The references asked for, in order; the table is empty again.
  llvm::SmallVector<DeferredRef> take();

private:
  uint32_t add(const DeferredRef &ref, const void *key, int64_t bytesKey);

  llvm::SmallVector<DeferredRef> refs;
  /// By (kind and tag, slot, devices, kernel, bytes or stream).
  llvm::DenseMap<
      std::tuple<unsigned, int64_t, const void *, const void *, int64_t>,
      uint32_t>
      ids;
};

class CommandStream {
public:
  /// A stream of `bits`-wide words (32 for PM4 and SDMA, 64 for CPU queues).
  explicit CommandStream(unsigned bits) : words(bits) {}

  /// Inline: a dispatch is ~50 constant words.
  void constant(uint64_t value) { words.pushConstant(value); }
  void constants(llvm::ArrayRef<uint32_t> values);
  /// The address of `lanes` (one value for every lane, or one per lane)
  /// plus `offset`, shifted right by `shift`, as `part`, OR `orBits`.
  /// Views resolve to their base buffer plus their offset.
  /// Returns the word pushed.
  Word address(llvm::ArrayRef<mlir::Value> lanes, WordPart part,
               uint64_t offset = 0, uint32_t shift = 0, uint64_t orBits = 0);
  /// Both halves of a 64-bit address: lo, then hi, OR `highBits` into hi.
  void addressLoHi(llvm::ArrayRef<mlir::Value> lanes, uint64_t offset = 0,
                   uint32_t shift = 0, uint32_t highBits = 0);
  /// The address of the submit's DeferredRef `id` plus `offset`, as
  /// address() makes it.
  void deferred(uint32_t id, WordPart part, uint64_t offset = 0,
                uint32_t shift = 0, uint64_t orBits = 0);
  /// Both halves of deferred() address: lo, then hi, OR `highBits` into hi.
  void deferredLoHi(uint32_t id, uint64_t offset = 0, uint32_t shift = 0,
                    uint32_t highBits = 0);
  void variable(mlir::Value value, WordPart part = WordPart::full);
  void load(llvm::ArrayRef<mlir::Value> lanes, WordPart part, int64_t addend);
  /// A signal value as `part`: the constant `value`, or the host value of
  /// `valueBuffer` plus `value`.
  void signalValue(mlir::Value valueBuffer, int64_t value, WordPart part);

  size_t size() const { return words.size(); }
  /// Begins a segment (an indirect stream's words for one call) at the next
  /// word; returns the byte offset it starts at in the stream's memory.
  uint64_t beginSegment() { return words.beginSegment(); }
  /// Words in the current segment.
  size_t segmentSize() const { return words.segmentSize(); }
  /// Room for `count` words, `symbolic` of them symbolic: a big stream is
  /// not copied as it grows.
  void reserve(size_t count, size_t symbolic) {
    words.reserve(count, symbolic);
  }
  /// Room for `count` segments.
  void reserveSegments(size_t count) { words.segments.reserve(count); }
  /// Symbol table entries so far (a `hi` after its `lo` shares one).
  size_t symbolCount() const { return words.symbols.size(); }
  /// The words and the operands they name, for an hcq.cmds op of `tag` at
  /// `loc` (null: the submit's).
  EncodedStream take(PlaceholderTag tag, mlir::LocationAttr loc = {}) &&;

private:
  Word word(WordKind kind, uint64_t value, llvm::ArrayRef<mlir::Value> lanes,
            WordPart part, uint32_t shift, uint64_t orBits);
  /// address()'s word, not pushed.
  Word addressWord(llvm::ArrayRef<mlir::Value> lanes, WordPart part,
                   uint64_t offset, uint32_t shift, uint64_t orBits);

  WordStreamBuilder words;
  WordOperands operands;
};

/// How big one kind of stream (a queue's commands, the kernel arguments)
/// was per op in the submits encoded so far, launches and other ops apart,
/// to reserve the next one's. hcq-batch-deps doubles a schedule's submits
/// as it goes, so the big last submit is sized from the smaller ones
/// before it: reserved a sixteenth above what they took per op of each
/// kind, its stream is neither copied as it grows (doubling holds the old
/// and the new array at once and leaves up to half of the new one unused)
/// nor reserved for words it never takes. Kinds apart, because a launch
/// takes several times the words of a wait, and a schedule's mix of them
/// may change from its first submits to its last.
class StreamSizer {
public:
  enum class OpKind { launch, other };
  /// Words and symbol entries per op of a kind before any is recorded: a
  /// schedule of one submit has only this guess.
  struct Guess {
    double words, symbolic;
  };
  StreamSizer(Guess launch, Guess other) : guesses{launch, other} {}

  /// Words and symbol entries to reserve for a stream of `launches`
  /// launches and `others` other ops.
  std::pair<size_t, size_t> estimate(size_t launches, size_t others) const;
  /// Notes `ops` ops of `kind` that took `words` words and `symbolic`
  /// symbol entries.
  void record(OpKind kind, size_t ops, size_t words, size_t symbolic) {
    Totals &t = totals[static_cast<size_t>(kind)];
    t.ops += ops;
    t.words += words;
    t.symbolic += symbolic;
  }

private:
  struct Totals {
    uint64_t ops = 0, words = 0, symbolic = 0;
  };
  std::array<Guess, 2> guesses;
  std::array<Totals, 2> totals;
};

/// An indirect stream, a segment per call, built beside the stream that
/// addresses it (the kernel arguments of a submit's launches), which names
/// it through DeferredRefs::stream.
class IndirectStream {
public:
  IndirectStream(PlaceholderTag tag, unsigned bits) : tag(tag), bits(bits) {}

  /// Begins a segment; the first one's `loc` is the stream's. Returns the
  /// segment's byte offset in the stream.
  uint64_t beginSegment(mlir::Location loc);
  /// The words of the stream; valid after beginSegment.
  CommandStream &getWords() { return *words; }
  /// Room for `segments` segments of `count` words in all, `symbolic` of
  /// them symbolic, when the stream begins.
  void reserve(size_t segments, size_t count, size_t symbolic) {
    reserved = {segments, count, symbolic};
  }
  /// The stream, if any segment began; the next segment starts a new one.
  std::optional<EncodedStream> finish();

private:
  PlaceholderTag tag;
  unsigned bits;
  std::optional<CommandStream> words;
  mlir::LocationAttr loc;
  /// What reserve() asked for: segments, words, symbolic words.
  std::tuple<size_t, size_t, size_t> reserved{0, 0, 0};
};

} // namespace hcq

#endif // HCQ_TRANSFORMS_COMMANDSTREAM_H
