//===- ExecutableConversion.cpp - hcq.executable into its runtime form ----===//

#include "HCQ/Transforms/ExecutableConversion.h"

#include "HCQ/Target/AMD/CodeObject.h"

#include "llvm/ADT/StringMap.h"

namespace rt = hcq::runtime;
using namespace mlir;
using namespace hcq;

namespace {

std::vector<rt::DeviceId> devicesOf(DevicesAttr devices) {
  std::vector<rt::DeviceId> result;
  for (DeviceAttr d : devices.getDevices())
    result.push_back({d.getKind(), d.getIndex()});
  return result;
}

/// An ODS enum as the ABI's (HCQDialect.cpp asserts they agree).
template <typename AbiEnum, typename OdsEnum> AbiEnum toAbi(OdsEnum value) {
  return static_cast<AbiEnum>(static_cast<uint32_t>(value));
}

QueueName queueOf(QueueAttr q) { return {q.getKind(), q.getIndex()}; }

/// Builds the runtime's form of one executable.
class Converter {
public:
  Converter(ExecutableOp exe, SymbolTableCollection &symbols)
      : exe(exe), symbols(symbols) {}

  FailureOr<rt::Executable> convert();
  const DenseMap<Value, uint32_t> &valueIndices() const { return values; }

private:
  FailureOr<uint32_t> value(Value v);
  FailureOr<uint32_t> kernel(FlatSymbolRefAttr name, Operation *user);
  FailureOr<uint32_t> submitter(FlatSymbolRefAttr name, Operation *user);
  rt::Word word(const Word &w, ValueRange refs,
                llvm::function_ref<uint32_t(Value)> index);

  ExecutableOp exe;
  SymbolTableCollection &symbols;
  rt::Executable out;
  DenseMap<Value, uint32_t> values;
  DenseMap<Operation *, uint32_t> kernels, submitters;
  llvm::StringMap<uint32_t> images;      // by content
  llvm::StringMap<uint32_t> hostObjects; // by content
};

FailureOr<uint32_t> Converter::kernel(FlatSymbolRefAttr name, Operation *user) {
  auto op = symbols.lookupNearestSymbolFrom<KernelOp>(user, name);
  // A kernel that failed to convert is reported once, at its first use.
  constexpr uint32_t FAILED = ~0u;
  auto [it, inserted] = kernels.try_emplace(op, out.kernels.size());
  if (!inserted) {
    if (it->second == FAILED)
      return failure();
    return it->second;
  }
  rt::Kernel k;
  k.name = op.getSymName().str();
  k.target = toAbi<rt::KernelTarget>(op.getTarget());
  k.symbol = op.getSymbol().value_or("").str();
  k.library = op.getLibrary().value_or("").str();
  if (op.getTarget() == KernelTarget::amd) {
    // The runtime gets the loaded image and the descriptor's facts, read
    // here once: loading parses no ELF.
    StringRef code = op.getCodeObjectBytes().value_or("");
    hcq::Expected<amd::KernelInfo> info = amd::readKernel(code, k.symbol);
    if (!info) {
      it->second = FAILED;
      return op.emitOpError()
             << "cannot be read: " << hcq::toString(info.takeError());
    }
    auto [image, added] = images.try_emplace(
        StringRef(reinterpret_cast<const char *>(info->image.data()),
                  info->image.size()),
        out.images.size());
    if (added)
      out.images.push_back(info->image);
    k.amd = rt::AMDKernelFacts::of(*info, image->second);
  }
  if (std::optional<StringRef> object = op.getHostObjectBytes()) {
    auto [index, added] =
        hostObjects.try_emplace(*object, out.hostObjects.size());
    if (added)
      out.hostObjects.push_back(
          std::vector<uint8_t>(object->bytes_begin(), object->bytes_end()));
    k.hostObject = index->second;
  }
  it->second = out.kernels.size();
  out.kernels.push_back(std::move(k));
  return it->second;
}

FailureOr<uint32_t> Converter::value(Value v) {
  auto it = values.find(v);
  if (it != values.end())
    return it->second;
  rt::Value result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    result.index = arg.getArgNumber();
    if (auto buffer = dyn_cast<BufferType>(v.getType())) {
      result.kind = rt::ValueKind::Input;
      result.bytes = buffer.getByteSize();
      result.devices = devicesOf(buffer.getDevices());
    } else {
      result.kind = rt::ValueKind::Variable;
      result.bytes = v.getType().getIntOrFloatBitWidth();
    }
  } else {
    auto buffer = cast<BufferType>(v.getType());
    result.bytes = buffer.getByteSize();
    result.devices = devicesOf(buffer.getDevices());
    Operation *def = v.getDefiningOp();
    if (auto p = dyn_cast<PlaceholderOp>(def)) {
      result.kind = rt::ValueKind::Placeholder;
      result.tag = toAbi<rt::PlaceholderTag>(p.getTag());
      result.slot = p.getSlot();
      result.isVolatile = p.getIsVolatile();
    } else if (isa<AllocOp>(def)) {
      result.kind = rt::ValueKind::Alloc;
    } else if (auto program = dyn_cast<ProgramOp>(def)) {
      FailureOr<uint32_t> k = kernel(program.getKernelAttr(), program);
      if (failed(k))
        return failure();
      result.kind = rt::ValueKind::Program;
      result.index = *k;
    } else {
      return def->emitOpError("cannot be written to an executable file");
    }
  }
  uint32_t index = out.values.size();
  out.values.push_back(std::move(result));
  values[v] = index;
  return index;
}

rt::Word Converter::word(const Word &w, ValueRange refs,
                         llvm::function_ref<uint32_t(Value)> index) {
  // The word is the file's (abi::Word); its operands become value indices.
  rt::Word result{static_cast<const abi::Word &>(w), {}};
  for (Value ref : refs.slice(w.ref, w.lanes))
    result.refs.push_back(index(ref));
  return result;
}

FailureOr<uint32_t> Converter::submitter(FlatSymbolRefAttr name,
                                         Operation *user) {
  auto op = symbols.lookupNearestSymbolFrom<SubmitterOp>(user, name);
  auto [it, inserted] = submitters.try_emplace(op, out.submitters.size());
  if (!inserted)
    return it->second;
  rt::Submitter sub;
  sub.numArgs = op.getNumArguments();
  auto arg = [](Value v) {
    return static_cast<uint32_t>(cast<BlockArgument>(v).getArgNumber());
  };
  auto args = [&](ValueRange vs) {
    std::vector<uint32_t> result;
    for (Value v : vs)
      result.push_back(arg(v));
    return result;
  };
  for (Operation &op : op.getBody().front()) {
    rt::Step step;
    if (auto fence = dyn_cast<FenceOp>(op)) {
      step.kind = rt::StepKind::Fence;
      step.operands = args(fence->getOperands());
    } else if (auto reset = dyn_cast<ResetOp>(op)) {
      step.kind = rt::StepKind::Reset;
      step.operands = args(reset->getOperands());
    } else if (auto finalize = dyn_cast<FinalizeOp>(op)) {
      step.kind = rt::StepKind::Finalize;
      step.operands = args(finalize->getOperands());
    } else if (auto group = dyn_cast<PatchGroupOp>(op)) {
      step.kind = rt::StepKind::PatchGroup;
      step.operands = args(group->getOperands());
      step.patch.start = static_cast<uint64_t>(group.getStart());
      step.patch.count = static_cast<uint64_t>(group.getCount());
      step.patch.bits = group.getBits();
      step.patch.word = word(group.getWord(), group.getSource(), arg);
    } else if (auto push = dyn_cast<PushOp>(op)) {
      step.kind = rt::StepKind::Push;
      step.operands = args(push->getOperands());
      step.push.bytes = static_cast<uint64_t>(push.getSize());
      step.push.mode = toAbi<rt::PushMode>(push.getMode());
      step.push.queue = queueOf(push.getQueue());
      step.push.devices = devicesOf(push.getDevices());
    }
    sub.steps.push_back(std::move(step));
  }
  uint32_t index = out.submitters.size();
  out.submitters.push_back(std::move(sub));
  it->second = index;
  return index;
}

FailureOr<rt::Executable> Converter::convert() {
  out.name = exe.getSymName().str();
  out.numArgs = exe.getNumArguments();
  // What each argument is, as its author wrote it.
  for (auto [i, type] : llvm::enumerate(exe.getArgumentTypes())) {
    rt::ArgumentInfo &a = out.arguments.emplace_back();
    a.name = exe.getArgName(i).str();
    Type element = type;
    if (auto buffer = dyn_cast<BufferType>(type)) {
      a.isBuffer = true;
      a.count = buffer.getNumElements();
      element = buffer.getElementType();
    }
    llvm::raw_string_ostream os(a.elementType);
    element.print(os);
    if (auto access = exe.getArgAttrOfType<StringAttr>(i, ACCESS_ATTR))
      a.access = llvm::StringSwitch<rt::ArgumentAccess>(access.getValue())
                     .Case("read", rt::ArgumentAccess::read)
                     .Case("write", rt::ArgumentAccess::write)
                     .Default(rt::ArgumentAccess::readwrite);
  }
  bool failedToIndex = false;
  auto index = [&](Value v) -> uint32_t {
    FailureOr<uint32_t> i = value(v);
    failedToIndex |= failed(i);
    return succeeded(i) ? *i : 0;
  };
  auto indices = [&](ValueRange vs) {
    std::vector<uint32_t> result;
    for (Value v : vs)
      result.push_back(index(v));
    return result;
  };
  for (Operation &op : exe.getBody().front()) {
    if (auto blob = dyn_cast<BlobOp>(op)) {
      rt::Blob b;
      b.target = index(blob.getTarget());
      for (int32_t dword : blob.getData())
        for (int i = 0; i < 4; ++i)
          b.data.push_back(static_cast<uint32_t>(dword) >> (8 * i));
      for (const SymbolEntry &patch : blob.getPatches())
        b.patches.push_back(
            {patch.at, word(patch.word, blob.getRefs(), index)});
      out.blobs.push_back(std::move(b));
    } else if (auto inputs = dyn_cast<InputsOp>(op)) {
      rt::InputsTable t;
      t.table = index(inputs.getTable());
      for (auto [input, lane] :
           llvm::zip(inputs.getInputs(), inputs.getLanes()))
        t.slots.push_back({index(input), static_cast<uint32_t>(lane)});
      out.inputs.push_back(std::move(t));
    } else if (auto call = dyn_cast<CallOp>(op)) {
      FailureOr<uint32_t> s = submitter(call.getCalleeAttr(), call);
      if (failed(s))
        return failure();
      rt::PlanStep step;
      step.kind = rt::PlanStepKind::Call;
      step.callee = *s;
      step.operands = indices(call.getOperands());
      out.plan.push_back(std::move(step));
    } else if (auto profile = dyn_cast<ProfileOp>(op)) {
      out.profile.push_back({profile.getName().str(), index(profile.getStart()),
                             index(profile.getEnd()),
                             queueOf(profile.getQueue())});
    } else if (auto host = dyn_cast<HostCallOp>(op)) {
      rt::PlanStep step;
      step.kind = rt::PlanStepKind::HostCall;
      step.name = host.getCallee().str();
      step.operands = indices(host.getOperands());
      out.plan.push_back(std::move(step));
    } else if (auto copy = dyn_cast<CopyOp>(op)) {
      rt::PlanStep step;
      step.kind = rt::PlanStepKind::Copy;
      step.operands = indices({copy.getDst(), copy.getSrc()});
      step.copy = {static_cast<uint64_t>(copy.getDstOffset()),
                   static_cast<uint64_t>(copy.getDstSize()),
                   static_cast<uint64_t>(copy.getSrcOffset()),
                   static_cast<uint64_t>(copy.getSrcSize())};
      out.plan.push_back(std::move(step));
    } else if (auto launch = dyn_cast<LaunchOp>(op)) {
      FailureOr<uint32_t> k = kernel(launch.getKernelAttr(), launch);
      if (failed(k))
        return failure();
      rt::PlanStep step;
      step.kind = rt::PlanStepKind::Launch;
      step.callee = *k;
      step.operands = indices(launch->getOperands());
      for (auto [i, g] : llvm::enumerate(launch.getGlobalSize()))
        step.grid.global[i] = static_cast<uint64_t>(g);
      for (auto [i, l] : llvm::enumerate(launch.getLocalSize()))
        step.grid.local[i] = static_cast<uint64_t>(l);
      out.plan.push_back(std::move(step));
    }
    if (failedToIndex)
      return failure();
  }
  return std::move(out);
}

} // namespace

FailureOr<rt::Executable>
hcq::convertExecutable(ExecutableOp exe, SymbolTableCollection &symbols,
                       DenseMap<Value, uint32_t> *valueIndices) {
  Converter converter(exe, symbols);
  FailureOr<rt::Executable> result = converter.convert();
  if (succeeded(result) && valueIndices)
    *valueIndices = converter.valueIndices();
  return result;
}
