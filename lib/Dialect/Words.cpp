//===- Words.cpp - Command words as op-local data -------------------------===//

#include "HCQ/Dialect/HCQ.h"

using namespace hcq;

Word SymbolicWords::word(size_t k) const {
  const int64_t *f = fields.data() + k * SYMBOL_FIELDS;
  Word w;
  w.value = uint64_t(f[1]);
  w.ref = int32_t(uint64_t(f[2]) & 0xffffffff);
  w.lanes = uint32_t(uint64_t(f[2]) >> 32);
  w.kind = static_cast<WordKind>(uint64_t(f[3]) & 0xff);
  w.part = static_cast<WordPart>((uint64_t(f[3]) >> 8) & 0xff);
  w.shift = uint32_t((uint64_t(f[3]) >> 16) & 0xff);
  w.orBits = uint64_t(f[4]);
  return w;
}

std::optional<std::string> SymbolicWords::check() const {
  if (fields.size() % SYMBOL_FIELDS)
    return "holds " + std::to_string(fields.size()) + " integers, not " +
           std::to_string(SYMBOL_FIELDS) + " per entry";
  for (size_t k = 0; k < size(); ++k) {
    auto entry = [&]() { return "entry " + std::to_string(k) + " "; };
    if (at(k) < 0 || (k && at(k) <= at(k - 1)))
      return entry() + "is at " + std::to_string(at(k)) +
             ", not after the one before";
    uint64_t meta = uint64_t(fields[k * SYMBOL_FIELDS + 3]);
    std::optional<WordKind> kind = symbolizeWordKind(meta & 0xff);
    if (!kind || *kind == WordKind::constant)
      return entry() + "has kind " + std::to_string(meta & 0xff) +
             ", not address, variable or load";
    if (!symbolizeWordPart((meta >> 8) & 0xff))
      return entry() + "has part " + std::to_string((meta >> 8) & 0xff);
    if (((meta >> 16) & 0xff) >= 64)
      return entry() + "shifts by " + std::to_string((meta >> 16) & 0xff) +
             ", not below 64";
    if (meta >> 24)
      return entry() + "has unknown bits " + std::to_string(meta >> 24);
  }
  return std::nullopt;
}

void hcq::appendSymbol(llvm::SmallVectorImpl<int64_t> &fields, int64_t at,
                       const Word &word) {
  assert(word.shift < 64 && !word.isConstant() && "not a symbolic word");
  fields.append(
      {at, int64_t(word.value),
       int64_t(uint64_t(uint32_t(word.ref)) | uint64_t(word.lanes) << 32),
       int64_t(uint64_t(word.kind) | uint64_t(word.part) << 8 |
               uint64_t(word.shift) << 16),
       int64_t(word.orBits)});
}

Word WordStream::operator[](size_t i) const {
  size_t lo = 0, hi = symbols.size();
  while (lo < hi) {
    size_t mid = (lo + hi) / 2;
    if (size_t(symbols.at(mid)) < i)
      lo = mid + 1;
    else
      hi = mid;
  }
  if (lo < symbols.size() && size_t(symbols.at(lo)) == i)
    return symbols.word(lo);
  return Word::constant(uint64_t(dense[i]));
}
