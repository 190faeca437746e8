//===- Words.cpp - Command words as op-local data -------------------------===//

#include "HCQ/Dialect/HCQ.h"

#include <array>

using namespace hcq;

Word SymbolicWords::word(size_t k) const {
  const int64_t *f = fields.data() + k * SYMBOL_FIELDS;
  uint64_t meta = uint64_t(f[0]) >> 32;
  Word w;
  w.kind = static_cast<WordKind>(meta & 0xff);
  // A pair's part is full.
  w.part = static_cast<WordPart>((meta >> 8) & 0xff);
  w.shift = uint32_t((meta >> 16) & 0xff);
  w.ref = int32_t(uint64_t(f[1]) & 0xffffffff);
  w.lanes = uint32_t(uint64_t(f[1]) >> 32);
  w.value = uint64_t(f[2]);
  w.orBits = uint64_t(f[3]);
  return w;
}

std::optional<std::string> SymbolicWords::check() const {
  if (fields.size() % SYMBOL_FIELDS)
    return "holds " + std::to_string(fields.size()) + " integers, not " +
           std::to_string(SYMBOL_FIELDS) + " per entry";
  for (size_t k = 0; k < size(); ++k) {
    auto entry = [&]() { return "entry " + std::to_string(k) + " "; };
    if (k && at(k) <= last(k - 1))
      return entry() + "is at " + std::to_string(at(k)) +
             ", not after the one before";
    uint64_t meta = uint64_t(fields[k * SYMBOL_FIELDS]) >> 32;
    std::optional<WordKind> kind = symbolizeWordKind(meta & 0xff);
    if (!kind || *kind == WordKind::constant)
      return entry() + "has kind " + std::to_string(meta & 0xff) +
             ", not address, variable or load";
    if (!symbolizeWordPart((meta >> 8) & 0xff))
      return entry() + "has part " + std::to_string((meta >> 8) & 0xff);
    if (((meta >> 16) & 0xff) >= 64)
      return entry() + "shifts by " + std::to_string((meta >> 16) & 0xff) +
             ", not below 64";
    if (meta >> 25)
      return entry() + "has unknown bits " + std::to_string(meta >> 25);
    if (isPair(k) &&
        (*kind == WordKind::variable ||
         static_cast<WordPart>((meta >> 8) & 0xff) != WordPart::full))
      return entry() + "is a pair but not a full address or load";
  }
  return std::nullopt;
}

/// Entry `at`: `word` in SymbolicWords's layout, a pair if `pair`.
static std::array<int64_t, SYMBOL_FIELDS>
encodeSymbol(int64_t at, const Word &word, bool pair = false) {
  assert(word.shift < 64 && !word.isConstant() && at >= 0 &&
         at <= int64_t(UINT32_MAX) && "not a symbolic word");
  uint64_t meta = uint64_t(word.kind) | uint64_t(word.part) << 8 |
                  uint64_t(word.shift) << 16 | (pair ? SYMBOL_PAIR : 0);
  return {int64_t(uint64_t(at) | meta << 32),
          int64_t(uint64_t(uint32_t(word.ref)) | uint64_t(word.lanes) << 32),
          int64_t(word.value), int64_t(word.orBits)};
}

void hcq::appendSymbol(llvm::SmallVectorImpl<int64_t> &fields, int64_t at,
                       const Word &word) {
  std::array<int64_t, SYMBOL_FIELDS> entry = encodeSymbol(at, word);
  fields.append(entry.begin(), entry.end());
}

void hcq::setSymbol(llvm::SmallVectorImpl<int64_t> &fields, size_t k,
                    int64_t at, const Word &word) {
  assert(fields.size() >= k * SYMBOL_FIELDS && "an entry after the end");
  if (fields.size() == k * SYMBOL_FIELDS)
    return appendSymbol(fields, at, word);
  std::array<int64_t, SYMBOL_FIELDS> entry = encodeSymbol(at, word);
  llvm::copy(entry, fields.begin() + k * SYMBOL_FIELDS);
}

bool hcq::mergeSymbolPair(llvm::SmallVectorImpl<int64_t> &fields, int64_t at,
                          const Word &word) {
  if (word.part != WordPart::hi || word.kind == WordKind::variable ||
      fields.empty())
    return false;
  int64_t *last = fields.end() - SYMBOL_FIELDS;
  // The same word but for the part and the OR-ed bits, one position before.
  std::array<int64_t, SYMBOL_FIELDS> lo =
      encodeSymbol(at - 1, word.half(WordPart::lo));
  if (last[0] != lo[0] || last[1] != lo[1] || last[2] != lo[2])
    return false;
  Word full = word;
  full.part = WordPart::full;
  full.orBits = uint64_t(last[3]) | word.orBits << 32;
  llvm::copy(encodeSymbol(at - 1, full, /*pair=*/true), last);
  return true;
}
