//===- ExecutableWriter.cpp - Ops' records in an executable file ----------===//
//
// What each op of an hcq.executable or hcq.submitter writes into the
// runtime's executable: its value, step or record (HCQ/Runtime/Executable.h,
// docs/executable-format.md). The conversion walks the body and asks.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/ExecutableWriter.h"

#include "llvm/Support/Endian.h"

namespace rt = hcq::runtime;
using namespace mlir;
using namespace hcq;

std::vector<rt::DeviceId> hcq::toRuntimeDevices(DevicesAttr devices) {
  std::vector<rt::DeviceId> result;
  for (DeviceAttr d : devices.getDevices())
    result.push_back({d.getKind(), d.getIndex()});
  return result;
}

FailureOr<rt::Word>
hcq::toRuntimeWord(const Word &word, ValueRange refs,
                   function_ref<FailureOr<uint32_t>(Value)> index) {
  // The word is the file's (abi::Word); its operands become indices.
  rt::Word result{static_cast<const abi::Word &>(word), {}};
  for (Value ref : refs.slice(word.ref, word.lanes)) {
    FailureOr<uint32_t> i = index(ref);
    if (failed(i))
      return failure();
    result.refs.push_back(*i);
  }
  return result;
}

FailureOr<std::vector<uint32_t>>
ExecutableWriter::getValueIndices(ValueRange values) {
  std::vector<uint32_t> result;
  for (Value v : values) {
    FailureOr<uint32_t> i = getValueIndex(v);
    if (failed(i))
      return failure();
    result.push_back(*i);
  }
  return result;
}

FailureOr<rt::Word> ExecutableWriter::getWord(const Word &word,
                                              ValueRange refs) {
  return toRuntimeWord(word, refs, [&](Value v) { return getValueIndex(v); });
}

bool hcq::isLinkTimeMemory(Value value) {
  return isa<LinearType>(value.getType()) ||
         value.getDefiningOp<LinkTimeMemoryOpInterface>();
}

//===----------------------------------------------------------------------===//
// Link-time memory
//===----------------------------------------------------------------------===//

LogicalResult PlaceholderOp::writeValue(ExecutableWriter &, rt::Value &value) {
  value.kind = rt::ValueKind::Placeholder;
  value.tag = toAbi<rt::PlaceholderTag>(getTag());
  value.slot = getSlot();
  value.isVolatile = getIsVolatile();
  return success();
}

LogicalResult AllocOp::writeValue(ExecutableWriter &, rt::Value &value) {
  value.kind = rt::ValueKind::Alloc;
  return success();
}

LogicalResult ProgramOp::writeValue(ExecutableWriter &writer,
                                    rt::Value &value) {
  FailureOr<uint32_t> kernel = writer.getKernelIndex(getKernelAttr(), *this);
  if (failed(kernel))
    return failure();
  value.kind = rt::ValueKind::Program;
  value.index = *kernel;
  return success();
}

//===----------------------------------------------------------------------===//
// Submitter steps
//===----------------------------------------------------------------------===//

void FenceOp::writeStep(rt::Step &step, function_ref<uint32_t(Value)>) {
  step.kind = rt::StepKind::Fence;
}

void ResetOp::writeStep(rt::Step &step, function_ref<uint32_t(Value)>) {
  step.kind = rt::StepKind::Reset;
}

void FinalizeOp::writeStep(rt::Step &step, function_ref<uint32_t(Value)>) {
  step.kind = rt::StepKind::Finalize;
}

void PatchGroupOp::writeStep(rt::Step &step,
                             function_ref<uint32_t(Value)> argIndex) {
  step.kind = rt::StepKind::PatchGroup;
  step.patch.start = static_cast<uint64_t>(getStart());
  step.patch.count = static_cast<uint64_t>(getCount());
  step.patch.bits = getBits();
  // A submitter's operands are its arguments, which always have a number.
  step.patch.word = *toRuntimeWord(getWord(), getSource(), [&](Value v) {
    return FailureOr<uint32_t>(argIndex(v));
  });
}

void PushOp::writeStep(rt::Step &step, function_ref<uint32_t(Value)>) {
  step.kind = rt::StepKind::Push;
  step.push.bytes = static_cast<uint64_t>(getSize());
  step.push.mode = toAbi<rt::PushMode>(getMode());
  step.push.queue = toRuntimeQueue(getQueue());
  step.push.devices = toRuntimeDevices(getDevices());
}

//===----------------------------------------------------------------------===//
// Executable records
//===----------------------------------------------------------------------===//

LogicalResult BlobOp::writeRecord(ExecutableWriter &writer) {
  rt::Blob blob;
  FailureOr<uint32_t> target = writer.getValueIndex(getTarget());
  if (failed(target))
    return failure();
  blob.target = *target;
  // The file's blobs are little-endian dwords.
  blob.data.resize(getData().size() * 4);
  for (auto [i, dword] : llvm::enumerate(getData()))
    llvm::support::endian::write32le(&blob.data[4 * i], dword);
  for (const SymbolEntry &patch : getPatches()) {
    FailureOr<rt::Word> word = writer.getWord(patch.word, getRefs());
    if (failed(word))
      return failure();
    blob.patches.push_back({patch.at, std::move(*word)});
  }
  writer.getExecutable().blobs.push_back(std::move(blob));
  return success();
}

LogicalResult InputsOp::writeRecord(ExecutableWriter &writer) {
  rt::InputsTable table;
  FailureOr<uint32_t> index = writer.getValueIndex(getTable());
  if (failed(index))
    return failure();
  table.table = *index;
  for (auto [input, lane] : llvm::zip(getInputs(), getLanes())) {
    FailureOr<uint32_t> i = writer.getValueIndex(input);
    if (failed(i))
      return failure();
    table.slots.push_back({*i, static_cast<uint32_t>(lane)});
  }
  writer.getExecutable().inputs.push_back(std::move(table));
  return success();
}

LogicalResult ProfileOp::writeRecord(ExecutableWriter &writer) {
  FailureOr<uint32_t> start = writer.getValueIndex(getStart());
  if (failed(start))
    return failure();
  FailureOr<uint32_t> end = writer.getValueIndex(getEnd());
  if (failed(end))
    return failure();
  writer.getExecutable().profile.push_back(
      {getName().str(), *start, *end, toRuntimeQueue(getQueue())});
  return success();
}

/// Appends a host-plan step of `kind` whose operands are `operands`;
/// `fill` adds what the kind carries.
static LogicalResult
writePlanStep(ExecutableWriter &writer, rt::PlanStepKind kind,
              ValueRange operands,
              function_ref<void(rt::PlanStep &)> fill = nullptr) {
  rt::PlanStep step;
  step.kind = kind;
  FailureOr<std::vector<uint32_t>> indices = writer.getValueIndices(operands);
  if (failed(indices))
    return failure();
  step.operands = std::move(*indices);
  if (fill)
    fill(step);
  writer.getExecutable().plan.push_back(std::move(step));
  return success();
}

LogicalResult CallOp::writeRecord(ExecutableWriter &writer) {
  FailureOr<uint32_t> callee = writer.getSubmitterIndex(getCalleeAttr(), *this);
  if (failed(callee))
    return failure();
  return writePlanStep(writer, rt::PlanStepKind::Call, getOperands(),
                       [&](rt::PlanStep &step) { step.callee = *callee; });
}

LogicalResult HostCallOp::writeRecord(ExecutableWriter &writer) {
  return writePlanStep(
      writer, rt::PlanStepKind::HostCall, getOperands(),
      [&](rt::PlanStep &step) { step.name = getCallee().str(); });
}

LogicalResult CopyOp::writeRecord(ExecutableWriter &writer) {
  // Operand 0 is the destination, 1 the source (rt::CopyRanges).
  return writePlanStep(writer, rt::PlanStepKind::Copy, {getDst(), getSrc()},
                       [&](rt::PlanStep &step) {
                         step.copy = {static_cast<uint64_t>(getDstOffset()),
                                      static_cast<uint64_t>(getDstSize()),
                                      static_cast<uint64_t>(getSrcOffset()),
                                      static_cast<uint64_t>(getSrcSize())};
                       });
}

LogicalResult LaunchOp::writeRecord(ExecutableWriter &writer) {
  FailureOr<uint32_t> kernel = writer.getKernelIndex(getKernelAttr(), *this);
  if (failed(kernel))
    return failure();
  return writePlanStep(writer, rt::PlanStepKind::Launch, getOperands(),
                       [&](rt::PlanStep &step) {
                         step.callee = *kernel;
                         for (auto [i, g] : llvm::enumerate(getGlobalSize()))
                           step.grid.global[i] = static_cast<uint64_t>(g);
                         for (auto [i, l] : llvm::enumerate(getLocalSize()))
                           step.grid.local[i] = static_cast<uint64_t>(l);
                       });
}
