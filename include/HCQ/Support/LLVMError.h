//===- LLVMError.h - Between hcq::Error and llvm::Error ---------*- C++ -*-===//
//
// The compiler's edge with the LLVM-free base: an llvm::Error (of the
// object-file reader) becomes an hcq::Error with its message.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_SUPPORT_LLVMERROR_H
#define HCQ_SUPPORT_LLVMERROR_H

#include "HCQ/Base/Error.h"

#include "llvm/Support/Error.h"

namespace hcq {

inline Error fromLLVMError(llvm::Error e) {
  if (!e)
    return Error::success();
  return Error::failure(llvm::toString(std::move(e)));
}

template <typename T> Expected<T> fromLLVMExpected(llvm::Expected<T> x) {
  if (!x)
    return fromLLVMError(x.takeError());
  return std::move(*x);
}

} // namespace hcq

#endif // HCQ_SUPPORT_LLVMERROR_H
