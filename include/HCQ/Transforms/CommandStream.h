//===- CommandStream.h - Building hcq.cmds streams --------------*- C++ -*-===//
//
// What the encoders share: a stream of words under construction, with its
// operands deduplicated, turned into an hcq.cmds op at the end.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TRANSFORMS_COMMANDSTREAM_H
#define HCQ_TRANSFORMS_COMMANDSTREAM_H

#include "HCQ/Dialect/HCQ.h"

#include "llvm/ADT/MapVector.h"

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
  llvm::ArrayRef<mlir::Value> values() const { return refs; }

private:
  llvm::SmallVector<mlir::Value> refs;
  /// Where each single value and each run of per-lane values starts.
  llvm::DenseMap<mlir::Value, int32_t> singles;
  std::map<std::vector<const void *>, int32_t> runs;
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
  /// Both halves of a 64-bit address: lo, then hi.
  void addressLoHi(llvm::ArrayRef<mlir::Value> lanes, uint64_t offset = 0,
                   uint32_t shift = 0);
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
  /// Creates the hcq.cmds op at the builder's insertion point; the words
  /// move into it.
  CmdsOp build(mlir::OpBuilder &builder, mlir::Location loc,
               PlaceholderTag tag) &&;
  /// An hcq.cmds op of `tag` without words yet, for words that take the
  /// address of an indirect stream before it is complete (moveInto).
  static CmdsOp buildEmpty(mlir::OpBuilder &builder, mlir::Location loc,
                           PlaceholderTag tag, unsigned bits);
  /// Moves the words and the operands they name into `op`.
  void moveInto(CmdsOp op) &&;

private:
  Word word(WordKind kind, uint64_t value, llvm::ArrayRef<mlir::Value> lanes,
            WordPart part, uint32_t shift, uint64_t orBits);

  WordStreamBuilder words;
  WordOperands operands;
};

/// An indirect stream, a segment per call, built beside the stream that
/// addresses it (the kernel arguments of a submit's launches). Its op is made
/// at the first segment, so the addressing stream can name it before its
/// words are complete; finish() moves the words in.
class IndirectStream {
public:
  IndirectStream(PlaceholderTag tag, unsigned bits) : tag(tag), bits(bits) {}

  /// Begins a segment, making the op at the builder's insertion point if
  /// this is the first; returns the segment's byte offset in the stream.
  uint64_t beginSegment(mlir::OpBuilder &builder, mlir::Location loc);
  /// The words of the stream; valid after beginSegment.
  CommandStream &getWords() { return *words; }
  /// The stream's memory; valid after beginSegment.
  mlir::Value getLinear() { return op.getLinear(); }
  /// Moves the words into the op, if any segment began; the next segment
  /// starts a new stream and op.
  void finish();

private:
  PlaceholderTag tag;
  unsigned bits;
  std::optional<CommandStream> words;
  CmdsOp op;
};

} // namespace hcq

#endif // HCQ_TRANSFORMS_COMMANDSTREAM_H
