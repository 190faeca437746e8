//===- Words.h - Command words as op-local data -----------------*- C++ -*-===//
//
// An encoded stream is dense data: every word's constant bits in one array
// of 32-bit units (a 64-bit word is two, low half first), and a sparse table
// of the few symbolic words (an address, a variable, a host load), one
// SymbolEntry each; both op properties (hcq.cmds `words` and `symbols`,
// hcq.blob `data` and `patches`). Nothing of a stream is uniqued in the
// MLIRContext, and a symbolic word is the executable file's (abi::Word,
// HCQ/Runtime/ABI.h). The ops print every word inline (`0xc0053c00`,
// `lo(%sig + 8)`, `var(%n)`); these types are what the passes read and
// write.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_DIALECT_WORDS_H
#define HCQ_DIALECT_WORDS_H

#include "HCQ/Runtime/ABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Hashing.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/iterator.h"

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <cstring>
#include <initializer_list>

namespace hcq {

/// The word's kind and part are the executable file's enums.
using abi::WordKind;
using abi::WordPart;

/// One command word as a value: abi::Word, whose values are operands of the
/// op holding it: `ref .. ref + lanes - 1`, one per lane when `lanes` > 1.
struct Word : abi::Word {
  int32_t ref = -1;
  uint32_t lanes = 1;

  Word() = default;
  Word(WordKind kind, uint64_t value, int32_t ref = -1,
       WordPart part = WordPart::full, uint32_t shift = 0, uint64_t orBits = 0,
       uint32_t lanes = 1)
      : abi::Word{kind, part, shift, value, orBits}, ref(ref), lanes(lanes) {}

  static Word constant(uint64_t value) { return {WordKind::constant, value}; }
  /// The `lo` or `hi` 32-bit half of this 64-bit word (its OR-ed bits
  /// split the same way).
  Word half(WordPart which) const {
    Word w = *this;
    w.part = which;
    w.orBits = which == WordPart::lo ? orBits & 0xffffffff : orBits >> 32;
    return w;
  }
  bool operator==(const Word &o) const {
    return abi::Word::operator==(o) && ref == o.ref && lanes == o.lanes;
  }
  bool operator!=(const Word &o) const { return !(*this == o); }
};

llvm::hash_code hash_value(const Word &word);

/// One entry of a symbols table (hcq.cmds `symbols`, hcq.blob `patches`):
/// the symbolic word `word` at position `at`, a word index in a stream or a
/// byte offset in a blob. A table holds its entries in increasing position
/// (one checking loop, the ops' verifiers', says what else a valid table
/// is); a stream's dense data is 0 where a symbolic word stands.
///
/// In a 32-bit stream an address or load written as its `lo` half then its
/// `hi` half is one entry, a pair: the 64-bit word (`part` full, the
/// halves' OR-ed bits as one 64-bit value) over words `at` and `at + 1`.
/// Most symbolic words of an AMD stream are such halves, so a pair halves
/// the table.
struct SymbolEntry {
  uint32_t at = 0;
  bool pair = false;
  Word word;

  /// The position of the entry's last word.
  int64_t last() const { return int64_t(at) + (pair ? 1 : 0); }
  bool operator==(const SymbolEntry &o) const {
    return at == o.at && pair == o.pair && word == o.word;
  }
  bool operator!=(const SymbolEntry &o) const { return !(*this == o); }
};

llvm::hash_code hash_value(const SymbolEntry &entry);

// An entry as a value, unpacked from its table (SymbolEntries keeps it in
// 16 bytes).
static_assert(sizeof(SymbolEntry) <= 40, "a symbol entry grew");

/// A symbols table as an op property stores it: dense and op-local, its
/// entries read and written as SymbolEntry values. An entry is kept in 16
/// bytes, not SymbolEntry's 40: an AMD launch has five to seven entries in
/// its streams and as many patches in its executable, so the tables were
/// most of a big schedule's memory from hcq-encode on. An entry whose
/// fields do not fit the 16 bytes (OR-ed bits, a value beyond 44 bits, more
/// than 255 lanes, a shift past 63, which the verifier refuses but must
/// see) keeps them in a side table.
class SymbolEntries {
  /// An entry: its position, its operand, and `bits`: bit 0 set, the index
  /// of its fields in `wide` from bit 1; clear, its kind (bits 1-2), part
  /// (3-4), pair (5), shift (6-11), lanes (12-19) and value (20-63, signed).
  struct Packed {
    uint32_t at;
    int32_t ref;
    uint64_t bits;
  };
  static_assert(sizeof(Packed) == 16, "a packed entry grew");
  static constexpr int64_t VALUE_LIMIT = int64_t(1) << 43;

public:
  class const_iterator
      : public llvm::iterator_facade_base<
            const_iterator, std::random_access_iterator_tag, const SymbolEntry,
            std::ptrdiff_t, const SymbolEntry *, SymbolEntry> {
  public:
    const_iterator() = default;
    const_iterator(const SymbolEntries *table, size_t index)
        : table(table), index(index) {}
    SymbolEntry operator*() const { return (*table)[index]; }
    bool operator==(const const_iterator &o) const { return index == o.index; }
    bool operator<(const const_iterator &o) const { return index < o.index; }
    std::ptrdiff_t operator-(const const_iterator &o) const {
      return std::ptrdiff_t(index) - std::ptrdiff_t(o.index);
    }
    const_iterator &operator+=(std::ptrdiff_t n) {
      index += n;
      return *this;
    }
    const_iterator &operator-=(std::ptrdiff_t n) {
      index -= n;
      return *this;
    }

  private:
    const SymbolEntries *table = nullptr;
    size_t index = 0;
  };
  using iterator = const_iterator;
  using value_type = SymbolEntry;

  SymbolEntries() = default;
  SymbolEntries(std::initializer_list<SymbolEntry> entries) {
    for (const SymbolEntry &entry : entries)
      push_back(entry);
  }

  size_t size() const { return packed.size(); }
  bool empty() const { return packed.empty(); }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size()}; }

  SymbolEntry operator[](size_t k) const {
    const Packed &p = packed[k];
    if (p.bits & 1) {
      SymbolEntry entry = wide[p.bits >> 1];
      entry.at = p.at;
      return entry;
    }
    SymbolEntry entry;
    entry.at = p.at;
    entry.pair = (p.bits >> 5) & 1;
    Word &w = entry.word;
    w.kind = WordKind((p.bits >> 1) & 3);
    w.part = WordPart((p.bits >> 3) & 3);
    w.shift = uint32_t((p.bits >> 6) & 63);
    w.lanes = uint32_t((p.bits >> 12) & 255);
    w.value = uint64_t(int64_t(p.bits) >> 20);
    w.ref = p.ref;
    return entry;
  }
  SymbolEntry back() const { return (*this)[size() - 1]; }

  void push_back(const SymbolEntry &entry) {
    verified.clear();
    packed.push_back({entry.at, entry.word.ref, 0});
    packed.back().bits = pack(entry, /*reuse=*/-1);
  }
  /// Replaces entry `k` by `entry`.
  void set(size_t k, const SymbolEntry &entry) {
    verified.clear();
    Packed &p = packed[k];
    int64_t reuse = (p.bits & 1) ? int64_t(p.bits >> 1) : -1;
    p.at = entry.at;
    p.ref = entry.word.ref;
    p.bits = pack(entry, reuse);
  }
  void reserve(size_t n) { packed.reserve(n); }
  /// Entries it has room for without growing (those kept packed).
  size_t capacity() const { return packed.capacity(); }
  /// Keeps the first `n` entries.
  void truncate(size_t n) {
    verified.clear();
    packed.truncate(n);
  }
  void clear() {
    verified.clear();
    packed.clear();
    wide.clear();
  }

  /// The verifier's memo: what the table was last found valid against (the
  /// facts of its op's operands and data, as the verifier keys them), empty
  /// when it was not or has changed since. A blob's patches stay as hcq-seal
  /// made them while every later pass verifies them again; the memo spares
  /// the walk over hundreds of thousands of entries each time. Any change
  /// of an entry clears it; a copy carries it with the entries it was made
  /// for. The verifier writes it through a const table: safe because MLIR
  /// verifies an op on one thread at a time and nothing else touches the
  /// op meanwhile.
  llvm::ArrayRef<int64_t> getVerifiedKey() const { return verified; }
  void setVerifiedKey(llvm::ArrayRef<int64_t> key) const {
    verified.assign(key.begin(), key.end());
  }

  bool operator==(const SymbolEntries &o) const {
    return size() == o.size() && std::equal(begin(), end(), o.begin());
  }
  bool operator!=(const SymbolEntries &o) const { return !(*this == o); }

private:
  /// `entry`'s bits: packed, or an index into `wide` (slot `reuse` if it is
  /// one).
  uint64_t pack(const SymbolEntry &entry, int64_t reuse) {
    const Word &w = entry.word;
    int64_t value = int64_t(w.value);
    if (uint8_t(w.kind) < 4 && uint8_t(w.part) < 4 && w.shift < 64 &&
        w.lanes < 256 && w.orBits == 0 && value >= -VALUE_LIMIT &&
        value < VALUE_LIMIT)
      return uint64_t(w.kind) << 1 | uint64_t(w.part) << 3 |
             uint64_t(entry.pair) << 5 | uint64_t(w.shift) << 6 |
             uint64_t(w.lanes) << 12 | uint64_t(value) << 20;
    if (reuse < 0) {
      reuse = int64_t(wide.size());
      wide.push_back(entry);
    } else {
      wide[reuse] = entry;
    }
    return uint64_t(reuse) << 1 | 1;
  }

  llvm::SmallVector<Packed, 0> packed;
  llvm::SmallVector<SymbolEntry, 0> wide;
  mutable llvm::SmallVector<int64_t, 0> verified;
};

llvm::hash_code hash_value(const SymbolEntries &entries);

/// Makes the last entry of a 32-bit stream's symbols table a pair if it is
/// the `lo` half of the word whose `hi` half is `word`, at the next
/// position `at`; returns whether it did.
bool mergeSymbolPair(SymbolEntries &entries, int64_t at, const Word &word);

/// Writes `word` at position `at` as entry `k` of a table that holds at
/// least `k` entries, over what entry `k` held or appended: so a pass can
/// rewrite a table in place, entry `k` from entries `k` and after.
inline void setSymbol(SymbolEntries &entries, size_t k, int64_t at,
                      const Word &word) {
  assert(entries.size() >= k && "an entry after the end");
  assert(!word.isConstant() && at >= 0 && at <= int64_t(UINT32_MAX) &&
         "not a symbolic word");
  SymbolEntry entry{uint32_t(at), /*pair=*/false, word};
  if (entries.size() == k)
    entries.push_back(entry);
  else
    entries.set(k, entry);
}

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
  /// `symbols` must outlive the stream.
  WordStream(llvm::ArrayRef<int32_t> dwords, const SymbolEntries &symbols,
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
      if (k < symbols.size() && symbols[k].at == i) {
        SymbolEntry entry = symbols[k];
        if (entry.pair) {
          fn(i, entry.word.half(WordPart::lo));
          fn(++i, entry.word.half(WordPart::hi));
        } else {
          fn(i, entry.word);
        }
        ++k;
      } else {
        fn(i, Word::constant(constantBits(i)));
      }
    }
  }
  const SymbolEntries &getSymbols() const { return symbols; }

private:
  uint64_t alignedBytes(size_t words) const {
    return getPaddedStreamBytes(words * perWord * 4);
  }

  llvm::ArrayRef<int32_t> dwords;
  const SymbolEntries &symbols;
  llvm::ArrayRef<int32_t> segments;
  unsigned perWord;
};

/// Builds a `bits`-wide stream's two properties word by word, in the form
/// the op keeps them (so they move into it).
struct WordStreamBuilder {
  explicit WordStreamBuilder(unsigned bits) : perWord(bits / 32) {}

  /// The `words` property: 32-bit units, two per 64-bit word.
  llvm::SmallVector<int32_t> units;
  SymbolEntries symbols;
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
    setSymbol(symbols, symbols.size(), int64_t(size()), word);
    pushConstant(0);
  }
  /// Appends the `lo` then the `hi` half of the 64-bit symbolic word
  /// `word` (part full): what push(word.half(lo)), push(word.half(hi))
  /// append, without looking for the pair a 32-bit stream merges them into
  /// (a launch's addresses are most of its symbolic words).
  void pushHalves(const Word &word) {
    assert(!word.isConstant() && word.part == WordPart::full &&
           "not a 64-bit symbolic word");
    if (perWord != 1 || word.kind == WordKind::variable) {
      push(word.half(WordPart::lo));
      return push(word.half(WordPart::hi));
    }
    assert(size() < UINT32_MAX && "a symbol past 32-bit positions");
    symbols.push_back({uint32_t(size()), /*pair=*/true, word});
    pushConstant(0);
    pushConstant(0);
  }
  /// Appends a constant word, most of any stream: no Word to build.
  void pushConstant(uint64_t value) {
    assert((perWord == 2 || value <= UINT32_MAX) && "a 32-bit word of more");
    units.push_back(int32_t(uint32_t(value)));
    if (perWord == 2)
      units.push_back(int32_t(uint32_t(value >> 32)));
  }
  /// Appends constant 32-bit words at once.
  void pushConstants(llvm::ArrayRef<uint32_t> values) {
    if (perWord == 2) {
      for (uint32_t value : values)
        pushConstant(value);
      return;
    }
    if (values.empty())
      return;
    size_t at = units.size();
    units.resize_for_overwrite(at + values.size());
    std::memcpy(units.data() + at, values.data(), values.size() * 4);
  }
  // A shift, not a division: the encoders ask for the size at every packet.
  size_t size() const { return units.size() >> (perWord - 1); }
  unsigned bits() const { return perWord * 32; }
  /// Room for `words` words, `symbolic` of them symbolic.
  void reserve(size_t words, size_t symbolic) {
    units.reserve(words * perWord);
    symbols.reserve(symbolic);
  }

private:
  unsigned perWord;
  bool segmented = false;
  uint64_t segmentOffset = 0;
};

} // namespace hcq

#endif // HCQ_DIALECT_WORDS_H
