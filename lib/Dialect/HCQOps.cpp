//===- HCQOps.cpp - HCQ operations ----------------------------------------===//

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

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/Format.h"
#include <limits>

using namespace mlir;
using namespace hcq;

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

/// An optional ` + N` or ` - N` after a value.
static ParseResult parseOptionalAddend(AsmParser &parser, int64_t &addend) {
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

static void printAddend(raw_ostream &os, int64_t addend) {
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

SmallVector<Value> CopyOp::getCallBuffers() { return {getDst(), getSrc()}; }

BufferUses CopyOp::getBufferUses(SymbolTableCollection &, Operation *) {
  return {{getDst(), getDstOffset(), getDstSize(), /*write=*/true,
           /*read=*/false},
          {getSrc(), getSrcOffset(), getSrcSize(), /*write=*/false,
           /*read=*/true}};
}

QueueKind CopyOp::getQueueKind() { return QueueKind::COPY; }

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

static bool isSignalType(Type type) {
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

static PlaceholderOp getPlaceholder(Value value) {
  return value.getDefiningOp<PlaceholderOp>();
}

/// A submitter's argument: a placeholder passed in, its tag unknown here.
static bool isSubmitterArgument(Value value) {
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

/// Whether the value is memory the link allocates: a placeholder, a kernel's
/// program, or a buffer the schedule owns.
static bool isLinkTimeBuffer(Value value) {
  return value.getDefiningOp<PlaceholderOp>() ||
         value.getDefiningOp<ProgramOp>() || value.getDefiningOp<AllocOp>();
}

//===----------------------------------------------------------------------===//
// ScheduleOp / ExecutableOp
//===----------------------------------------------------------------------===//

/// As function_interface_impl::parseFunctionOp, keeping the arguments'
/// names in `arg_names`. A numeric name, which the printer would not give
/// back, and the `argK` the printer gives the K-th argument with no name,
/// are "": printing and parsing again changes nothing.
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
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
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
/// the arguments' names instead of in the attributes.
template <typename OpTy>
static void printFunctionLike(OpAsmPrinter &printer, OpTy op) {
  printer << ' ';
  printer.printSymbolName(op.getSymName());
  function_interface_impl::printFunctionSignature(
      printer, op, op.getArgumentTypes(), /*isVariadic=*/false,
      op.getResultTypes());
  function_interface_impl::printFunctionAttributes(
      printer, op,
      {op.getFunctionTypeAttrName(), op.getArgAttrsAttrName(),
       op.getResAttrsAttrName(), op.getArgNamesAttrName()});
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

/// Whether a bound variable (a schedule argument or kernel scalar) may have
/// `type`: integers, and f32 / f64 (passed as their bits).
static bool isBoundVariableType(Type type) {
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

ParseResult ScheduleOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFunctionLike<ScheduleOp>(parser, result);
}
void ScheduleOp::print(OpAsmPrinter &printer) {
  printFunctionLike(printer, *this);
}
void ScheduleOp::getAsmBlockArgumentNames(Region &region,
                                          OpAsmSetValueNameFn setName) {
  nameArguments(*this, region, setName);
}
LogicalResult ScheduleOp::verify() { return verifyFunctionLike(*this); }

ParseResult ExecutableOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFunctionLike<ExecutableOp>(parser, result);
}
void ExecutableOp::print(OpAsmPrinter &printer) {
  printFunctionLike(printer, *this);
}
void ExecutableOp::getAsmBlockArgumentNames(Region &region,
                                            OpAsmSetValueNameFn setName) {
  nameArguments(*this, region, setName);
}
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

ParseResult SubmitterOp::parse(OpAsmParser &parser, OperationState &result) {
  return parseFunctionLike<SubmitterOp>(parser, result);
}
void SubmitterOp::print(OpAsmPrinter &printer) {
  printFunctionLike(printer, *this);
}
void SubmitterOp::getAsmBlockArgumentNames(Region &region,
                                           OpAsmSetValueNameFn setName) {
  nameArguments(*this, region, setName);
}
LogicalResult SubmitterOp::verify() {
  if (failed(verifyFunctionLike(*this)))
    return failure();
  for (Operation &op : getBody().front())
    if (!op.hasTrait<hcq::OpTrait::HostStep>())
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
// Words: shared by hcq.cmds and hcq.blob
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

void hcq::printWord(raw_ostream &os, const Word &word, ValueRange refs,
                    unsigned bits,
                    function_ref<void(raw_ostream &, Value)> printValue) {
  auto operand = [&]() {
    if (word.lanes == 1)
      return printValue(os, refs[word.ref]);
    os << '[';
    llvm::interleaveComma(refs.slice(word.ref, word.lanes), os,
                          [&](Value v) { printValue(os, v); });
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
    os << (word.part == WordPart::lo   ? "load.lo("
           : word.part == WordPart::hi ? "load.hi("
                                       : "load(");
    operand();
    printAddend(os, static_cast<int64_t>(word.value));
    os << ')';
    break;
  }
  case WordKind::address:
    os << (word.part == WordPart::lo   ? "lo("
           : word.part == WordPart::hi ? "hi("
                                       : "addr(");
    operand();
    if (word.value)
      os << " + " << word.value;
    if (word.shift)
      os << " >> " << word.shift;
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
  hcq::printWord(printer.getStream(), word, refs, bits,
                 [&](raw_ostream &, Value v) { printer.printOperand(v); });
}

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
      f.linkTime = f.linear || isLinkTimeBuffer(ref);
      if (auto buffer = dyn_cast<BufferType>(type))
        f.byteSize = buffer.getByteSize();
      facts.push_back(f);
    }
  }

  size_t size() const { return refs.size(); }

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

  /// Per operand, the largest byte offset a link-time address of it may
  /// have (a stream's: any), or -1 when its address is not known at link
  /// time.
  SmallVector<int64_t> getLinkTimeAddressLimits() const {
    return llvm::map_to_vector(facts, [](const Facts &f) -> int64_t {
      if (!f.linkTime)
        return -1;
      return f.linear ? std::numeric_limits<int64_t>::max() : f.byteSize;
    });
  }

  /// Whether every symbolic word of a stream of `bits`-wide words (their
  /// constant bits in `units`) in a submit of `lanes` lanes passes the
  /// checks of CmdsOp::verify: one pass without diagnostics, for streams of
  /// hundreds of thousands of words. When it says no, the full checks find
  /// and report the problem.
  bool areStreamWordsValid(ArrayRef<int64_t> fields, ArrayRef<int32_t> units,
                           unsigned bits, size_t lanes) const {
    if (fields.size() % SYMBOL_FIELDS)
      return false;
    unsigned perWord = bits / 32;
    size_t numWords = units.size() / perWord;
    int64_t previous = -1;
    for (size_t k = 0; k < fields.size(); k += SYMBOL_FIELDS) {
      // The layout is SymbolicWords's.
      auto head = static_cast<uint64_t>(fields[k]);
      auto at = static_cast<int64_t>(head & 0xffffffff);
      uint64_t meta = head >> 32, kind = meta & 0xff, part = (meta >> 8) & 0xff,
               shift = (meta >> 16) & 0xff;
      bool pair = meta & SYMBOL_PAIR;
      int64_t last = at + (pair ? 1 : 0);
      if (at <= previous || size_t(last) >= numWords ||
          kind == uint64_t(WordKind::constant) ||
          kind > uint64_t(WordKind::load) || part > uint64_t(WordPart::hi) ||
          shift >= 64 || meta >> 25 ||
          (pair && (bits != 32 || part != uint64_t(WordPart::full) ||
                    kind == uint64_t(WordKind::variable))))
        return false;
      previous = last;
      for (unsigned u = 0; u < perWord * (pair ? 2 : 1); ++u)
        if (units[at * perWord + u])
          return false;
      auto refs = static_cast<uint64_t>(fields[k + 1]);
      uint64_t ref = refs & 0xffffffff, n = refs >> 32;
      if (n == 0 || ref + n > facts.size() || (n != 1 && n != lanes))
        return false;
      auto value = static_cast<uint64_t>(fields[k + 2]);
      for (uint64_t i = ref; i < ref + n; ++i) {
        const Facts &f = facts[i];
        if (kind == uint64_t(WordKind::variable)
                ? !f.boundVariable || value || shift
            : kind == uint64_t(WordKind::load)
                ? !f.loadable || shift
                : !f.linear && (f.byteSize < 0 ||
                                value > static_cast<uint64_t>(f.byteSize)))
          return false;
      }
      bool wide =
          part == uint64_t(WordPart::full) &&
          (kind != uint64_t(WordKind::variable) || facts[ref].wideVariable);
      if (bits == 32 ? wide != pair : part != uint64_t(WordPart::full))
        return false;
    }
    return true;
  }

  /// Checks one word against the operands it refers to.
  LogicalResult verify(Operation *op, const Word &word, size_t index) const {
    auto fail = [&]() { return op->emitOpError() << "word #" << index << " "; };
    if (word.kind == WordKind::constant) {
      if (word.ref != -1 || word.part != WordPart::full || word.shift ||
          word.orBits || word.lanes != 1)
        return fail() << "is a constant but names an operand, part, shift or "
                         "bits";
      return success();
    }
    if (word.lanes == 0 || word.ref < 0 || word.ref + word.lanes > size())
      return fail() << "refers to operands [" << word.ref << ", "
                    << word.ref + word.lanes << ") but there are " << size();
    for (size_t i = word.ref, e = word.ref + word.lanes; i < e; ++i) {
      const Facts &f = facts[i];
      if (word.kind == WordKind::variable) {
        if (!f.boundVariable)
          return fail() << "is a variable but its operand has type "
                        << refs[i].getType();
        if (word.value || word.shift)
          return fail() << "is a variable and takes no offset or shift";
      } else if (word.kind == WordKind::load) {
        if (!f.loadable)
          return fail()
                 << "loads from a value that is not a 64-bit placeholder";
        if (word.shift)
          return fail() << "is a load and takes no shift";
      } else if (!f.linear) {
        if (f.byteSize < 0)
          return fail() << "takes the address of a " << refs[i].getType()
                        << ", not a buffer or stream";
        if (word.value > static_cast<uint64_t>(f.byteSize))
          return fail() << "address offset " << word.value << " is outside the "
                        << f.byteSize << "-byte buffer";
      }
    }
    return success();
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
} // namespace

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
  if (!isAliasWalk(printer))
    stream.forEach([&](size_t i, const Word &word) {
      for (; !segments.empty() && size_t(segments.front()) == i;
           segments = segments.drop_front()) {
        printer << "] [";
        firstInSegment = true;
      }
      if (!firstInSegment)
        printer << ", ";
      firstInSegment = false;
      printWordOperands(printer, word, getRefs(), getWordBits());
    });
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
  OperandFacts operands(getRefs());
  if (operands.areStreamWordsValid(getSymbols(), getWords(), bits, lanes))
    return success();
  if (std::optional<std::string> why = stream.getSymbols().check())
    return emitOpError() << "symbols table " << *why;
  SymbolicWords symbols = stream.getSymbols();
  if (symbols.size() &&
      size_t(symbols.last(symbols.size() - 1)) >= stream.size())
    return emitOpError() << "symbolic word at "
                         << symbols.last(symbols.size() - 1)
                         << " is past the stream's " << stream.size()
                         << " words";
  // Each symbolic word is checked against its operands (a pass over the
  // few, not a search per word); constants fit their width by storage.
  for (size_t k = 0; k < symbols.size(); ++k) {
    int64_t i = symbols.at(k);
    bool pair = symbols.isPair(k);
    for (int64_t j = i; j <= symbols.last(k); ++j)
      if (stream.constantBits(j) != 0)
        return emitOpError()
               << "word #" << j << " is symbolic but has constant bits too";
    if (pair && bits != 32)
      return emitOpError() << "word #" << i
                           << " is a pair of halves in a 64-bit stream";
    Word word = symbols.word(k);
    if (failed(operands.verify(*this, word, i)))
      return failure();
    if (word.lanes != 1 && word.lanes != lanes)
      return emitOpError() << "word #" << i << " has " << word.lanes
                           << " lanes but the submit has " << lanes;
    if (bits == 32 && !pair && operands.getPatchBits(word) != 32)
      return emitOpError() << "word #" << i
                           << " is 64 bits wide in a 32-bit stream: use "
                              "lo(...) and hi(...)";
    if (bits == 64 && word.part != WordPart::full)
      return emitOpError() << "word #" << i
                           << " is a 32-bit half in a 64-bit stream";
  }
  // These checks are the definition; areStreamWordsValid may refuse more (an
  // address offset past 2^63 into a stream).
  return success();
}

//===----------------------------------------------------------------------===//
// BlobOp
//===----------------------------------------------------------------------===//

/// Whether every entry of a blob's patch table is a well-formed link-time
/// address of an operand, in order and inside the `bytes` of data: the
/// checks of BlobOp::verify in one pass without diagnostics. A sealed blob
/// has hundreds of thousands of patches and is verified after every pass;
/// when this says no, the full checks find and report the problem.
static bool arePatchesValid(ArrayRef<int64_t> fields,
                            ArrayRef<int64_t> addressLimits, int64_t bytes) {
  if (fields.size() % SYMBOL_FIELDS)
    return false;
  int64_t previous = -1;
  for (size_t k = 0; k < fields.size(); k += SYMBOL_FIELDS) {
    // The layout is SymbolicWords's.
    auto head = static_cast<uint64_t>(fields[k]);
    auto at = static_cast<int64_t>(head & 0xffffffff);
    uint64_t meta = head >> 32, part = (meta >> 8) & 0xff;
    if (at <= previous || (meta & 0xff) != uint64_t(WordKind::address) ||
        part > uint64_t(WordPart::hi) || ((meta >> 16) & 0xff) >= 64 ||
        meta >> 24)
      return false;
    previous = at;
    auto refs = static_cast<uint64_t>(fields[k + 1]);
    uint64_t ref = refs & 0xffffffff, lanes = refs >> 32;
    if (lanes == 0 || ref + lanes > addressLimits.size())
      return false;
    auto offset = static_cast<uint64_t>(fields[k + 2]);
    for (uint64_t i = ref; i < ref + lanes; ++i)
      if (addressLimits[i] < 0 || offset > uint64_t(addressLimits[i]))
        return false;
    if (at + (part == uint64_t(WordPart::full) ? 8 : 4) > bytes)
      return false;
  }
  return true;
}

/// The attribute-dictionary spelling of a blob's lane property.
static constexpr llvm::StringLiteral BLOB_LANE = "lane";

ParseResult BlobOp::parse(OpAsmParser &parser, OperationState &result) {
  OpAsmParser::UnresolvedOperand target;
  SmallVector<int32_t> data;
  if (parser.parseOperand(target) || parser.parseEqual() ||
      parser.parseCommaSeparatedList(
          OpAsmParser::Delimiter::Square, [&]() -> ParseResult {
            SMLoc loc = parser.getCurrentLocation();
            uint64_t dword;
            if (parser.parseInteger(dword))
              return failure();
            if (dword > UINT32_MAX)
              return parser.emitError(loc, "blob data are 32-bit words");
            data.push_back(static_cast<int32_t>(static_cast<uint32_t>(dword)));
            return success();
          }))
    return failure();

  WordRefParser words{parser, {}, {}};
  SmallVector<int64_t> patches;
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
            appendSymbol(patches, offset, word);
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
  props.setPatches(patches);
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
  printer << ' ' << getTarget() << " = [";
  bool aliasWalk = isAliasWalk(printer);
  if (!aliasWalk)
    llvm::interleaveComma(getData(), printer, [&](int32_t dword) {
      printer << llvm::format_hex(static_cast<uint32_t>(dword), 10);
    });
  printer << ']';
  SymbolicWords patches = getPatchTable();
  if (patches.size() && !aliasWalk) {
    printer << " patches [";
    for (size_t k = 0; k < patches.size(); ++k) {
      printer << (k ? ", " : "") << patches.at(k) << ": ";
      printWordOperands(printer, patches.word(k), getRefs(), 64);
    }
    printer << ']';
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
  if (!isLinkTimeBuffer(getTarget()))
    return emitOpError("target must be an hcq.placeholder or hcq.program");
  if (getLane() &&
      (*getLane() < 0 || size_t(*getLane()) >= target.getNumLanes()))
    return emitOpError() << "lane " << *getLane() << " of a target with "
                         << target.getNumLanes() << " lanes";
  if (bytes > target.getByteSize())
    return emitOpError() << "writes " << bytes << " bytes into a "
                         << target.getByteSize() << "-byte placeholder";
  OperandFacts operands(getRefs());
  if (arePatchesValid(getPatches(), operands.getLinkTimeAddressLimits(), bytes))
    return success();
  SymbolicWords patches = getPatchTable();
  if (std::optional<std::string> why = patches.check())
    return emitOpError() << "patch table " << *why;
  for (size_t i = 0; i < patches.size(); ++i) {
    int64_t offset = patches.at(i);
    if (patches.isPair(i))
      return emitOpError() << "patch #" << i
                           << " is a pair of stream words, not one patch";
    Word word = patches.word(i);
    if (failed(operands.verify(*this, word, i)))
      return failure();
    if (word.kind != WordKind::address)
      return emitOpError() << "patch #" << i
                           << " must be an address: constants belong in the "
                              "data, variables in an hcq.patch_group";
    if (!operands.isLinkTime(word))
      return emitOpError()
             << "patch #" << i
             << " takes the address of a value that is not a placeholder or "
                "program: per-run addresses go through hcq.patch_group";
    unsigned width = operands.getPatchBits(word) / 8;
    if (offset < 0 || offset > bytes - static_cast<int64_t>(width))
      return emitOpError() << "patch #" << i << " at byte " << offset
                           << " is outside the " << bytes << "-byte data";
  }
  // These checks are the definition; arePatchesValid may refuse more (a
  // stream offset past 2^63).
  return success();
}

//===----------------------------------------------------------------------===//
// InputsOp, PatchGroupOp, EnqueueOp
//===----------------------------------------------------------------------===//

/// Checks that `value` is a placeholder with `tag` and `bits`-wide integers.
static LogicalResult verifyTable(Operation *op, Value value, PlaceholderTag tag,
                                 unsigned bits, StringRef what) {
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
  result.addAttribute(getWordAttrName(result.name),
                      hcq::getWordAttr(parser.getContext(), word));
  return success();
}

void PatchGroupOp::print(OpAsmPrinter &printer) {
  printer << ' ' << getTarget() << " offsets " << getOffsets() << '['
          << getStart() << ", " << getCount() << "] i" << getBits() << ' ';
  printWordOperands(printer, hcq::getWord(getWord()), getSource(), getBits());
  printer.printOptionalAttrDict((*this)->getAttrs(), {getWordAttrName()});
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
  Word word = hcq::getWord(getWord());
  if (word.isConstant())
    return emitOpError("a constant belongs in the blob, not in a patch group");
  // An address's offset is into the input the table slot names, not into
  // the table: there is nothing to bound it by here.
  if (word.kind == WordKind::address) {
    if (failed(verifyTable(*this, getSource(), PlaceholderTag::inputs, 64,
                           "an address patch's source")))
      return failure();
  } else if (failed(OperandFacts(getSource()).verify(*this, word, 0))) {
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
