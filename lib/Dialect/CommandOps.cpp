//===- CommandOps.cpp - The command-word ops ------------------------------===//
//
// The word sub-language of the dialect: how a command word is parsed and
// printed (`0xc0053c00`, `lo(%sig + 8)`, `var(%n)`), what a word may do
// with the operands it names, and the ops that hold words: hcq.cmds (a
// stream), hcq.blob (bytes and link-time patches) and hcq.patch_group (a
// run-time patch). Their storage is HCQ/Dialect/Words.h.
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "HCQ/Dialect/HCQ.h"

#include "llvm/ADT/Sequence.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/Format.h"

#include <charconv>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

using namespace mlir;
using namespace hcq;
using namespace hcq::detail;

//===----------------------------------------------------------------------===//
// Words: shared by hcq.cmds, hcq.blob and hcq.patch_group
//===----------------------------------------------------------------------===//

namespace {
/// Collects the operands words refer to, each once, in order of first use.
struct WordRefParser {
  OpAsmParser &parser;
  SmallVector<OpAsmParser::UnresolvedOperand> refs;
  llvm::StringMap<int32_t> indexOf;

  int32_t addRef(const OpAsmParser::UnresolvedOperand &operand) {
    std::string key = (operand.name + "#" + Twine(operand.number)).str();
    auto [it, inserted] = indexOf.try_emplace(key, refs.size());
    if (inserted)
      refs.push_back(operand);
    return it->second;
  }

  /// A per-lane list is stored as a contiguous run of operands.
  int32_t addLaneRefs(ArrayRef<OpAsmParser::UnresolvedOperand> lanes) {
    std::string key = "[";
    for (const auto &operand : lanes)
      key += (operand.name + "#" + Twine(operand.number) + ",").str();
    auto [it, inserted] = indexOf.try_emplace(key, refs.size());
    if (inserted)
      refs.append(lanes.begin(), lanes.end());
    return it->second;
  }

  /// `%v` or `[%a, %b, ...]`: the operand of a word and its lane count.
  ParseResult parseWordOperand(int32_t &ref, uint32_t &lanes) {
    if (failed(parser.parseOptionalLSquare())) {
      OpAsmParser::UnresolvedOperand operand;
      if (parser.parseOperand(operand))
        return failure();
      ref = addRef(operand);
      lanes = 1;
      return success();
    }
    SmallVector<OpAsmParser::UnresolvedOperand> list;
    if (parser.parseOperandList(list) || parser.parseRSquare())
      return failure();
    if (list.size() < 2)
      return parser.emitError(parser.getCurrentLocation(),
                              "a per-lane list needs two or more operands");
    ref = addLaneRefs(list);
    lanes = list.size();
    return success();
  }

  /// Parses `0x..`, `addr(%v [+ off] [>> shift])`, `lo(...)`, `hi(...)`,
  /// `var(%v)` or `load(%v [+|- off])`, then an optional `| 0x..`.
  ParseResult parseWord(Word &word) {
    if (parseWordBody(word))
      return failure();
    if (failed(parser.parseOptionalVerticalBar()))
      return success();
    SMLoc loc = parser.getCurrentLocation();
    uint64_t bits;
    if (parser.parseInteger(bits))
      return failure();
    if (word.isConstant())
      return parser.emitError(loc, "a constant word takes no '|' bits");
    word.orBits = bits;
    return success();
  }

  ParseResult parseWordBody(Word &word) {
    SMLoc loc = parser.getCurrentLocation();
    APInt constant;
    OptionalParseResult isInt = parser.parseOptionalInteger(constant);
    if (isInt.has_value()) {
      if (failed(*isInt))
        return failure();
      if (constant.isNegative() || constant.getActiveBits() > 64)
        return parser.emitError(loc, "word constant must fit in 64 bits "
                                     "unsigned");
      word = Word::constant(constant.getZExtValue());
      return success();
    }
    StringRef keyword;
    if (parser.parseKeyword(&keyword))
      return failure();
    int32_t ref;
    uint32_t lanes;
    if (keyword == "var") {
      if (parser.parseLParen() || parseWordOperand(ref, lanes) ||
          parser.parseRParen())
        return failure();
      word = Word{WordKind::variable, 0, ref, WordPart::full, 0, 0, lanes};
      return success();
    }
    if (keyword == "load" || keyword == "load.lo" || keyword == "load.hi") {
      WordPart loadPart = keyword == "load.lo"   ? WordPart::lo
                          : keyword == "load.hi" ? WordPart::hi
                                                 : WordPart::full;
      int64_t addend = 0;
      if (parser.parseLParen() || parseWordOperand(ref, lanes) ||
          parseOptionalAddend(parser, addend) || parser.parseRParen())
        return failure();
      word = Word{
          WordKind::load, static_cast<uint64_t>(addend), ref, loadPart, 0, 0,
          lanes};
      return success();
    }
    WordPart part;
    if (keyword == "addr")
      part = WordPart::full;
    else if (keyword == "lo")
      part = WordPart::lo;
    else if (keyword == "hi")
      part = WordPart::hi;
    else
      return parser.emitError(loc, "expected a word: an integer, addr(...), "
                                   "lo(...), hi(...), var(...) or "
                                   "load[.lo|.hi](...), got '")
             << keyword << "'";
    uint64_t offset = 0, shift = 0;
    if (parser.parseLParen() || parseWordOperand(ref, lanes))
      return failure();
    if (succeeded(parser.parseOptionalPlus()) && parser.parseInteger(offset))
      return failure();
    if (succeeded(parser.parseOptionalGreater())) {
      SMLoc shiftLoc = parser.getCurrentLocation();
      if (parser.parseGreater() || parser.parseInteger(shift))
        return failure();
      if (shift >= 64)
        return parser.emitError(shiftLoc, "shift must be below 64");
    }
    if (parser.parseRParen())
      return failure();
    word = Word{WordKind::address,
                offset,
                ref,
                part,
                static_cast<uint32_t>(shift),
                0,
                lanes};
    return success();
  }

  /// Parses `: type, ...` for the collected refs, prefixed by `leading`.
  ParseResult resolve(OperationState &result, ArrayRef<Type> types) {
    return parser.resolveOperands(refs, types, parser.getNameLoc(),
                                  result.operands);
  }
};
} // namespace

/// Prints `value` in decimal, as `os << value` does: through std::to_chars,
/// which takes a third of raw_ostream's general integer formatting (an
/// executable prints two numbers a patch, a million patches a million
/// calls).
static void printDecimal(raw_ostream &os, uint64_t value) {
  char digits[20];
  std::to_chars_result end = std::to_chars(digits, digits + 20, value);
  // A StringRef, not write(): raw_ostream copies it inline while its buffer
  // has room.
  os << StringRef(digits, end.ptr - digits);
}

/// The spelling of `part` of a word of `kind`, up to its operand: string
/// literals whose lengths are known, not C strings measured every word.
static StringRef getWordPrefix(WordKind kind, WordPart part) {
  static constexpr llvm::StringLiteral ADDRESS[] = {"addr(", "lo(", "hi("};
  static constexpr llvm::StringLiteral LOAD[] = {"load(", "load.lo(",
                                                 "load.hi("};
  size_t index = part == WordPart::lo ? 1 : part == WordPart::hi ? 2 : 0;
  return kind == WordKind::load ? LOAD[index] : ADDRESS[index];
}

void hcq::printWord(raw_ostream &os, const Word &word, unsigned bits,
                    function_ref<void(raw_ostream &, unsigned)> printOperand) {
  auto operand = [&]() {
    if (word.lanes == 1)
      return printOperand(os, word.ref);
    os << '[';
    llvm::interleaveComma(llvm::seq<unsigned>(word.ref, word.ref + word.lanes),
                          os, [&](unsigned ref) { printOperand(os, ref); });
    os << ']';
  };
  switch (word.kind) {
  case WordKind::constant:
    os << llvm::format_hex(word.value, bits == 32 ? 10 : 18);
    return;
  case WordKind::variable:
    os << "var(";
    operand();
    os << ')';
    break;
  case WordKind::load: {
    os << getWordPrefix(word.kind, word.part);
    operand();
    printAddend(os, static_cast<int64_t>(word.value));
    os << ')';
    break;
  }
  case WordKind::address:
    os << getWordPrefix(word.kind, word.part);
    operand();
    if (word.value) {
      os << " + ";
      printDecimal(os, word.value);
    }
    if (word.shift) {
      os << " >> ";
      printDecimal(os, word.shift);
    }
    os << ')';
    break;
  }
  if (word.orBits)
    os << " | " << llvm::format_hex(word.orBits, bits == 32 ? 10 : 18);
}

/// Whether `printer` is MLIR's alias walk, which prints every op into a
/// raw_null_ostream before the real printing only to see which attributes
/// and types it names. Words and data name none: a stream's bulk need not be
/// formatted for it (it was 60% of printing an executable).
static bool isAliasWalk(OpAsmPrinter &printer) {
  return dynamic_cast<llvm::raw_null_ostream *>(&printer.getStream());
}

static void printWordOperands(OpAsmPrinter &printer, const Word &word,
                              ValueRange refs, unsigned bits) {
  hcq::printWord(printer.getStream(), word, bits, [&](raw_ostream &, unsigned ref) {
    printer.printOperand(refs[ref]);
  });
}

namespace {
/// The printed names of an op's word operands, each asked of the printer
/// once: an executable's blob has hundreds of thousands of patches over a
/// few operands, and the printer looks a name up at every use.
class OperandNames {
public:
  OperandNames(OpAsmPrinter &printer, ValueRange refs) {
    names.reserve(refs.size());
    for (Value ref : refs) {
      llvm::raw_string_ostream os(names.emplace_back());
      printer.printOperand(ref, os);
    }
  }

  /// Prints `word` (hcq::printWord) with the names.
  void printWord(raw_ostream &os, const Word &word, unsigned bits) const {
    hcq::printWord(os, word, bits, [&](raw_ostream &os, unsigned ref) {
      os << names[ref];
    });
  }

private:
  SmallVector<std::string> names;
};
} // namespace

namespace {
/// What the words of one op may do with each of its operands, worked out
/// once per operand: an encoded op has hundreds of thousands of symbolic
/// words over a few operands, and asking each word's operand for its
/// defining op and type again made verification a fifth of the pipeline.
class OperandFacts {
public:
  explicit OperandFacts(ValueRange refs) : refs(refs) {
    facts.reserve(refs.size());
    for (Value ref : refs) {
      Type type = ref.getType();
      Facts f;
      f.boundVariable = isBoundVariableType(type);
      f.wideVariable = f.boundVariable && type.getIntOrFloatBitWidth() > 32;
      f.loadable = isSignalType(type) &&
                   (getPlaceholder(ref) || isSubmitterArgument(ref));
      f.linear = isa<LinearType>(type);
      f.linkTime = isLinkTimeMemory(ref);
      if (auto buffer = dyn_cast<BufferType>(type))
        f.byteSize = buffer.getByteSize();
      facts.push_back(f);
    }
  }

  size_t size() const { return refs.size(); }

  /// Appends what these facts are to `key`: equal keys, equal facts.
  void appendKey(SmallVectorImpl<int64_t> &key) const {
    for (const Facts &f : facts) {
      key.push_back(int64_t(f.boundVariable) | int64_t(f.wideVariable) << 1 |
                    int64_t(f.loadable) << 2 | int64_t(f.linear) << 3 |
                    int64_t(f.linkTime) << 4);
      key.push_back(f.byteSize);
    }
  }

  /// Bits a patch word writes: 32 for a half, else the width of the value.
  unsigned getPatchBits(const Word &word) const {
    if (word.part != WordPart::full)
      return 32;
    if (word.kind == WordKind::variable)
      return facts[word.ref].wideVariable ? 64 : 32;
    return 64;
  }

  /// Whether every operand of `word` is memory the link allocates (or a
  /// stream), so its address is known before the first run.
  bool isLinkTime(const Word &word) const {
    for (size_t i = word.ref, e = word.ref + word.lanes; i < e; ++i)
      if (!facts[i].linkTime)
        return false;
    return true;
  }

  /// Why a symbolic word does not fit the operands it refers to.
  enum class WordProblem : uint8_t {
    none,
    operandsOutOfRange,
    variableOperand,
    variableOffset,
    loadOperand,
    loadShift,
    addressOperand,
    addressOffset,
  };
  /// A problem and the operand it was found at.
  struct WordCheck {
    WordProblem problem = WordProblem::none;
    size_t operand = 0;
  };

  /// Checks a symbolic word against the operands it refers to. Inlined into
  /// the table loop, where it runs for every entry; the diagnostic is built
  /// apart (reportWord), only for a word that fails.
  LLVM_ATTRIBUTE_ALWAYS_INLINE WordCheck checkWord(const Word &word) const {
    assert(!word.isConstant() && "a constant names no operand");
    int64_t end = int64_t(word.ref) + word.lanes;
    if (word.lanes == 0 || word.ref < 0 || end > int64_t(size()))
      return {WordProblem::operandsOutOfRange, 0};
    for (size_t i = word.ref; i < size_t(end); ++i) {
      const Facts &f = facts[i];
      if (word.kind == WordKind::variable) {
        if (!f.boundVariable)
          return {WordProblem::variableOperand, i};
        if (word.value || word.shift)
          return {WordProblem::variableOffset, i};
      } else if (word.kind == WordKind::load) {
        if (!f.loadable)
          return {WordProblem::loadOperand, i};
        if (word.shift)
          return {WordProblem::loadShift, i};
      } else if (!f.linear) {
        if (f.byteSize < 0)
          return {WordProblem::addressOperand, i};
        if (word.value > static_cast<uint64_t>(f.byteSize))
          return {WordProblem::addressOffset, i};
      }
    }
    return {};
  }

  /// Reports what checkWord found wrong with `word`, which `index` names.
  LogicalResult reportWord(Operation *op, const Word &word, size_t index,
                           WordCheck check) const {
    auto fail = [&]() { return op->emitOpError() << "word #" << index << " "; };
    switch (check.problem) {
    case WordProblem::none:
      return success();
    case WordProblem::operandsOutOfRange:
      return fail() << "refers to operands [" << word.ref << ", "
                    << int64_t(word.ref) + word.lanes << ") but there are "
                    << size();
    case WordProblem::variableOperand:
      return fail() << "is a variable but its operand has type "
                    << refs[check.operand].getType();
    case WordProblem::variableOffset:
      return fail() << "is a variable and takes no offset or shift";
    case WordProblem::loadOperand:
      return fail() << "loads from a value that is not a 64-bit placeholder";
    case WordProblem::loadShift:
      return fail() << "is a load and takes no shift";
    case WordProblem::addressOperand:
      return fail() << "takes the address of a "
                    << refs[check.operand].getType()
                    << ", not a buffer or stream";
    case WordProblem::addressOffset:
      // The one problem found at an operand that exists and whose facts
      // the message needs (operandsOutOfRange may have no operand at all).
      return fail() << "address offset " << word.value << " is outside the "
                    << facts[check.operand].byteSize << "-byte buffer";
    }
    llvm_unreachable("a word problem without a message");
  }

  /// Checks a symbolic word against the operands it refers to; `index`
  /// names it in a diagnostic.
  LogicalResult verifyWord(Operation *op, const Word &word,
                           size_t index) const {
    return reportWord(op, word, index, checkWord(word));
  }

private:
  struct Facts {
    bool boundVariable = false, wideVariable = false, loadable = false,
         linear = false, linkTime = false;
    /// The buffer's size, or -1 when the operand is not a buffer.
    int64_t byteSize = -1;
  };
  ValueRange refs;
  SmallVector<Facts> facts;
};

/// What a symbols table's positions are and what its entries may be:
/// hcq.cmds's `symbols` (word indices into a stream) or hcq.blob's
/// `patches` (byte offsets into its data).
struct SymbolTableContext {
  /// hcq.blob's patches: link-time addresses, one patch an entry.
  bool isPatchTable = false;
  /// A stream's word width, its dense 32-bit units and its submit's lanes.
  unsigned bits = 0;
  ArrayRef<int32_t> units;
  size_t lanes = 1;
  /// A blob's data bytes.
  int64_t bytes = 0;

  static SymbolTableContext stream(unsigned bits, ArrayRef<int32_t> units,
                                   size_t lanes) {
    return {false, bits, units, lanes, 0};
  }
  static SymbolTableContext patches(int64_t bytes) {
    return {true, 0, {}, 1, bytes};
  }
};
} // namespace

namespace {
/// Why an entry of a symbols table is invalid.
enum class EntryProblem : uint8_t {
  none,
  // Any table.
  notAfterPrevious,
  constant,
  shift,
  pairNotFull,
  // A blob's patches.
  patchPair,
  patchWord,
  patchNotAddress,
  patchNotLinkTime,
  patchOutsideData,
  // A stream's symbols.
  pastStream,
  constantBits,
  pairIn64BitStream,
  streamWord,
  lanes,
  wideIn32BitStream,
  halfIn64BitStream,
};

/// What checkEntry found: the problem, and where it needs saying.
struct EntryCheck {
  EntryProblem problem = EntryProblem::none;
  /// The word's problem (patchWord, streamWord).
  OperandFacts::WordCheck word;
  /// The word with constant bits (constantBits).
  int64_t at = 0;
};
} // namespace

/// Checks `entry` of a table whose entry before it ends at `previous`: the
/// one definition of a valid entry, for hcq.cmds and hcq.blob alike. It
/// compares the entry's fields with what was worked out once (the operands'
/// facts, the stream's size) and builds no diagnostic, so it stays cheap
/// for the tables of hundreds of thousands of entries verified after every
/// pass.
LLVM_ATTRIBUTE_ALWAYS_INLINE static EntryCheck
checkEntry(const SymbolEntry &entry, int64_t previous,
           const OperandFacts &operands, const SymbolTableContext &table,
           unsigned perWord, int64_t numWords) {
  const Word &word = entry.word;
  auto problem = [](EntryProblem p) { return EntryCheck{p, {}, 0}; };
  if (int64_t(entry.at) <= previous)
    return problem(EntryProblem::notAfterPrevious);
  if (word.isConstant())
    return problem(EntryProblem::constant);
  if (word.shift >= 64)
    return problem(EntryProblem::shift);
  if (entry.pair &&
      (word.kind == WordKind::variable || word.part != WordPart::full))
    return problem(EntryProblem::pairNotFull);

  if (table.isPatchTable) {
    // A link-time patch at a byte offset of the data.
    if (entry.pair)
      return problem(EntryProblem::patchPair);
    OperandFacts::WordCheck wordCheck = operands.checkWord(word);
    if (wordCheck.problem != OperandFacts::WordProblem::none)
      return {EntryProblem::patchWord, wordCheck, 0};
    if (word.kind != WordKind::address)
      return problem(EntryProblem::patchNotAddress);
    if (!operands.isLinkTime(word))
      return problem(EntryProblem::patchNotLinkTime);
    int64_t width = operands.getPatchBits(word) / 8;
    if (int64_t(entry.at) > table.bytes - width)
      return problem(EntryProblem::patchOutsideData);
    return {};
  }

  // A symbolic word (a pair: two) of a stream.
  if (entry.last() >= numWords)
    return problem(EntryProblem::pastStream);
  for (int64_t j = entry.at; j <= entry.last(); ++j)
    for (unsigned u = 0; u < perWord; ++u)
      if (table.units[j * perWord + u])
        return {EntryProblem::constantBits, {}, j};
  if (entry.pair && table.bits != 32)
    return problem(EntryProblem::pairIn64BitStream);
  OperandFacts::WordCheck wordCheck = operands.checkWord(word);
  if (wordCheck.problem != OperandFacts::WordProblem::none)
    return {EntryProblem::streamWord, wordCheck, 0};
  if (word.lanes != 1 && word.lanes != table.lanes)
    return problem(EntryProblem::lanes);
  if (table.bits == 32 && !entry.pair && operands.getPatchBits(word) != 32)
    return problem(EntryProblem::wideIn32BitStream);
  if (table.bits == 64 && word.part != WordPart::full)
    return problem(EntryProblem::halfIn64BitStream);
  return {};
}

/// Reports what checkEntry found wrong with entry `k` of `entries`, a table
/// of `op`. Out of line, and reading the entry again: it runs once, for the
/// first bad entry, and the checking loop keeps its entry in registers.
LLVM_ATTRIBUTE_NOINLINE static LogicalResult
reportEntry(Operation *op, const SymbolEntries &entries, size_t k,
            const EntryCheck &check, const OperandFacts &operands,
            const SymbolTableContext &table, int64_t numWords) {
  const SymbolEntry entry = entries[k];
  const Word &word = entry.word;
  StringRef name = table.isPatchTable ? "patch table" : "symbols table";
  auto fail = [&]() {
    return op->emitOpError() << name << " entry " << k << " ";
  };
  auto patch = [&]() { return op->emitOpError() << "patch #" << k << " "; };
  // A stream's words are named by their index in the stream.
  auto streamWord = [&](int64_t at) {
    return op->emitOpError() << "word #" << at << " ";
  };
  switch (check.problem) {
  case EntryProblem::none:
    return success();
  case EntryProblem::notAfterPrevious:
    return fail() << "is at " << entry.at << ", not after the one before";
  case EntryProblem::constant:
    return fail() << "has kind 0, not address, variable or load";
  case EntryProblem::shift:
    return fail() << "shifts by " << word.shift << ", not below 64";
  case EntryProblem::pairNotFull:
    return fail() << "is a pair but not a full address or load";
  case EntryProblem::patchPair:
    return patch() << "is a pair of stream words, not one patch";
  case EntryProblem::patchWord:
    return operands.reportWord(op, word, k, check.word);
  case EntryProblem::patchNotAddress:
    return patch() << "must be an address: constants belong in the "
                      "data, variables in an hcq.patch_group";
  case EntryProblem::patchNotLinkTime:
    return patch() << "takes the address of a value that is not a "
                      "placeholder or program: per-run addresses go "
                      "through hcq.patch_group";
  case EntryProblem::patchOutsideData:
    return patch() << "at byte " << entry.at << " is outside the "
                   << table.bytes << "-byte data";
  case EntryProblem::pastStream:
    return op->emitOpError()
           << "symbolic word at " << entry.last() << " is past the stream's "
           << numWords << " words";
  case EntryProblem::constantBits:
    return streamWord(check.at) << "is symbolic but has constant bits too";
  case EntryProblem::pairIn64BitStream:
    return streamWord(entry.at) << "is a pair of halves in a 64-bit stream";
  case EntryProblem::streamWord:
    return operands.reportWord(op, word, entry.at, check.word);
  case EntryProblem::lanes:
    return streamWord(entry.at) << "has " << word.lanes
                                << " lanes but the submit has " << table.lanes;
  case EntryProblem::wideIn32BitStream:
    return streamWord(entry.at) << "is 64 bits wide in a 32-bit stream: use "
                                   "lo(...) and hi(...)";
  case EntryProblem::halfIn64BitStream:
    return streamWord(entry.at) << "is a 32-bit half in a 64-bit stream";
  }
  llvm_unreachable("an entry problem without a message");
}

/// Checks the symbols table `entries` of `op`, whose operands `operands`
/// describes, and reports its first failure.
static LogicalResult verifySymbolTable(Operation *op,
                                       const SymbolEntries &entries,
                                       const OperandFacts &operands,
                                       const SymbolTableContext &table) {
  // A patch table's validity depends on its entries, its operands' facts
  // and the data's size alone: when none changed since the table was last
  // found valid, it still is. (A stream's table depends on its words too,
  // and is checked every time.)
  SmallVector<int64_t, 16> key;
  if (table.isPatchTable) {
    key.push_back(table.bytes);
    operands.appendKey(key);
    if (ArrayRef<int64_t>(key) == entries.getVerifiedKey())
      return success();
  }
  unsigned perWord = table.bits / 32;
  int64_t numWords = perWord ? int64_t(table.units.size() / perWord) : 0;
  int64_t previous = -1;
  for (size_t k = 0, e = entries.size(); k < e; ++k) {
    const SymbolEntry entry = entries[k];
    EntryCheck check =
        checkEntry(entry, previous, operands, table, perWord, numWords);
    if (LLVM_UNLIKELY(check.problem != EntryProblem::none))
      return reportEntry(op, entries, k, check, operands, table, numWords);
    previous = entry.last();
  }
  if (table.isPatchTable)
    entries.setVerifiedKey(key);
  return success();
}

//===----------------------------------------------------------------------===//
// CmdsOp
//===----------------------------------------------------------------------===//

ParseResult CmdsOp::parse(OpAsmParser &parser, OperationState &result) {
  MLIRContext *ctx = parser.getContext();
  SMLoc tagLoc = parser.getCurrentLocation();
  StringRef tagName;
  if (parser.parseKeyword(&tagName))
    return failure();
  std::optional<PlaceholderTag> tag = symbolizePlaceholderTag(tagName);
  if (!tag)
    return parser.emitError(tagLoc, "unknown stream tag '") << tagName << "'";
  SMLoc bitsLoc = parser.getCurrentLocation();
  Type bitsType;
  if (parser.parseType(bitsType))
    return failure();
  if (!bitsType.isInteger(32) && !bitsType.isInteger(64))
    return parser.emitError(bitsLoc, "word width must be i32 or i64");

  WordRefParser words{parser, {}, {}};
  unsigned bits = bitsType.getIntOrFloatBitWidth();
  WordStreamBuilder stream(bits);
  auto parseWord = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    Word word;
    if (words.parseWord(word))
      return failure();
    // A 32-bit stream stores 32 bits of constant per word.
    uint64_t constant = word.isConstant() ? word.value : word.orBits;
    if (bits == 32 && constant > UINT32_MAX)
      return parser.emitError(loc) << "word #" << stream.size() << " constant "
                                   << constant << " does not fit in 32 bits";
    stream.push(word);
    return success();
  };
  // One bracketed list per segment.
  stream.beginSegment();
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Square, parseWord))
    return failure();
  while (succeeded(parser.parseOptionalLSquare())) {
    stream.beginSegment();
    if (failed(parser.parseOptionalRSquare()) &&
        (parser.parseCommaSeparatedList(parseWord) || parser.parseRSquare()))
      return failure();
  }
  SmallVector<Type> types;
  if (succeeded(parser.parseOptionalColon()) && parser.parseTypeList(types))
    return failure();
  if (parser.parseOptionalAttrDict(result.attributes) ||
      words.resolve(result, types))
    return failure();
  Properties &props = result.getOrAddProperties<Properties>();
  props.setTag(*tag);
  props.setWordBits(bits);
  props.words = std::move(stream.units);
  props.symbols = std::move(stream.symbols);
  props.segments = std::move(stream.segments);
  if (*tag != PlaceholderTag::cmdbuf)
    result.addTypes(LinearType::get(ctx));
  return success();
}

void CmdsOp::print(OpAsmPrinter &printer) {
  printer << ' ' << stringifyPlaceholderTag(getTag()) << " i" << getWordBits()
          << " [";
  WordStream stream = getStream();
  // Each segment in its own brackets.
  ArrayRef<int32_t> segments = getSegments();
  bool firstInSegment = true;
  if (!isAliasWalk(printer)) {
    OperandNames names(printer, getRefs());
    raw_ostream &os = printer.getStream();
    stream.forEach([&](size_t i, const Word &word) {
      for (; !segments.empty() && size_t(segments.front()) == i;
           segments = segments.drop_front()) {
        printer << "] [";
        firstInSegment = true;
      }
      if (!firstInSegment)
        os << ", ";
      firstInSegment = false;
      names.printWord(os, word, getWordBits());
    });
  }
  for (size_t k = 0; k < segments.size(); ++k)
    printer << "] [";
  printer << ']';
  if (!getRefs().empty()) {
    printer << " : ";
    llvm::interleaveComma(getRefs().getTypes(), printer);
  }
  printer.printOptionalAttrDict((*this)->getAttrs());
}

LogicalResult CmdsOp::verify() {
  unsigned bits = getWordBits();
  bool indirect = getTag() != PlaceholderTag::cmdbuf;
  if (indirect != static_cast<bool>(getLinear()))
    return emitOpError(indirect ? "with a tag other than 'cmdbuf' must return "
                                  "its !hcq.linear stream"
                                : "with tag 'cmdbuf' must not have a result");
  auto submit = (*this)->getParentOfType<SubmitOp>();
  if (!submit)
    return emitOpError("must be inside an hcq.submit");
  size_t lanes = submit.getDevices().size();
  if (getWords().size() % (bits / 32))
    return emitOpError() << "words hold " << getWords().size()
                         << " 32-bit units, not whole 64-bit words";
  WordStream stream = getStream();
  ArrayRef<int32_t> segments = getSegments();
  if (!segments.empty() && !indirect)
    return emitOpError("with tag 'cmdbuf' must have one segment");
  for (auto [k, start] : llvm::enumerate(segments))
    if (start < (k ? segments[k - 1] : 0) || size_t(start) > stream.size())
      return emitOpError() << "segment #" << k + 1 << " starts at word "
                           << start << ", not in order within the "
                           << stream.size() << " words";
  return verifySymbolTable(*this, getSymbols(), OperandFacts(getRefs()),
                           SymbolTableContext::stream(bits, getWords(), lanes));
}

//===----------------------------------------------------------------------===//
// BlobOp
//===----------------------------------------------------------------------===//

/// The attribute-dictionary spelling of a blob's lane property.
static constexpr llvm::StringLiteral BLOB_LANE = "lane";

static constexpr llvm::StringLiteral BLOB_HEX = "hex";

/// Whether data of `dwords` prints as one hex string: above the limit MLIR
/// prints elements attributes in hex by (100 elements unless
/// --mlir-print-elementsattrs-with-hex-if-larger says otherwise; -1 never).
static bool shouldPrintHex(size_t dwords) {
  int64_t limit = OpPrintingFlags().getLargeElementsAttrHexLimit();
  return limit >= 0 && dwords > static_cast<uint64_t>(limit);
}

/// Parses the `hex "..."` form's string: 8 hex digits a dword.
static ParseResult parseHexDwords(OpAsmParser &parser,
                                  SmallVectorImpl<int32_t> &data) {
  SMLoc loc = parser.getCurrentLocation();
  std::string hex;
  if (parser.parseString(&hex))
    return failure();
  if (hex.size() % 8)
    return parser.emitError(loc, "hex data has ")
           << hex.size() << " digits, not 8 a dword";
  data.resize_for_overwrite(hex.size() / 8);
  for (size_t i = 0; i < hex.size(); i += 8) {
    uint32_t dword = 0;
    for (size_t digit = i; digit < i + 8; ++digit) {
      unsigned nibble = llvm::hexDigitValue(hex[digit]);
      if (nibble == ~0u)
        return parser.emitError(loc, "hex data has '")
               << hex[digit] << "' at digit " << digit << ", not a hex digit";
      dword = dword << 4 | nibble;
    }
    data[i / 8] = static_cast<int32_t>(dword);
  }
  return success();
}

/// Writes the 8 hex digits of `dword` to `out`, most significant first.
static void writeHexDword(char *out, uint32_t dword) {
  // All eight digits at once in a 64-bit word: nibble k spread into byte
  // k, each made its ASCII digit ('a' - '0' - 10 = 39 past 9), then stored
  // most significant first.
  uint64_t v = dword;
  v = (v | v << 16) & 0x0000ffff0000ffffull;
  v = (v | v << 8) & 0x00ff00ff00ff00ffull;
  v = (v | v << 4) & 0x0f0f0f0f0f0f0f0full;
  uint64_t pastNine =
      ((v + 0x0606060606060606ull) >> 4) & 0x0101010101010101ull;
  llvm::support::endian::write64be(out,
                                   v + 0x3030303030303030ull + pastNine * 39);
}

/// Writes the hex digits of `dwords` (each most significant first) to
/// `out`, 8 a dword; returns the end.
static char *writeHexDwords(char *out, ArrayRef<int32_t> dwords) {
  size_t i = 0;
#if defined(__SSE2__)
  // Four dwords at a time (SSE2 is x86-64's baseline): a 100,000-call
  // executable prints 8 million dwords, a sixth of its printing.
  const __m128i lowNibble = _mm_set1_epi8(0x0f);
  const __m128i nine = _mm_set1_epi8(9);
  const __m128i letterGap = _mm_set1_epi8(39);
  const __m128i zero = _mm_set1_epi8('0');
  for (; i + 4 <= dwords.size(); i += 4, out += 32) {
    __m128i v =
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(dwords.data() + i));
    // Each dword's bytes most significant first: swap the bytes of each
    // 16-bit half, then the halves.
    v = _mm_or_si128(_mm_slli_epi16(v, 8), _mm_srli_epi16(v, 8));
    v = _mm_shufflehi_epi16(_mm_shufflelo_epi16(v, 0xb1), 0xb1);
    __m128i high = _mm_and_si128(_mm_srli_epi16(v, 4), lowNibble);
    __m128i low = _mm_and_si128(v, lowNibble);
    auto digits = [&](__m128i nibbles) {
      __m128i letters = _mm_and_si128(_mm_cmpgt_epi8(nibbles, nine), letterGap);
      return _mm_add_epi8(_mm_add_epi8(nibbles, zero), letters);
    };
    // A byte's high nibble's digit, then its low one's.
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out),
                     digits(_mm_unpacklo_epi8(high, low)));
    _mm_storeu_si128(reinterpret_cast<__m128i *>(out + 16),
                     digits(_mm_unpackhi_epi8(high, low)));
  }
#endif
  for (; i < dwords.size(); ++i, out += 8)
    writeHexDword(out, static_cast<uint32_t>(dwords[i]));
  return out;
}

/// Prints `data` as the hex form's string, 8 digits a dword, through a
/// small buffer (an executable's blob can hold millions of dwords).
static void printHexDwords(raw_ostream &os, ArrayRef<int32_t> data) {
  constexpr size_t CHUNK_DWORDS = 512;
  char chunk[CHUNK_DWORDS * 8];
  os << '"';
  while (!data.empty()) {
    ArrayRef<int32_t> part = data.take_front(CHUNK_DWORDS);
    data = data.drop_front(part.size());
    os.write(chunk, writeHexDwords(chunk, part) - chunk);
  }
  os << '"';
}

ParseResult BlobOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand target;
  SmallVector<int32_t> data;
  if (parser.parseOperand(target) || parser.parseEqual())
    return failure();
  if (succeeded(parser.parseOptionalKeyword(BLOB_HEX))) {
    if (parseHexDwords(parser, data))
      return failure();
  } else if (parser.parseCommaSeparatedList(
                 OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
                   SMLoc loc = parser.getCurrentLocation();
                   uint64_t dword;
                   if (parser.parseInteger(dword))
                     return failure();
                   if (dword > UINT32_MAX)
                     return parser.emitError(loc, "blob data are 32-bit words");
                   data.push_back(
                       static_cast<int32_t>(static_cast<uint32_t>(dword)));
                   return success();
                 })) {
    return failure();
  }

  WordRefParser words{parser, {}, {}};
  SymbolEntries patches;
  if (succeeded(parser.parseOptionalKeyword("patches")) &&
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            int64_t offset;
            Word word;
            if (parser.parseInteger(offset) || parser.parseColon() ||
                words.parseWord(word))
              return failure();
            if (word.isConstant())
              return parser.emitError(loc, "a patch is an address, not a "
                                           "constant: constants belong in "
                                           "the data");
            // The table keeps the offset in an entry's low 32 bits.
            if (offset < 0 || offset > UINT32_MAX)
              return parser.emitError(loc, "patch offset ")
                     << offset << " is not a byte offset in [0, 2^32)";
            patches.push_back({uint32_t(offset), /*pair=*/false, word});
            return success();
          }))
    return failure();

  Type targetType;
  SmallVector<Type> refTypes;
  if (parser.parseColonType(targetType) ||
      (succeeded(parser.parseOptionalComma()) &&
       parser.parseTypeList(refTypes)) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.resolveOperand(target, targetType, result.operands) ||
      words.resolve(result, refTypes))
    return failure();
  Properties &props = result.getOrAddProperties<Properties>();
  props.setData(data);
  props.patches = std::move(patches);
  // The lane, a property, is spelled in the attribute dictionary.
  if (Attribute lane = result.attributes.erase(BLOB_LANE)) {
    auto value = dyn_cast<IntegerAttr>(lane);
    if (!value || !value.getType().isSignlessInteger(32))
      return parser.emitError(parser.getNameLoc(),
                              "'lane' must be an i32, got ")
             << lane;
    props.setLane(static_cast<int32_t>(value.getInt()));
  }
  return success();
}

void BlobOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getTarget() << " = ";
  bool aliasWalk = isAliasWalk(printer);
  ArrayRef<int32_t> data = getData();
  if (shouldPrintHex(data.size())) {
    printer << BLOB_HEX << ' ';
    if (!aliasWalk)
      printHexDwords(printer.getStream(), data);
  } else {
    printer << '[';
    if (!aliasWalk)
      llvm::interleaveComma(data, printer, [&](int32_t dword) {
        printer << llvm::format_hex(static_cast<uint32_t>(dword), 10);
      });
    printer << ']';
  }
  const SymbolEntries &patches = getPatches();
  if (!patches.empty() && !aliasWalk) {
    OperandNames names(printer, getRefs());
    raw_ostream &os = printer.getStream();
    os << " patches [";
    llvm::interleaveComma(patches, os, [&](const SymbolEntry &patch) {
      printDecimal(os, patch.at);
      os << ": ";
      names.printWord(os, patch.word, 64);
    });
    os << ']';
  }
  printer << " : " << getTarget().getType();
  for (Type type : getRefs().getTypes())
    printer << ", " << type;
  NamedAttrList attrs((*this)->getAttrs());
  if (std::optional<int32_t> lane = getLane())
    attrs.set(BLOB_LANE,
              IntegerAttr::get(IntegerType::get(getContext(), 32), *lane));
  printer.printOptionalAttrDict(attrs);
}

LogicalResult BlobOp::verify() {
  auto target = cast<BufferType>(getTarget().getType());
  int64_t bytes = static_cast<int64_t>(getData().size()) * 4;
  if (!isLinkTimeMemory(getTarget()))
    return emitOpError("target must be link-time memory (an hcq.placeholder, "
                       "hcq.program or hcq.alloc)");
  if (getLane() &&
      (*getLane() < 0 || size_t(*getLane()) >= target.getNumLanes()))
    return emitOpError() << "lane " << *getLane() << " of a target with "
                         << target.getNumLanes() << " lanes";
  if (bytes > target.getByteSize())
    return emitOpError() << "writes " << bytes << " bytes into a "
                         << target.getByteSize() << "-byte placeholder";
  return verifySymbolTable(*this, getPatches(), OperandFacts(getRefs()),
                           SymbolTableContext::patches(bytes));
}

//===----------------------------------------------------------------------===//
// PatchGroupOp
//===----------------------------------------------------------------------===//

ParseResult PatchGroupOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand target, offsets;
  int64_t start, count;
  Type bitsType;
  WordRefParser words{parser, {}, {}};
  Word word;
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<Type> types;
  if (parser.parseOperand(target) || parser.parseKeyword("offsets") ||
      parser.parseOperand(offsets) || parser.parseLSquare() ||
      parser.parseInteger(start) || parser.parseComma() ||
      parser.parseInteger(count) || parser.parseRSquare() ||
      parser.parseType(bitsType) || words.parseWord(word) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonTypeList(types))
    return failure();
  if (!bitsType.isInteger(32) && !bitsType.isInteger(64))
    return parser.emitError(loc, "patch width must be i32 or i64");
  if (words.refs.size() != 1)
    return parser.emitError(loc, "a patch group's word names one operand");
  if (types.size() != 3)
    return parser.emitError(loc, "expected the target, offsets and source "
                                 "types");
  if (parser.resolveOperand(target, types[0], result.operands) ||
      parser.resolveOperand(offsets, types[1], result.operands) ||
      parser.resolveOperand(words.refs[0], types[2], result.operands))
    return failure();
  Properties &props = result.getOrAddProperties<Properties>();
  props.setStart(start);
  props.setCount(count);
  props.setBits(bitsType.getIntOrFloatBitWidth());
  props.setWord(word);
  return success();
}

void PatchGroupOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getTarget() << " offsets " << getOffsets() << '['
          << getStart() << ", " << getCount() << "] i" << getBits() << ' ';
  printWordOperands(printer, getWord(), getSource(), getBits());
  printer.printOptionalAttrDict((*this)->getAttrs());
  printer << " : " << getTarget().getType() << ", " << getOffsets().getType()
          << ", " << getSource().getType();
}

LogicalResult PatchGroupOp::verify() {
  if (failed(verifyTable(*this, getOffsets(), PlaceholderTag::offtbl, 32,
                         "offsets")))
    return failure();
  if (!getPlaceholder(getTarget()) && !isSubmitterArgument(getTarget()))
    return emitOpError("target must be an hcq.placeholder");
  int64_t entries =
      cast<BufferType>(getOffsets().getType()).getNumElements() / 2;
  std::optional<int64_t> end = llvm::checkedAdd(getStart(), getCount());
  if (!end)
    return emitOpError() << getCount() << " entries from " << getStart()
                         << " end past 2^63, outside the offset table's "
                         << entries;
  if (*end > entries)
    return emitOpError() << "entries [" << getStart() << ", " << *end
                         << ") are outside the offset table's " << entries;
  unsigned bits = getBits();
  Word word = getWord();
  if (word.isConstant())
    return emitOpError("a constant belongs in the blob, not in a patch group");
  if (word.shift >= 64)
    return emitOpError() << "word shifts by " << word.shift << ", not below 64";
  // An address's offset is into the input the table slot names, not into
  // the table: there is nothing to bound it by here.
  if (word.kind == WordKind::address) {
    // Its one operand is the source: printing and the executable's
    // conversion read the word's operands by `ref`.
    if (word.ref != 0 || word.lanes != 1)
      return emitOpError() << "word refers to operands [" << word.ref << ", "
                           << int64_t(word.ref) + word.lanes
                           << ") but there is 1 (its source)";
    if (failed(verifyTable(*this, getSource(), PlaceholderTag::inputs, 64,
                           "an address patch's source")))
      return failure();
  } else if (failed(OperandFacts(getSource()).verifyWord(*this, word, 0))) {
    return failure();
  }
  bool half = word.part != WordPart::full;
  if (half != (bits == 32) &&
      !(word.kind == WordKind::variable &&
        getSource().getType().getIntOrFloatBitWidth() <= bits))
    return emitOpError() << "writes a " << (half ? "32-bit half" : "64-bit")
                         << " word as " << bits << " bits";
  return success();
}
