//===- Words.h - Command words as op-local data -----------------*- C++ -*-===//
//
// An encoded stream is dense data: every word's constant bits in one array
// of 32-bit units (a 64-bit word is two, low half first), and a sparse table
// of the few symbolic words (an address, a
// variable, a host load), both op properties (hcq.cmds `words` and
// `symbols`, hcq.blob `data` and `patches`). Nothing of a stream is uniqued
// in the MLIRContext, and a symbolic word is in the shape the executable
// file's patches take. The ops print every word inline (`0xc0053c00`,
// `lo(%sig + 8)`, `var(%n)`); these types are what the passes read and
// write.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_DIALECT_WORDS_H
#define HCQ_DIALECT_WORDS_H

#include "HCQ/Dialect/HCQEnums.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <cassert>

#include <cstdint>
#include <optional>
#include <string>

namespace hcq {

/// One command word as a value. `ref` and `lanes` name operands of the op
/// holding it: `ref .. ref + lanes - 1`, one per lane when `lanes` > 1.
struct Word {
  WordKind kind = WordKind::constant;
  /// The constant; an address's byte offset; a load's signed addend.
  uint64_t value = 0;
  int32_t ref = -1;
  WordPart part = WordPart::full;
  uint32_t shift = 0;
  /// Constant bits OR-ed into a symbolic word.
  uint64_t orBits = 0;
  uint32_t lanes = 1;

  static Word constant(uint64_t value) { return {WordKind::constant, value}; }
  bool isConstant() const { return kind == WordKind::constant; }
  /// The `lo` or `hi` 32-bit half of this 64-bit word (its OR-ed bits
  /// split the same way).
  Word half(WordPart which) const {
    Word w = *this;
    w.part = which;
    w.orBits = which == WordPart::lo ? orBits & 0xffffffff : orBits >> 32;
    return w;
  }
};

/// The sparse table of symbolic words: SYMBOL_FIELDS integers per word, in
/// increasing `at` (a word index in a stream, a byte offset in a blob; below
/// 2^32):
///   [at | (kind | part << 8 | shift << 16 | pair << 24) << 32,
///    ref | lanes << 32, value, or_bits]
/// A stream's dense data is 0 where a symbolic word stands. In a 32-bit
/// stream an address or load written as its `lo` half then its `hi` half
/// is one entry, a pair: the 64-bit word (`part` full, the halves' OR-ed
/// bits as one 64-bit value) over words `at` and `at + 1`. Most symbolic
/// words of an AMD stream are such halves, so a pair halves the table.
constexpr size_t SYMBOL_FIELDS = 4;
/// The pair bit of an entry's metadata.
constexpr uint64_t SYMBOL_PAIR = uint64_t(1) << 24;

/// Reads a symbols property.
class SymbolicWords {
public:
  explicit SymbolicWords(llvm::ArrayRef<int64_t> fields) : fields(fields) {}
  size_t size() const { return fields.size() / SYMBOL_FIELDS; }
  /// Entry `k`'s position.
  int64_t at(size_t k) const {
    return int64_t(uint64_t(fields[k * SYMBOL_FIELDS]) & 0xffffffff);
  }
  /// Whether entry `k` is a pair: a 64-bit word over two 32-bit words.
  bool isPair(size_t k) const {
    return (uint64_t(fields[k * SYMBOL_FIELDS]) >> 32) & SYMBOL_PAIR;
  }
  /// The position of entry `k`'s last word.
  int64_t last(size_t k) const { return at(k) + (isPair(k) ? 1 : 0); }
  /// Entry `k` as a word (a pair as its 64-bit word).
  Word word(size_t k) const;
  /// Whether the property holds whole entries in increasing position, each
  /// of a symbolic kind and a known part; otherwise why not.
  std::optional<std::string> check() const;

private:
  llvm::ArrayRef<int64_t> fields;
};

/// Appends `word` (not a constant) at position `at` to a symbols property.
void appendSymbol(llvm::SmallVectorImpl<int64_t> &fields, int64_t at,
                  const Word &word);

/// Makes the last entry of a 32-bit stream's symbols property a pair if it
/// is the `lo` half of the word whose `hi` half is `word`, at the next
/// position `at`; returns whether it did.
bool mergeSymbolPair(llvm::SmallVectorImpl<int64_t> &fields, int64_t at,
                     const Word &word);

/// Writes `word` at position `at` as entry `k` of a symbols property that
/// holds at least `k` entries, over what entry `k` held or appended: so a
/// pass can rewrite a table in place, entry `k` from entries `k` and after.
void setSymbol(llvm::SmallVectorImpl<int64_t> &fields, size_t k, int64_t at,
               const Word &word);

/// Where a stream, and each segment of one, starts in its memory: at a
/// multiple of 128 bytes (the seed's seal pads every linear to 128 bytes).
constexpr uint64_t STREAM_ALIGNMENT = 128;

/// `bytes` of a stream or segment, padded to STREAM_ALIGNMENT.
constexpr uint64_t getPaddedStreamBytes(uint64_t bytes) {
  return (bytes + STREAM_ALIGNMENT - 1) / STREAM_ALIGNMENT * STREAM_ALIGNMENT;
}

/// A stream's words (hcq.cmds): dense bits, the symbols table, and the word
/// index where each segment after the first starts (`segments`, in
/// increasing order). Segments are laid out one after the other, each
/// padded to STREAM_ALIGNMENT bytes: an indirect stream holds the kernel
/// arguments of every launch of a submit, one segment each.
class WordStream {
public:
  WordStream(llvm::ArrayRef<int32_t> dwords, llvm::ArrayRef<int64_t> symbols,
             unsigned bits, llvm::ArrayRef<int32_t> segments = {})
      : dwords(dwords), symbols(symbols), segments(segments),
        perWord(bits / 32) {}
  size_t size() const { return dwords.size() / perWord; }
  size_t getNumSegments() const { return segments.size() + 1; }
  /// Segment `k`'s words: [begin, end).
  size_t segmentBegin(size_t k) const { return k ? segments[k - 1] : 0; }
  size_t segmentEnd(size_t k) const {
    return k < segments.size() ? size_t(segments[k]) : size();
  }
  /// Calls `fn(begin, end, byteOffset)` for every segment in order: its
  /// words and where they start in the stream's memory.
  template <typename Fn> void forEachSegment(Fn fn) const {
    uint64_t offset = 0;
    for (size_t k = 0, n = getNumSegments(); k < n; ++k) {
      size_t begin = segmentBegin(k), end = segmentEnd(k);
      fn(begin, end, offset);
      offset += alignedBytes(end - begin);
    }
  }
  /// The bytes the stream takes in memory, every segment padded.
  uint64_t getPaddedBytes() const {
    uint64_t bytes = 0;
    forEachSegment([&](size_t begin, size_t end, uint64_t) {
      bytes += alignedBytes(end - begin);
    });
    return bytes;
  }
  /// Word `i`'s constant bits (0 under a symbolic word).
  uint64_t constantBits(size_t i) const {
    uint64_t lo = uint32_t(dwords[i * perWord]);
    return perWord == 1
               ? lo
               : lo | uint64_t(uint32_t(dwords[i * perWord + 1])) << 32;
  }
  /// Calls `fn(i, word)` for every word in order (one pass over both).
  template <typename Fn> void forEach(Fn fn) const {
    size_t k = 0;
    for (size_t i = 0, n = size(); i < n; ++i) {
      if (k < symbols.size() && size_t(symbols.at(k)) == i) {
        Word word = symbols.word(k);
        if (symbols.isPair(k)) {
          fn(i, word.half(WordPart::lo));
          fn(++i, word.half(WordPart::hi));
        } else {
          fn(i, word);
        }
        ++k;
      } else {
        fn(i, Word::constant(constantBits(i)));
      }
    }
  }
  const SymbolicWords &getSymbols() const { return symbols; }

private:
  uint64_t alignedBytes(size_t words) const {
    return getPaddedStreamBytes(words * perWord * 4);
  }

  llvm::ArrayRef<int32_t> dwords;
  SymbolicWords symbols;
  llvm::ArrayRef<int32_t> segments;
  unsigned perWord;
};

/// Builds a `bits`-wide stream's two properties word by word, in the form
/// the op keeps them (so they move into it).
struct WordStreamBuilder {
  explicit WordStreamBuilder(unsigned bits) : perWord(bits / 32) {}

  /// The `words` property: 32-bit units, two per 64-bit word.
  llvm::SmallVector<int32_t> units;
  llvm::SmallVector<int64_t> symbols;
  /// The `segments` property.
  llvm::SmallVector<int32_t> segments;

  /// Ends the current segment, if the stream has begun one, and begins
  /// another at the next word; returns the byte offset it starts at in the
  /// stream's memory (WordStream's layout).
  uint64_t beginSegment() {
    if (!segmented) {
      segmented = true;
      return 0;
    }
    segmentOffset += getPaddedStreamBytes(segmentSize() * perWord * 4);
    segments.push_back(int32_t(size()));
    return segmentOffset;
  }
  /// Words in the current segment (or the stream, before any).
  size_t segmentSize() const {
    return size() - (segments.empty() ? 0 : size_t(segments.back()));
  }

  /// Appends `word`; a 32-bit stream keeps its low 32 bits of constant (the
  /// verifier of the words pushed, or the parser, has refused more).
  void push(const Word &word) {
    if (word.isConstant())
      return pushConstant(word.value);
    // A `hi` half after its `lo` in the same segment: one pair entry.
    if (perWord == 1 && segmentSize() > 0 &&
        mergeSymbolPair(symbols, int64_t(size()), word))
      return pushConstant(0);
    appendSymbol(symbols, int64_t(size()), word);
    pushConstant(0);
  }
  /// Appends a constant word, most of any stream: no Word to build.
  void pushConstant(uint64_t value) {
    assert((perWord == 2 || value <= UINT32_MAX) && "a 32-bit word of more");
    units.push_back(int32_t(uint32_t(value)));
    if (perWord == 2)
      units.push_back(int32_t(uint32_t(value >> 32)));
  }
  // A shift, not a division: the encoders ask for the size at every packet.
  size_t size() const { return units.size() >> (perWord - 1); }
  unsigned bits() const { return perWord * 32; }
  /// Room for `words` words, `symbolic` of them symbolic.
  void reserve(size_t words, size_t symbolic) {
    units.reserve(words * perWord);
    symbols.reserve(symbolic * SYMBOL_FIELDS);
  }

private:
  unsigned perWord;
  bool segmented = false;
  uint64_t segmentOffset = 0;
};

} // namespace hcq

#endif // HCQ_DIALECT_WORDS_H
