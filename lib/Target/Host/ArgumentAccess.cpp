//===- ArgumentAccess.cpp - How a kernel uses its buffer arguments --------===//
//
// A walk over the uses of each buffer argument, through the operations that
// only make another view or pointer of it, to the operations that read or
// write memory through it. Memory effects (MemoryEffectOpInterface) say
// which: memref.load, vector.transfer_read or llvm.load read the value they
// name, memref.store or llvm.store write it, atomics do both. Anything the
// walk cannot see through makes the buffer readwrite.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/Host/ArgumentAccess.h"

#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

using namespace mlir;
using namespace hcq;

namespace {

bool isBufferType(Type type) {
  return isa<BaseMemRefType, LLVM::LLVMPointerType>(type);
}

/// Whether a value of `type` can hold a buffer: a buffer, or an LLVM
/// aggregate (convert-gpu-to-rocdl packs each pointer into a memref
/// descriptor struct, and takes it out again for each access).
bool canHoldBuffer(Type type) {
  return isBufferType(type) ||
         isa<LLVM::LLVMStructType, LLVM::LLVMArrayType>(type);
}

/// Whether `use` makes its owner's results other names of the buffer: a
/// view or cast of a memref, a pointer into a pointer's memory, an
/// aggregate holding it or a value taken out of one. An aggregate's other
/// members count as the buffer too, which can only widen the answer.
bool derivesBuffer(OpOperand &use) {
  Operation *user = use.getOwner();
  if (auto view = dyn_cast<ViewLikeOpInterface>(user))
    return view.getViewSource() == use.get();
  if (auto gep = dyn_cast<LLVM::GEPOp>(user))
    return gep.getBase() == use.get();
  return isa<LLVM::AddrSpaceCastOp, LLVM::BitcastOp, LLVM::InsertValueOp,
             LLVM::ExtractValueOp>(user);
}

/// How the uses of `buffer` (and of what derives from it) access memory, or
/// std::nullopt when a use lets its address go where the walk cannot follow.
std::optional<std::pair<bool, bool>> findReadsAndWrites(Value buffer) {
  bool reads = false, writes = false;
  llvm::SetVector<Value> names;
  names.insert(buffer);
  for (unsigned i = 0; i < names.size(); ++i) {
    Value name = names[i];
    for (OpOperand &use : name.getUses()) {
      Operation *user = use.getOwner();
      if (derivesBuffer(use)) {
        for (Value result : user->getResults())
          if (canHoldBuffer(result.getType()))
            names.insert(result);
        continue;
      }
      // An integer of the address can become a pointer again anywhere.
      if (isa<LLVM::PtrToIntOp, memref::ExtractAlignedPointerAsIndexOp>(user))
        return std::nullopt;
      // A call, or any operation that does not say what it does to memory.
      auto effects = dyn_cast<MemoryEffectOpInterface>(user);
      if (!effects)
        return std::nullopt;
      SmallVector<MemoryEffects::EffectInstance> all;
      effects.getEffects(all);
      bool onBuffer = false;
      for (MemoryEffects::EffectInstance &effect : all) {
        if (effect.getValue() != name)
          continue;
        onBuffer = true;
        if (isa<MemoryEffects::Read>(effect.getEffect()))
          reads = true;
        else if (isa<MemoryEffects::Write>(effect.getEffect()))
          writes = true;
        else
          return std::nullopt; // allocating or freeing it
      }
      if (onBuffer)
        continue;
      // The buffer is an operand the effects do not name: harmless only
      // where the operation touches no memory at all and gives nothing but
      // numbers (memref.dim, a pointer comparison). Stored as a value,
      // yielded, sent to another block or put in a vector, it escapes.
      auto isNumber = [](Type type) { return type.isIntOrIndexOrFloat(); };
      if (!all.empty() || user->getNumRegions() || user->getNumSuccessors() ||
          user->hasTrait<mlir::OpTrait::IsTerminator>() ||
          !llvm::all_of(user->getResultTypes(), isNumber))
        return std::nullopt;
    }
  }
  return std::make_pair(reads, writes);
}

} // namespace

SmallVector<std::optional<Access>>
hcq::inferBufferArgumentAccess(FunctionOpInterface kernel) {
  SmallVector<std::optional<Access>> access(kernel.getNumArguments());
  if (kernel.isExternal())
    return access;
  // The function's own arguments only: a gpu.func's entry block also holds
  // its workgroup and private attributions after them, which are no
  // arguments (and past the end of `access`).
  for (unsigned i = 0, e = kernel.getNumArguments(); i < e; ++i) {
    BlockArgument arg = kernel.getArgument(i);
    if (!isBufferType(arg.getType()))
      continue;
    std::optional<std::pair<bool, bool>> found = findReadsAndWrites(arg);
    Access result = Access::readwrite;
    if (found && !found->second)
      result = Access::read; // also when it is not used at all
    else if (found && !found->first)
      result = Access::write;
    access[arg.getArgNumber()] = result;
  }
  return access;
}
