//===- ArgumentAccess.h - How a kernel uses its buffer arguments -*- C++
//-*-===//
//
// Whether a gpu kernel only reads, only writes, or reads and writes each of
// its buffer arguments, found in its body. #hcq.host_target records it in
// the kernel table of the object it makes (the body is gone once
// gpu-module-to-binary has run), and convert-gpu-to-hcq gives it to the
// hcq.kernel, so that hcq-batch-deps sees no read-write conflict the kernel
// does not have.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_HOST_ARGUMENTACCESS_H
#define HCQ_TARGET_HOST_ARGUMENTACCESS_H

#include "HCQ/Dialect/HCQ.h"

#include "mlir/Interfaces/FunctionInterfaces.h"

#include <optional>

namespace hcq {

/// The argument attribute of a kernel's metadata (#gpu.kernel_metadata's
/// argument attributes) holding a buffer argument's access: "read", "write"
/// or "readwrite".
constexpr llvm::StringLiteral KERNEL_ARG_ACCESS_ATTR = "hcq.access";

/// How `kernel` (a gpu.func, or an llvm.func that convert-gpu-to-rocdl made
/// of one) uses each argument that is a buffer (a memref, or a pointer once
/// lowered); std::nullopt for the other arguments. The analysis follows the
/// buffer through views and casts (memref views, llvm.getelementptr,
/// address space casts) to the operations that read or write memory through
/// it, by their memory effects. A buffer whose address goes anywhere else
/// (a call, stored to memory, turned into an integer, passed to another
/// block) is readwrite: the answer is never narrower than the truth. A
/// buffer the kernel never touches is read.
llvm::SmallVector<std::optional<Access>>
inferBufferArgumentAccess(mlir::FunctionOpInterface kernel);

} // namespace hcq

#endif // HCQ_TARGET_HOST_ARGUMENTACCESS_H
