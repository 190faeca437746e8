//===- HCQOps.cpp - HCQ operations ----------------------------------------===//
//
// Every op but the command-word ones (hcq.cmds, hcq.blob, hcq.patch_group:
// CommandOps.cpp), and the helpers both files share (OpHelpers.h).
//
//===----------------------------------------------------------------------===//

#include "OpHelpers.h"

#include "HCQ/Dialect/AsmUtils.h"
#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Runtime/ABI.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/CheckedArithmetic.h"
#include <limits>

using namespace mlir;
using namespace hcq;
using namespace hcq::detail;

//===----------------------------------------------------------------------===//
// Custom directives
//===----------------------------------------------------------------------===//

static ParseResult parseDevices(OpAsmParser &parser, DevicesAttr &devices) {
  return parseDeviceTuple(parser, devices);
}
static void printDevices(OpAsmPrinter &printer, Operation *,
                         DevicesAttr devices) {
  printDeviceTuple(printer, devices);
}

static ParseResult parseQueue(OpAsmParser &parser, QueueAttr &queue) {
  return parseQueueName(parser, queue);
}
static void printQueue(OpAsmPrinter &printer, Operation *, QueueAttr queue) {
  printQueueName(printer, queue);
}

/// Whether `tag`'s placeholders are the device's, one per device with no
/// slot: its memory, or a number it gives.
static bool isDeviceScopedTag(abi::PlaceholderTag tag) {
  abi::PlaceholderScope scope = abi::getPlaceholderScope(tag);
  return scope == abi::PlaceholderScope::Device ||
         scope == abi::PlaceholderScope::DeviceNumber;
}

/// `slot N` for an executable's placeholder, `device` for a device's: the
/// tag decides which, and the other spelling is an error naming the tag.
static ParseResult parsePlaceholderSlot(OpAsmParser &parser, PlaceholderTag tag,
                                        int64_t &slot) {
  SMLoc loc = parser.getCurrentLocation();
  bool deviceScoped = isDeviceScopedTag(static_cast<abi::PlaceholderTag>(tag));
  if (succeeded(parser.parseOptionalKeyword("device"))) {
    if (!deviceScoped)
      return parser.emitError(loc)
             << "'" << stringifyPlaceholderTag(tag)
             << "' placeholders are the executable's: expected 'slot N', "
                "not 'device'";
    slot = 0;
    return success();
  }
  if (deviceScoped)
    return parser.emitError(loc)
           << "'" << stringifyPlaceholderTag(tag)
           << "' placeholders are the device's: expected 'device', they "
              "have no slot";
  return failure(parser.parseKeyword("slot") || parser.parseInteger(slot));
}
static void printPlaceholderSlot(OpAsmPrinter &printer, Operation *op,
                                 PlaceholderTag, int64_t slot) {
  if (cast<PlaceholderOp>(op).isDeviceScoped())
    printer << "device";
  else
    printer << "slot " << slot;
}

/// `(write f32, read f32)`: the kernel's buffer arguments in ABI order.
static ParseResult parseKernelArgs(OpAsmParser &parser, ArrayAttr &access,
                                   ArrayAttr &types) {
  SmallVector<Attribute> accessList, typeList;
  auto parseArg = [&]() -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    StringRef keyword;
    Type type;
    if (parser.parseKeyword(&keyword) || parser.parseType(type))
      return failure();
    std::optional<Access> kind = symbolizeAccess(keyword);
    if (!kind)
      return parser.emitError(loc, "expected 'read', 'write' or 'readwrite', "
                                   "got '")
             << keyword << "'";
    accessList.push_back(AccessAttr::get(parser.getContext(), *kind));
    typeList.push_back(TypeAttr::get(type));
    return success();
  };
  if (parser.parseCommaSeparatedList(OpAsmParser::Delimiter::Paren, parseArg))
    return failure();
  access = parser.getBuilder().getArrayAttr(accessList);
  types = parser.getBuilder().getArrayAttr(typeList);
  return success();
}

static void printKernelArgs(OpAsmPrinter &printer, Operation *,
                            ArrayAttr access, ArrayAttr types) {
  printer << '(';
  llvm::interleaveComma(llvm::zip(access, types), printer, [&](auto pair) {
    auto [a, t] = pair;
    printer << stringifyAccess(cast<AccessAttr>(a).getValue()) << ' '
            << cast<TypeAttr>(t).getValue();
  });
  printer << ')';
}

/// A launch's operands: `(%a, %b : !t, !t) vars(%n : i32)`, the buffers in
/// parentheses, then the scalars, if any, after `vars`. Each list's types
/// are its kind (the op tells them apart by type).
static ParseResult
parseLaunchArgs(OpAsmParser &parser,
                SmallVectorImpl<OpAsmParser::UnresolvedOperand> &args,
                SmallVectorImpl<Type> &types) {
  auto parseList = [&](bool buffers) -> ParseResult {
    SMLoc loc = parser.getCurrentLocation();
    SmallVector<OpAsmParser::UnresolvedOperand> operands;
    SmallVector<Type> operandTypes;
    if (parser.parseOperandList(operands))
      return failure();
    if (!operands.empty() && parser.parseColonTypeList(operandTypes))
      return failure();
    if (operands.size() != operandTypes.size())
      return parser.emitError(loc)
             << operands.size() << (buffers ? " buffers" : " scalars")
             << " but " << operandTypes.size() << " types";
    for (Type type : operandTypes)
      if (isa<BufferType>(type) != buffers)
        return parser.emitError(loc)
               << (buffers ? "the buffers in parentheses must be of buffer "
                             "type, got "
                           : "the scalars after 'vars' must not be buffers, "
                             "got ")
               << type;
    args.append(operands);
    types.append(operandTypes);
    return parser.parseRParen();
  };
  if (parser.parseLParen() || parseList(/*buffers=*/true))
    return failure();
  if (succeeded(parser.parseOptionalKeyword("vars")) &&
      (parser.parseLParen() || parseList(/*buffers=*/false)))
    return failure();
  return success();
}

static void printLaunchArgs(OpAsmPrinter &printer, LaunchOp launch,
                            OperandRange, TypeRange) {
  auto printList = [&](OperandRange operands) {
    printer << '(' << operands;
    if (!operands.empty()) {
      printer << " : ";
      llvm::interleaveComma(operands.getTypes(), printer);
    }
    printer << ')';
  };
  printList(launch.getBuffers());
  if (!launch.getVars().empty()) {
    printer << " vars";
    printList(launch.getVars());
  }
}

ParseResult hcq::detail::parseOptionalAddend(AsmParser &parser,
                                             int64_t &addend) {
  bool negative = false;
  if (failed(parser.parseOptionalPlus())) {
    if (failed(parser.parseOptionalMinus()))
      return success();
    negative = true;
  }
  if (parser.parseInteger(addend))
    return failure();
  if (negative)
    addend = -addend;
  return success();
}

void hcq::detail::printAddend(raw_ostream &os, int64_t addend) {
  if (addend > 0)
    os << " + " << addend;
  else if (addend < 0)
    os << " - " << -addend;
}

/// A signal value: `5`, or `[%buf : !type]` plus or minus a constant.
static ParseResult
parseSignalValue(OpAsmParser &parser,
                 std::optional<OpAsmParser::UnresolvedOperand> &buffer,
                 Type &bufferType, int64_t &constant) {
  constant = 0;
  if (succeeded(parser.parseOptionalLSquare())) {
    buffer.emplace();
    if (parser.parseOperand(*buffer) || parser.parseColonType(bufferType) ||
        parser.parseRSquare())
      return failure();
    return parseOptionalAddend(parser, constant);
  }
  return parser.parseInteger(constant);
}

static void printSignalValue(OpAsmPrinter &printer, Operation *, Value buffer,
                             Type bufferType, int64_t constant) {
  if (!buffer) {
    printer << constant;
    return;
  }
  printer << '[' << buffer << " : " << bufferType << ']';
  printAddend(printer.getStream(), constant);
}

// The syntax every function-like op (schedule, executable, submitter)
// shares; HCQ_FunctionLikeOp's extraClassDefinition gives each its parse,
// print and argument names through these (defined below).
template <typename OpTy>
static ParseResult parseFunctionLike(OpAsmParser &parser,
                                     OperationState &result);
template <typename OpTy>
static void printFunctionLike(OpAsmPrinter &printer, OpTy op);
template <typename OpTy>
static void nameArguments(OpTy op, Region &region, OpAsmSetValueNameFn setName);

#define GET_OP_CLASSES
#include "HCQ/Dialect/HCQOps.cpp.inc"

#include "HCQ/Dialect/HCQInterfaces.cpp.inc"

//===----------------------------------------------------------------------===//
// QueueCallOpInterface
//===----------------------------------------------------------------------===//

SmallVector<Value> LaunchOp::getCallBuffers() {
  return llvm::to_vector(getBuffers());
}

KernelOp LaunchOp::lookupKernel(SymbolTableCollection &symbols,
                                Operation *symbolTable) {
  static_assert(!SubmitOp::hasTrait<mlir::OpTrait::SymbolTable>() &&
                !ScheduleOp::hasTrait<mlir::OpTrait::SymbolTable>());
  if (!symbolTable) {
    Operation *parent = (*this)->getParentOp();
    while (isa_and_nonnull<SubmitOp, ScheduleOp>(parent))
      parent = parent->getParentOp();
    // A module, the usual table, is known by its name alone.
    symbolTable = isa_and_nonnull<mlir::ModuleOp>(parent) || !parent
                      ? parent
                      : SymbolTable::getNearestSymbolTable(parent);
  }
  return dyn_cast_or_null<KernelOp>(
      symbolTable ? symbols.lookupSymbolIn(symbolTable, getKernelAttr())
                  : nullptr);
}

BufferUses LaunchOp::getBufferUses(SymbolTableCollection &symbols,
                                   Operation *symbolTable) {
  // The whole of each buffer, as its kernel's signature says (both ways
  // when the kernel cannot be found: the verifier reports that).
  KernelOp kernel = lookupKernel(symbols, symbolTable);
  BufferUses uses;
  for (auto [i, buffer] : llvm::enumerate(getBuffers())) {
    Access access = kernel && i < kernel.getNumBufferArgs()
                        ? kernel.getAccess(i)
                        : Access::readwrite;
    uses.push_back({buffer, 0, cast<BufferType>(buffer.getType()).getByteSize(),
                    access != Access::read, access != Access::write});
  }
  return uses;
}

QueueKind LaunchOp::getQueueKind() { return QueueKind::COMPUTE; }

namespace {
/// A device queue's timeline, which every launch and copy advances: a call
/// the schedule names runs even when it writes no buffer (it takes its
/// time, and orders what follows on its queue), so none is dead.
struct QueueTimelineResource
    : public SideEffects::Resource::Base<QueueTimelineResource> {
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(QueueTimelineResource)
  StringRef getName() final { return "hcq.queue"; }
};
} // namespace

void LaunchOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  // The buffers are its first operands, in getBufferUses' order. The
  // kernel's table is the module's, a few ops: no collection kept.
  SymbolTableCollection symbols;
  for (auto [i, use] : llvm::enumerate(getBufferUses(symbols, nullptr))) {
    OpOperand *operand = &(*this)->getOpOperand(i);
    if (use.read)
      effects.emplace_back(MemoryEffects::Read::get(), operand);
    if (use.write)
      effects.emplace_back(MemoryEffects::Write::get(), operand);
  }
  effects.emplace_back(MemoryEffects::Write::get(),
                       QueueTimelineResource::get());
}

SmallVector<Value> CopyOp::getCallBuffers() { return {getDst(), getSrc()}; }

BufferUses CopyOp::getBufferUses(SymbolTableCollection &, Operation *) {
  return {{getDst(), getDstOffset(), getDstSize(), /*write=*/true,
           /*read=*/false},
          {getSrc(), getSrcOffset(), getSrcSize(), /*write=*/false,
           /*read=*/true}};
}

QueueKind CopyOp::getQueueKind() { return QueueKind::COPY; }

void CopyOp::getEffects(
    SmallVectorImpl<SideEffects::EffectInstance<MemoryEffects::Effect>>
        &effects) {
  effects.emplace_back(MemoryEffects::Read::get(), &getSrcMutable());
  effects.emplace_back(MemoryEffects::Write::get(), &getDstMutable());
  effects.emplace_back(MemoryEffects::Write::get(),
                       QueueTimelineResource::get());
}

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

bool hcq::detail::isSignalType(Type type) {
  auto buffer = dyn_cast<BufferType>(type);
  return buffer && buffer.getNumElements() == 1 &&
         buffer.getElementType().isInteger(64);
}

/// Checks that every value is a one-element 64-bit signal buffer.
static LogicalResult verifySignalTypes(Operation *op, ValueRange values,
                                       StringRef what) {
  for (Value value : values)
    if (!isSignalType(value.getType()))
      return op->emitOpError() << what << " must be a !hcq.buffer<1xi64, ...>"
                               << ", got " << value.getType();
  return success();
}

/// Checks a per-lane operand list against the lanes of the enclosing submit:
/// one value for every lane, or one value per lane.
static LogicalResult verifyLaneCount(Operation *op, ValueRange values,
                                     StringRef what) {
  if (values.empty())
    return op->emitOpError() << "needs at least one " << what;
  auto submit = op->getParentOfType<SubmitOp>();
  if (!submit)
    return success();
  size_t lanes = submit.getDevices().size();
  if (values.size() != 1 && values.size() != lanes)
    return op->emitOpError()
           << "has " << values.size() << " " << what << "s but the submit has "
           << lanes << " lanes (expected 1 or " << lanes << ")";
  return success();
}

PlaceholderOp hcq::detail::getPlaceholder(Value value) {
  return value.getDefiningOp<PlaceholderOp>();
}

bool hcq::detail::isSubmitterArgument(Value value) {
  auto arg = dyn_cast<BlockArgument>(value);
  return arg && isa<SubmitterOp>(arg.getOwner()->getParentOp());
}

/// Whether `value` may stand for a placeholder of `tag`: it is one, or a
/// submitter's argument.
static bool isPlaceholderOrArgument(Value value, PlaceholderTag tag) {
  if (isSubmitterArgument(value))
    return true;
  PlaceholderOp placeholder = getPlaceholder(value);
  return placeholder && placeholder.getTag() == tag;
}

//===----------------------------------------------------------------------===//
// ScheduleOp / ExecutableOp
//===----------------------------------------------------------------------===//

/// Whether `OpTy` names targets (`targets [...]` after its signature).
template <typename OpTy> static constexpr bool hasTargets() {
  return OpTy::template hasTrait<TargetsOpInterface::Trait>();
}

/// As function_interface_impl::parseFunctionOp, keeping the arguments'
/// names in `arg_names`. A numeric name, which the printer would not give
/// back, and the `argK` the printer gives the K-th argument with no name,
/// are "": printing and parsing again changes nothing. A schedule's or
/// executable's `targets [...]` follow the signature, as gpu.module's
/// follow its name; the verifier checks what they hold.
template <typename OpTy>
static ParseResult parseFunctionLike(OpAsmParser &parser,
                                     OperationState &result) {
  Builder &builder = parser.getBuilder();
  StringAttr name;
  if (parser.parseSymbolName(name, SymbolTable::getSymbolAttrName(),
                             result.attributes))
    return failure();
  SmallVector<OpAsmParser::Argument> args;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, args, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  SmallVector<Type> argTypes;
  SmallVector<Attribute> names;
  bool named = false;
  unsigned unnamed = 0;
  for (OpAsmParser::Argument &arg : args) {
    // The signature may list bare types (an external function's form), but
    // these ops have a body whose arguments the names bind.
    if (arg.ssaName.name.empty())
      return parser.emitError(arg.ssaName.location,
                              "expected named arguments (%name: type): the "
                              "op has a body");
    argTypes.push_back(arg.type);
    StringRef written = arg.ssaName.name.drop_front(); // without '%'
    if ((!written.empty() && llvm::isDigit(written.front())) ||
        written == ("arg" + Twine(unnamed)).str())
      written = "";
    unnamed += written.empty();
    named |= !written.empty();
    names.push_back(builder.getStringAttr(written));
  }
  result.addAttribute(
      OpTy::getFunctionTypeAttrName(result.name),
      TypeAttr::get(builder.getFunctionType(argTypes, resultTypes)));
  if (named)
    result.addAttribute(OpTy::getArgNamesAttrName(result.name),
                        builder.getArrayAttr(names));
  if constexpr (hasTargets<OpTy>()) {
    if (succeeded(parser.parseOptionalKeyword("targets"))) {
      SmallVector<Attribute> targets;
      if (parser.parseCommaSeparatedList(
              OpAsmParser::Delimiter::Square,
              [&] { return parser.parseAttribute(targets.emplace_back()); },
              " in the target list"))
        return failure();
      result.addAttribute(OpTy::getTargetsAttrName(result.name),
                          builder.getArrayAttr(targets));
    }
  }
  SMLoc attrsLoc = parser.getCurrentLocation();
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();
  // An inherent attribute of the wrong kind written in the dictionary (say
  // `targets = 5`) would be dropped on its way into the properties.
  if (failed(result.name.verifyInherentAttrs(
          result.attributes, [&] { return parser.emitError(attrsLoc); })))
    return failure();
  call_interface_impl::addArgAndResultAttrs(
      builder, result, args, resultAttrs,
      OpTy::getArgAttrsAttrName(result.name),
      OpTy::getResAttrsAttrName(result.name));
  // A missing body is the verifier's to report, as for any function.
  OptionalParseResult body = parser.parseOptionalRegion(
      *result.addRegion(), args, /*enableNameShadowing=*/false);
  return body.has_value() ? *body : success();
}

/// As function_interface_impl::printFunctionOp, with `arg_names` said by
/// the arguments' names instead of in the attributes, and the targets
/// after the signature.
template <typename OpTy>
static void printFunctionLike(OpAsmPrinter &printer, OpTy op) {
  printer << ' ';
  printer.printSymbolName(op.getSymName());
  function_interface_impl::printFunctionSignature(
      printer, op, op.getArgumentTypes(), /*isVariadic=*/false,
      op.getResultTypes());
  SmallVector<StringRef, 5> elided = {
      op.getFunctionTypeAttrName(), op.getArgAttrsAttrName(),
      op.getResAttrsAttrName(), op.getArgNamesAttrName()};
  if constexpr (hasTargets<OpTy>()) {
    elided.push_back(op.getTargetsAttrName());
    // Element by element, so that the parser always finds the brackets
    // (the array itself is never printed as an alias).
    if (ArrayAttr targets = op.getTargetsAttr()) {
      printer << " targets [";
      llvm::interleaveComma(targets, printer);
      printer << ']';
    }
  }
  function_interface_impl::printFunctionAttributes(printer, op, elided);
  printer << ' ';
  printer.printRegion(op.getBody(), /*printEntryBlockArgs=*/false,
                      /*printBlockTerminators=*/true);
}

/// The arguments print with the names they were written with.
template <typename OpTy>
static void nameArguments(OpTy op, Region &region,
                          OpAsmSetValueNameFn setName) {
  if (region.empty())
    return;
  for (BlockArgument arg : region.front().getArguments())
    if (StringRef name = op.getArgName(arg.getArgNumber()); !name.empty())
      setName(arg, name);
}

bool hcq::detail::isBoundVariableType(Type type) {
  return type.isSignlessIntOrIndex() || type.isF32() || type.isF64();
}

/// Checks what both containers share: no results, a body, and arguments
/// that are buffers or bound variables.
static LogicalResult verifyFunctionLike(FunctionOpInterface op) {
  if (!op.getResultTypes().empty())
    return op.emitOpError("must not have results");
  if (op.getFunctionBody().empty())
    return op.emitOpError("must have a body");
  for (auto [i, type] : llvm::enumerate(op.getArgumentTypes()))
    if (!isa<BufferType>(type) && !isBoundVariableType(type))
      return op.emitOpError() << "argument #" << i
                              << " must be an !hcq.buffer or a bound variable "
                                 "(an integer, f32 or f64), got "
                              << type;
  return success();
}

LogicalResult hcq::detail::verifyTargets(Operation *op) {
  ArrayAttr targets = cast<TargetsOpInterface>(op).getTargetsAttr();
  if (!targets)
    return success();
  if (targets.empty())
    return op->emitOpError(
        "'targets' must name at least one target (leave it out to name none)");
  SmallVector<TargetKindAttrInterface, 2> seen;
  for (Attribute attr : targets) {
    // A target's model may not be registered here (it is the target
    // libraries'): its promise is enough.
    auto target = dyn_cast<TargetKindAttrInterface>(attr);
    if (!target || !attr.hasPromiseOrImplementsInterface<TargetAttrInterface>())
      return op->emitOpError()
             << "'targets' holds " << attr
             << ", which is not a target (a TargetAttrInterface such as "
                "#hcq.amd_target or #hcq.cpu_target)";
    auto same = llvm::find_if(seen, [&](TargetKindAttrInterface other) {
      return other.getDeviceKind() == target.getDeviceKind();
    });
    if (same != seen.end())
      return op->emitOpError() << "'targets' names two targets for "
                               << stringifyDeviceKind(target.getDeviceKind())
                               << " devices: " << *same << " and " << attr;
    seen.push_back(target);
  }
  return success();
}

Attribute hcq::getTargetAttr(Operation *op, DeviceKind kind) {
  for (; op; op = op->getParentOp())
    if (auto scope = dyn_cast<TargetsOpInterface>(op);
        scope && scope.getTargetsAttr())
      return scope.getTarget(kind);
  return {};
}

LogicalResult ScheduleOp::verify() { return verifyFunctionLike(*this); }

LogicalResult ExecutableOp::verify() {
  if (failed(verifyFunctionLike(*this)))
    return failure();
  for (Operation &op : getBody().front()) {
    if (op.hasTrait<hcq::OpTrait::InExecutable>())
      continue;
    return op.emitOpError("is not allowed in an executable: only link-time "
                          "memory, submitter calls and host calls are");
  }
  return success();
}

LogicalResult SubmitterOp::verify() {
  if (failed(verifyFunctionLike(*this)))
    return failure();
  for (Operation &op : getBody().front())
    if (!isa<SubmitterStepOpInterface>(op))
      return op.emitOpError("is not allowed in a submitter: only fences, "
                            "resets, patch groups, pushes and finalizers are");
  return success();
}

LogicalResult CallOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  auto callee =
      symbolTable.lookupNearestSymbolFrom<SubmitterOp>(*this, getCalleeAttr());
  if (!callee)
    return emitOpError() << "'" << getCallee()
                         << "' does not name an hcq.submitter";
  if (TypeRange(getOperands().getTypes()) !=
      TypeRange(callee.getArgumentTypes()))
    return emitOpError() << "operand types do not match @" << getCallee()
                         << "'s arguments";
  return success();
}

//===----------------------------------------------------------------------===//
// KernelOp
//===----------------------------------------------------------------------===//

Access KernelOp::getAccess(size_t i) {
  return cast<AccessAttr>(getArgAccess()[i]).getValue();
}

/// Whether a type can be a buffer element.
static bool isElementType(Type type) {
  return type.isIntOrFloat() && type.getIntOrFloatBitWidth() % 8 == 0 &&
         type.getIntOrFloatBitWidth() != 0;
}

/// The bytes of a code object or host object attribute: inline, or in its
/// resource blob.
static std::optional<StringRef> getObjectBytes(Attribute attr) {
  if (auto text = dyn_cast_or_null<StringAttr>(attr))
    return text.getValue();
  if (auto resource = dyn_cast_or_null<DenseResourceElementsAttr>(attr)) {
    AsmResourceBlob *blob = resource.getRawHandle().getBlob();
    if (!blob)
      return std::nullopt;
    ArrayRef<char> data = blob->getData();
    return StringRef(data.data(), data.size());
  }
  return std::nullopt;
}

std::optional<StringRef> KernelOp::getCodeObjectBytes() {
  return getObjectBytes(getCodeObjectAttr());
}

std::optional<StringRef> KernelOp::getHostObjectBytes() {
  return getObjectBytes(getHostObjectAttr());
}

/// Checks the host object of `kernel`: an ELF file, its resource present and
/// of its declared size.
static LogicalResult verifyHostObject(KernelOp kernel) {
  Attribute attr = kernel.getHostObjectAttr();
  if (!attr)
    return success();
  std::optional<StringRef> bytes = getObjectBytes(attr);
  if (auto resource = dyn_cast<DenseResourceElementsAttr>(attr)) {
    auto type = resource.getType();
    if (type.getRank() != 1 || !type.getElementType().isInteger(8))
      return kernel.emitOpError()
             << "'host_object' resource must be a tensor<Nxi8>, got " << type;
    if (!bytes)
      return kernel.emitOpError() << "'host_object' names the resource '"
                                  << resource.getRawHandle().getKey()
                                  << "', which the file does not hold";
    if (!type.hasStaticShape() ||
        static_cast<uint64_t>(type.getNumElements()) != bytes->size())
      return kernel.emitOpError()
             << "'host_object' resource '" << resource.getRawHandle().getKey()
             << "' holds " << bytes->size() << " bytes but is declared as "
             << type;
  }
  if (!bytes || !bytes->starts_with("\x7f"
                                    "ELF"))
    return kernel.emitOpError("'host_object' is not an ELF file (bad magic)");
  return success();
}

LogicalResult KernelOp::verify() {
  if (getArgAccess().size() != getArgTypes().size())
    return emitOpError() << "has " << getArgAccess().size()
                         << " argument accesses but " << getArgTypes().size()
                         << " argument types";
  for (auto [i, attr] : llvm::enumerate(getArgTypes())) {
    Type type = cast<TypeAttr>(attr).getValue();
    if (!isElementType(type))
      return emitOpError() << "argument #" << i
                           << " must have an integer or float element type "
                              "of whole bytes, got "
                           << type;
  }

  switch (getTarget()) {
  case KernelTarget::cpu:
    if (!getSymbol() || getSymbol()->empty())
      return emitOpError("cpu kernel needs a host 'symbol'");
    if (getLibrary() && getHostObject())
      return emitOpError("cpu kernel takes its symbol from a 'library' or "
                         "its 'host_object', not both");
    if ((!getLibrary() || getLibrary()->empty()) && !getHostObject())
      return emitOpError("cpu kernel needs the shared 'library' that holds "
                         "its symbol, or its 'host_object'");
    if (getCodeObject())
      return emitOpError("cpu kernel must not carry a 'code_object'");
    return verifyHostObject(*this);
  case KernelTarget::amd: {
    if (auto resource =
            dyn_cast_or_null<DenseResourceElementsAttr>(getCodeObjectAttr())) {
      auto type = resource.getType();
      if (type.getRank() != 1 || !type.getElementType().isInteger(8))
        return emitOpError() << "amd kernel 'code_object' resource must be a "
                                "tensor<Nxi8>, got "
                             << type;
      std::optional<StringRef> blob = getCodeObjectBytes();
      if (!blob)
        return emitOpError() << "amd kernel 'code_object' names the resource '"
                             << resource.getRawHandle().getKey()
                             << "', which the file does not hold";
      // The type is what readers size the code object by; the blob is what
      // they read.
      if (!type.hasStaticShape() ||
          static_cast<uint64_t>(type.getNumElements()) != blob->size())
        return emitOpError()
               << "amd kernel 'code_object' resource '"
               << resource.getRawHandle().getKey() << "' holds " << blob->size()
               << " bytes but is declared as " << type;
    }
    std::optional<StringRef> bytes = getCodeObjectBytes();
    if (!bytes || bytes->empty())
      return emitOpError("amd kernel needs its 'code_object' bytes");
    if (!bytes->starts_with("\x7f"
                            "ELF"))
      return emitOpError("amd kernel 'code_object' is not an ELF file (bad "
                         "magic)");
    if (getLibrary())
      return emitOpError("amd kernel must not name a 'library'");
    // A host object is the kernel's CPU twin.
    return verifyHostObject(*this);
  }
  case KernelTarget::builtin:
    if (getLibrary() || getCodeObject())
      return emitOpError("builtin kernel must not carry a 'library' or "
                         "'code_object'");
    if (getHostObject())
      return emitOpError("builtin kernel must not carry a 'host_object'");
    if (getSymbol() != abi::BUILTIN_COPY_KERNEL)
      return emitOpError("unknown builtin kernel '")
             << getSymbol().value_or("") << "' (expected '"
             << abi::BUILTIN_COPY_KERNEL << "')";
    if (getNumBufferArgs() != 2 || getAccess(0) != Access::write ||
        getAccess(1) != Access::read)
      return emitOpError("builtin 'copy' takes (write T, read U)");
    if (cast<TypeAttr>(getArgTypes()[0]).getValue().getIntOrFloatBitWidth() !=
        cast<TypeAttr>(getArgTypes()[1]).getValue().getIntOrFloatBitWidth())
      return emitOpError("builtin 'copy' needs one element size for both "
                         "arguments");
    return success();
  }
  llvm_unreachable("unknown kernel target");
}

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

LogicalResult ProgramOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  if (!symbolTable.lookupNearestSymbolFrom<KernelOp>(*this, getKernelAttr()))
    return emitOpError() << "'" << getKernel()
                         << "' does not name an hcq.kernel";
  return success();
}

//===----------------------------------------------------------------------===//
// ViewOp
//===----------------------------------------------------------------------===//

LogicalResult ViewOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  auto result = cast<BufferType>(getResult().getType());
  if (source.getDevices() != result.getDevices())
    return emitOpError("view must be on the source's devices");
  int64_t offset = getOffset();
  std::optional<int64_t> begin =
      llvm::checkedMul(offset, source.getElementBytes());
  std::optional<int64_t> end =
      begin ? llvm::checkedAdd(*begin, result.getByteSize()) : std::nullopt;
  if (!end)
    return emitOpError() << "view of " << result.getByteSize()
                         << " bytes at element " << offset
                         << " ends past 2^63 bytes, outside the source's "
                         << source.getByteSize() << " bytes";
  if (*end > source.getByteSize())
    return emitOpError() << "view of bytes [" << *begin << ", " << *end
                         << ") is outside the source's " << source.getByteSize()
                         << " bytes";
  return success();
}

//===----------------------------------------------------------------------===//
// LaunchOp
//===----------------------------------------------------------------------===//

/// The most workgroups in each dimension of a grid: AMD's DISPATCH_DIRECT
/// takes DIM_X/Y/Z as whole 32-bit dwords [nvd/s15 PACKET3_DISPATCH_DIRECT,
/// docs/amd-encoding.md], and a CPU kernel gets its coordinates as
/// uint32_t (docs/cpu-queue.md).
constexpr int64_t MAX_GRID_DIM = std::numeric_limits<uint32_t>::max();
/// The most work-items in a workgroup, in each dimension and in all: the
/// AMDGPU maximum flat workgroup size (LLVM AMDGPUBaseInfo.cpp
/// getMaxFlatWorkGroupSize, 1024; COMPUTE_NUM_THREAD_X/Y/Z and the dispatch
/// packet's workgroup_size_x/y/z are 16-bit fields). A CPU kernel's
/// workgroup is one work-item.
constexpr int64_t MAX_WORKGROUP_SIZE = 1024;

static LogicalResult verifyGrid(Operation *op, ArrayRef<int64_t> sizes,
                                StringRef what, int64_t limit) {
  if (sizes.size() != 3)
    return op->emitOpError()
           << what << " size must have 3 dimensions, got " << sizes.size();
  for (int64_t size : sizes) {
    if (size <= 0)
      return op->emitOpError()
             << what << " size must be positive in every dimension, got "
             << size;
    if (size > limit)
      return op->emitOpError()
             << what << " size " << size << " is more than the " << limit
             << " a dimension can have";
  }
  return success();
}

void LaunchOp::build(OpBuilder &builder, OperationState &state,
                     FlatSymbolRefAttr kernel, ValueRange buffers,
                     ValueRange vars, DenseI64ArrayAttr globalSize,
                     DenseI64ArrayAttr localSize) {
  SmallVector<Value> args(buffers);
  llvm::append_range(args, vars);
  build(builder, state, kernel, args, globalSize, localSize);
}

// The split is found from the back: a launch has few scalars or none, so
// usually one operand's type is looked at.
Operation::operand_range LaunchOp::getBuffers() {
  return getArgs().drop_back(getVars().size());
}

Operation::operand_range LaunchOp::getVars() {
  OperandRange args = getArgs();
  size_t numVars = 0;
  while (numVars < args.size() &&
         !isa<BufferType>(args[args.size() - 1 - numVars].getType()))
    ++numVars;
  return args.take_back(numVars);
}

LogicalResult LaunchOp::verify() {
  if (failed(verifyGrid(*this, getGlobalSize(), "global", MAX_GRID_DIM)) ||
      failed(verifyGrid(*this, getLocalSize(), "local", MAX_WORKGROUP_SIZE)))
    return failure();
  // Each dimension is at most 1024, so the product cannot overflow.
  ArrayRef<int64_t> local = getLocalSize();
  int64_t workItems = local[0] * local[1] * local[2];
  if (workItems > MAX_WORKGROUP_SIZE)
    return emitOpError() << "local size [" << local << "] is " << workItems
                         << " work-items per workgroup, more than the "
                         << MAX_WORKGROUP_SIZE << " a workgroup can have";
  for (auto [i, buffer] : llvm::enumerate(getBuffers()))
    if (!isa<BufferType>(buffer.getType()))
      return emitOpError() << "operand #" << i
                           << " is a scalar before a buffer: the buffers "
                              "come first";
  // A kernel scalar is a bound variable (an argument of the schedule), or a
  // constant the encoders fold into the kernel arguments; nothing else has
  // a value when the executable is built.
  for (auto [i, var] : llvm::enumerate(getVars())) {
    // The kernel arguments take a scalar's bits: 4 bytes, or 8 past 32
    // (floats are f32 or f64 by the operand constraint). No interface call:
    // this runs at every verification of every launch.
    Type type = var.getType();
    auto integer = dyn_cast<IntegerType>(type);
    if (isa<IndexType>(type) || (integer && integer.getWidth() > 64))
      return emitOpError() << "scalar #" << i << " is " << type
                           << ": hcq kernel scalars are integers of at most "
                              "64 bits, f32 or f64 (an index has no fixed "
                              "width: pass it as i32 or i64)";
    if (isa<BlockArgument>(var) || matchPattern(var, m_Constant()))
      continue;
    return emitOpError() << "scalar #" << i
                         << " is neither an argument of the schedule (a bound "
                            "variable) nor a constant: compute it before the "
                            "schedule and pass it as an argument";
  }
  return success();
}

LogicalResult LaunchOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  KernelOp kernel = lookupKernel(symbolTable);
  if (!kernel)
    return emitOpError() << "'" << getKernel()
                         << "' does not name an hcq.kernel";
  OperandRange buffers = getBuffers();
  if (buffers.size() != kernel.getNumBufferArgs())
    return emitOpError() << "passes " << buffers.size()
                         << " buffers but kernel @" << getKernel() << " takes "
                         << kernel.getNumBufferArgs();
  for (auto [i, buffer, attr] :
       llvm::enumerate(buffers, kernel.getArgTypes())) {
    Type expected = cast<TypeAttr>(attr).getValue();
    Type actual = cast<BufferType>(buffer.getType()).getElementType();
    if (actual != expected)
      return emitOpError() << "buffer #" << i << " has element type " << actual
                           << " but kernel @" << getKernel() << " expects "
                           << expected;
  }
  if (static_cast<int64_t>(getVars().size()) != kernel.getNumVars())
    return emitOpError() << "passes " << getVars().size()
                         << " bound variables but kernel @" << getKernel()
                         << " takes " << kernel.getNumVars();
  // The CPU device calls a kernel once per workgroup with its coordinates
  // and no workgroup size: a local size it cannot honour is refused rather
  // than silently computing one work-item of each workgroup.
  if (kernel.getTarget() == KernelTarget::cpu &&
      llvm::any_of(getLocalSize(), [](int64_t l) { return l != 1; }))
    return emitOpError()
           << "launches the cpu kernel @" << getKernel() << " with local size ["
           << getLocalSize()
           << "]: a CPU kernel is called once per workgroup and gets no "
              "workgroup size, so its local size must be [1, 1, 1] (put the "
              "work-items in global)";
  return success();
}

//===----------------------------------------------------------------------===//
// CopyOp
//===----------------------------------------------------------------------===//

static LogicalResult verifyByteRange(Operation *op, Value buffer,
                                     int64_t offset, int64_t size,
                                     StringRef side) {
  int64_t bytes = cast<BufferType>(buffer.getType()).getByteSize();
  if (offset < 0)
    return op->emitOpError()
           << side << " offset must not be negative, got " << offset;
  if (size <= 0)
    return op->emitOpError() << side << " size must be positive, got " << size;
  std::optional<int64_t> end = llvm::checkedAdd(offset, size);
  if (!end)
    return op->emitOpError()
           << side << " range of " << size << " bytes at " << offset
           << " ends past 2^63 bytes, outside the " << bytes << "-byte buffer";
  if (*end > bytes)
    return op->emitOpError() << side << " range [" << offset << ", " << *end
                             << ") is outside the " << bytes << "-byte buffer";
  return success();
}

LogicalResult CopyOp::verify() {
  if (failed(verifyByteRange(*this, getDst(), getDstOffset(), getDstSize(),
                             "destination")) ||
      failed(verifyByteRange(*this, getSrc(), getSrcOffset(), getSrcSize(),
                             "source")))
    return failure();
  if (getDstSize() != getSrcSize())
    return emitOpError() << "copies " << getSrcSize() << " source bytes into a "
                         << getDstSize() << "-byte destination range";
  // Lanes pair up one to one, or one source lane goes to every destination
  // lane; anything else has no single answer, so every path (copy queue,
  // kernel copy, staging, host) would pick its own (docs/ir.md).
  DevicesAttr dst = cast<BufferType>(getDst().getType()).getDevices();
  DevicesAttr src = cast<BufferType>(getSrc().getType()).getDevices();
  size_t dstLanes = dst.size(), srcLanes = src.size();
  if (srcLanes == dstLanes || srcLanes == 1)
    return success();
  auto tuple = [](DevicesAttr devices) {
    std::string text = "[";
    llvm::raw_string_ostream os(text);
    llvm::interleaveComma(devices.getDevices(), os,
                          [&](DeviceAttr d) { os << d.str(); });
    return text + "]";
  };
  InFlightDiagnostic diag = emitOpError()
                            << "copies " << srcLanes << " lanes of "
                            << tuple(src) << " into " << dstLanes
                            << (dstLanes == 1 ? " lane of " : " lanes of ")
                            << tuple(dst) << ": ";
  if (dstLanes == 1)
    return diag << "which lane lands is ambiguous (lanes cannot be selected "
                   "from a buffer on several devices); copy from a buffer on "
                   "one device, or into one on "
                << srcLanes << " devices";
  return diag << "lanes pair up only when both sides have as many, or the "
                 "source has one (a broadcast); copy between buffers on "
                 "as many devices";
}

//===----------------------------------------------------------------------===//
// PlaceholderOp
//===----------------------------------------------------------------------===//

/// Tags whose placeholder is one 64-bit word the queues and host poll.
static bool isSignalTag(PlaceholderTag tag) {
  switch (tag) {
  case PlaceholderTag::signal:
  case PlaceholderTag::timeline_signal:
  case PlaceholderTag::timeline_value:
  case PlaceholderTag::epoch:
  case PlaceholderTag::sentinel_signal:
  case PlaceholderTag::timestamp:
    return true;
  default:
    return false;
  }
}

bool PlaceholderOp::isDeviceScoped() {
  return isDeviceScopedTag(static_cast<abi::PlaceholderTag>(getTag()));
}

LogicalResult PlaceholderOp::verify() {
  if (isDeviceScoped() && getSlot() != 0)
    return emitOpError() << "'" << stringifyPlaceholderTag(getTag())
                         << "' placeholders are the device's and have no "
                            "slot, got slot "
                         << getSlot();
  if (isSignalTag(getTag()) && !isSignalType(getType()))
    return emitOpError() << "'" << stringifyPlaceholderTag(getTag())
                         << "' placeholder must be a !hcq.buffer<1xi64, ...>"
                         << ", got " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// SubmitOp and its body
//===----------------------------------------------------------------------===//

LogicalResult SubmitOp::verify() {
  for (DeviceAttr device : getDevices().getDevices())
    if (!device.isHCQ())
      return emitOpError() << "device " << device.str()
                           << " has no command queues (expected AMD or CPU)";
  if (getQueue().getKind() == QueueKind::SUBMIT &&
      !getDevices().allOfKind(DeviceKind::CPU))
    return emitOpError("the SUBMIT queue exists only on CPU devices");
  if (getBody().empty())
    return success();
  // A submit holds thousands of ops of a few kinds: ask each kind once
  // (asking an op for a trait is an indirect call).
  SmallVector<OperationName, 8> allowed;
  for (Operation &op : getBody().front()) {
    if (llvm::is_contained(allowed, op.getName()))
      continue;
    if (!op.hasTrait<hcq::OpTrait::InSubmit>())
      return op.emitOpError("is not allowed in an hcq.submit");
    allowed.push_back(op.getName());
  }
  return success();
}

/// Shared by wait and store.
static LogicalResult verifySignalOp(Operation *op, ValueRange signals,
                                    Value valueBuffer, int64_t value) {
  if (failed(verifyLaneCount(op, signals, "signal")) ||
      failed(verifySignalTypes(op, signals, "signal")))
    return failure();
  if (valueBuffer)
    return verifySignalTypes(op, valueBuffer, "value buffer");
  if (value < 0)
    return op->emitOpError()
           << "signal value must not be negative, got " << value;
  return success();
}

/// Parses the operands and value of a wait (`relation` ">=") or store
/// ("="): `%a, %b >= [%v : !t] - 1 {attrs} : !ta, !tb`.
template <typename OpT>
static ParseResult parseSignalOp(OpAsmParser &parser, OperationState &result,
                                 StringRef relation) {
  SmallVector<OpAsmParser::UnresolvedOperand> signals;
  SMLoc signalsLoc = parser.getCurrentLocation();
  if (parser.parseOperandList(signals))
    return failure();
  for (char c : relation)
    if (failed(c == '>' ? parser.parseGreater() : parser.parseEqual()))
      return failure();
  std::optional<OpAsmParser::UnresolvedOperand> valueBuffer;
  Type valueBufferType;
  int64_t value;
  SmallVector<Type> signalTypes;
  if (parseSignalValue(parser, valueBuffer, valueBufferType, value) ||
      parser.parseOptionalAttrDict(result.attributes) ||
      parser.parseColonTypeList(signalTypes) ||
      parser.resolveOperands(signals, signalTypes, signalsLoc,
                             result.operands) ||
      (valueBuffer &&
       parser.resolveOperand(*valueBuffer, valueBufferType, result.operands)))
    return failure();
  auto &props = result.getOrAddProperties<typename OpT::Properties>();
  props.setHasValueBuffer(valueBuffer.has_value());
  props.setValue(value);
  return success();
}

template <typename OpT>
static void printSignalOp(OpAsmPrinter &printer, OpT op, StringRef relation) {
  printer << ' ' << op.getSignals() << ' ' << relation << ' ';
  Value valueBuffer = op.getValueBuffer();
  printSignalValue(printer, op, valueBuffer,
                   valueBuffer ? valueBuffer.getType() : Type(), op.getValue());
  printer.printOptionalAttrDict(op->getDiscardableAttrDictionary().getValue());
  printer << " : " << op.getSignals().getTypes();
}

/// Shared by wait and store.
template <typename OpT> static LogicalResult verifySignalOp(OpT op) {
  if (op.getHasValueBuffer() && op.getArgs().empty())
    return op.emitOpError("has a value buffer but no operands");
  return verifySignalOp(op, op.getSignals(), op.getValueBuffer(),
                        op.getValue());
}

ParseResult WaitOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseSignalOp<WaitOp>(parser, result, ">=");
}
void WaitOp::print(OpAsmPrinter &printer) {
  printSignalOp(printer, *this, ">=");
}
LogicalResult WaitOp::verify() { return verifySignalOp(*this); }

ParseResult StoreOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseSignalOp<StoreOp>(parser, result, "=");
}
void StoreOp::print(OpAsmPrinter &printer) {
  printSignalOp(printer, *this, "=");
}
LogicalResult StoreOp::verify() { return verifySignalOp(*this); }

LogicalResult TimestampOp::verify() {
  if (failed(verifyLaneCount(*this, getSlots(), "timestamp slot")))
    return failure();
  return verifySignalTypes(*this, getSlots(), "timestamp slot");
}

LogicalResult ProfileOp::verify() {
  for (auto [what, value] :
       {std::pair<StringRef, Value>{"start", getStart()}, {"end", getEnd()}}) {
    PlaceholderOp placeholder = getPlaceholder(value);
    if (!placeholder || placeholder.getTag() != PlaceholderTag::timestamp ||
        !isSignalType(value.getType()))
      return emitOpError() << what
                           << " must be a 'timestamp' placeholder of "
                              "!hcq.buffer<1xi64, ...>";
  }
  if (getStart().getType() != getEnd().getType())
    return emitOpError() << "brackets a call with timestamps on different "
                            "devices: "
                         << getStart().getType() << " and "
                         << getEnd().getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Host ops
//===----------------------------------------------------------------------===//

LogicalResult FenceOp::verify() {
  return verifySignalTypes(*this, {getTimeline(), getEpoch()}, "fence operand");
}

LogicalResult ResetOp::verify() {
  if (getSignals().empty())
    return emitOpError("needs at least one signal");
  return verifySignalTypes(*this, getSignals(), "signal");
}

LogicalResult FinalizeOp::verify() {
  return verifySignalTypes(*this, {getTimelineValue(), getEpoch()},
                           "finalize operand");
}

//===----------------------------------------------------------------------===//
// InputsOp, EnqueueOp, PushOp
//===----------------------------------------------------------------------===//

LogicalResult hcq::detail::verifyTable(Operation *op, Value value,
                                       PlaceholderTag tag, unsigned bits,
                                       StringRef what) {
  auto type = cast<BufferType>(value.getType());
  if (!isPlaceholderOrArgument(value, tag) ||
      !type.getElementType().isInteger(bits))
    return op->emitOpError()
           << what << " must be a '" << stringifyPlaceholderTag(tag)
           << "' placeholder of i" << bits;
  return success();
}

LogicalResult InputsOp::verify() {
  if (failed(
          verifyTable(*this, getTable(), PlaceholderTag::inputs, 64, "table")))
    return failure();
  if (getInputs().size() != getLanes().size())
    return emitOpError() << "has " << getInputs().size() << " inputs but "
                         << getLanes().size() << " lanes";
  int64_t slots = cast<BufferType>(getTable().getType()).getNumElements();
  if (static_cast<int64_t>(getInputs().size()) > slots)
    return emitOpError() << "fills " << getInputs().size()
                         << " slots of a table that has " << slots;
  for (auto [i, input, lane] : llvm::enumerate(getInputs(), getLanes())) {
    if (!isa<BlockArgument>(input))
      return emitOpError() << "input #" << i
                           << " must be an argument of the schedule";
    size_t lanes = cast<BufferType>(input.getType()).getNumLanes();
    if (lane < 0 || static_cast<size_t>(lane) >= lanes)
      return emitOpError() << "slot " << i << " names lane " << lane
                           << " of an input with " << lanes << " lanes";
  }
  return success();
}

LogicalResult EnqueueOp::verify() {
  auto type = cast<BufferType>(getCmdbuf().getType());
  if (getSize() <= 0 || getSize() > type.getByteSize())
    return emitOpError() << "size " << getSize() << " is outside the "
                         << type.getByteSize() << "-byte command buffer";
  for (DeviceAttr device : getDevices().getDevices())
    if (!device.isHCQ())
      return emitOpError() << "device " << device.str()
                           << " has no command queues (expected AMD or CPU)";
  return success();
}

LogicalResult PushOp::verify() {
  auto source = cast<BufferType>(getSource().getType());
  if (getSize() <= 0 || getSize() > source.getByteSize())
    return emitOpError() << "size " << getSize() << " is outside the "
                         << source.getByteSize() << "-byte source";
  bool cpu = getDevices().allOfKind(DeviceKind::CPU);
  if ((getMode() == PushMode::cpu) != cpu)
    return emitOpError() << "mode '" << stringifyPushMode(getMode())
                         << "' does not fit devices of this kind";
  if (getMode() == PushMode::pm4 && getQueue().getKind() != QueueKind::COMPUTE)
    return emitOpError("mode 'pm4' is for compute queues");
  if (getMode() == PushMode::sdma && getQueue().getKind() != QueueKind::COPY)
    return emitOpError("mode 'sdma' is for copy queues");
  return success();
}
