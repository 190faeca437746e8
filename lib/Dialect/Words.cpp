//===- Words.cpp - Command words as op-local data -------------------------===//
//
// The symbol entries' helpers, and the one place their attribute form (the
// generic op syntax) and bytecode form are written and read.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"

#include "mlir/IR/BuiltinAttributes.h"

#include "llvm/Support/Endian.h"

#include <array>
#include <cstring>

using namespace mlir;
using namespace hcq;

llvm::hash_code hcq::hash_value(const Word &word) {
  return llvm::hash_combine(word.kind, word.part, word.shift, word.value,
                            word.orBits, word.ref, word.lanes);
}

llvm::hash_code hcq::hash_value(const SymbolEntry &entry) {
  return llvm::hash_combine(entry.at, entry.pair, entry.word);
}

llvm::hash_code hcq::hash_value(const SymbolEntries &entries) {
  return llvm::hash_combine_range(entries.begin(), entries.end());
}

bool hcq::mergeSymbolPair(SymbolEntries &entries, int64_t at,
                          const Word &word) {
  if (word.part != WordPart::hi || word.kind == WordKind::variable ||
      entries.empty())
    return false;
  // The same word but for the part and the OR-ed bits, one position before.
  SymbolEntry last = entries.back();
  const Word &lo = last.word;
  if (last.pair || int64_t(last.at) != at - 1 || lo.part != WordPart::lo ||
      lo.kind != word.kind || lo.shift != word.shift ||
      lo.value != word.value || lo.ref != word.ref || lo.lanes != word.lanes)
    return false;
  last.pair = true;
  last.word.part = WordPart::full;
  last.word.orBits = lo.orBits | word.orBits << 32;
  entries.set(entries.size() - 1, last);
  return true;
}

//===----------------------------------------------------------------------===//
// The attribute and bytecode forms
//===----------------------------------------------------------------------===//

namespace {
/// An entry as the generic op syntax and bytecode write it: four integers,
///   [at | (kind | part << 8 | shift << 16 | pair << 24) << 32,
///    ref | lanes << 32, value, or_bits].
/// A word alone (hcq.patch_group's) is an entry at 0, not a pair.
constexpr size_t ENTRY_FIELDS = 4;
using EntryFields = std::array<int64_t, ENTRY_FIELDS>;
constexpr uint64_t PAIR_BIT = uint64_t(1) << 24;

EntryFields encodeEntry(const SymbolEntry &entry) {
  const Word &w = entry.word;
  // An invalid entry (a verifier's diagnostic prints the op) is written
  // truncated, not refused.
  uint64_t meta = (uint64_t(w.kind) & 0xff) | (uint64_t(w.part) & 0xff) << 8 |
                  (uint64_t(w.shift) & 0xff) << 16 |
                  (entry.pair ? PAIR_BIT : 0);
  return {int64_t(uint64_t(entry.at) | meta << 32),
          int64_t(uint64_t(uint32_t(w.ref)) | uint64_t(w.lanes) << 32),
          int64_t(w.value), int64_t(w.orBits)};
}

/// Decodes `fields` into `entry`, or says why they are not an entry. What
/// the fields can say but an entry cannot hold is refused here; the rest
/// (order, kinds, operands) is the verifiers'.
std::optional<std::string> decodeEntry(const EntryFields &fields,
                                       SymbolEntry &entry) {
  uint64_t meta = uint64_t(fields[0]) >> 32;
  uint64_t kind = meta & 0xff, part = (meta >> 8) & 0xff;
  if (kind > uint64_t(WordKind::load))
    return "has kind " + std::to_string(kind);
  if (part > uint64_t(WordPart::hi))
    return "has part " + std::to_string(part);
  if (meta >> 25)
    return "has unknown bits " + std::to_string(meta >> 25);
  entry.at = uint32_t(uint64_t(fields[0]));
  entry.pair = meta & PAIR_BIT;
  Word &w = entry.word;
  w.kind = WordKind(kind);
  w.part = WordPart(part);
  w.shift = uint32_t((meta >> 16) & 0xff);
  w.ref = int32_t(uint32_t(uint64_t(fields[1])));
  w.lanes = uint32_t(uint64_t(fields[1]) >> 32);
  w.value = uint64_t(fields[2]);
  w.orBits = uint64_t(fields[3]);
  return std::nullopt;
}
} // namespace

Attribute hcq::getSymbolsAttr(MLIRContext *ctx, const SymbolEntries &entries) {
  SmallVector<int64_t> fields;
  fields.reserve(entries.size() * ENTRY_FIELDS);
  for (const SymbolEntry &entry : entries)
    llvm::append_range(fields, encodeEntry(entry));
  return DenseI64ArrayAttr::get(ctx, fields);
}

LogicalResult
hcq::setSymbolsFromAttr(SymbolEntries &entries, Attribute attr,
                        function_ref<InFlightDiagnostic()> emitError,
                        StringRef what) {
  auto array = dyn_cast<DenseI64ArrayAttr>(attr);
  if (!array)
    return emitError() << what << " must be an array<i64>, got " << attr;
  ArrayRef<int64_t> fields = array.asArrayRef();
  if (fields.size() % ENTRY_FIELDS)
    return emitError() << what << " holds " << fields.size()
                       << " integers, not " << ENTRY_FIELDS << " per entry";
  entries.clear();
  size_t numEntries = fields.size() / ENTRY_FIELDS;
  entries.reserve(numEntries);
  for (size_t k = 0; k < numEntries; ++k) {
    EntryFields one;
    llvm::copy(fields.slice(k * ENTRY_FIELDS, ENTRY_FIELDS), one.begin());
    SymbolEntry entry;
    if (std::optional<std::string> why = decodeEntry(one, entry))
      return emitError() << what << " entry " << k << " " << *why;
    entries.push_back(entry);
  }
  return success();
}

Attribute hcq::getWordPropAttr(MLIRContext *ctx, const Word &word) {
  return getSymbolsAttr(ctx, {SymbolEntry{0, false, word}});
}

LogicalResult
hcq::setWordPropFromAttr(Word &word, Attribute attr,
                         function_ref<InFlightDiagnostic()> emitError) {
  SymbolEntries entries;
  if (failed(setSymbolsFromAttr(entries, attr, emitError, "word")))
    return failure();
  if (entries.size() != 1 || entries[0].at || entries[0].pair)
    return emitError() << "word must be one entry at 0, not a pair";
  word = entries[0].word;
  return success();
}

void hcq::writeSymbols(DialectBytecodeWriter &writer,
                       const SymbolEntries &entries) {
  writer.writeVarInt(entries.size());
  for (const SymbolEntry &entry : entries)
    for (int64_t field : encodeEntry(entry))
      writer.writeVarInt(uint64_t(field));
}

LogicalResult hcq::readSymbols(DialectBytecodeReader &reader,
                               SymbolEntries &entries) {
  uint64_t size;
  if (failed(reader.readVarInt(size)))
    return failure();
  entries.clear();
  // The count comes from the file: a corrupt one must not reserve more
  // than a modest start.
  entries.reserve(std::min<uint64_t>(size, 1 << 16));
  for (uint64_t k = 0; k < size; ++k) {
    EntryFields fields;
    for (int64_t &field : fields) {
      uint64_t value;
      if (failed(reader.readVarInt(value)))
        return failure();
      field = int64_t(value);
    }
    SymbolEntry entry;
    if (std::optional<std::string> why = decodeEntry(fields, entry))
      return reader.emitError() << "symbol entry " << k << " " << *why;
    entries.push_back(entry);
  }
  return success();
}

// The units are written as they lie in memory.
static_assert(llvm::endianness::native == llvm::endianness::little,
              "dense units are stored little-endian");

void hcq::writeDenseUnits(DialectBytecodeWriter &writer,
                          ArrayRef<int32_t> units) {
  // The op owns the units until the writer is done, as writeOwnedBlob asks.
  writer.writeOwnedBlob(ArrayRef<char>(
      reinterpret_cast<const char *>(units.data()), units.size() * 4));
}

LogicalResult hcq::readDenseUnits(DialectBytecodeReader &reader,
                                  SmallVectorImpl<int32_t> &units) {
  ArrayRef<char> bytes;
  if (failed(reader.readBlob(bytes)))
    return failure();
  if (bytes.size() % 4)
    return reader.emitError() << "dense 32-bit units take " << bytes.size()
                              << " bytes, not a multiple of 4";
  // The blob may be unaligned within the file.
  units.resize_for_overwrite(bytes.size() / 4);
  std::memcpy(units.data(), bytes.data(), bytes.size());
  return success();
}

void hcq::writeWordProp(DialectBytecodeWriter &writer, const Word &word) {
  writeSymbols(writer, {SymbolEntry{0, false, word}});
}

LogicalResult hcq::readWordProp(DialectBytecodeReader &reader, Word &word) {
  SymbolEntries entries;
  if (failed(readSymbols(reader, entries)))
    return failure();
  if (entries.size() != 1 || entries[0].at || entries[0].pair)
    return reader.emitError() << "a word must be one entry at 0, not a pair";
  word = entries[0].word;
  return success();
}
