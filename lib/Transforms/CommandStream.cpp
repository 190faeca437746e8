//===- CommandStream.cpp - Building hcq.cmds streams ----------------------===//

#include "HCQ/Transforms/CommandStream.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace hcq {

void CommandStream::constants(ArrayRef<uint32_t> values) {
  for (uint32_t value : values)
    constant(value);
}

Word WordOperands::word(WordKind kind, uint64_t value, ArrayRef<Value> lanes,
                        WordPart part, uint32_t shift, uint64_t orBits) {
  // One operand when every lane names the same value.
  ArrayRef<Value> run = lanes;
  if (llvm::all_equal(lanes))
    run = lanes.take_front();
  int32_t ref;
  if (run.size() == 1) {
    // Most words name one value: no key to build.
    auto [it, inserted] = singles.try_emplace(run.front(), refs.size());
    if (inserted)
      refs.push_back(run.front());
    ref = it->second;
  } else {
    std::vector<const void *> key;
    for (Value v : run)
      key.push_back(v.getAsOpaquePointer());
    auto [it, inserted] = runs.try_emplace(key, refs.size());
    if (inserted)
      refs.append(run.begin(), run.end());
    ref = it->second;
  }
  return Word{
      kind, value, ref, part, shift, orBits, static_cast<uint32_t>(run.size())};
}

Word CommandStream::word(WordKind kind, uint64_t value, ArrayRef<Value> lanes,
                         WordPart part, uint32_t shift, uint64_t orBits) {
  Word w = operands.word(kind, value, lanes, part, shift, orBits);
  words.push(w);
  return w;
}

Word CommandStream::address(ArrayRef<Value> lanes, WordPart part,
                            uint64_t offset, uint32_t shift, uint64_t orBits) {
  // Views are not memory the link knows: address their base instead. Every
  // lane's view has the same offset when the lanes share one value.
  if (lanes.size() == 1) {
    BufferBase base = getBufferBase(lanes.front());
    return word(WordKind::address, offset + base.byteOffset, base.base, part,
                shift, orBits);
  }
  SmallVector<Value> bases;
  int64_t viewOffset = 0;
  for (Value lane : lanes) {
    BufferBase base = getBufferBase(lane);
    bases.push_back(base.base);
    viewOffset = base.byteOffset;
  }
  return word(WordKind::address, offset + viewOffset, bases, part, shift,
              orBits);
}

void CommandStream::addressLoHi(ArrayRef<Value> lanes, uint64_t offset,
                                uint32_t shift) {
  // The lo word's operands serve the hi word too: bases and operand found
  // once.
  Word hi = address(lanes, WordPart::lo, offset, shift);
  hi.part = WordPart::hi;
  words.push(hi);
}

void CommandStream::variable(Value value, WordPart part) {
  // A constant scalar folds into the stream: no run-time patch.
  APInt bits;
  APFloat real(0.0);
  bool isFloat = matchPattern(value, m_ConstantFloat(&real));
  if (isFloat)
    bits = real.bitcastToAPInt();
  if (isFloat || matchPattern(value, m_ConstantInt(&bits))) {
    // An integer sign-extended, as a bound variable is; a float's bits.
    uint64_t v = bits.getBitWidth() >= 64 || isFloat
                     ? bits.getZExtValue()
                     : static_cast<uint64_t>(bits.getSExtValue());
    if (part == WordPart::lo ||
        (part == WordPart::full && bits.getBitWidth() <= 32))
      v &= 0xFFFFFFFF;
    else if (part == WordPart::hi)
      v >>= 32;
    return constant(v);
  }
  word(WordKind::variable, 0, value, part, 0, 0);
}

void CommandStream::load(ArrayRef<Value> lanes, WordPart part, int64_t addend) {
  word(WordKind::load, static_cast<uint64_t>(addend), lanes, part, 0, 0);
}

void CommandStream::signalValue(Value valueBuffer, int64_t value,
                                WordPart part) {
  if (valueBuffer)
    return load(valueBuffer, part, value);
  auto bits = static_cast<uint64_t>(value);
  constant(part == WordPart::hi   ? bits >> 32
           : part == WordPart::lo ? bits & 0xFFFFFFFF
                                  : bits);
}

CmdsOp CommandStream::buildEmpty(OpBuilder &builder, Location loc,
                                 PlaceholderTag tag, unsigned bits) {
  Type result = tag == PlaceholderTag::cmdbuf
                    ? Type()
                    : LinearType::get(builder.getContext());
  return CmdsOp::create(builder, loc, result ? TypeRange{result} : TypeRange{},
                        tag, bits, ArrayRef<int32_t>{}, ArrayRef<int64_t>{},
                        ArrayRef<int32_t>{}, ValueRange{});
}

void CommandStream::moveInto(CmdsOp op) && {
  assert(op.getWordBits() == words.bits() && "a stream of another width");
  op->setOperands(operands.values());
  CmdsOp::Properties &props = op.getProperties();
  props.words = std::move(words.units);
  props.symbols = std::move(words.symbols);
  props.segments = std::move(words.segments);
}

CmdsOp CommandStream::build(OpBuilder &builder, Location loc,
                            PlaceholderTag tag) && {
  CmdsOp op = buildEmpty(builder, loc, tag, words.bits());
  std::move(*this).moveInto(op);
  return op;
}

uint64_t IndirectStream::beginSegment(OpBuilder &builder, Location loc) {
  if (!op) {
    words.emplace(bits);
    op = CommandStream::buildEmpty(builder, loc, tag, bits);
  }
  return words->beginSegment();
}

void IndirectStream::finish() {
  if (op)
    std::move(*words).moveInto(op);
  words.reset();
  op = {};
}

} // namespace hcq
