//===- LLVMError.h - Between hcq::Error and llvm::Error ----------*- C++
//-*-===//
//
// The compiler's edge with the LLVM-free runtime: its errors become LLVM's
// and back, with their messages.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_SUPPORT_LLVMERROR_H
#define HCQ_SUPPORT_LLVMERROR_H

#include "HCQ/Base/Error.h"

#include "llvm/Support/Error.h"

namespace hcq {

inline llvm::Error toLLVMError(Error e) {
  if (!e)
    return llvm::Error::success();
  return llvm::createStringError(llvm::inconvertibleErrorCode(),
                                 toString(std::move(e)));
}

template <typename T> llvm::Expected<T> toLLVMExpected(Expected<T> x) {
  if (!x)
    return toLLVMError(x.takeError());
  return std::move(*x);
}

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
