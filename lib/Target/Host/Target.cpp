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
// order, and the workgroup's coordinates. It loops over the workgroup's
// work-items, whose count is the kernel's known_block_size (the ABI passes
// no block size): gpu.thread_id becomes the loop indices, gpu.block_id the
// coordinates, gpu.block_dim and gpu.grid_dim the known sizes.
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
// What a loop over work-items cannot run correctly is refused, with a
// diagnostic naming the op: barriers, workgroup memory, subgroup operations,
// atomics, and every op this first step does not list as supported.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/Host/Target.h"
#include "HCQ/Dialect/HCQ.h"

#include "mlir/Conversion/AffineToStandard/AffineToStandard.h"
#include "mlir/Conversion/ArithToLLVM/ArithToLLVM.h"
#include "mlir/Conversion/ControlFlowToLLVM/ControlFlowToLLVM.h"
#include "mlir/Conversion/FuncToLLVM/ConvertFuncToLLVMPass.h"
#include "mlir/Conversion/MemRefToLLVM/MemRefToLLVM.h"
#include "mlir/Conversion/ReconcileUnrealizedCasts/ReconcileUnrealizedCasts.h"
#include "mlir/Conversion/SCFToControlFlow/SCFToControlFlow.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/GPU/IR/CompilationInterfaces.h"
#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/LLVMIR/ROCDLDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/MemRef/Transforms/Passes.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Target/LLVMIR/Dialect/Builtin/BuiltinToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Dialect/LLVMIR/LLVMToLLVMIRTranslation.h"
#include "mlir/Target/LLVMIR/Export.h"
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

/// The name of the function a kernel's body is outlined into; the exported
/// function, named like the kernel, calls it.
std::string bodyName(StringRef kernel) {
  return ("__hcq_host_body_" + kernel).str();
}

/// The function running one work-item of a kernel lowered for ROCDL, which
/// the outlined body calls in its loop nest.
std::string workItemName(StringRef kernel) {
  return ("__hcq_host_item_" + kernel).str();
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

//===----------------------------------------------------------------------===//
// What the host target compiles
//===----------------------------------------------------------------------===//

/// Whether `type` is a memref in a memory space other than the default one.
bool hasMemorySpace(Type type) {
  auto memref = dyn_cast<BaseMemRefType>(type);
  return memref && memref.getMemorySpace();
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
  if (kernel.getNumWorkgroupAttributions()) {
    kernel.emitOpError() << "has workgroup attributions: workgroup memory "
                            "(address space 3) is not supported by the host "
                            "target";
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

/// Checks one op inside the gpu.module; refuses, naming it, every op this
/// step does not compile correctly.
LogicalResult checkOp(Operation *op) {
  for (Type type :
       llvm::concat<Type>(op->getOperandTypes(), op->getResultTypes()))
    if (hasMemorySpace(type))
      return op->emitOpError()
             << "uses " << type
             << ": the host target supports the default memory space only "
                "(workgroup memory, address space 3, needs the workgroup's "
                "work-items to run together)";
  // (A kernel's arguments and attributions are checked with the kernel.)
  if (!isa<gpu::GPUFuncOp>(op))
    for (Region &region : op->getRegions())
      for (Block &block : region)
        for (Type type : block.getArgumentTypes())
          if (hasMemorySpace(type))
            return op->emitOpError()
                   << "has a block argument of type " << type
                   << ": the host target supports the default memory space "
                      "only";

  auto kernel = op->getParentOfType<gpu::GPUFuncOp>();
  auto needsKernel = [&]() -> LogicalResult {
    if (kernel)
      return success();
    return op->emitOpError() << "is outside a gpu.func kernel: the host "
                                "target knows work-item ids only in kernels";
  };

  if (isa<gpu::BarrierOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: it runs a workgroup's "
              "work-items one after the other, so a barrier cannot be "
              "honoured";
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
  if (isa<memref::AtomicRMWOp, memref::GenericAtomicRMWOp,
          memref::AtomicYieldOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: atomics are not lowered "
              "yet";
  if (isa<arith::ArithDialect>(op->getDialect()))
    return success();
  if (isa<scf::ForOp, scf::IfOp, scf::WhileOp, scf::ConditionOp, scf::YieldOp,
          scf::ExecuteRegionOp, scf::IndexSwitchOp, cf::BranchOp,
          cf::CondBranchOp, cf::SwitchOp, func::CallOp, func::ReturnOp,
          memref::LoadOp, memref::StoreOp, memref::SubViewOp, memref::CastOp,
          memref::DimOp, memref::ExpandShapeOp, memref::CollapseShapeOp,
          memref::ReinterpretCastOp>(op))
    return success();
  if (auto func = dyn_cast<func::FuncOp>(op)) {
    if (func.isExternal())
      return op->emitOpError()
             << "is a declaration: the host target's object links nothing "
                "in";
    return success();
  }
  return op->emitOpError()
         << "is not supported by the host target (this first step compiles "
            "arith, scf, cf, func, memref loads, stores and views, and "
            "gpu.thread_id, block_id, block_dim, grid_dim and global_id)";
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

/// The pointer address space other than 0 that `type` holds, if any.
std::optional<unsigned> foreignAddressSpace(Type type) {
  std::optional<unsigned> space;
  type.walk([&](LLVM::LLVMPointerType pointer) {
    if (pointer.getAddressSpace() != 0)
      space = pointer.getAddressSpace();
  });
  return space;
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
/// it, every op whose meaning on the GPU a loop over work-items does not
/// keep, and every op of another dialect.
LogicalResult checkLLVMOp(Operation *op) {
  auto inSpace = [&](Type type) -> LogicalResult {
    if (std::optional<unsigned> space = foreignAddressSpace(type))
      return op->emitOpError()
             << "uses " << type << ", a pointer in address space " << *space
             << ": the host target supports address space 0 only (workgroup "
                "memory, address space 3, needs the workgroup's work-items to "
                "run together)";
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
  if (isa<ROCDL::ROCDLDialect>(op->getDialect())) {
    if (isa<ROCDL::ThreadIdXOp, ROCDL::ThreadIdYOp, ROCDL::ThreadIdZOp,
            ROCDL::BlockIdXOp, ROCDL::BlockIdYOp, ROCDL::BlockIdZOp,
            ROCDL::BlockDimXOp, ROCDL::BlockDimYOp, ROCDL::BlockDimZOp,
            ROCDL::GridDimXOp, ROCDL::GridDimYOp, ROCDL::GridDimZOp>(op)) {
      if (!function || !isLLVMKernel(function))
        return op->emitOpError() << "is outside a kernel: the host target "
                                    "knows work-item ids only in kernels";
      if (isa<ROCDL::GridDimXOp, ROCDL::GridDimYOp, ROCDL::GridDimZOp>(op) &&
          !knownGridSize(function))
        return op->emitOpError()
               << "needs the grid size, which hcq's CPU kernel ABI does not "
                  "pass: give the kernel a known_grid_size";
      return success();
    }
    if (isa<ROCDL::BarrierOp, ROCDL::SBarrierOp>(op))
      return op->emitOpError()
             << "is not supported by the host target: it runs a workgroup's "
                "work-items one after the other, so a barrier cannot be "
                "honoured";
    return op->emitOpError() << "is not supported by the host target (of the "
                                "rocdl dialect it compiles the work-item, "
                                "workgroup, block and grid ids and sizes)";
  }
  if (!isa<LLVM::LLVMDialect>(op->getDialect()))
    return op->emitOpError()
           << "is not supported by the host target: a module lowered for "
              "ROCDL compiles for the host from the llvm and rocdl dialects";
  if (func) {
    if (func.isExternal())
      return op->emitOpError()
             << "is a declaration: the host target's object links nothing "
                "in";
    return checkSymbolName(op, func.getName());
  }
  if (isa<LLVM::AtomicRMWOp, LLVM::AtomicCmpXchgOp, LLVM::FenceOp>(op))
    return op->emitOpError() << "is not supported by the host target: "
                                "atomics are not lowered yet";
  if (auto load = dyn_cast<LLVM::LoadOp>(op);
      load && load.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return op->emitOpError() << "is atomic: atomics are not supported by the "
                                "host target yet";
  if (auto store = dyn_cast<LLVM::StoreOp>(op);
      store && store.getOrdering() != LLVM::AtomicOrdering::not_atomic)
    return op->emitOpError() << "is atomic: atomics are not supported by the "
                                "host target yet";
  if (isa<LLVM::InlineAsmOp, LLVM::CallIntrinsicOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: it may be the AMD GPU's "
              "own code";
  if (isa<LLVM::GlobalOp, LLVM::AddressOfOp, LLVM::ComdatOp>(op))
    return op->emitOpError()
           << "is not supported by the host target: globals (workgroup "
              "memory, device constants) are not compiled for the host";
  if (isa<LLVM::ModuleFlagsOp>(op) || !op->getParentOp() ||
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

/// Replaces `kernel` with a func.func taking its arguments and the
/// workgroup's coordinates (index x, y, z), whose body runs the kernel's
/// body once per work-item in an scf.for nest (x innermost).
void outlineKernel(gpu::GPUFuncOp kernel) {
  Location loc = kernel.getLoc();
  MLIRContext *ctx = kernel.getContext();
  OpBuilder b(kernel);
  unsigned numArgs = kernel.getNumArguments();
  SmallVector<Type> inputs(kernel.getArgumentTypes());
  inputs.append(3, b.getIndexType());
  auto func = func::FuncOp::create(b, loc, bodyName(kernel.getName()),
                                   b.getFunctionType(inputs, {}));
  func->setAttr("llvm.linkage",
                LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  Block *entry = func.addEntryBlock();
  b.setInsertionPointToStart(entry);

  ArrayRef<int32_t> block = *kernel.getKnownBlockSize();
  std::optional<ArrayRef<int32_t>> grid = kernel.getKnownGridSize();
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value sizes[3], threadIds[3], blockIds[3];
  for (unsigned d = 0; d < 3; ++d) {
    sizes[d] = arith::ConstantIndexOp::create(b, loc, block[d]);
    blockIds[d] = entry->getArgument(numArgs + d);
  }
  for (int d = 2; d >= 0; --d) {
    auto loop = scf::ForOp::create(b, loc, zero, sizes[d], one);
    threadIds[d] = loop.getInductionVar();
    b.setInsertionPointToStart(loop.getBody());
  }
  auto workItem = scf::ExecuteRegionOp::create(b, loc, TypeRange{});
  b.setInsertionPointToEnd(entry);
  func::ReturnOp::create(b, loc);

  // The kernel's body, its arguments now the function's.
  Region &body = workItem.getRegion();
  body.takeBody(kernel.getBody());
  Block &first = body.front();
  for (auto [arg, replacement] :
       llvm::zip(first.getArguments(), entry->getArguments()))
    arg.replaceAllUsesWith(replacement);
  first.eraseArguments(0, first.getNumArguments());

  SmallVector<Operation *> gpuOps;
  body.walk([&](Operation *op) {
    if (isa<gpu::GPUDialect>(op->getDialect()))
      gpuOps.push_back(op);
  });
  for (Operation *op : gpuOps) {
    b.setInsertionPoint(op);
    auto dim = [](auto idOp) {
      return static_cast<unsigned>(idOp.getDimension());
    };
    Value replacement;
    if (auto ret = dyn_cast<gpu::ReturnOp>(op)) {
      scf::YieldOp::create(b, ret.getLoc());
    } else if (auto id = dyn_cast<gpu::ThreadIdOp>(op)) {
      replacement = threadIds[dim(id)];
    } else if (auto id = dyn_cast<gpu::BlockIdOp>(op)) {
      replacement = blockIds[dim(id)];
    } else if (auto id = dyn_cast<gpu::BlockDimOp>(op)) {
      replacement = sizes[dim(id)];
    } else if (auto id = dyn_cast<gpu::GridDimOp>(op)) {
      replacement =
          arith::ConstantIndexOp::create(b, id.getLoc(), (*grid)[dim(id)]);
    } else if (auto id = dyn_cast<gpu::GlobalIdOp>(op)) {
      unsigned d = dim(id);
      Value base = arith::MulIOp::create(b, id.getLoc(), blockIds[d], sizes[d]);
      replacement = arith::AddIOp::create(b, id.getLoc(), base, threadIds[d]);
    }
    if (replacement)
      op->getResult(0).replaceAllUsesWith(replacement);
    op->erase();
  }
  kernel.erase();
}

/// Replaces the lowered kernel `kernel` by the two functions the entries
/// call: its body as a function of one work-item (its arguments, then the
/// work-item and workgroup ids as i32, which the ROCDL id ops become), and
/// the function outlineKernel makes for a gpu.func, whose scf.for nest over
/// the workgroup's work-items calls it.
void outlineLoweredKernel(LLVM::LLVMFuncOp kernel) {
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
    if (isa<ROCDL::ROCDLDialect>(op->getDialect()))
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
OwningOpRef<ModuleOp> lowerToLLVMDialect(gpu::GPUModuleOp gpuModule) {
  MLIRContext *ctx = gpuModule.getContext();
  OwningOpRef<ModuleOp> module = ModuleOp::create(gpuModule.getLoc());
  OpBuilder b = OpBuilder::atBlockEnd(module->getBody());
  IRMapping mapping;
  for (Operation &op : gpuModule.getBody()->getOperations())
    if (!op.hasTrait<mlir::OpTrait::IsTerminator>())
      b.clone(op, mapping);

  SmallVector<std::pair<std::string, Location>> kernels;
  for (auto kernel :
       llvm::make_early_inc_range(module->getOps<gpu::GPUFuncOp>())) {
    kernels.emplace_back(kernel.getName().str(), kernel.getLoc());
    outlineKernel(kernel);
  }
  for (auto kernel :
       llvm::make_early_inc_range(module->getOps<LLVM::LLVMFuncOp>())) {
    if (!isLLVMKernel(kernel))
      continue;
    kernels.emplace_back(kernel.getName().str(), kernel.getLoc());
    outlineLoweredKernel(kernel);
  }
  // Only the entry functions are exported; what the GPU lowering said about
  // functions (rocdl.*, gpu.*) is the GPU's.
  for (auto func : module->getOps<func::FuncOp>())
    func->setAttr("llvm.linkage",
                  LLVM::LinkageAttr::get(ctx, LLVM::Linkage::Internal));
  for (auto func : module->getOps<LLVM::LLVMFuncOp>()) {
    func.setLinkage(LLVM::Linkage::Internal);
    for (NamedAttribute attr : llvm::to_vector(func->getDiscardableAttrs()))
      if (attr.getName().strref().starts_with("rocdl.") ||
          attr.getName().strref().starts_with("gpu."))
        func->removeDiscardableAttr(attr.getName());
  }

  PassManager pm(ctx);
  pm.addPass(createSCFToControlFlowPass());
  pm.addPass(memref::createExpandStridedMetadataPass());
  pm.addPass(createLowerAffinePass());
  pm.addPass(createFinalizeMemRefToLLVMConversionPass());
  pm.addPass(createArithToLLVMConversionPass());
  pm.addPass(createConvertControlFlowToLLVMPass());
  ConvertFuncToLLVMPassOptions funcOptions;
  funcOptions.useBarePtrCallConv = true;
  pm.addPass(createConvertFuncToLLVMPass(funcOptions));
  pm.addPass(createReconcileUnrealizedCastsPass());
  if (failed(pm.run(*module))) {
    gpuModule.emitError() << "could not lower to the LLVM dialect for the "
                             "host target";
    return nullptr;
  }
  for (auto &[name, loc] : kernels) {
    addEntry(*module, name, loc);
    addTwinEntry(*module, name, loc);
  }
  return module;
}

/// Runs `ld.lld -shared` on `object`: the toolkit's (`<toolkit>/llvm/bin/
/// ld.lld`, as for #rocdl.target) or, with no toolkit, the one hcq was built
/// with.
std::optional<SmallVector<char, 0>>
linkSharedObject(gpu::GPUModuleOp module, StringRef object, StringRef toolkit) {
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
  StringRef args[] = {"ld.lld", "-shared", "-o", output, input};
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
                          options.getToolkitPath());
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
      kernels.push_back(gpu::KernelMetadataAttr::get(
          kernel, b.getDictionaryAttr(b.getNamedAttr(
                      "block_size", kernel.getKnownBlockSizeAttr()))));
  for (auto kernel : module.getOps<LLVM::LLVMFuncOp>())
    if (isLLVMKernel(kernel))
      kernels.push_back(gpu::KernelMetadataAttr::get(
          kernel, b.getDictionaryAttr(b.getNamedAttr(
                      "block_size",
                      gpu::GPUDialect::KnownBlockSizeAttrHelper(ctx).getAttr(
                          kernel)))));
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
                     func::FuncDialect, LLVM::LLVMDialect,
                     memref::MemRefDialect, ROCDL::ROCDLDialect,
                     scf::SCFDialect>();
  });
  registerBuiltinDialectTranslation(registry);
  registerLLVMDialectTranslation(registry);
}
