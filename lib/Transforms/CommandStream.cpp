//===- CommandStream.cpp - Building hcq.cmds streams ----------------------===//

#include "HCQ/Transforms/CommandStream.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Matchers.h"

using namespace mlir;

namespace hcq {

void CommandStream::constants(ArrayRef<uint32_t> values) {
  words.pushConstants(values);
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

Word WordOperands::deferredWord(WordKind kind, uint64_t value, uint32_t id,
                                WordPart part, uint32_t shift,
                                uint64_t orBits) {
  auto [it, inserted] = deferred.try_emplace(id, refs.size());
  if (inserted) {
    refs.push_back(Value());
    deferredRefs.push_back({it->second, id});
  }
  return Word{kind, value, it->second, part, shift, orBits, /*lanes=*/1};
}

uint32_t DeferredRefs::add(const DeferredRef &ref, const void *key,
                           int64_t bytesKey) {
  auto [it, inserted] =
      ids.try_emplace({unsigned(ref.kind) | unsigned(ref.tag) << 8, ref.slot,
                       key, ref.kernel.getAsOpaquePointer(), bytesKey},
                      refs.size());
  if (inserted)
    refs.push_back(ref);
  return it->second;
}

uint32_t DeferredRefs::placeholder(PlaceholderTag tag, int64_t slot,
                                   DevicesAttr devices, int64_t bytes) {
  DeferredRef ref;
  ref.kind = DeferredRef::Kind::placeholder;
  ref.tag = tag;
  ref.slot = slot;
  ref.devices = devices;
  ref.bytes = bytes;
  return add(ref, devices.getAsOpaquePointer(), bytes);
}

uint32_t DeferredRefs::signal(PlaceholderTag tag, int64_t slot,
                              DevicesAttr devices) {
  DeferredRef ref;
  ref.kind = DeferredRef::Kind::signal;
  ref.tag = tag;
  ref.slot = slot;
  ref.devices = devices;
  return add(ref, devices.getAsOpaquePointer(), 0);
}

uint32_t DeferredRefs::program(FlatSymbolRefAttr kernel, DevicesAttr devices,
                               int64_t bytes) {
  DeferredRef ref;
  ref.kind = DeferredRef::Kind::program;
  ref.devices = devices;
  ref.kernel = kernel;
  ref.bytes = bytes;
  // One program per kernel and devices, as the placeholder table keeps.
  return add(ref, devices.getAsOpaquePointer(), 0);
}

uint32_t DeferredRefs::stream(unsigned index) {
  DeferredRef ref;
  ref.kind = DeferredRef::Kind::stream;
  ref.stream = index;
  return add(ref, nullptr, index);
}

SmallVector<DeferredRef> DeferredRefs::take() {
  ids.clear();
  return std::exchange(refs, {});
}

Word CommandStream::word(WordKind kind, uint64_t value, ArrayRef<Value> lanes,
                         WordPart part, uint32_t shift, uint64_t orBits) {
  Word w = operands.word(kind, value, lanes, part, shift, orBits);
  words.push(w);
  return w;
}

Word CommandStream::address(ArrayRef<Value> lanes, WordPart part,
                            uint64_t offset, uint32_t shift, uint64_t orBits) {
  Word w = addressWord(lanes, part, offset, shift, orBits);
  words.push(w);
  return w;
}

Word CommandStream::addressWord(ArrayRef<Value> lanes, WordPart part,
                                uint64_t offset, uint32_t shift,
                                uint64_t orBits) {
  // Views are not memory the link knows: address their base instead. Every
  // lane's view has the same offset when the lanes share one value.
  if (lanes.size() == 1) {
    BufferBase base = getBufferBase(lanes.front());
    return operands.word(WordKind::address, offset + base.byteOffset,
                         base.base, part, shift, orBits);
  }
  SmallVector<Value> bases;
  int64_t viewOffset = 0;
  for (Value lane : lanes) {
    BufferBase base = getBufferBase(lane);
    bases.push_back(base.base);
    viewOffset = base.byteOffset;
  }
  return operands.word(WordKind::address, offset + viewOffset, bases, part,
                       shift, orBits);
}

void CommandStream::addressLoHi(ArrayRef<Value> lanes, uint64_t offset,
                                uint32_t shift, uint32_t highBits) {
  // One word for both halves: bases and operand found once.
  words.pushHalves(addressWord(lanes, WordPart::full, offset, shift,
                               uint64_t(highBits) << 32));
}

void CommandStream::deferred(uint32_t id, WordPart part, uint64_t offset,
                             uint32_t shift, uint64_t orBits) {
  words.push(operands.deferredWord(WordKind::address, offset, id, part, shift,
                                   orBits));
}

void CommandStream::deferredLoHi(uint32_t id, uint64_t offset, uint32_t shift,
                                 uint32_t highBits) {
  words.pushHalves(operands.deferredWord(WordKind::address, offset, id,
                                         WordPart::full, shift,
                                         uint64_t(highBits) << 32));
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

EncodedStream CommandStream::take(PlaceholderTag tag, LocationAttr loc) && {
  EncodedStream stream(words.bits());
  stream.tag = tag;
  stream.loc = loc;
  stream.words = std::move(words);
  stream.refs = std::move(operands.refs);
  stream.deferredRefs = std::move(operands.deferredRefs);
  return stream;
}

std::pair<size_t, size_t> StreamSizer::estimate(size_t launches,
                                                size_t others) const {
  double words = 16, symbolic = 16;
  for (auto [kind, count] :
       {std::pair{OpKind::launch, launches}, {OpKind::other, others}}) {
    const Totals &t = totals[static_cast<size_t>(kind)];
    const Guess &guess = guesses[static_cast<size_t>(kind)];
    auto n = static_cast<double>(count);
    if (!t.ops) {
      words += guess.words * n;
      symbolic += guess.symbolic * n;
      continue;
    }
    // A sixteenth above the mean so far: a schedule's ops vary around it.
    double scale = n / static_cast<double>(t.ops) * (17.0 / 16.0);
    words += static_cast<double>(t.words) * scale;
    symbolic += static_cast<double>(t.symbolic) * scale;
  }
  return {static_cast<size_t>(words), static_cast<size_t>(symbolic)};
}

uint64_t IndirectStream::beginSegment(Location segmentLoc) {
  if (!words) {
    words.emplace(bits);
    loc = segmentLoc;
    auto [segments, count, symbolic] = reserved;
    words->reserve(count, symbolic);
    words->reserveSegments(segments);
  }
  return words->beginSegment();
}

std::optional<EncodedStream> IndirectStream::finish() {
  std::optional<EncodedStream> stream;
  if (words)
    stream = std::move(*words).take(tag, loc);
  words.reset();
  loc = {};
  reserved = {0, 0, 0};
  return stream;
}

} // namespace hcq
