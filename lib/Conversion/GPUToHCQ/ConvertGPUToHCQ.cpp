//===- ConvertGPUToHCQ.cpp - Upstream gpu host code into hcq.schedule -----===//
//
// What an MLIR-based compiler's GPU path ends in (a func.func of
// gpu.launch_func, gpu.memcpy, gpu.alloc / gpu.dealloc and gpu.wait with
// async tokens, its kernels compiled into a gpu.binary) becomes an
// hcq.schedule of hcq.launch, hcq.copy and hcq.alloc, and each launched
// kernel an hcq.kernel: of target amd holding the binary's code object for
// launches on AMD devices, of target cpu holding its host object (what
// #hcq.host_target compiled, lib/Target/Host) for launches on CPU devices.
// An AMD kernel whose binary also has a host object carries it too: its
// hcq_twin_<kernel> is the kernel's CPU twin on the emulated AMD device.
// Async tokens only constrain the order; a schedule runs its calls in
// program order, which respects every token, and hcq-batch-deps recovers the
// real dependencies from the buffers.
//
// Two steps: plan() checks each function and refuses, with a diagnostic
// naming the op, anything a schedule cannot express, recording each
// signature and launch; then a partial dialect conversion (MLIR's
// DialectConversion driver) rewrites what plan() accepted, so it cannot fail
// halfway through a function. Buffer types are built with their checked
// getter, and the schedules made are verified before the pass succeeds: a
// limit only hcq's verifiers know (a grid dimension past 32 bits) fails the
// pass at the launch rather than leave invalid IR.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Base/Device.h"
#include "HCQ/Conversion/Passes.h"
#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Target/AMD/Target.h"
#include "HCQ/Target/Host/ArgumentAccess.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMTypes.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinDialect.h"
#include "mlir/IR/DialectResourceBlobManager.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/DialectConversion.h"
#include "llvm/Support/CheckedArithmetic.h"

namespace hcq {
#define GEN_PASS_DEF_CONVERTGPUTOHCQ
#include "HCQ/Conversion/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

/// A checked gpu.launch_func: its hcq.kernel, how many of its operands are
/// buffers (the rest are scalars), its grid and block.
struct LaunchPlan {
  FlatSymbolRefAttr kernel;
  SmallVector<int64_t> grid, block;
  /// Index constants among the scalars, by operand number: each is passed
  /// as this i32 constant (hcq kernel scalars are i32 or f32).
  SmallVector<std::pair<unsigned, int32_t>> indexConstants;
};

struct ConvertGPUToHCQPass
    : public hcq::impl::ConvertGPUToHCQBase<ConvertGPUToHCQPass> {
  using Base::Base;

  void runOnOperation() override;

private:
  FailureOr<DeviceAttr> parseDevice(StringRef text, Location loc);
  FailureOr<BufferType> bufferType(Type type, DeviceAttr device,
                                   Operation *user, const Twine &what);
  /// Checks `func` and records what the conversion needs: its signature and
  /// each launch's kernel and sizes. Every refusal is reported here, so the
  /// conversion itself cannot fail on input plan() accepted.
  LogicalResult plan(func::FuncOp func);
  /// Converts the planned functions of `module`.
  LogicalResult applyConversion();
  /// The hcq.kernel of what `launch` calls, for a launch on `runsOn`
  /// whose workgroups are `block`.
  FailureOr<FlatSymbolRefAttr> kernelFor(gpu::LaunchFuncOp launch,
                                         DeviceAttr runsOn, unsigned numBuffers,
                                         ArrayRef<Type> elementTypes,
                                         ArrayRef<int64_t> block);
  /// Checks that `metadata`, a kernel of the host object, can be called as
  /// hcq calls it: its signature, and the workgroup size it was compiled for.
  LogicalResult checkHostKernel(gpu::LaunchFuncOp launch,
                                gpu::KernelMetadataAttr metadata,
                                unsigned numBuffers, ArrayRef<int64_t> block);
  /// The resource blob holding `object`'s bytes, made once per object.
  Attribute objectBlob(gpu::ObjectAttr object, StringRef name);
  FailureOr<SmallVector<int64_t>> constantSizes(gpu::KernelDim3 dims,
                                                Operation *op, StringRef what);

  ModuleOp module;
  DeviceAttr defaultDevice;
  /// hcq.kernel by (binary, kernel name, target), with the host code's
  /// metadata if it has host code (each launch's block is checked against
  /// it).
  llvm::StringMap<std::pair<FlatSymbolRefAttr, gpu::KernelMetadataAttr>>
      kernels;
  /// The resource blob of each gpu.binary object (code or host object).
  DenseMap<Attribute, Attribute> objectBlobs;
  /// What plan() found, for the conversion patterns.
  DenseMap<Operation *, SmallVector<Type>> signatures;
  DenseMap<Operation *, LaunchPlan> launches;
  DenseMap<Operation *, BufferType> allocs;
};

FailureOr<DeviceAttr> ConvertGPUToHCQPass::parseDevice(StringRef text,
                                                       Location loc) {
  hcq::Expected<DeviceName> name = parseDeviceName(text);
  if (!name) {
    emitError(loc) << hcq::toString(name.takeError());
    return failure();
  }
  return DeviceAttr::get(&getContext(), name->kind, name->index);
}

/// A statically shaped, contiguous memref as a buffer on `device`; `what`
/// names the value in diagnostics. The type is built checked: a memref
/// whose element count or byte size does not fit int64_t, or that has no
/// elements, is refused here rather than made into an invalid buffer.
FailureOr<BufferType> ConvertGPUToHCQPass::bufferType(Type type,
                                                      DeviceAttr device,
                                                      Operation *user,
                                                      const Twine &what) {
  auto memref = dyn_cast<MemRefType>(type);
  if (!memref || !memref.hasStaticShape() || !memref.getLayout().isIdentity() ||
      !memref.getElementType().isIntOrFloat() ||
      memref.getElementTypeBitWidth() % 8)
    return user->emitOpError()
           << "uses " << type
           << ", which is no statically shaped, contiguous memref of whole-"
              "byte integers or floats: hcq buffers are";
  // ShapedType::getNumElements multiplies unchecked.
  std::optional<int64_t> count = 1;
  for (int64_t dim : memref.getShape())
    if (count)
      count = llvm::checkedMul(*count, dim);
  if (!count)
    return user->emitOpError()
           << what << " is " << type
           << ", whose element count does not fit a signed 64-bit integer";
  if (*count == 0)
    return user->emitOpError() << what << " is " << type
                               << ", which has no elements: an hcq buffer has "
                                  "at least one";
  BufferType buffer = BufferType::getChecked(
      [&] { return user->emitOpError() << what << " is " << type << ": "; },
      &getContext(), *count, memref.getElementType(),
      DevicesAttr::get(&getContext(), {device}));
  if (!buffer)
    return failure();
  return buffer;
}

FailureOr<SmallVector<int64_t>>
ConvertGPUToHCQPass::constantSizes(gpu::KernelDim3 dims, Operation *op,
                                   StringRef what) {
  SmallVector<int64_t> sizes;
  for (Value v : {dims.x, dims.y, dims.z}) {
    std::optional<int64_t> c = getConstantIntValue(v);
    if (!c || *c <= 0)
      return op->emitOpError()
             << "has a " << what
             << " size that is no positive constant: an hcq schedule's "
                "grid is fixed when it is compiled";
    sizes.push_back(*c);
  }
  return sizes;
}

Attribute ConvertGPUToHCQPass::objectBlob(gpu::ObjectAttr object,
                                          StringRef name) {
  Attribute &blob = objectBlobs[object];
  if (!blob) {
    StringRef bytes = object.getObject().getValue();
    blob = DenseResourceElementsAttr::get(
        RankedTensorType::get({static_cast<int64_t>(bytes.size())},
                              IntegerType::get(&getContext(), 8)),
        name,
        HeapAsmResourceBlob::allocateAndCopyWithAlign(
            ArrayRef<char>(bytes.data(), bytes.size()), alignof(uint64_t)));
  }
  return blob;
}

LogicalResult ConvertGPUToHCQPass::checkHostKernel(
    gpu::LaunchFuncOp launch, gpu::KernelMetadataAttr metadata,
    unsigned numBuffers, ArrayRef<int64_t> block) {
  StringRef kernelName = launch.getKernelName().getValue();
  // gpu.func kernels record their own type, kernels lowered for ROCDL an
  // LLVM function type: buffers are memrefs or pointers either way.
  ArrayRef<Type> params;
  if (auto type = dyn_cast<FunctionType>(metadata.getFunctionType()))
    params = type.getInputs();
  else if (auto type =
               dyn_cast<LLVM::LLVMFunctionType>(metadata.getFunctionType()))
    params = type.getParams();
  unsigned numScalars = launch.getKernelOperands().size() - numBuffers;
  bool fits = params.size() == numBuffers + numScalars;
  for (auto [i, param] : llvm::enumerate(params)) {
    if (!fits)
      break;
    if (i < numBuffers)
      fits = isa<MemRefType, LLVM::LLVMPointerType>(param);
    else
      fits = param.isInteger(32) || param.isF32();
  }
  if (!fits)
    return launch.emitOpError()
           << "kernel @" << kernelName << "'s host code is "
           << metadata.getFunctionType() << ": hcq kernels take " << numBuffers
           << " buffers first, then " << numScalars << " i32 or f32 scalars";
  // The host code runs the workgroup it was compiled for (hcq's CPU kernel
  // ABI passes no workgroup size).
  auto compiled =
      dyn_cast_or_null<DenseI32ArrayAttr>(metadata.getAttr("block_size"));
  if (compiled && compiled.size() == 3 &&
      llvm::equal(compiled.asArrayRef(), block,
                  [](int32_t a, int64_t b) { return a == b; }))
    return success();
  InFlightDiagnostic diag = launch.emitOpError()
                            << "launches @"
                            << launch.getKernelModuleName().getValue() << "::@"
                            << kernelName << " with blocks of [" << block
                            << "] work-items, but its host code was compiled "
                               "for ";
  if (compiled)
    diag << "known_block_size [" << compiled.asArrayRef() << "]";
  else
    diag << "no known block size";
  return diag;
}

/// The hcq.kernel for the kernel `launch` calls, made at its first use from
/// the gpu.binary's objects: for a launch on an AMD device its code object
/// for the chosen chip (and the host object as its twin, if the binary has
/// one), for a launch on a CPU device its host object.
FailureOr<FlatSymbolRefAttr>
ConvertGPUToHCQPass::kernelFor(gpu::LaunchFuncOp launch, DeviceAttr runsOn,
                               unsigned numBuffers, ArrayRef<Type> elementTypes,
                               ArrayRef<int64_t> block) {
  StringRef binaryName = launch.getKernelModuleName().getValue();
  StringRef kernelName = launch.getKernelName().getValue();
  bool onAMD = runsOn.getKind() == DeviceKind::AMD;
  std::string key =
      (binaryName + "::" + kernelName + (onAMD ? "::amd" : "::host")).str();
  auto cached = kernels.find(key);
  if (cached != kernels.end()) {
    auto [ref, hostKernel] = cached->second;
    if (hostKernel &&
        failed(checkHostKernel(launch, hostKernel, numBuffers, block)))
      return failure();
    return ref;
  }

  Operation *container = SymbolTable::lookupSymbolIn(
      module, StringAttr::get(&getContext(), binaryName));
  if (isa_and_nonnull<gpu::GPUModuleOp>(container))
    return launch.emitOpError()
           << "launches a kernel of gpu.module @" << binaryName
           << ", which is not compiled: run gpu-module-to-binary first";
  auto binary = dyn_cast_or_null<gpu::BinaryOp>(container);
  if (!binary)
    return launch.emitOpError()
           << "launches a kernel of @" << binaryName << ", no gpu.binary";

  // The host object (#hcq.host_target's) and its kernel, if the binary has
  // them.
  gpu::ObjectAttr hostObject;
  gpu::KernelMetadataAttr hostKernel;
  for (Attribute attr : binary.getObjectsAttr()) {
    auto candidate = cast<gpu::ObjectAttr>(attr);
    if (!isa<HostTargetAttr>(candidate.getTarget()))
      continue;
    hostObject = candidate;
    if (gpu::KernelTableAttr table = candidate.getKernels())
      hostKernel = table.lookup(kernelName);
    break;
  }
  if (hostKernel && hostObject.getFormat() != gpu::CompilationTarget::Binary)
    return launch.emitOpError()
           << "gpu.binary @" << binaryName << "'s host object holds "
           << gpu::stringifyCompilationTarget(hostObject.getFormat())
           << ", not a shared object: compile it with format=bin";
  if (hostKernel &&
      failed(checkHostKernel(launch, hostKernel, numBuffers, block)))
    return failure();

  OpBuilder builder = OpBuilder::atBlockBegin(module.getBody());
  MLIRContext *ctx = &getContext();
  unsigned numScalars = launch.getKernelOperands().size() - numBuffers;
  // Each buffer's access as the host object's kernel table records it (what
  // the kernel's body does with it: the same source as the code objects'),
  // readwrite where nothing says.
  SmallVector<Attribute> access;
  for (unsigned i = 0; i < numBuffers; ++i) {
    auto recorded = hostKernel
                        ? dyn_cast_or_null<StringAttr>(
                              hostKernel.getArgAttr(i, KERNEL_ARG_ACCESS_ATTR))
                        : StringAttr();
    std::optional<Access> known =
        recorded ? symbolizeAccess(recorded.getValue()) : std::nullopt;
    access.push_back(AccessAttr::get(ctx, known.value_or(Access::readwrite)));
  }
  Attribute hostBlob;
  if (hostKernel)
    hostBlob = objectBlob(hostObject, (binaryName + "_host").str());

  if (!onAMD) {
    // Host code runs on CPU devices; AMD code objects nowhere else.
    if (!hostKernel || runsOn.getKind() != DeviceKind::CPU)
      return launch.emitOpError()
             << "launches @" << binaryName << "::@" << kernelName << " on "
             << runsOn.str()
             << ", but the kernel has only AMD code objects and no host "
                "code: put its memrefs on an AMD device (the pass's 'device' "
                "option or an argument's 'hcq.device')"
             << (runsOn.getKind() == DeviceKind::CPU
                     ? ", or compile its gpu.module for #hcq.host_target too "
                       "(hcq-attach-host-target)"
                     : "");
    auto kernel = KernelOp::create(
        builder, launch.getLoc(),
        builder.getStringAttr(binaryName + "_" + kernelName + "_cpu"),
        KernelTarget::cpu, builder.getArrayAttr(access),
        builder.getTypeArrayAttr(elementTypes),
        static_cast<int64_t>(numScalars), builder.getStringAttr(kernelName),
        /*library=*/nullptr, /*code_object=*/nullptr, hostBlob);
    if (failed(mlir::verify(kernel)))
      return failure();
    auto ref = FlatSymbolRefAttr::get(kernel.getSymNameAttr());
    kernels[key] = {ref, hostKernel};
    return ref;
  }

  // The object for the chosen chip (or the only AMD one).
  gpu::ObjectAttr object;
  SmallVector<std::string> chips;
  for (Attribute attr : binary.getObjectsAttr()) {
    auto candidate = cast<gpu::ObjectAttr>(attr);
    auto target = dyn_cast<ROCDL::ROCDLTargetAttr>(candidate.getTarget());
    if (!target)
      continue;
    chips.push_back(target.getChip().str());
    if (chip.empty() ? !object : target.getChip() == chip)
      object = candidate;
  }
  if (!object)
    return launch.emitOpError()
           << "gpu.binary @" << binaryName << " has no #rocdl.target object"
           << (chip.empty() ? std::string() : " for chip " + std::string(chip))
           << (chips.empty() ? std::string()
                             : " (it has " + llvm::join(chips, ", ") + ")");
  if (chip.empty() && chips.size() > 1)
    return launch.emitOpError()
           << "gpu.binary @" << binaryName << " has objects for "
           << llvm::join(chips, ", ") << ": choose one with 'chip'";
  if (object.getFormat() != gpu::CompilationTarget::Binary &&
      object.getFormat() != gpu::CompilationTarget::Fatbin)
    return launch.emitOpError()
           << "gpu.binary @" << binaryName << " holds "
           << gpu::stringifyCompilationTarget(object.getFormat())
           << ", not a code object: compile it with format=bin or fatbin";

  // A chip hcq does not encode for is refused here, by name, not by the
  // encoder as a number from the code object's ELF header.
  StringRef objectChip =
      cast<ROCDL::ROCDLTargetAttr>(object.getTarget()).getChip();
  if (!amd::lookupTarget(objectChip))
    return launch.emitOpError()
           << "gpu.binary @" << binaryName << "'s code object is for "
           << objectChip << ", which hcq does not encode for: compile the "
           << "gpu.module for " << amd::listTargetNames()
           << " (rocdl-attach-target's chip)";

  // The kernel's signature, from the object's kernel metadata: hcq kernels
  // take their buffers (as pointers) first, then 32-bit scalars.
  gpu::KernelTableAttr table = object.getKernels();
  gpu::KernelMetadataAttr metadata =
      table ? table.lookup(kernelName) : gpu::KernelMetadataAttr();
  if (!metadata)
    return launch.emitOpError()
           << "gpu.binary @" << binaryName << " has no metadata for kernel @"
           << kernelName << " (gpu-module-to-binary records it)";
  auto signature = dyn_cast<LLVM::LLVMFunctionType>(metadata.getFunctionType());
  if (!signature)
    return launch.emitOpError() << "kernel @" << kernelName
                                << " has no LLVM function type in its metadata";
  ArrayRef<Type> params = signature.getParams();
  bool fits = params.size() == numBuffers + numScalars;
  for (auto [i, param] : llvm::enumerate(params)) {
    if (!fits)
      break;
    if (i < numBuffers)
      fits = isa<LLVM::LLVMPointerType>(param);
    else
      fits = param.isInteger(32) || param.isF32();
  }
  if (!fits) {
    std::string text;
    llvm::raw_string_ostream os(text);
    os << signature;
    return launch.emitOpError() << "kernel @" << kernelName << " is " << text
                                << ": hcq kernels take " << numBuffers
                                << " buffer pointers first, then " << numScalars
                                << " i32 or f32 scalars (compile memrefs with "
                                   "use-bare-ptr-memref-call-conv=1)";
  }

  // The code object, once per object however many kernels it holds: a
  // resource blob the kernels refer to, not bytes inline in each.
  auto chipName = cast<ROCDL::ROCDLTargetAttr>(object.getTarget()).getChip();
  Attribute code = objectBlob(object, (binaryName + "_" + chipName).str());
  auto kernel = KernelOp::create(
      builder, launch.getLoc(),
      builder.getStringAttr(binaryName + "_" + kernelName), KernelTarget::amd,
      builder.getArrayAttr(access), builder.getTypeArrayAttr(elementTypes),
      static_cast<int64_t>(numScalars), builder.getStringAttr(kernelName),
      /*library=*/nullptr, code, hostBlob);
  // The kernel verifies here (its code object is an ELF file, say), or the
  // pass fails at the launch, never leaving a kernel that does not.
  if (failed(mlir::verify(kernel)))
    return failure();
  auto ref = FlatSymbolRefAttr::get(kernel.getSymNameAttr());
  kernels[key] = {ref, hostKernel};
  return ref;
}

LogicalResult ConvertGPUToHCQPass::plan(func::FuncOp func) {
  if (func.isExternal())
    return success();
  if (func.getNumResults())
    return func.emitOpError()
           << "returns values: an hcq schedule returns nothing (pass outputs "
              "as memref arguments)";
  if (!func.getBody().hasOneBlock())
    return func.emitOpError()
           << "has control flow: an hcq schedule is one block of calls";

  // The signature: memrefs become buffers on their device (the argument's
  // `hcq.device` attribute, or the pass's device); i32, i64, f32 and f64
  // stay bound variables.
  SmallVector<Type> inputs;
  for (auto [i, type] : llvm::enumerate(func.getArgumentTypes())) {
    if (type.isInteger(32) || type.isInteger(64) || type.isF32() ||
        type.isF64()) {
      inputs.push_back(type);
      continue;
    }
    DeviceAttr device = defaultDevice;
    if (auto attr = func.getArgAttrOfType<StringAttr>(i, "hcq.device")) {
      FailureOr<DeviceAttr> parsed =
          parseDevice(attr.getValue(), func.getArgument(i).getLoc());
      if (failed(parsed))
        return failure();
      device = *parsed;
    }
    if (!isa<MemRefType>(type))
      return func.emitOpError()
             << "argument " << i << " is " << type
             << ": an hcq schedule takes memrefs (buffers) and i32, i64, "
                "f32 or f64 (bound variables)";
    FailureOr<BufferType> buffer =
        bufferType(type, device, func, "argument " + Twine(i));
    if (failed(buffer))
      return failure();
    inputs.push_back(*buffer);
  }

  // The memrefs the schedule knows: its arguments and its allocations,
  // with their buffer types.
  DenseMap<Value, BufferType> buffers;
  for (auto [arg, type] : llvm::zip(func.getArguments(), inputs))
    if (auto buffer = dyn_cast<BufferType>(type))
      buffers[arg] = buffer;
  auto buffer = [&](Value memref, Operation *user) -> FailureOr<BufferType> {
    auto it = buffers.find(memref);
    if (it == buffers.end())
      return user->emitOpError()
             << "uses a memref that is neither an argument of the function "
                "nor a gpu.alloc";
    return it->second;
  };

  LogicalResult result = success();
  for (Operation &op : func.getBody().front()) {
    auto fail = [&](const Twine &why) {
      op.emitOpError() << why;
      result = failure();
    };
    if (isa<gpu::WaitOp, gpu::DeallocOp, func::ReturnOp>(op))
      continue; // order is the schedule's; allocs are the schedule's
    // Constants and index arithmetic stay behind: a launch reads its grid
    // from constants, and refuses any other value as a size or scalar.
    if (isa<arith::ArithDialect>(op.getDialect()))
      continue;
    if (auto alloc = dyn_cast<gpu::AllocOp>(op)) {
      if (!alloc.getDynamicSizes().empty() ||
          !alloc.getSymbolOperands().empty()) {
        fail("has dynamic sizes: hcq buffers are statically sized");
        continue;
      }
      if (alloc.getHostShared()) {
        fail("is host_shared: hcq allocates device memory only");
        continue;
      }
      // Its device: its own `hcq.device` attribute, as an argument's, or
      // the pass's device.
      DeviceAttr device = defaultDevice;
      if (auto attr = alloc->getAttrOfType<StringAttr>("hcq.device")) {
        FailureOr<DeviceAttr> parsed =
            parseDevice(attr.getValue(), op.getLoc());
        if (failed(parsed)) {
          result = failure();
          continue;
        }
        device = *parsed;
      }
      FailureOr<BufferType> type =
          bufferType(alloc.getMemref().getType(), device, &op, "its result");
      if (failed(type)) {
        result = failure();
        continue;
      }
      buffers[alloc.getMemref()] = *type;
      allocs[alloc] = *type;
      continue;
    }
    if (auto copy = dyn_cast<gpu::MemcpyOp>(op)) {
      FailureOr<BufferType> dst = buffer(copy.getDst(), &op);
      FailureOr<BufferType> src = buffer(copy.getSrc(), &op);
      if (failed(dst) || failed(src)) {
        result = failure();
        continue;
      }
      if (dst->getByteSize() != src->getByteSize())
        fail("copies between memrefs of different sizes");
      continue;
    }
    if (auto launch = dyn_cast<gpu::LaunchFuncOp>(op)) {
      if (launch.hasClusterSize()) {
        fail("has a cluster size: hcq launches have none");
        continue;
      }
      if (launch.getDynamicSharedMemorySize()) {
        fail("has dynamic shared memory: hcq launches have none");
        continue;
      }
      FailureOr<SmallVector<int64_t>> grid =
          constantSizes(launch.getGridSizeOperandValues(), &op, "grid");
      FailureOr<SmallVector<int64_t>> block =
          constantSizes(launch.getBlockSizeOperandValues(), &op, "block");
      if (failed(grid) || failed(block)) {
        result = failure();
        continue;
      }
      unsigned numBuffers = 0, numScalars = 0;
      SmallVector<Type> elementTypes;
      SmallVector<std::pair<unsigned, int32_t>> indexConstants;
      // Where the launch runs, as hcq.launch decides: the first non-CPU
      // device of its buffers.
      DeviceAttr runsOn;
      bool ok = true;
      for (auto [k, operand] : llvm::enumerate(launch.getKernelOperands())) {
        if (isa<MemRefType>(operand.getType())) {
          if (numScalars) {
            fail("passes a memref after a scalar: hcq kernels take their "
                 "buffers first");
            ok = false;
            break;
          }
          FailureOr<BufferType> type = buffer(operand, &op);
          if (failed(type)) {
            result = failure();
            ok = false;
            break;
          }
          ++numBuffers;
          elementTypes.push_back(type->getElementType());
          DeviceAttr device = type->getDevices().front();
          if (!runsOn || (runsOn.getKind() == DeviceKind::CPU &&
                          device.getKind() != DeviceKind::CPU))
            runsOn = device;
          continue;
        }
        // A scalar is a bound variable (an argument) or a constant, which
        // hcq folds into the kernel arguments. An index constant is passed
        // as the i32 the kernel takes.
        Type type = operand.getType();
        unsigned scalar = numScalars++;
        APInt value;
        if (type.isIndex() && matchPattern(operand, m_ConstantInt(&value))) {
          if (!value.isSignedIntN(32)) {
            op.emitOpError()
                << "passes the index constant " << value.getSExtValue()
                << " as scalar #" << scalar
                << ", which does not fit the i32 an hcq kernel scalar is";
            result = failure();
            ok = false;
            break;
          }
          indexConstants.push_back(
              {static_cast<unsigned>(k),
               static_cast<int32_t>(value.getSExtValue())});
          continue;
        }
        if (!type.isInteger(32) && !type.isF32()) {
          op.emitOpError() << "passes scalar #" << scalar << " of type " << type
                           << ": hcq kernel scalars are i32 or f32 (or index "
                              "constants, passed as i32)";
          result = failure();
          ok = false;
          break;
        }
        if (!isa<BlockArgument>(operand) &&
            !matchPattern(operand, m_Constant())) {
          fail("passes a scalar that is neither an i32 / f32 argument of "
               "the function nor a constant: hcq kernel scalars are the "
               "schedule's bound variables or constants");
          ok = false;
          break;
        }
      }
      if (!ok)
        continue;
      // The kernel's code for where it runs (refused here, naming the
      // kernel, when the binary has none for that device, not later by the
      // encoder).
      if (!runsOn)
        runsOn = defaultDevice;
      FailureOr<FlatSymbolRefAttr> kernel =
          kernelFor(launch, runsOn, numBuffers, elementTypes, *block);
      if (failed(kernel)) {
        result = failure();
        continue;
      }
      // A CPU kernel is called once per workgroup and runs the workgroup's
      // work-items itself: its launch has no local size.
      SmallVector<int64_t> local = *block;
      if (runsOn.getKind() != DeviceKind::AMD)
        local.assign(3, 1);
      launches[launch] = {*kernel, *grid, local, std::move(indexConstants)};
      continue;
    }
    fail("cannot be converted to hcq: a schedule holds kernel launches, "
         "copies and allocations");
  }
  if (failed(result))
    return failure();
  signatures[func] = std::move(inputs);
  return success();
}

//===----------------------------------------------------------------------===//
// The conversion: patterns over what plan() checked
//===----------------------------------------------------------------------===//

/// A planned func.func becomes an hcq.schedule of its planned signature, its
/// body moved over.
///
/// The patterns take no type converter: a memref's buffer type depends on
/// where it comes from (an argument's `hcq.device`, or the pass's device), so
/// each value keeps the type plan() gave it, and adaptors hand the converted
/// values over unchanged.
/// The names `func`'s arguments have in the source, for the schedule's
/// `arg_names`: MLIR keeps a value's name as a NameLoc (`loc("x")`, what
/// --mlir-use-nameloc-as-prefix prints as %x), the way a compiler building
/// IR names it. An argument with no such name, or one that is no SSA
/// identifier, gets "" (printed %argN); null when none has a name.
static ArrayAttr argumentNames(func::FuncOp func) {
  Builder b(func.getContext());
  SmallVector<Attribute> names;
  bool named = false;
  for (BlockArgument arg : func.getArguments()) {
    StringRef name;
    if (auto loc = arg.getLoc()->findInstanceOf<NameLoc>())
      name = loc.getName().getValue();
    auto isIdentifierChar = [](char c) {
      return llvm::isAlnum(c) || c == '_' || c == '$' || c == '.' || c == '-';
    };
    if (name.empty() || llvm::isDigit(name.front()) ||
        !llvm::all_of(name, isIdentifierChar))
      name = "";
    named |= !name.empty();
    names.push_back(b.getStringAttr(name));
  }
  return named ? b.getArrayAttr(names) : ArrayAttr();
}

struct FuncToSchedule : OpConversionPattern<func::FuncOp> {
  FuncToSchedule(MLIRContext *ctx,
                 const DenseMap<Operation *, SmallVector<Type>> &signatures)
      : OpConversionPattern(ctx), signatures(signatures) {}

  LogicalResult
  matchAndRewrite(func::FuncOp func, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = signatures.find(func);
    if (it == signatures.end())
      return failure();
    auto schedule = ScheduleOp::create(
        rewriter, func.getLoc(), func.getSymName(),
        rewriter.getFunctionType(it->second, {}), /*arg_attrs=*/nullptr,
        /*res_attrs=*/nullptr, argumentNames(func), /*targets=*/nullptr);
    rewriter.inlineRegionBefore(func.getBody(), schedule.getBody(),
                                schedule.getBody().end());
    TypeConverter::SignatureConversion conversion(func.getNumArguments());
    for (auto [i, type] : llvm::enumerate(it->second))
      conversion.addInputs(i, type);
    rewriter.applySignatureConversion(&schedule.getBody().front(), conversion);
    rewriter.eraseOp(func);
    return success();
  }

  const DenseMap<Operation *, SmallVector<Type>> &signatures;
};

struct LaunchFuncToLaunch : OpConversionPattern<gpu::LaunchFuncOp> {
  LaunchFuncToLaunch(MLIRContext *ctx,
                     const DenseMap<Operation *, LaunchPlan> &launches)
      : OpConversionPattern(ctx), launches(launches) {}

  LogicalResult
  matchAndRewrite(gpu::LaunchFuncOp launch, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = launches.find(launch);
    if (it == launches.end())
      return failure();
    const LaunchPlan &plan = it->second;
    SmallVector<Value> operands(adaptor.getKernelOperands());
    for (auto [k, value] : plan.indexConstants)
      operands[k] = arith::ConstantIntOp::create(
          rewriter, launch.getLoc(), rewriter.getI32Type(), int64_t(value));
    // The buffers come first, as hcq.launch lists them.
    LaunchOp::create(rewriter, launch.getLoc(), plan.kernel.getValue(),
                     operands, plan.grid, plan.block);
    rewriter.eraseOp(launch);
    return success();
  }

  const DenseMap<Operation *, LaunchPlan> &launches;
};

struct MemcpyToCopy : OpConversionPattern<gpu::MemcpyOp> {
  using OpConversionPattern::OpConversionPattern;

  LogicalResult
  matchAndRewrite(gpu::MemcpyOp copy, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    int64_t bytes = cast<BufferType>(adaptor.getDst().getType()).getByteSize();
    CopyOp::create(rewriter, copy.getLoc(), adaptor.getDst(), 0, bytes,
                   adaptor.getSrc(), 0, bytes);
    rewriter.eraseOp(copy);
    return success();
  }
};

struct AllocToAlloc : OpConversionPattern<gpu::AllocOp> {
  AllocToAlloc(MLIRContext *ctx,
               const DenseMap<Operation *, BufferType> &allocs)
      : OpConversionPattern(ctx), allocs(allocs) {}

  LogicalResult
  matchAndRewrite(gpu::AllocOp alloc, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    auto it = allocs.find(alloc);
    if (it == allocs.end())
      return failure();
    Value buffer = AllocOp::create(rewriter, alloc.getLoc(), it->second);
    // The async token is dropped: every op using it goes too, and program
    // order respects it.
    SmallVector<Value> replacements = {buffer};
    if (alloc.getAsyncToken())
      replacements.push_back(Value());
    rewriter.replaceOp(alloc, replacements);
    return success();
  }

  const DenseMap<Operation *, BufferType> &allocs;
};

/// gpu.wait, gpu.dealloc and the return go: the schedule runs in program
/// order and owns its allocations.
template <typename Op> struct Erase : OpConversionPattern<Op> {
  using OpConversionPattern<Op>::OpConversionPattern;

  LogicalResult
  matchAndRewrite(Op op, typename Op::Adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.eraseOp(op);
    return success();
  }
};

LogicalResult ConvertGPUToHCQPass::applyConversion() {
  if (signatures.empty())
    return success();
  MLIRContext *ctx = &getContext();
  ConversionTarget target(*ctx);
  target.addLegalDialect<HCQDialect, arith::ArithDialect>();
  target.addIllegalOp<gpu::LaunchFuncOp, gpu::MemcpyOp, gpu::AllocOp,
                      gpu::DeallocOp, gpu::WaitOp>();
  target.addDynamicallyLegalOp<func::FuncOp>(
      [&](func::FuncOp func) { return !signatures.count(func); });
  target.addDynamicallyLegalOp<func::ReturnOp>(
      [](func::ReturnOp ret) { return !isa<ScheduleOp>(ret->getParentOp()); });

  RewritePatternSet patterns(ctx);
  patterns.add<FuncToSchedule>(ctx, signatures);
  patterns.add<LaunchFuncToLaunch>(ctx, launches);
  patterns.add<AllocToAlloc>(ctx, allocs);
  patterns.add<MemcpyToCopy, Erase<gpu::WaitOp>, Erase<gpu::DeallocOp>,
               Erase<func::ReturnOp>>(ctx);
  if (failed(applyPartialConversion(module, target, std::move(patterns))))
    return failure();

  // What the grid sizes were read from is no schedule's business.
  for (ScheduleOp schedule : module.getOps<ScheduleOp>())
    for (Operation &op :
         llvm::make_early_inc_range(llvm::reverse(schedule.getBody().front())))
      if (isOpTriviallyDead(&op))
        op.erase();
  // The output verifies, or the pass fails with the verifier's located
  // diagnostic (a grid an hcq.launch cannot have, say), also where the pass
  // manager's verifier is off.
  for (ScheduleOp schedule : module.getOps<ScheduleOp>())
    if (failed(mlir::verify(schedule)))
      return failure();
  return success();
}

void ConvertGPUToHCQPass::runOnOperation() {
  FailureOr<DeviceAttr> parsed = parseDevice(device, getOperation().getLoc());
  if (failed(parsed))
    return signalPassFailure();
  defaultDevice = *parsed;
  // Each module (nested ones too) with its own kernels and binaries.
  SmallVector<ModuleOp> modules;
  getOperation().walk([&](ModuleOp m) { modules.push_back(m); });
  bool failed = false;
  for (ModuleOp m : modules) {
    module = m;
    kernels.clear();
    signatures.clear();
    launches.clear();
    allocs.clear();
    // The functions that launch kernels or move GPU memory become
    // schedules.
    SmallVector<func::FuncOp> funcs;
    for (auto func : module.getOps<func::FuncOp>()) {
      bool usesGPU = false;
      func.walk([&](Operation *op) {
        usesGPU |= isa<gpu::GPUDialect>(op->getDialect());
      });
      if (usesGPU)
        funcs.push_back(func);
    }
    for (func::FuncOp func : funcs)
      failed |= mlir::failed(plan(func));
    if (failed)
      continue;
    if (mlir::failed(applyConversion()))
      failed = true;
    if (failed)
      continue;
    // The binaries live on in the hcq.kernel ops.
    for (auto binary :
         llvm::make_early_inc_range(module.getOps<gpu::BinaryOp>()))
      if (SymbolTable::symbolKnownUseEmpty(binary, module))
        binary.erase();
  }
  if (failed)
    signalPassFailure();
}

} // namespace
