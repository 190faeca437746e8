//===- Target.cpp - The host target for gpu modules -----------------------===//
//
// #hcq.host_target's gpu::TargetAttrInterface model. serializeToObject
// compiles a copy of the gpu.module for the host CPU and returns the bytes of
// an ELF shared object (or its assembly, for format=isa); the gpu.module
// itself is left alone, as gpu-module-to-binary asks of every target.
//
// Each kernel becomes a host function named like it with hcq's CPU kernel
// ABI (hcq::cpu::KernelFunction): called once per workgroup with a pointer
// to its kernel arguments, one 64-bit word each in the kernel's argument
// order, and the workgroup's coordinates. It runs the workgroup's
// work-items, whose count is the kernel's known_block_size (the ABI passes
// no block size): gpu.thread_id becomes the work-item's indices,
// gpu.block_id the coordinates, gpu.block_dim and gpu.grid_dim the known
// sizes.
//
// The module comes in one of two forms. Written against the gpu dialect,
// the kernel body is moved into an scf.for nest over the work-items (in an
// scf.execute_region, so that a body of several blocks fits). Already
// lowered by convert-gpu-to-rocdl for a #rocdl.target of the same module (an
// llvm.func with the gpu.kernel attribute), the body becomes a function of
// the work-item and workgroup ids, which the ROCDL id ops read, called from
// the same loop nest. Then scf-to-cf, expand-strided-metadata, lower-affine
// and the arith, memref, cf and func conversions to LLVM (bare-pointer
// memrefs), LLVM IR translation, LLVM's optimization pipeline and the host's
// TargetMachine. Small entry functions in the LLVM dialect unpack the
// arguments: the kernel's, in hcq's CPU kernel ABI, and `hcq_twin_<kernel>`,
// the AMD kernel's CPU twin (include/HCQ/Runtime/Twin.h), which reads the
// kernel arguments as hcq-encode lays them out for the AMD kernel. ld.lld
// then links the object into a shared object, which a runtime can dlopen
// from memory (a memfd) with no relocation code of its own; a relocatable
// object would need one.
//
// Barriers. A kernel with a barrier (gpu.barrier; rocdl.barrier or
// rocdl.s.barrier once lowered) runs each work-item as an LLVM coroutine
// (switched-resume lowering; the CoroEarly/CoroSplit/CoroCleanup passes of
// LLVM's default pipelines, O0 included, split it into a ramp and a resume
// function over a heap frame). Its body becomes a function of one
// work-item, as in the lowered form; a barrier becomes a suspend point. The
// per-workgroup function starts every work-item, then resumes the suspended
// ones round-robin until all have returned: in each round every work-item
// still running is at the same barrier count when it is resumed, so all
// reach barrier i before any passes it, in loops and uniform branches
// alike. A work-item that returns counts as arrived at every later barrier
// (undefined on a GPU; here the others go on, nothing hangs). Why
// coroutines: the kernel's control flow stays as written, and LLVM keeps in
// the frame only what lives across a barrier. Loop fission at barriers
// would have to rewrite every such value into a per-work-item array and
// restructure loops and branches around each barrier, the hard part of the
// job; fibers (ucontext) need a stack per work-item and a swapcontext, with
// its signal-mask system call, per switch. Kernels without barriers keep
// the plain loop.
//
// Workgroup memory. Workgroup attributions (and memrefs in the workgroup
// memory space) and convert-gpu-to-rocdl's address space 3 globals become
// thread_local globals in the default address space. A workgroup runs on
// one thread from start to end, so a thread's copy belongs to its current
// workgroup, and workgroups running on other threads at the same time have
// their own. It is not initialised, as on the GPU.
//
// Atomics. memref.atomic_rmw lowers as upstream lowers it (the kinds with
// an llvm.atomicrmw); every atomic of the LLVM dialect loses its sync
// scope (AMDGPU's "agent", "workgroup", ...): x86's backend treats a scope
// it does not know as narrower than the system, e.g. emits no mfence for a
// seq_cst fence at "agent" scope, while an agent here is every host thread.
//
// What this cannot run correctly is refused, with a diagnostic naming the
// op: subgroup operations (work-items are not in lock-step), and every op
// this target does not list as supported.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/Host/Target.h"
#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Target/Host/ArgumentAccess.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MathToFuncs/MathToFuncs.h"
#include "mlir/Conversion/MathToLLVM/MathToLLVM.h"
#include "mlir/Conversion/MathToLibm/MathToLibm.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/Math/IR/Math.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AttrTypeSubElements.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <mutex>

using namespace mlir;
using namespace hcq;

namespace {

/// Workgroup memory's address space in the LLVM dialect for AMD GPUs (LDS),
/// where convert-gpu-to-rocdl puts workgroup attributions; also the integer
/// memory space that means workgroup memory in a memref type.
constexpr unsigned kWorkgroupAddressSpace = 3;

/// The alignment of a workgroup attribution's host global: a cache line,
/// which also suits any vector the optimizer makes of its accesses.
constexpr int64_t kWorkgroupAlignment = 64;

/// The AMD device library's math functions the host code provides, by the
/// stem of their name (`__ocml_<stem>_f32` and `_f64`, what
/// convert-gpu-to-rocdl calls for math ops): each is the C library's
/// function of the same name (`<stem>f` for f32), but rsqrt, which is
/// 1 / sqrt. Their semantics are the C library's (ocml's are alike to a few
/// ulp; neither is correctly rounded).
constexpr llvm::StringLiteral kOcmlMathStems[] = {
    "acos",  "acosh",    "asin", "asinh", "atan",  "atan2", "atanh", "cbrt",
    "ceil",  "copysign", "cos",  "cosh",  "erf",   "erfc",  "exp",   "exp10",
    "exp2",  "expm1",    "fabs", "fdim",  "floor", "fma",   "fmax",  "fmin",
    "fmod",  "hypot",    "log",  "log10", "log1p", "log2",  "pow",   "rint",
    "round", "rsqrt",    "sin",  "sinh",  "sqrt",  "tan",   "tanh",  "trunc"};

/// The stem of `func`'s name if it is the declaration of one of
/// kOcmlMathStems's functions: named so, and of floats of its suffix's type
/// only.
std::optional<StringRef> getOcmlMathStem(LLVM::LLVMFuncOp func) {
  StringRef name = func.getName();
  if (!func.isExternal() || !name.consume_front("__ocml_"))
    return std::nullopt;
  bool isF32 = name.consume_back("_f32");
  if (!isF32 && !name.consume_back("_f64"))
    return std::nullopt;
  if (!llvm::is_contained(kOcmlMathStems, name))
    return std::nullopt;
  LLVM::LLVMFunctionType type = func.getFunctionType();
  auto isFloat = [&](Type t) { return isF32 ? t.isF32() : t.isF64(); };
  if (type.isVarArg() || !isFloat(type.getReturnType()) ||
      !llvm::all_of(type.getParams(), isFloat))
    return std::nullopt;
  return name;
}

/// The name of the function a kernel's body is outlined into; the exported
/// function, named like the kernel, calls it.
std::string bodyName(StringRef kernel) {
  return ("__hcq_host_body_" + kernel).str();
}

/// The function running one work-item of a kernel lowered for ROCDL, which
/// the outlined body calls in its loop nest, or of a kernel with barriers,
/// which the outlined body runs as coroutines.
std::string workItemName(StringRef kernel) {
  return ("__hcq_host_item_" + kernel).str();
}

/// The host global a kernel's workgroup attribution becomes.
std::string workgroupGlobalName(StringRef kernel, unsigned i) {
  return ("__hcq_host_wg_" + kernel + "_" + Twine(i)).str();
}

/// The exported CPU twin of a kernel, for the emulated AMD device: the name
/// twin libraries give it (docs/runtime.md).
std::string twinName(StringRef kernel) { return ("hcq_twin_" + kernel).str(); }

/// Refuses a symbol whose name the host target gives its own functions.
LogicalResult checkSymbolName(Operation *op, StringRef name) {
  if (name.starts_with("__hcq_host_") || name.starts_with("hcq_twin_"))
    return op->emitOpError()
           << "is named '" << name
           << "', a name the host target gives its own functions "
              "(__hcq_host_*, hcq_twin_*)";
  return success();
}

/// Whether `op` is a barrier of the workgroup: gpu.barrier, or what
/// convert-gpu-to-rocdl makes of it.
bool isBarrier(Operation *op) {
  return isa<gpu::BarrierOp, ROCDL::BarrierOp, ROCDL::SBarrierOp>(op);
}

bool hasBarrier(Operation *op) {
  return op
      ->walk([](Operation *nested) {
        return isBarrier(nested) ? WalkResult::interrupt()
                                 : WalkResult::advance();
      })
      .wasInterrupted();
}

//===----------------------------------------------------------------------===//
// What the host target compiles
//===----------------------------------------------------------------------===//

/// Whether `space` (a memref's memory space) is workgroup memory.
bool isWorkgroupMemorySpace(Attribute space) {
  if (auto gpuSpace = dyn_cast_or_null<gpu::AddressSpaceAttr>(space))
    return gpuSpace.getValue() == gpu::AddressSpace::Workgroup;
  if (auto integer = dyn_cast_or_null<IntegerAttr>(space))
    return integer.getInt() == kWorkgroupAddressSpace;
  return false;
}

/// Whether `type` is a memref in a memory space other than the default one
/// and workgroup memory.
bool hasForeignMemorySpace(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && memref.getMemorySpace() &&
         !isWorkgroupMemorySpace(memref.getMemorySpace());
}

/// Refuses a kernel argument the ABI's 64-bit words cannot carry.
LogicalResult checkArgument(gpu::GPUFuncOp kernel, unsigned i, Type type) {
  if (type.isIndex() || type.isF32() || type.isF64())
    return success();
  if (auto integer = dyn_cast<IntegerType>(type);
      integer && integer.getWidth() <= 64)
    return success();
  auto memref = dyn_cast<MemRefType>(type);
  if (memref && memref.hasStaticShape() && memref.getLayout().isIdentity() &&
      !memref.getMemorySpace())
    return success();
  return kernel.emitOpError()
         << "argument " << i << " is " << type
         << ": the host target takes statically shaped, contiguous memrefs "
            "in the default memory space (as pointers) and integers, index, "
            "f32 or f64 (as 64-bit words)";
}

LogicalResult checkKernel(gpu::GPUFuncOp kernel) {
  LogicalResult result = success();
  std::optional<ArrayRef<int32_t>> block = kernel.getKnownBlockSize();
  if (block && llvm::any_of(*block, [](int32_t size) { return size <= 0; })) {
    kernel.emitOpError() << "has a known_block_size that is not positive";
    result = failure();
  }
  if (!block) {
    kernel.emitOpError()
        << "has no known_block_size: the host target runs a workgroup's "
           "work-items in a loop whose bounds are compiled in (hcq's CPU "
           "kernel ABI passes no block size)";
    result = failure();
  }
  // Each becomes a global (memref.global), which needs a static shape.
  for (auto [i, attribution] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    auto memref = dyn_cast<MemRefType>(attribution.getType());
    if (memref && memref.hasStaticShape() && memref.getLayout().isIdentity())
      continue;
    kernel.emitOpError() << "workgroup attribution " << i << " is "
                         << attribution.getType()
                         << ": the host target takes statically shaped, "
                            "contiguous ones";
    result = failure();
  }
  if (kernel.getNumPrivateAttributions()) {
    kernel.emitOpError()
        << "has private attributions: not supported by the host target";
    result = failure();
  }
  for (auto [i, type] : llvm::enumerate(kernel.getArgumentTypes()))
    if (failed(checkArgument(kernel, i, type)))
      result = failure();
  return result;
}

/// Checks one op inside the gpu.module; refuses, naming it, every op the
/// host target does not compile correctly.
LogicalResult checkOp(Operation *op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (hasForeignMemorySpace(type))
      return op->emitOpError()
             << "uses " << type
             << ": the host target supports the default memory space and "
                "workgroup memory only";
  // (A kernel's arguments and attributions are checked with the kernel.)
  if (!isa<gpu::GPUFuncOp>(op))
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (hasForeignMemorySpace(type))
            return op->emitOpError()
                   << "has a block argument of type " << type
                   << ": the host target supports the default memory space "
                      "and workgroup memory only";

  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  auto needsKernel = [&]() -> LogicalResult {
    if (kernel)
      return success();
    return op->emitOpError() << "is outside a gpu.func kernel: the host "
                                "target knows work-item ids only in kernels";
  };

  if (isa<gpu::BarrierOp>(op)) {
    if (kernel)
      return success();
    return op->emitOpError()
           << "is outside a gpu.func kernel: the host target suspends a "
              "work-item at a barrier only in the kernel's own body";
  }
  if (isa<gpu::ShuffleOp, gpu::SubgroupReduceOp, gpu::AllReduceOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: work-items run one "
              "after the other, not in subgroups";
  if (isa<gpu::ThreadIdOp, gpu::BlockIdOp, gpu::BlockDimOp, gpu::GlobalIdOp>(
          op))
    return needsKernel();
  if (isa<gpu::GridDimOp>(op)) {
    if (failed(needsKernel()))
      return failure();
    if (!kernel.getKnownGridSize())
      return op->emitOpError()
             << "needs the grid size, which hcq's CPU kernel ABI does not "
                "pass: give the kernel a known_grid_size";
    return success();
  }
  if (isa<gpu::GPUFuncOp, gpu::ReturnOp>(op))
    return success();
  // The kinds upstream lowers to one llvm.atomicrmw; it leaves the others
  // (mulf, muli) unconverted.
  if (auto atomic = dyn_cast<memref::AtomicRMWOp>(op)) {
    using arith::AtomicRMWKind;
    switch (atomic.getKind()) {
    case AtomicRMWKind::addf:
    case AtomicRMWKind::addi:
    case AtomicRMWKind::assign:
    case AtomicRMWKind::maximumf:
    case AtomicRMWKind::maxnumf:
    case AtomicRMWKind::maxs:
    case AtomicRMWKind::maxu:
    case AtomicRMWKind::minimumf:
    case AtomicRMWKind::minnumf:
    case AtomicRMWKind::mins:
    case AtomicRMWKind::minu:
    case AtomicRMWKind::andi:
    case AtomicRMWKind::ori:
    case AtomicRMWKind::xori:
      return success();
    default:
      return op->emitOpError()
             << "of kind " << arith::stringifyAtomicRMWKind(atomic.getKind())
             << " is not supported by the host target: the LLVM dialect has "
                "no atomic instruction for it";
    }
  }
  // Upstream's conversions to LLVM leave it unconverted.
  if (isa<memref::GenericAtomicRMWOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: use memref.atomic_rmw";
  // Math ops lower to LLVM intrinsics or C library calls; the lowering
  // refuses, by name, one that neither computes.
  if (isa<arith::ArithDialect, math::MathDialect>(op->getDialect()))
    return success();
  if (isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::ConditionOp, scf::YieldOp,
          scf::ExecuteRegionOp, scf::IndexSwitchOp, cf::BranchOp,
          cf::CondBranchOp, cf::SwitchOp, func::CallOp, func::ReturnOp,
          memref::LoadOp, memref::StoreOp, memref::SubViewOp, memref::CastOp,
          memref::DimOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::ReinterpretCastOp, memref::AtomicRMWOp,
          // (Refused with its memref.generic_atomic_rmw.)
          memref::AtomicYieldOp>(op))
    return success();
  if (auto func = dyn_cast<func::FuncOp>(op)) {
    if (func.isExternal())
      return op->emitOpError()
             << "is a declaration: the host target's object links nothing "
                "in";
    return success();
  }
  return op->emitOpError()
         << "is not supported by the host target (it compiles arith, math, "
            "scf, cf, func, memref loads, stores, views and atomics, and "
            "gpu.thread_id, block_id, block_dim, grid_dim, global_id and "
            "barrier)";
}

//===----------------------------------------------------------------------===//
// What the host target compiles of a module lowered for ROCDL
//===----------------------------------------------------------------------===//

/// Whether `module` was lowered to the LLVM dialect (by convert-gpu-to-rocdl,
/// for a #rocdl.target beside the host target): it then holds llvm.func ops.
bool isLoweredToLLVM(gpu::GPUModuleOp module) {
  return !module.getOps<LLVM::LLVMFuncOp>().empty();
}

bool isLLVMKernel(LLVM::LLVMFuncOp func) {
  return func->hasAttr(gpu::GPUDialect::getKernelFuncAttrName());
}

/// A lowered kernel's known block or grid size (the gpu.known_block_size and
/// gpu.known_grid_size attributes convert-gpu-to-rocdl keeps).
std::optional<ArrayRef<int32_t>> knownBlockSize(LLVM::LLVMFuncOp func) {
  if (auto size = gpu::GPUDialect::KnownBlockSizeAttrHelper(func.getContext())
                      .getAttr(func))
    return size.asArrayRef();
  return std::nullopt;
}
std::optional<ArrayRef<int32_t>> knownGridSize(LLVM::LLVMFuncOp func) {
  if (auto size = gpu::GPUDialect::KnownGridSizeAttrHelper(func.getContext())
                      .getAttr(func))
    return size.asArrayRef();
  return std::nullopt;
}

/// The pointer address space other than 0 and workgroup memory that `type`
/// holds, if any.
std::optional<unsigned> foreignAddressSpace(Type type) {
  std::optional<unsigned> space;
  type.walk([&](LLVM::LLVMPointerType pointer) {
    if (pointer.getAddressSpace() != 0 &&
        pointer.getAddressSpace() != kWorkgroupAddressSpace)
      space = pointer.getAddressSpace();
  });
  return space;
}

/// Whether `global` is workgroup memory as convert-gpu-to-rocdl makes it: in
/// address space 3, with no initial value (workgroup memory has none).
bool isWorkgroupGlobal(LLVM::GlobalOp global) {
  return global.getAddrSpace() == kWorkgroupAddressSpace &&
         !global.getValueOrNull() && global.getInitializerRegion().empty() &&
         !global.getConstant();
}

LogicalResult checkLLVMKernel(LLVM::LLVMFuncOp kernel) {
  LogicalResult result = success();
  std::optional<ArrayRef<int32_t>> block = knownBlockSize(kernel);
  if (!block || block->size() != 3 ||
      llvm::any_of(*block, [](int32_t size) { return size <= 0; })) {
    kernel.emitOpError()
        << "has no positive gpu.known_block_size: the host target runs a "
           "workgroup's work-items in a loop whose bounds are compiled in "
           "(hcq's CPU kernel ABI passes no block size)";
    result = failure();
  }
  if (!isa<LLVM::LLVMVoidType>(kernel.getFunctionType().getReturnType())) {
    kernel.emitOpError() << "returns a value: a kernel returns nothing";
    result = failure();
  }
  for (auto [i, type] : llvm::enumerate(kernel.getFunctionType().getParams())) {
    auto pointer = dyn_cast<LLVM::LLVMPointerType>(type);
    auto integer = dyn_cast<IntegerType>(type);
    if ((pointer && pointer.getAddressSpace() == 0) ||
        (integer && integer.getWidth() <= 64) || type.isF32() || type.isF64())
      continue;
    kernel.emitOpError()
        << "argument " << i << " is " << type
        << ": the host target takes pointers in address space 0 and "
           "integers, f32 or f64 (as 64-bit words)";
    result = failure();
  }
  return result;
}

/// Checks one op of a module lowered to the LLVM dialect; refuses, naming
/// it, every op whose meaning on the GPU the host code does not keep, and
/// every op of another dialect.
LogicalResult checkLLVMOp(Operation *op) {
  auto inSpace = [&](Type type) -> LogicalResult {
    if (std::optional<unsigned> space = foreignAddressSpace(type))
      return op->emitOpError()
             << "uses " << type << ", a pointer in address space " << *space
             << ": the host target supports address spaces 0 and 3 "
                "(workgroup memory) only";
    return success();
  };
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (failed(inSpace(type)))
      return failure();
  // (A kernel's arguments are checked with the kernel.)
  auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
  if (!func || !isLLVMKernel(func))
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (failed(inSpace(type)))
            return failure();

  auto function = op->getParentOfType<LLVM::LLVMFuncOp>();
  bool inKernel = function && isLLVMKernel(function);
  if (isa<ROCDL::ROCDLDialect>(op->getDialect())) {
    if (isa<ROCDL::ThreadIdXOp, ROCDL::ThreadIdYOp, ROCDL::ThreadIdZOp,
            ROCDL::BlockIdXOp, ROCDL::BlockIdYOp, ROCDL::BlockIdZOp,
            ROCDL::BlockDimXOp, ROCDL::BlockDimYOp, ROCDL::BlockDimZOp,
            ROCDL::GridDimXOp, ROCDL::GridDimYOp, ROCDL::GridDimZOp>(op)) {
      if (!inKernel)
        return op->emitOpError() << "is outside a kernel: the host target "
                                    "knows work-item ids only in kernels";
      if (isa<ROCDL::GridDimXOp, ROCDL::GridDimYOp, ROCDL::GridDimZOp>(op) &&
          !knownGridSize(function))
        return op->emitOpError()
               << "needs the grid size, which hcq's CPU kernel ABI does not "
                  "pass: give the kernel a known_grid_size";
      return success();
    }
    if (isBarrier(op)) {
      if (inKernel)
        return success();
      return op->emitOpError()
             << "is outside a kernel: the host target suspends a work-item "
                "at a barrier only in the kernel's own body";
    }
    return op->emitOpError()
           << "is not supported by the host target (of the rocdl dialect it "
              "compiles the work-item, workgroup, block and grid ids and "
              "sizes and the barriers rocdl.barrier and rocdl.s.barrier)";
  }
  if (!isa<LLVM::LLVMDialect>(op->getDialect()))
    return op->emitOpError()
           << "is not supported by the host target: a module lowered for "
              "ROCDL compiles for the host from the llvm and rocdl dialects";
  if (func) {
    if (func.isExternal() && !getOcmlMathStem(func))
      return op->emitOpError()
             << "is a declaration: the host target's object links nothing "
                "in (of the AMD device library it provides the math "
                "functions __ocml_<name>_f32 and _f64 for "
             << llvm::join(ArrayRef(kOcmlMathStems), ", ") << ")";
    return checkSymbolName(op, func.getName());
  }
  if (isa<LLVM::InlineAsmOp, LLVM::CallIntrinsicOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: it may be the AMD GPU's "
              "own code";
  if (auto global = dyn_cast<LLVM::GlobalOp>(op)) {
    if (isWorkgroupGlobal(global))
      return checkSymbolName(op, global.getSymName());
    return op->emitOpError()
           << "is not supported by the host target: of globals it compiles "
              "workgroup memory (address space 3, no initial value) only";
  }
  if (auto address = dyn_cast<LLVM::AddressOfOp>(op)) {
    auto global = dyn_cast_or_null<LLVM::GlobalOp>(
        SymbolTable::lookupNearestSymbolFrom(op, address.getGlobalNameAttr()));
    if (global && isWorkgroupGlobal(global))
      return success();
    return op->emitOpError()
           << "is not supported by the host target: it takes the address of "
              "workgroup memory (an address space 3 global) only";
  }
  if (isa<LLVM::ComdatOp, LLVM::ModuleFlagsOp>(op) || !op->getParentOp() ||
      isa<gpu::GPUModuleOp>(op->getParentOp()))
    return op->emitOpError() << "is not supported by the host target";
  return success();
}

LogicalResult checkLoweredModule(gpu::GPUModuleOp module) {
  LogicalResult result = success();
  for (Operation &op : module.getBody()->getOperations()) {
    auto func = dyn_cast<LLVM::LLVMFuncOp>(op);
    if (func && isLLVMKernel(func) && failed(checkLLVMKernel(func)))
      result = failure();
  }
  module.getBody()->walk([&](Operation *op) {
    if (!op->hasTrait<mlir::OpTrait::IsTerminator>() ||
        !isa<gpu::GPUModuleOp>(op->getParentOp()))
      if (failed(checkLLVMOp(op)))
        result = failure();
  });
  return result;
}

LogicalResult checkModule(gpu::GPUModuleOp module) {
  if (isLoweredToLLVM(module))
    return checkLoweredModule(module);
  LogicalResult result = success();
  for (Operation &op : module.getBody()->getOperations()) {
    if (auto symbol = dyn_cast<SymbolOpInterface>(op))
      if (failed(checkSymbolName(&op, symbol.getName())))
        result = failure();
    if (auto func = dyn_cast<gpu::GPUFuncOp>(op)) {
      if (!func.isKernel()) {
        func.emitOpError() << "is no kernel: the host target compiles "
                              "gpu.func kernels and func.func helpers";
        result = failure();
      } else if (failed(checkKernel(func))) {
        result = failure();
      }
    }
  }
  module.getBody()->walk([&](Operation *op) {
    if (failed(checkOp(op)))
      result = failure();
  });
  return result;
}

//===----------------------------------------------------------------------===//
// Lowering
//===----------------------------------------------------------------------===//

/// A kernel of the module, as the entries and the driver need it.
struct HostKernel {
  std::string name;
  Location loc;
  /// Whether its work-items run as coroutines (it has barriers).
  bool coroutines;
  SmallVector<int32_t, 3> block;
};

/// Replaces the gpu ops in `body`, a kernel's body, by what the host
/// computes from the work-item's and workgroup's ids and the known sizes,
/// and gpu.return by `makeReturn`'s terminator. Barriers stay, for
/// makeCoroutine.
void replaceGPUOps(Region &body, ArrayRef<Value> threadIds,
                   ArrayRef<Value> blockIds, ArrayRef<int32_t> block,
                   std::optional<ArrayRef<int32_t>> grid,
                   function_ref<void(OpBuilder &, Location)> makeReturn) {
  SmallVector<Operation *> gpuOps;
  body.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()) && !isBarrier(op))
      gpuOps.push_back(op);
  });
  OpBuilder b(body.getContext());
  for (Operation *op : gpuOps) {
    b.setInsertionPoint(op);
    Location loc = op->getLoc();
    auto dim = [](auto idOp) {
      return static_cast<unsigned>(idOp.getDimension());
    };
    Value replacement;
    if (isa<gpu::ReturnOp>(op)) {
      makeReturn(b, loc);
    } else if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      replacement = threadIds[dim(id)];
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      replacement = blockIds[dim(id)];
    } else if (auto id = dyn_cast<gpu::BlockDimOp>(op)) {
      replacement = arith::ConstantIndexOp::create(b, loc, block[dim(id)]);
    } else if (auto id = dyn_cast<gpu::GridDimOp>(op)) {
      replacement = arith::ConstantIndexOp::create(b, loc, (*grid)[dim(id)]);
    } else if (auto id = dyn_cast<gpu::GlobalIdOp>(op)) {
      unsigned d = dim(id);
      Value size = arith::ConstantIndexOp::create(b, loc, block[d]);
      Value base = arith::MulIOp::create(b, loc, blockIds[d], size);
      replacement = arith::AddIOp::create(b, loc, base, threadIds[d]);
    }
    if (replacement)
      op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
}

/// Replaces `kernel` by a func.func taking its arguments and the
/// workgroup's coordinates (index x, y, z), whose body runs the kernel's
/// body once per work-item in an scf.for nest (x innermost); or, for a
/// kernel with barriers, by the function of one work-item (its arguments,
/// then the work-item's and the workgroup's ids, index), which
/// makeCoroutine and addDriver finish once lowered. Workgroup attributions
/// become private globals, made thread_local once lowered.
void outlineKernel(gpu::GPUFuncOp kernel, bool coroutines) {
  Location loc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(kernel);
  StringRef name = kernel.getName();
  SmallVector<memref::GlobalOp> globals;
  for (auto [i, attribution] :
       llvm::enumerate(kernel.getWorkgroupAttributions())) {
    auto type = cast<MemRefType>(attribution.getType());
    globals.push_back(memref::GlobalOp::create(
        b, loc, workgroupGlobalName(name, i), b.getStringAttr("private"),
        MemRefType::get(type.getShape(), type.getElementType()),
        b.getUnitAttr(), /*constant=*/false,
        b.getI64IntegerAttr(kWorkgroupAlignment)));
  }

  unsigned numArgs = kernel.getNumArguments();
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.append(coroutines ? 6 : 3, b.getIndexType());
  auto func = func::FuncOp::create(
      b, loc, coroutines ? workItemName(name) : bodyName(name),
      b.getFunctionType(inputs, {}));
  func->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  ArrayRef<int32_t> block = *kernel.getKnownBlockSize();
  SmallVector<Value> threadIds(3), blockIds(3);
  Region *body;
  if (coroutines) {
    for (unsigned d = 0; d < 3; ++d) {
      threadIds[d] = entry->getArgument(numArgs + d);
      blockIds[d] = entry->getArgument(numArgs + 3 + d);
    }
    body = &func.getBody();
    body->getBlocks().splice(body->end(), kernel.getBody().getBlocks());
  } else {
    Value zero = arith::ConstantIndexOp::create(b, loc, 0);
    Value one = arith::ConstantIndexOp::create(b, loc, 1);
    for (unsigned d = 0; d < 3; ++d)
      blockIds[d] = entry->getArgument(numArgs + d);
    for (int d = 2; d >= 0; --d) {
      Value size = arith::ConstantIndexOp::create(b, loc, block[d]);
      auto loop = scf::ForOp::create(b, loc, zero, size, one);
      threadIds[d] = loop.getInductionVar();
      b.setInsertionPointToStart(loop.getBody());
    }
    auto workItem = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
    body = &workItem.getRegion();
    body->takeBody(kernel.getBody());
  }

  // The kernel's body, its arguments now the function's and its
  // attributions the globals.
  Block &first = coroutines ? *std::next(body->begin()) : body->front();
  b.setInsertionPointToStart(&first);
  for (auto [i, arg] : llvm::enumerate(first.getArguments())) {
    Value replacement = i < numArgs
                            ? Value(entry->getArgument(i))
                            : Value(memref::GetGlobalOp::create(
                                  b, loc, globals[i - numArgs].getType(),
                                  globals[i - numArgs].getSymName()));
    arg.replaceAllUsesWith(replacement);
  }
  first.eraseArguments(0, first.getNumArguments());
  b.setInsertionPointToEnd(entry);
  if (coroutines)
    cf::BranchOp::create(b, loc, &first);
  else
    func::ReturnOp::create(b, loc);

  replaceGPUOps(*body, threadIds, blockIds, block, kernel.getKnownGridSize(),
                [&](OpBuilder &b, Location loc) {
                  if (coroutines)
                    func::ReturnOp::create(b, loc);
                  else
                    scf::YieldOp::create(b, loc);
                });
  kernel.erase();
}

/// Replaces the lowered kernel `kernel` by the function of one work-item (its
/// arguments, then the work-item and workgroup ids as i32, which the ROCDL
/// id ops become) and, for a kernel without barriers, the function
/// outlineKernel makes for a gpu.func, whose scf.for nest over the
/// workgroup's work-items calls it (with barriers, addDriver makes it).
void outlineLoweredKernel(LLVM::LLVMFuncOp kernel, bool coroutines) {
  Location loc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(kernel);
  Type i32 = b.getI32Type();
  ArrayRef<Type> params = kernel.getFunctionType().getParams();
  unsigned numArgs = params.size();
  SmallVector<Type> itemParams(params);
  itemParams.append(6, i32);
  auto item = LLVM::LLVMFuncOp::create(
      b, loc, workItemName(kernel.getName()),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), itemParams),
      LLVM::Linkage::Internal);
  item.getBody().takeBody(kernel.getBody());
  Block &itemEntry = item.getBody().front();
  SmallVector<Value> ids;
  for (unsigned i = 0; i < 6; ++i)
    ids.push_back(itemEntry.addArgument(i32, loc));

  ArrayRef<int32_t> block = *knownBlockSize(kernel);
  std::optional<ArrayRef<int32_t>> grid = knownGridSize(kernel);
  SmallVector<Operation *> idOps;
  item.walk([&](Operation *op) {
    if (isa<ROCDL::ROCDLDialect>(op->getDialect()) && !isBarrier(op))
      idOps.push_back(op);
  });
  for (Operation *op : idOps) {
    b.setInsertionPoint(op);
    Type type = op->getResult(0).getType();
    auto constant = [&](int32_t value) -> Value {
      return LLVM::ConstantOp::create(b, op->getLoc(), type,
                                      b.getIntegerAttr(type, value));
    };
    Value replacement =
        llvm::TypeSwitch<Operation *, Value>(op)
            .Case([&](ROCDL::ThreadIdXOp) { return ids[0]; })
            .Case([&](ROCDL::ThreadIdYOp) { return ids[1]; })
            .Case([&](ROCDL::ThreadIdZOp) { return ids[2]; })
            .Case([&](ROCDL::BlockIdXOp) { return ids[3]; })
            .Case([&](ROCDL::BlockIdYOp) { return ids[4]; })
            .Case([&](ROCDL::BlockIdZOp) { return ids[5]; })
            .Case([&](ROCDL::BlockDimXOp) { return constant(block[0]); })
            .Case([&](ROCDL::BlockDimYOp) { return constant(block[1]); })
            .Case([&](ROCDL::BlockDimZOp) { return constant(block[2]); })
            .Case([&](ROCDL::GridDimXOp) { return constant((*grid)[0]); })
            .Case([&](ROCDL::GridDimYOp) { return constant((*grid)[1]); })
            .Case([&](ROCDL::GridDimZOp) { return constant((*grid)[2]); });
    // Ids are never negative: widened with zeros, as the ops' ranges say.
    unsigned width = type.getIntOrFloatBitWidth();
    if (width > 32)
      replacement = LLVM::ZExtOp::create(b, op->getLoc(), type, replacement);
    else if (width < 32)
      replacement = LLVM::TruncOp::create(b, op->getLoc(), type, replacement);
    op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
  if (coroutines) {
    kernel.erase();
    return;
  }

  // The loop over the workgroup's work-items (x innermost).
  b.setInsertionPoint(kernel);
  SmallVector<Type> inputs(params);
  inputs.append(3, b.getIndexType());
  auto body = func::FuncOp::create(b, loc, bodyName(kernel.getName()),
                                   b.getFunctionType(inputs, {}));
  body->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  Block *entry = body.addEntryBlock();
  b.setInsertionPointToStart(entry);
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value threadIds[3];
  for (int d = 2; d >= 0; --d) {
    Value size = arith::ConstantIndexOp::create(b, loc, block[d]);
    auto loop = scf::ForOp::create(b, loc, zero, size, one);
    threadIds[d] = loop.getInductionVar();
    b.setInsertionPointToStart(loop.getBody());
  }
  SmallVector<Value> args(entry->getArguments().take_front(numArgs));
  for (Value id : {threadIds[0], threadIds[1], threadIds[2],
                   Value(entry->getArgument(numArgs)),
                   Value(entry->getArgument(numArgs + 1)),
                   Value(entry->getArgument(numArgs + 2))})
    args.push_back(arith::IndexCastOp::create(b, loc, i32, id));
  LLVM::CallOp::create(b, loc, item, args);
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);
  kernel.erase();
}

/// Makes every memref in the workgroup memory space a memref in the default
/// one (the host has one address space), throughout `module`.
void rewriteWorkgroupMemRefs(ModuleOp module) {
  AttrTypeReplacer replacer;
  replacer.addReplacement([](MemRefType type) -> std::optional<Type> {
    if (!isWorkgroupMemorySpace(type.getMemorySpace()))
      return std::nullopt;
    return MemRefType::get(type.getShape(), type.getElementType(),
                           type.getLayout());
  });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
}

/// Makes every pointer into workgroup memory (address space 3) a pointer in
/// address space 0 throughout `module`, which holds a module lowered for
/// ROCDL: its workgroup globals become thread_local ones, and the address
/// space casts between 3 and 0 go.
void rewriteWorkgroupPointers(ModuleOp module) {
  MLIRContext *ctx = module.getContext();
  for (auto global : module.getOps<LLVM::GlobalOp>()) {
    if (global.getAddrSpace() != kWorkgroupAddressSpace)
      continue;
    global.setAddrSpace(0);
    global.setThreadLocal_(true);
  }
  AttrTypeReplacer replacer;
  replacer.addReplacement(
      [ctx](LLVM::LLVMPointerType type) -> std::optional<Type> {
        if (type.getAddressSpace() != kWorkgroupAddressSpace)
          return std::nullopt;
        return LLVM::LLVMPointerType::get(ctx);
      });
  replacer.recursivelyReplaceElementsIn(module, /*replaceAttrs=*/true,
                                        /*replaceLocs=*/false,
                                        /*replaceTypes=*/true);
  module.walk([](LLVM::AddrSpaceCastOp cast) {
    if (cast.getArg().getType() != cast.getType())
      return;
    cast.replaceAllUsesWith(cast.getArg());
    cast.erase();
  });
}

/// Makes the globals outlineKernel made of workgroup attributions, now in
/// the LLVM dialect, thread_local.
void makeWorkgroupGlobalsThreadLocal(ModuleOp module) {
  for (auto global : module.getOps<LLVM::GlobalOp>())
    if (global.getSymName().starts_with("__hcq_host_wg_"))
      global.setThreadLocal_(true);
}

/// Drops the sync scope of every atomic op and fence: the scopes of a GPU
/// (AMDGPU's "agent", "workgroup", "wavefront", ...) mean nothing to the
/// host's backend, which x86's takes as narrower than the system (no mfence
/// for a seq_cst fence at "agent" scope), while a workgroup's work-items
/// and the kernel's workgroups run on host threads. The system's scope is
/// at least as strong as any.
void dropSyncScopes(ModuleOp module) {
  module.walk([](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::FenceOp,
              LLVM::LoadOp, LLVM::StoreOp>(
            [](auto atomic) { atomic.setSyncscopeAttr(StringAttr()); });
  });
}

/// Turns `item`, the function of one work-item of a kernel with barriers
/// (in the LLVM dialect), into a switched-resume coroutine: it takes one
/// more argument, the address of the work-item's slot, where it stores its
/// handle when it starts and null when it returns; each barrier suspends
/// it. The frame comes from aligned_alloc and goes back to free when the
/// work-item returns (the process's C library provides both, as for any
/// dlopened object).
LogicalResult makeCoroutine(ModuleOp module, LLVM::LLVMFuncOp item) {
  MLIRContext *ctx = module.getContext();
  Location loc = item.getLoc();
  OpBuilder b(ctx);
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i1 = b.getI1Type(), i8 = b.getI8Type(), i32 = b.getI32Type(),
       i64 = b.getI64Type();
  auto token = LLVM::LLVMTokenType::get(ctx);
  FailureOr<LLVM::LLVMFuncOp> allocFn =
      LLVM::lookupOrCreateAlignedAllocFn(b, module, i64);
  FailureOr<LLVM::LLVMFuncOp> freeFn = LLVM::lookupOrCreateFreeFn(b, module);
  if (failed(allocFn) || failed(freeFn))
    return item.emitError() << "the host target could not declare "
                               "aligned_alloc and free for the coroutine "
                               "frames of the kernel's work-items";

  SmallVector<Operation *> barriers, returns;
  item.walk([&](Operation *op) {
    if (isBarrier(op))
      barriers.push_back(op);
    else if (isa<LLVM::ReturnOp>(op))
      returns.push_back(op);
  });

  LLVM::LLVMFunctionType type = item.getFunctionType();
  SmallVector<Type> params(type.getParams());
  params.push_back(ptr);
  item.setFunctionType(
      LLVM::LLVMFunctionType::get(type.getReturnType(), params));
  Region &body = item.getBody();
  // The prologue goes first in the entry block, which keeps the kernel's
  // allocas (a static alloca is one in the entry block).
  Block *entry = &body.front();
  Value slot = entry->addArgument(ptr, loc);

  b.setInsertionPointToStart(entry);
  Value null = LLVM::ZeroOp::create(b, loc, ptr);
  Value zero = LLVM::ConstantOp::create(b, loc, i32, 0);
  Value id = LLVM::CoroIdOp::create(b, loc, token, zero, null, null, null);
  Value size = LLVM::CoroSizeOp::create(b, loc, i64);
  Value align = LLVM::CoroAlignOp::create(b, loc, i64);
  // aligned_alloc wants a size that is a multiple of the alignment.
  Value one = LLVM::ConstantOp::create(b, loc, i64, 1);
  Value mask = LLVM::SubOp::create(b, loc, align, one);
  Value padded = LLVM::AddOp::create(b, loc, size, mask);
  Value allOnes = LLVM::ConstantOp::create(b, loc, i64, -1);
  Value rounded = LLVM::AndOp::create(
      b, loc, padded, LLVM::XOrOp::create(b, loc, mask, allOnes));
  Value memory =
      LLVM::CallOp::create(b, loc, *allocFn, ValueRange{align, rounded})
          .getResult();
  Value handle = LLVM::CoroBeginOp::create(b, loc, ptr, id, memory);
  LLVM::StoreOp::create(b, loc, handle, slot);

  // Where a suspended or finished work-item returns to its caller.
  Block *exit = b.createBlock(&body, body.end());
  Value none = LLVM::NoneTokenOp::create(b, loc, token);
  Value no = LLVM::ConstantOp::create(b, loc, i1, 0);
  LLVM::CoroEndOp::create(b, loc, i1, handle, no, none);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
  // Where a finished (or destroyed) work-item frees its frame.
  Block *cleanup = b.createBlock(exit);
  Value frame = LLVM::CoroFreeOp::create(b, loc, ptr, id, handle);
  LLVM::CallOp::create(b, loc, *freeFn, ValueRange{frame});
  LLVM::BrOp::create(b, loc, exit);

  for (Operation *barrier : barriers) {
    Block *before = barrier->getBlock();
    Block *after = before->splitBlock(barrier);
    b.setInsertionPointToEnd(before);
    Location at = barrier->getLoc();
    Value save = LLVM::CoroSaveOp::create(b, at, token, handle);
    Value notFinal = LLVM::ConstantOp::create(b, at, i1, 0);
    Value resumed = LLVM::CoroSuspendOp::create(b, at, i8, save, notFinal);
    // 0: resumed, 1: destroyed, otherwise: suspended.
    LLVM::SwitchOp::create(b, at, resumed, exit, ValueRange{},
                           ArrayRef<APInt>{APInt(8, 0), APInt(8, 1)},
                           BlockRange{after, cleanup},
                           ArrayRef<ValueRange>{ValueRange{}, ValueRange{}});
    barrier->erase();
  }
  for (Operation *ret : returns) {
    b.setInsertionPoint(ret);
    LLVM::StoreOp::create(b, ret->getLoc(),
                          LLVM::ZeroOp::create(b, ret->getLoc(), ptr), slot);
    LLVM::BrOp::create(b, ret->getLoc(), cleanup);
    ret->erase();
  }
  item.setPassthroughAttr(
      b.getArrayAttr({b.getStringAttr("presplitcoroutine")}));
  return success();
}

/// Adds, for a kernel with barriers, the function the entries call (its
/// arguments, then the workgroup's coordinates as i64): it starts each of
/// the workgroup's work-items (`item`, a coroutine; x fastest), then
/// resumes, round after round, every one still running, until none is.
void addDriver(ModuleOp module, const HostKernel &kernel,
               LLVM::LLVMFuncOp item) {
  MLIRContext *ctx = module.getContext();
  Location loc = kernel.loc;
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i1 = b.getI1Type(), i64 = b.getI64Type();
  // The item takes the arguments, six ids and the slot.
  ArrayRef<Type> itemParams = item.getFunctionType().getParams();
  unsigned numArgs = itemParams.size() - 7;
  SmallVector<Type> params(itemParams.take_front(numArgs));
  params.append(3, i64);
  auto driver = LLVM::LLVMFuncOp::create(
      b, loc, bodyName(kernel.name),
      LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), params),
      LLVM::Linkage::Internal);
  Block *entry = driver.addEntryBlock(b);
  auto constant = [&](int64_t value) -> Value {
    return LLVM::ConstantOp::create(b, loc, i64, value);
  };
  auto toParam = [&](Value id, Type type) -> Value {
    return type == i64 ? id : LLVM::TruncOp::create(b, loc, type, id);
  };
  ArrayRef<int32_t> block = kernel.block;
  int64_t count = int64_t(block[0]) * block[1] * block[2];
  Region &body = driver.getBody();

  b.setInsertionPointToStart(entry);
  Value slots = LLVM::AllocaOp::create(b, loc, ptr, ptr, constant(count),
                                       /*alignment=*/8);
  Block *start = b.createBlock(&body, body.end(), {i64}, {loc});
  Block *round = b.createBlock(&body, body.end());
  Block *visit = b.createBlock(&body, body.end(), {i64, i1}, {loc, loc});
  Block *resume = b.createBlock(&body, body.end());
  Block *next = b.createBlock(&body, body.end());
  Block *done = b.createBlock(&body, body.end());
  b.setInsertionPointToEnd(entry);
  LLVM::BrOp::create(b, loc, ValueRange{constant(0)}, start);

  // start(i): run work-item i to its first barrier or its end.
  b.setInsertionPointToEnd(start);
  Value i = start->getArgument(0);
  Value sizeX = constant(block[0]), sizeY = constant(block[1]);
  Value x = LLVM::URemOp::create(b, loc, i, sizeX);
  Value row = LLVM::UDivOp::create(b, loc, i, sizeX);
  Value y = LLVM::URemOp::create(b, loc, row, sizeY);
  Value z = LLVM::UDivOp::create(b, loc, row, sizeY);
  SmallVector<Value> args(entry->getArguments().take_front(numArgs));
  // A named array: an ArrayRef of a braced list would outlive the list.
  Value ids[] = {x, y, z};
  for (auto [d, id] : llvm::enumerate(ids))
    args.push_back(toParam(id, itemParams[numArgs + d]));
  for (unsigned d = 0; d < 3; ++d)
    args.push_back(
        toParam(entry->getArgument(numArgs + d), itemParams[numArgs + 3 + d]));
  args.push_back(LLVM::GEPOp::create(b, loc, ptr, ptr, slots, ValueRange{i}));
  LLVM::CallOp::create(b, loc, item, args);
  Value following = LLVM::AddOp::create(b, loc, i, constant(1));
  Value more = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult, following,
                                    constant(count));
  LLVM::CondBrOp::create(b, loc, more, start, ValueRange{following}, round,
                         ValueRange{});

  // round: visit every slot, resuming the work-items still running.
  b.setInsertionPointToEnd(round);
  Value no = LLVM::ConstantOp::create(b, loc, i1, 0);
  LLVM::BrOp::create(b, loc, ValueRange{constant(0), no}, visit);

  b.setInsertionPointToEnd(visit);
  Value j = visit->getArgument(0), anyRunning = visit->getArgument(1);
  Value slot = LLVM::GEPOp::create(b, loc, ptr, ptr, slots, ValueRange{j});
  Value handle = LLVM::LoadOp::create(b, loc, ptr, slot, /*alignment=*/8);
  Value running = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, handle,
                                       LLVM::ZeroOp::create(b, loc, ptr));
  Value anyNow = LLVM::OrOp::create(b, loc, anyRunning, running);
  LLVM::CondBrOp::create(b, loc, running, resume, ValueRange{}, next,
                         ValueRange{});

  b.setInsertionPointToEnd(resume);
  LLVM::CoroResumeOp::create(b, loc, handle);
  LLVM::BrOp::create(b, loc, ValueRange{}, next);

  b.setInsertionPointToEnd(next);
  Value afterJ = LLVM::AddOp::create(b, loc, j, constant(1));
  Value moreInRound = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ult,
                                           afterJ, constant(count));
  Block *endOfRound = b.createBlock(&body, std::next(Region::iterator(next)));
  b.setInsertionPointToEnd(next);
  LLVM::CondBrOp::create(b, loc, moreInRound, visit, ValueRange{afterJ, anyNow},
                         endOfRound, ValueRange{});
  // Another round while any work-item was still running in this one.
  b.setInsertionPointToEnd(endOfRound);
  LLVM::CondBrOp::create(b, loc, anyNow, round, ValueRange{}, done,
                         ValueRange{});

  b.setInsertionPointToEnd(done);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// The value of an argument of type `type` (LLVM) from its 64-bit word.
Value fromWord(OpBuilder &b, Location loc, Value word, Type type) {
  auto i64 = b.getI64Type();
  if (isa<LLVM::LLVMPointerType>(type))
    return LLVM::IntToPtrOp::create(b, loc, type, word);
  if (type == i64)
    return word;
  if (type.isF64())
    return LLVM::BitcastOp::create(b, loc, type, word);
  if (type.isF32()) {
    Value low = LLVM::TruncOp::create(b, loc, b.getI32Type(), word);
    return LLVM::BitcastOp::create(b, loc, type, low);
  }
  return LLVM::TruncOp::create(b, loc, type, word);
}

/// Adds, for `kernel`, the exported function of hcq's CPU kernel ABI:
/// `void kernel(const uint64_t *kernargs, uint32_t x, uint32_t y,
/// uint32_t z)`, which calls the outlined body.
void addEntry(ModuleOp module, StringRef kernel, Location loc) {
  MLIRContext *ctx = module.getContext();
  auto body = module.lookupSymbol<LLVM::LLVMFuncOp>(bodyName(kernel));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  auto i32 = b.getI32Type(), i64 = b.getI64Type();
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx),
                                          {ptr, i32, i32, i32});
  auto entry = LLVM::LLVMFuncOp::create(b, loc, kernel, type);
  Block *block = entry.addEntryBlock(b);
  b.setInsertionPointToStart(block);
  ArrayRef<Type> params = body.getFunctionType().getParams();
  unsigned numArgs = params.size() - 3;
  SmallVector<Value> args;
  for (unsigned i = 0; i < numArgs; ++i) {
    Value address =
        LLVM::GEPOp::create(b, loc, ptr, i64, block->getArgument(0),
                            ArrayRef<LLVM::GEPArg>{static_cast<int32_t>(i)});
    Value word = LLVM::LoadOp::create(b, loc, i64, address, /*alignment=*/8);
    args.push_back(fromWord(b, loc, word, params[i]));
  }
  for (unsigned d = 0; d < 3; ++d)
    args.push_back(LLVM::ZExtOp::create(b, loc, params[numArgs + d],
                                        block->getArgument(1 + d)));
  LLVM::CallOp::create(b, loc, body, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// Adds `hcq_twin_<kernel>`, the kernel's CPU twin for the emulated AMD
/// device (include/HCQ/Runtime/Twin.h): `void twin(const hcq_amd_workgroup
/// *)`, which reads the kernel arguments where hcq-encode puts them for the
/// AMD kernel (each argument in order, packed: pointers and 64-bit scalars 8
/// bytes, smaller scalars 4) and runs the workgroup `group_id` names. The
/// workgroup size is the compiled one: convert-gpu-to-hcq refuses a launch
/// with another.
void addTwinEntry(ModuleOp module, StringRef kernel, Location loc) {
  MLIRContext *ctx = module.getContext();
  auto body = module.lookupSymbol<LLVM::LLVMFuncOp>(bodyName(kernel));
  OpBuilder b = OpBuilder::atBlockEnd(module.getBody());
  auto ptr = LLVM::LLVMPointerType::get(ctx);
  Type i8 = b.getI8Type(), i32 = b.getI32Type();
  auto type = LLVM::LLVMFunctionType::get(LLVM::LLVMVoidType::get(ctx), {ptr});
  auto twin = LLVM::LLVMFuncOp::create(b, loc, twinName(kernel), type);
  Block *block = twin.addEntryBlock(b);
  b.setInsertionPointToStart(block);
  Value workgroup = block->getArgument(0);
  auto at = [&](Value base, int64_t offset) -> Value {
    return LLVM::GEPOp::create(b, loc, ptr, i8, base,
                               ArrayRef<LLVM::GEPArg>{offset});
  };
  // hcq_amd_workgroup: kernargs at byte 0, group_id[3] at byte 16.
  Value kernargs =
      LLVM::LoadOp::create(b, loc, ptr, workgroup, /*alignment=*/8);
  ArrayRef<Type> params = body.getFunctionType().getParams();
  unsigned numArgs = params.size() - 3;
  SmallVector<Value> args;
  int64_t offset = 0;
  for (Type param : params.take_front(numArgs)) {
    bool wide =
        isa<LLVM::LLVMPointerType>(param) || param.getIntOrFloatBitWidth() > 32;
    // Kernel arguments are 4-byte aligned: a 64-bit one may follow an odd
    // number of 32-bit ones.
    if (wide || param.getIntOrFloatBitWidth() == 32) {
      args.push_back(LLVM::LoadOp::create(b, loc, param, at(kernargs, offset),
                                          /*alignment=*/4));
    } else {
      Value word = LLVM::LoadOp::create(b, loc, i32, at(kernargs, offset), 4);
      args.push_back(LLVM::TruncOp::create(b, loc, param, word));
    }
    offset += wide ? 8 : 4;
  }
  for (unsigned d = 0; d < 3; ++d) {
    Value id = LLVM::LoadOp::create(b, loc, i32, at(workgroup, 16 + 4 * d),
                                    /*alignment=*/4);
    args.push_back(LLVM::ZExtOp::create(b, loc, params[numArgs + d], id));
  }
  LLVM::CallOp::create(b, loc, body, args);
  LLVM::ReturnOp::create(b, loc, ValueRange{});
}

/// The gpu.module's ops, its kernels outlined and everything lowered to the
/// LLVM dialect, with an entry function per kernel; null after a
/// diagnostic.
/// Gives each declaration of an AMD device library math function in
/// `module` (getOcmlMathStem) a body: a call to the C library's function of
/// its name, or 1 / sqrt for rsqrt. The C library's functions stay
/// undefined in the object, resolved when a runtime loads it: a process
/// with hcq's runtime has the C math library (the C++ library needs it).
void defineOcmlMathFunctions(ModuleOp module) {
  for (auto func : llvm::to_vector(module.getOps<LLVM::LLVMFuncOp>())) {
    std::optional<StringRef> stem = getOcmlMathStem(func);
    if (!stem)
      continue;
    Location loc = func.getLoc();
    Type type = func.getFunctionType().getReturnType();
    OpBuilder b(func.getContext());
    Block *entry = func.addEntryBlock(b);
    b.setInsertionPointToStart(entry);
    Value result;
    if (*stem == "rsqrt") {
      Value root = LLVM::SqrtOp::create(b, loc, type, entry->getArgument(0));
      Value one =
          LLVM::ConstantOp::create(b, loc, type, b.getFloatAttr(type, 1));
      result = LLVM::FDivOp::create(b, loc, one, root);
    } else {
      std::string name = (*stem + (type.isF32() ? "f" : "")).str();
      auto libm = module.lookupSymbol<LLVM::LLVMFuncOp>(name);
      if (!libm) {
        OpBuilder top = OpBuilder::atBlockEnd(module.getBody());
        libm = LLVM::LLVMFuncOp::create(top, loc, name, func.getFunctionType());
      }
      result =
          LLVM::CallOp::create(b, loc, libm, entry->getArguments()).getResult();
    }
    LLVM::ReturnOp::create(b, loc, result);
  }
}

OwningOpRef<ModuleOp> lowerToLLVMDialect(gpu::GPUModuleOp gpuModule) {
  MLIRContext *ctx = gpuModule.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(gpuModule.getLoc());
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  IRMapping mapping;
  for (Operation &op : gpuModule.getBody()->getOperations())
    if (!op.hasTrait<mlir::OpTrait::IsTerminator>())
      b.clone(op, mapping);

  SmallVector<HostKernel> kernels;
  for (auto kernel :
       llvm::make_early_inc_range(module->getOps<gpu::GPUFuncOp>())) {
    bool coroutines = hasBarrier(kernel);
    ArrayRef<int32_t> block = *kernel.getKnownBlockSize();
    kernels.push_back({kernel.getName().str(), kernel.getLoc(), coroutines,
                       SmallVector<int32_t, 3>(block)});
    outlineKernel(kernel, coroutines);
  }
  rewriteWorkgroupMemRefs(*module);
  rewriteWorkgroupPointers(*module);
  for (auto kernel :
       llvm::make_early_inc_range(module->getOps<LLVM::LLVMFuncOp>())) {
    if (!isLLVMKernel(kernel))
      continue;
    bool coroutines = hasBarrier(kernel);
    kernels.push_back({kernel.getName().str(), kernel.getLoc(), coroutines,
                       SmallVector<int32_t, 3>(*knownBlockSize(kernel))});
    outlineLoweredKernel(kernel, coroutines);
  }
  // Only the entry functions are exported; what the GPU lowering said about
  // functions (rocdl.*, gpu.*) is the GPU's.
  for (auto func : module->getOps<func::FuncOp>())
    func->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  defineOcmlMathFunctions(*module);
  for (auto func : module->getOps<LLVM::LLVMFuncOp>()) {
    // (The C library's functions the ocml ones call are defined elsewhere.)
    if (func.isExternal())
      continue;
    func.setLinkage(LLVM::Linkage::Internal);
    for (NamedAttribute attr : llvm::to_vector(func->getDiscardableAttrs()))
      if (attr.getName().strref().starts_with("rocdl.") ||
          attr.getName().strref().starts_with("gpu."))
        func->removeDiscardableAttr(attr.getName());
  }

  // (Barriers, not of the LLVM dialect, stay as they are until
  // makeCoroutine.)
  PassManager pm(ctx);
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  // Math ops: integer powers and bit counts become functions of arith ops,
  // those LLVM has an intrinsic for become it, the rest calls of the C
  // library (tanhf, erff, ...), below; in the end an intrinsic is the C
  // library's function too, or an instruction.
  pm.addPass(createConvertMathToFuncs());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertMathToLLVMPass());
  auto lowerToLLVMFailed = [&] {
    gpuModule.emitError() << "could not lower to the LLVM dialect for the "
                             "host target";
    return nullptr;
  };
  if (failed(pm.run(*module)))
    return lowerToLLVMFailed();
  // As patterns rather than convert-math-to-libm, which fails on any math op
  // left at all: what no pattern converts is refused below by name.
  RewritePatternSet libmCalls(ctx);
  populateMathToLibmConversionPatterns(libmCalls);
  if (failed(applyPatternsGreedily(*module, std::move(libmCalls))))
    return lowerToLLVMFailed();
  WalkResult leftover = module->walk([](Operation *op) {
    if (!isa<math::MathDialect>(op->getDialect()))
      return WalkResult::advance();
    op->emitOpError() << "is not supported by the host target: neither an "
                         "LLVM intrinsic nor a C library function computes "
                         "it for "
                      << op->getOperandTypes();
    return WalkResult::interrupt();
  });
  if (leftover.wasInterrupted())
    return nullptr;
  PassManager toLLVM(ctx);
  toLLVM.addPass(createArithToLLVMConversionPass());
  toLLVM.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  toLLVM.addPass(createConvertFuncToLLVMPass(funcOptions));
  toLLVM.addPass(createReconcileUnrealizedCastsPass());
  if (failed(toLLVM.run(*module)))
    return lowerToLLVMFailed();
  makeWorkgroupGlobalsThreadLocal(*module);
  dropSyncScopes(*module);
  for (const HostKernel &kernel : kernels) {
    if (!kernel.coroutines)
      continue;
    auto item =
        module->lookupSymbol<LLVM::LLVMFuncOp>(workItemName(kernel.name));
    if (failed(makeCoroutine(*module, item)))
      return nullptr;
    addDriver(*module, kernel, item);
  }
  for (const HostKernel &kernel : kernels) {
    addEntry(*module, kernel.name, kernel.loc);
    addTwinEntry(*module, kernel.name, kernel.loc);
  }
  return module;
}

/// Runs `ld.lld -shared` on `object`: the toolkit's (`<toolkit>/llvm/bin/
/// ld.lld`, as for #rocdl.target) or, with no toolkit, the one hcq was built
/// with; with compiler-rt's builtins for this machine's architecture.
std::optional<SmallVector<char, 0>>
linkSharedObject(gpu::GPUModuleOp module, StringRef object, StringRef toolkit,
                 const llvm::Triple &triple) {
  SmallString<128> lld;
  if (toolkit.empty())
    lld = HCQ_LLD_PATH;
  else
    llvm::sys::path::append(lld, toolkit, "llvm", "bin", "ld.lld");
  if (!llvm::sys::fs::can_execute(lld)) {
    module.emitError() << "the host target needs ld.lld: " << lld
                       << " is not an executable";
    return std::nullopt;
  }
  SmallString<128> input, output;
  int fd;
  if (llvm::sys::fs::createTemporaryFile("hcq-host", "o", fd, input)) {
    module.emitError() << "could not create a temporary file";
    return std::nullopt;
  }
  llvm::FileRemover removeInput(input);
  {
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
  }
  if (llvm::sys::fs::createTemporaryFile("hcq-host", "so", output)) {
    module.emitError() << "could not create a temporary file";
    return std::nullopt;
  }
  llvm::FileRemover removeOutput(output);
  std::string message;
  SmallVector<StringRef, 6> args = {"ld.lld", "-shared", "-o", output, input};
  // compiler-rt's builtins, for this machine's architecture: ld.lld takes
  // only the members the object calls.
  StringRef builtins = HCQ_HOST_BUILTINS_PATH;
  if (!builtins.empty() && llvm::sys::fs::exists(builtins) &&
      triple.getArch() == llvm::Triple(llvm::sys::getProcessTriple()).getArch())
    args.push_back(builtins);
  if (llvm::sys::ExecuteAndWait(lld, args, /*Env=*/std::nullopt,
                                /*Redirects=*/{}, /*SecondsToWait=*/0,
                                /*MemoryLimit=*/0, &message)) {
    module.emitError() << "ld.lld failed to link the host object"
                       << (message.empty() ? "" : ": ") << message;
    return std::nullopt;
  }
  auto buffer = llvm::MemoryBuffer::getFile(output);
  if (!buffer) {
    module.emitError() << "could not read the shared object: "
                       << buffer.getError().message();
    return std::nullopt;
  }
  StringRef bytes = (*buffer)->getBuffer();
  return SmallVector<char, 0>(bytes.begin(), bytes.end());
}

/// `kernel`'s entry in the object's kernel table: its signature, its
/// argument attributes with each buffer argument's access added (what the
/// kernel's body does with it, which is gone once gpu-module-to-binary has
/// run), and the block size it was compiled for.
gpu::KernelMetadataAttr kernelMetadata(FunctionOpInterface kernel,
                                       DenseI32ArrayAttr blockSize) {
  MLIRContext *ctx = kernel.getContext();
  Builder b(ctx);
  auto entry = gpu::KernelMetadataAttr::get(
      kernel, b.getDictionaryAttr(b.getNamedAttr("block_size", blockSize)));
  SmallVector<Attribute> argAttrs;
  for (auto [i, access] : llvm::enumerate(inferBufferArgumentAccess(kernel))) {
    NamedAttrList attrs(entry.getArgAttrDict(i));
    if (access)
      attrs.set(KERNEL_ARG_ACCESS_ATTR,
                b.getStringAttr(stringifyAccess(*access)));
    argAttrs.push_back(attrs.getDictionary(ctx));
  }
  return gpu::KernelMetadataAttr::get(entry.getName(), entry.getFunctionType(),
                                      b.getArrayAttr(argAttrs),
                                      entry.getMetadata());
}

class HostTargetAttrModel
    : public gpu::TargetAttrInterface::FallbackModel<HostTargetAttrModel> {
public:
  std::optional<SmallVector<char, 0>>
  serializeToObject(Attribute attribute, Operation *op,
                    const gpu::TargetOptions &options) const;

  Attribute createObject(Attribute attribute, Operation *op,
                         const SmallVector<char, 0> &object,
                         const gpu::TargetOptions &options) const;
};

} // namespace

std::optional<SmallVector<char, 0>> HostTargetAttrModel::serializeToObject(
    Attribute attribute, Operation *op,
    const gpu::TargetOptions &options) const {
  auto module = dyn_cast<gpu::GPUModuleOp>(op);
  if (!module) {
    op->emitError() << "the host target compiles gpu.module ops only";
    return std::nullopt;
  }
  auto target = cast<HostTargetAttr>(attribute);
  gpu::CompilationTarget format = options.getCompilationTarget();
  if (format == gpu::CompilationTarget::Offload) {
    module.emitError() << "the host target has no offload format: use "
                          "format=bin or isa";
    return std::nullopt;
  }
  if (failed(checkModule(module)))
    return std::nullopt;
  OwningOpRef<ModuleOp> lowered = lowerToLLVMDialect(module);
  if (!lowered)
    return std::nullopt;

  static std::once_flag initialized;
  std::call_once(initialized, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  llvm::Triple triple(target.getTriple().empty() ? llvm::sys::getProcessTriple()
                                                 : target.getTriple().str());
  std::string error;
  const llvm::Target *llvmTarget =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!llvmTarget) {
    module.emitError() << "the host target has no LLVM target for '"
                       << triple.str() << "': " << error;
    return std::nullopt;
  }
  std::optional<llvm::CodeGenOptLevel> optLevel =
      llvm::CodeGenOpt::getLevel(target.getO());
  std::unique_ptr<llvm::TargetMachine> machine(llvmTarget->createTargetMachine(
      triple, target.getChip(), /*Features=*/"", llvm::TargetOptions(),
      llvm::Reloc::PIC_, std::nullopt,
      optLevel.value_or(llvm::CodeGenOptLevel::Default)));
  if (!machine) {
    module.emitError() << "could not create a target machine for '"
                       << triple.str() << "'";
    return std::nullopt;
  }

  llvm::LLVMContext llvmContext;
  std::unique_ptr<llvm::Module> llvmModule =
      translateModuleToLLVMIR(*lowered, llvmContext, module.getName());
  if (!llvmModule) {
    module.emitError() << "could not translate to LLVM IR for the host target";
    return std::nullopt;
  }
  llvmModule->setTargetTriple(triple);
  llvmModule->setDataLayout(machine->createDataLayout());
  if (llvm::Error err = makeOptimizingTransformer(
          target.getO(), /*sizeLevel=*/0, machine.get())(llvmModule.get())) {
    module.emitError() << "the host target's LLVM optimization failed: "
                       << llvm::toString(std::move(err));
    return std::nullopt;
  }

  bool assembly = format == gpu::CompilationTarget::Assembly;
  SmallVector<char, 0> code;
  {
    llvm::raw_svector_ostream os(code);
    llvm::legacy::PassManager codegen;
    if (machine->addPassesToEmitFile(codegen, os, nullptr,
                                     assembly
                                         ? llvm::CodeGenFileType::AssemblyFile
                                         : llvm::CodeGenFileType::ObjectFile)) {
      module.emitError() << "the target machine for '" << triple.str()
                         << "' cannot emit "
                         << (assembly ? "assembly" : "objects");
      return std::nullopt;
    }
    codegen.run(*llvmModule);
  }
  if (assembly)
    return code;
  return linkSharedObject(module, StringRef(code.data(), code.size()),
                          options.getToolkitPath(), triple);
}

Attribute
HostTargetAttrModel::createObject(Attribute attribute, Operation *op,
                                  const SmallVector<char, 0> &object,
                                  const gpu::TargetOptions &options) const {
  MLIRContext *ctx = attribute.getContext();
  Builder b(ctx);
  // The kernels' signatures and block sizes, for whoever launches them.
  SmallVector<gpu::KernelMetadataAttr> kernels;
  auto module = cast<gpu::GPUModuleOp>(op);
  for (auto kernel : module.getOps<gpu::GPUFuncOp>())
    if (kernel.isKernel())
      kernels.push_back(kernelMetadata(kernel, kernel.getKnownBlockSizeAttr()));
  for (auto kernel : module.getOps<LLVM::LLVMFuncOp>())
    if (isLLVMKernel(kernel))
      kernels.push_back(kernelMetadata(
          kernel,
          gpu::GPUDialect::KnownBlockSizeAttrHelper(ctx).getAttr(kernel)));
  // Not a fat binary: one object for one host.
  gpu::CompilationTarget format = options.getCompilationTarget();
  if (format == gpu::CompilationTarget::Fatbin)
    format = gpu::CompilationTarget::Binary;
  return gpu::ObjectAttr::get(
      ctx, attribute, format,
      b.getStringAttr(StringRef(object.data(), object.size())),
      /*properties=*/nullptr, gpu::KernelTableAttr::get(ctx, kernels));
}

void hcq::registerHostTargetInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, HCQDialect *) {
    HostTargetAttr::attachInterface<HostTargetAttrModel>(*ctx);
    // What the lowering builds, loaded now (while the IR is parsed) rather
    // than from inside gpu-module-to-binary.
    ctx->loadDialect<arith::ArithDialect, cf::ControlFlowDialect,
                     func::FuncDialect, LLVM::LLVMDialect, math::MathDialect,
                     memref::MemRefDialect, ROCDL::ROCDLDialect,
                     scf::SCFDialect>();
  });
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}
