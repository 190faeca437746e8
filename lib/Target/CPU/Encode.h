//===- Encode.h - CPU queue entries of CPU submits --------------*- C++ -*-===//
//
// Private to the CPU target: #hcq.cpu_target's model hands hcq-encode this
// encoder.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_TARGET_CPU_ENCODE_H
#define HCQ_LIB_TARGET_CPU_ENCODE_H

#include "HCQ/Dialect/HCQ.h"

namespace hcq::cpu {

/// CPU queue entries (include/HCQ/Target/CPU/Entry.h, docs/cpu-queue.md).
std::unique_ptr<SubmitEncoder> createSubmitEncoder();

} // namespace hcq::cpu

#endif // HCQ_LIB_TARGET_CPU_ENCODE_H
