//===- HCQDialect.cpp - HCQ dialect, attributes and types -----------------===//

#include "HCQ/Dialect/AsmUtils.h"
#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Runtime/ABI.h"
#include "HCQ/Target/AMD/Target.h"

#include "mlir/Bytecode/BytecodeImplementation.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"

using namespace mlir;
using namespace hcq;

#include "HCQ/Dialect/HCQAttrInterfaces.cpp.inc"
#include "HCQ/Dialect/HCQDialect.cpp.inc"
#include "HCQ/Dialect/HCQEnums.cpp.inc"
#include "HCQ/Dialect/HCQTargetKindInterface.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "HCQ/Dialect/HCQAttrs.cpp.inc"

#define GET_TYPEDEF_CLASSES
#include "HCQ/Dialect/HCQTypes.cpp.inc"

// The ODS enums are the executable file's (include/HCQ/Runtime/ABI.h): every
// case of each, and its extent, tied to the ABI header's.
#define HCQ_SAME_CASE(Enum, Case)                                              \
  static_assert(static_cast<uint32_t>(hcq::Enum::Case) ==                      \
                    static_cast<uint32_t>(abi::Enum::Case),                    \
                #Enum "::" #Case " differs from the ABI header's")
HCQ_SAME_CASE(PlaceholderTag, signal);
HCQ_SAME_CASE(PlaceholderTag, timeline_signal);
HCQ_SAME_CASE(PlaceholderTag, timeline_value);
HCQ_SAME_CASE(PlaceholderTag, epoch);
HCQ_SAME_CASE(PlaceholderTag, sentinel_signal);
HCQ_SAME_CASE(PlaceholderTag, timestamp);
HCQ_SAME_CASE(PlaceholderTag, staging);
HCQ_SAME_CASE(PlaceholderTag, cmdbuf);
HCQ_SAME_CASE(PlaceholderTag, kernargs);
HCQ_SAME_CASE(PlaceholderTag, program);
HCQ_SAME_CASE(PlaceholderTag, scratch);
HCQ_SAME_CASE(PlaceholderTag, inputs);
HCQ_SAME_CASE(PlaceholderTag, offtbl);
HCQ_SAME_CASE(PlaceholderTag, host_function);
HCQ_SAME_CASE(PlaceholderTag, event_mailbox);
HCQ_SAME_CASE(PlaceholderTag, interrupt_event);
static_assert(getMaxEnumValForPlaceholderTag() + 1 ==
              abi::NUM_PLACEHOLDER_TAGS);
HCQ_SAME_CASE(KernelTarget, cpu);
HCQ_SAME_CASE(KernelTarget, amd);
HCQ_SAME_CASE(KernelTarget, builtin);
static_assert(getMaxEnumValForKernelTarget() ==
              static_cast<uint32_t>(abi::KernelTarget::builtin));
HCQ_SAME_CASE(PushMode, pm4);
HCQ_SAME_CASE(PushMode, sdma);
HCQ_SAME_CASE(PushMode, cpu);
static_assert(getMaxEnumValForPushMode() ==
              static_cast<uint32_t>(abi::PushMode::cpu));
#undef HCQ_SAME_CASE

LogicalResult
AMDTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                      StringRef chip, uint32_t indirectBufferDwords) {
  if (!amd::lookupTarget(chip))
    return emitError() << "unknown AMD chip '" << chip << "' (expected "
                       << amd::listTargetNames() << ")";
  if (indirectBufferDwords < amd::pm4::IB_MIN_SPLIT_DWORDS ||
      indirectBufferDwords > amd::pm4::IB_MAX_DWORDS)
    return emitError() << "indirect_buffer_dwords " << indirectBufferDwords
                       << " is not in [" << amd::pm4::IB_MIN_SPLIT_DWORDS
                       << ", " << amd::pm4::IB_MAX_DWORDS << "]";
  return success();
}

LogicalResult
HostTargetAttr::verify(function_ref<InFlightDiagnostic()> emitError, int O,
                       StringRef triple, StringRef chip) {
  if (O < 0 || O > 3)
    return emitError() << "optimization level " << O << " is not 0, 1, 2 or 3";
  return success();
}

LogicalResult HCQDialect::verifyOperationAttribute(Operation *op,
                                                   NamedAttribute attribute) {
  // What hcq-attach-targets once set, before targets became the schedule's
  // and executable's own attribute: said by name rather than ignored.
  if (attribute.getName() == "hcq.targets")
    return op->emitError()
           << "'hcq.targets' is no longer read: a schedule or executable "
              "names its targets as `targets [...]` after its signature "
              "(its inherent 'targets' attribute)";
  return success();
}

LogicalResult HCQDialect::verifyRegionArgAttribute(Operation *op,
                                                   unsigned regionIndex,
                                                   unsigned argIndex,
                                                   NamedAttribute attribute) {
  // hcq.device on func.func arguments is convert-gpu-to-hcq's to check.
  if (attribute.getName() != ACCESS_ATTR)
    return success();
  auto value = dyn_cast<StringAttr>(attribute.getValue());
  if (!value ||
      !llvm::is_contained({"read", "write", "readwrite"}, value.getValue()))
    return op->emitError() << "argument #" << argIndex << "'s '" << ACCESS_ATTR
                           << "' must be \"read\", \"write\" or "
                              "\"readwrite\", got "
                           << attribute.getValue();
  if (!isa<BufferType>(
          op->getRegion(regionIndex).getArgument(argIndex).getType()))
    return op->emitError() << "argument #" << argIndex << " has '"
                           << ACCESS_ATTR << "' but is not a buffer";
  return success();
}

namespace {
/// Writes hcq's bytecode version (BYTECODE_VERSION) and reads it back, so a
/// file whose properties are encoded otherwise is refused by name, not
/// misread.
struct HCQBytecodeInterface : BytecodeDialectInterface {
  explicit HCQBytecodeInterface(Dialect *dialect)
      : BytecodeDialectInterface(dialect) {}

  void writeVersion(DialectBytecodeWriter &writer) const override {
    FailureOr<const DialectVersion *> asked =
        writer.getDialectVersion<HCQDialect>();
    writer.writeVarInt(succeeded(asked)
                           ? static_cast<const BytecodeVersion *>(*asked)->value
                           : BYTECODE_VERSION);
  }

  std::unique_ptr<DialectVersion>
  readVersion(DialectBytecodeReader &reader) const override {
    uint64_t version;
    if (failed(reader.readVarInt(version)))
      return nullptr;
    if (version != BYTECODE_VERSION) {
      reader.emitError() << "hcq bytecode version " << version
                         << ": this hcq reads version " << BYTECODE_VERSION
                         << " only";
      return nullptr;
    }
    return std::make_unique<BytecodeVersion>(version);
  }
};
} // namespace

void HCQDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "HCQ/Dialect/HCQAttrs.cpp.inc"
      >();
  addTypes<
#define GET_TYPEDEF_LIST
#include "HCQ/Dialect/HCQTypes.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "HCQ/Dialect/HCQOps.cpp.inc"
      >();
  // The targets' models live in the target libraries (lib/Target): a use of
  // one that was not registered is an error, not a target that is silently
  // not one.
  declarePromisedInterfaces<TargetAttrInterface, AMDTargetAttr,
                            CPUTargetAttr>();
  addInterfaces<HCQBytecodeInterface>();
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type HCQDialect::parseType(DialectAsmParser &parser) const {
  // The same text is the same type, unless it names an alias (`!x`, `#x`),
  // which another file may define otherwise: those are parsed every time.
  // A schedule of N calls spells its few buffer types some 3N times, and
  // parsing one (its shape, element type and device tuple, each uniqued)
  // was a fifth of reading a schedule's text. MLIR's parser puts its lexer
  // after the type's text once this returns, whether or not it was read.
  StringRef text = parser.getFullSymbolSpec();
  bool cacheable = !text.contains('!') && !text.contains('#');
  if (cacheable) {
    llvm::sys::SmartScopedLock<true> lock(parsedTypesMutex);
    if (Type type = parsedTypes.lookup(text))
      return type;
  }
  SMLoc loc = parser.getCurrentLocation();
  StringRef mnemonic;
  Type type;
  OptionalParseResult result = generatedTypeParser(parser, &mnemonic, type);
  if (!result.has_value()) {
    parser.emitError(loc) << "unknown type `" << mnemonic << "` in dialect `"
                          << getNamespace() << "`";
    return {};
  }
  if (succeeded(*result) && type && cacheable) {
    llvm::sys::SmartScopedLock<true> lock(parsedTypesMutex);
    parsedTypes.try_emplace(text, type);
  }
  return type;
}

void HCQDialect::printType(Type type, DialectAsmPrinter &printer) const {
  if (failed(generatedTypePrinter(type, printer)))
    llvm_unreachable("an hcq type without a printer");
}

//===----------------------------------------------------------------------===//
// Shared syntax
//===----------------------------------------------------------------------===//

/// Reads `KIND[:N]`, the common shape of device and queue names, as
/// text for HCQ/Base/Device.h's parsers: the one place that knows the
/// kinds and checks the index.
static ParseResult parseNameText(AsmParser &parser, std::string &text) {
  StringRef kind;
  if (parser.parseKeyword(&kind))
    return failure();
  text = kind.str();
  if (succeeded(parser.parseOptionalColon())) {
    int64_t index;
    if (parser.parseInteger(index))
      return failure();
    text += ":" + std::to_string(index);
  }
  return success();
}

/// Parses a name with `parse` (parseDeviceName or parseQueueName), its
/// error at `loc`.
template <typename NameT>
static FailureOr<NameT>
parseName(AsmParser &parser,
          hcq::Expected<NameT> (*parse)(std::string_view text)) {
  SMLoc loc = parser.getCurrentLocation();
  std::string text;
  if (parseNameText(parser, text))
    return failure();
  hcq::Expected<NameT> name = parse(text);
  if (!name)
    return parser.emitError(loc, hcq::toString(name.takeError()));
  return *name;
}

ParseResult hcq::parseDeviceName(AsmParser &parser, DeviceAttr &device) {
  FailureOr<DeviceName> name =
      parseName<DeviceName>(parser, &hcq::parseDeviceName);
  if (failed(name))
    return failure();
  device = DeviceAttr::get(parser.getContext(), name->kind, name->index);
  return success();
}

void hcq::printDeviceName(AsmPrinter &printer, DeviceAttr device) {
  printer << device.str();
}

ParseResult hcq::parseDeviceTuple(AsmParser &parser, DevicesAttr &devices) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<DeviceAttr> list;
  auto parseOne = [&]() -> ParseResult {
    return parseDeviceName(parser, list.emplace_back());
  };
  if (succeeded(parser.parseOptionalLSquare())) {
    // `[]` parses, so that the verifier names the problem.
    if (failed(parser.parseOptionalRSquare()) &&
        (parser.parseCommaSeparatedList(parseOne) || parser.parseRSquare()))
      return failure();
  } else if (parseOne()) {
    return failure();
  }
  devices = DevicesAttr::getChecked([&] { return parser.emitError(loc); },
                                    parser.getContext(), list);
  return success(static_cast<bool>(devices));
}

void hcq::printDeviceTuple(AsmPrinter &printer, DevicesAttr devices) {
  if (devices.size() == 1)
    return printDeviceName(printer, devices.front());
  printer << '[';
  llvm::interleaveComma(devices.getDevices(), printer,
                        [&](DeviceAttr d) { printDeviceName(printer, d); });
  printer << ']';
}

ParseResult hcq::parseQueueName(AsmParser &parser, QueueAttr &queue) {
  FailureOr<QueueName> name =
      parseName<QueueName>(parser, &hcq::parseQueueName);
  if (failed(name))
    return failure();
  queue = QueueAttr::get(parser.getContext(), name->kind, name->index);
  return success();
}

void hcq::printQueueName(AsmPrinter &printer, QueueAttr queue) {
  printer << queue.str();
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

Attribute DeviceAttr::parse(AsmParser &parser, Type) {
  DeviceAttr device;
  if (parser.parseLess() || parseDeviceName(parser, device) ||
      parser.parseGreater())
    return {};
  return device;
}

void DeviceAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printDeviceName(printer, *this);
  printer << '>';
}

Attribute DevicesAttr::parse(AsmParser &parser, Type) {
  DevicesAttr devices;
  if (parser.parseLess() || parseDeviceTuple(parser, devices) ||
      parser.parseGreater())
    return {};
  return devices;
}

void DevicesAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printDeviceTuple(printer, *this);
  printer << '>';
}

LogicalResult DevicesAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                  ArrayRef<DeviceAttr> devices) {
  if (devices.empty())
    return emitError() << "device tuple must not be empty";
  llvm::SmallPtrSet<Attribute, 4> seen;
  for (DeviceAttr device : devices)
    if (!seen.insert(device).second)
      return emitError() << "device " << device.str()
                         << " appears twice in a device tuple";
  return success();
}

bool DevicesAttr::allHCQ() const {
  return llvm::all_of(getDevices(), [](DeviceAttr d) { return d.isHCQ(); });
}

bool DevicesAttr::allOfKind(DeviceKind kind) const {
  return llvm::all_of(getDevices(),
                      [&](DeviceAttr d) { return d.getKind() == kind; });
}

bool DevicesAttr::intersects(DevicesAttr other) const {
  return llvm::any_of(getDevices(), [&](DeviceAttr d) {
    return llvm::is_contained(other.getDevices(), d);
  });
}

Attribute QueueAttr::parse(AsmParser &parser, Type) {
  QueueAttr queue;
  if (parser.parseLess() || parseQueueName(parser, queue) ||
      parser.parseGreater())
    return {};
  return queue;
}

void QueueAttr::print(AsmPrinter &printer) const {
  printer << '<';
  printQueueName(printer, *this);
  printer << '>';
}

//===----------------------------------------------------------------------===//
// Types
//===----------------------------------------------------------------------===//

Type BufferType::parse(AsmParser &parser) {
  SMLoc loc = parser.getCurrentLocation();
  SmallVector<int64_t, 1> shape;
  Type elementType;
  DevicesAttr devices;
  if (parser.parseLess())
    return {};
  // A leading minus is taken here so that the verifier, not the lexer, names
  // a negative count.
  bool negative = succeeded(parser.parseOptionalMinus());
  if (parser.parseDimensionList(shape, /*allowDynamic=*/false) ||
      parser.parseType(elementType) || parser.parseComma() ||
      parseDeviceTuple(parser, devices) || parser.parseGreater())
    return {};
  if (shape.size() != 1) {
    parser.emitError(loc, "buffer must have exactly one dimension, got ")
        << shape.size();
    return {};
  }
  int64_t numElements = negative ? -shape[0] : shape[0];
  return BufferType::getChecked([&] { return parser.emitError(loc); },
                                parser.getContext(), numElements, elementType,
                                devices);
}

void BufferType::print(AsmPrinter &printer) const {
  printer << '<' << getNumElements() << 'x' << getElementType() << ", ";
  printDeviceTuple(printer, getDevices());
  printer << '>';
}

LogicalResult BufferType::verify(function_ref<InFlightDiagnostic()> emitError,
                                 int64_t numElements, Type elementType,
                                 DevicesAttr devices) {
  if (numElements <= 0)
    return emitError() << "buffer must have a positive element count, got "
                       << numElements;
  if (!elementType.isIntOrFloat() ||
      elementType.getIntOrFloatBitWidth() % 8 != 0 ||
      elementType.getIntOrFloatBitWidth() == 0)
    return emitError() << "buffer element type must be an integer or float "
                          "of whole bytes, got "
                       << elementType;
  if (!devices)
    return emitError() << "buffer needs a device tuple";
  // getByteSize multiplies unchecked, so every verified type's product
  // must fit.
  int64_t elementBytes = elementType.getIntOrFloatBitWidth() / 8;
  if (!llvm::checkedMul(numElements, elementBytes))
    return emitError() << "buffer of " << numElements << " elements of "
                       << elementType
                       << " has a byte size that does not fit a signed 64-bit "
                          "integer (at most "
                       << std::numeric_limits<int64_t>::max() / elementBytes
                       << " elements)";
  return success();
}

int64_t BufferType::getElementBytes() const {
  // The common floats without FloatType's interface lookup (~80
  // instructions): the passes ask for every buffer a call uses.
  Type element = getElementType();
  if (isa<Float32Type>(element))
    return 4;
  if (isa<Float16Type, BFloat16Type>(element))
    return 2;
  if (isa<Float64Type>(element))
    return 8;
  return element.getIntOrFloatBitWidth() / 8;
}
