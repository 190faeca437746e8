//===- ExecutableConversion.cpp - hcq.executable into its runtime form ----===//

#include "HCQ/Transforms/ExecutableConversion.h"

#include "HCQ/Dialect/ExecutableWriter.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include "llvm/ADT/StringMap.h"

namespace rt = hcq::runtime;
using namespace mlir;
using namespace hcq;

namespace {

/// Builds the runtime's form of one executable: the ops write their own
/// records (ExecutableWriter.h); this numbers what they refer to.
class Converter : public ExecutableWriter {
public:
  Converter(ExecutableOp exe, SymbolTableCollection &symbols)
      : exe(exe), symbols(symbols) {}

  FailureOr<rt::Executable> convert();
  const DenseMap<Value, uint32_t> &valueIndices() const { return values; }

  FailureOr<uint32_t> getValueIndex(Value v) override;
  FailureOr<uint32_t> getKernelIndex(FlatSymbolRefAttr name,
                                     Operation *user) override;
  FailureOr<uint32_t> getSubmitterIndex(FlatSymbolRefAttr name,
                                        Operation *user) override;

private:
  ExecutableOp exe;
  SymbolTableCollection &symbols;
  DenseMap<Value, uint32_t> values;
  DenseMap<Operation *, uint32_t> kernels, submitters;
  llvm::StringMap<uint32_t> images;      // by content
  llvm::StringMap<uint32_t> hostObjects; // by content
};

FailureOr<uint32_t> Converter::getKernelIndex(FlatSymbolRefAttr name,
                                              Operation *user) {
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

FailureOr<uint32_t> Converter::getValueIndex(Value v) {
  auto it = values.find(v);
  if (it != values.end())
    return it->second;
  rt::Value result;
  if (auto arg = dyn_cast<BlockArgument>(v)) {
    result.index = arg.getArgNumber();
    if (auto buffer = dyn_cast<BufferType>(v.getType())) {
      result.kind = rt::ValueKind::Input;
      result.bytes = buffer.getByteSize();
      result.devices = toRuntimeDevices(buffer.getDevices());
    } else {
      result.kind = rt::ValueKind::Variable;
      result.bytes = v.getType().getIntOrFloatBitWidth();
    }
  } else {
    auto buffer = cast<BufferType>(v.getType());
    result.bytes = buffer.getByteSize();
    result.devices = toRuntimeDevices(buffer.getDevices());
    Operation *def = v.getDefiningOp();
    auto memory = dyn_cast<LinkTimeMemoryOpInterface>(def);
    if (!memory)
      return def->emitOpError("cannot be written to an executable file");
    if (failed(memory.writeValue(*this, result)))
      return failure();
  }
  uint32_t index = out.values.size();
  out.values.push_back(std::move(result));
  values[v] = index;
  return index;
}

FailureOr<uint32_t> Converter::getSubmitterIndex(FlatSymbolRefAttr name,
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
  // A submitter holds only steps (its verifier says so).
  for (auto step : op.getBody().front().getOps<SubmitterStepOpInterface>()) {
    rt::Step &s = sub.steps.emplace_back();
    s.operands = args(step->getOperands());
    step.writeStep(s, arg);
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
  for (Operation &op : exe.getBody().front())
    if (auto record = dyn_cast<ExecutableRecordOpInterface>(op))
      if (failed(record.writeRecord(*this)))
        return failure();
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
