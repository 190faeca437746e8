//===- Error.cpp - Error codes' names -------------------------------------===//

#include "HCQ/Base/Error.h"

namespace hcq {

const char *getErrorCodeName(ErrorCode code) {
  switch (code) {
  case ErrorCode::InvalidArgument:
    return "invalid argument";
  case ErrorCode::Internal:
    return "internal";
  case ErrorCode::DeadlineExceeded:
    return "hang";
  case ErrorCode::DeviceFault:
    return "device fault";
  case ErrorCode::InvalidFile:
    return "invalid file";
  case ErrorCode::OutOfMemory:
    return "out of memory";
  case ErrorCode::Unavailable:
    return "unavailable";
  case ErrorCode::FailedPrecondition:
    return "failed precondition";
  }
  return "unknown";
}

} // namespace hcq
