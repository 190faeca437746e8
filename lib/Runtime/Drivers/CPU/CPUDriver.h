//===- CPUDriver.h - The cpu driver (internal) ------------------*- C++ -*-===//
//
// CPU:N: host memory, and queues of 64-byte entries (docs/cpu-queue.md)
// each drained by a worker thread. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_DRIVERS_CPU_CPUDRIVER_H
#define HCQ_LIB_RUNTIME_DRIVERS_CPU_CPUDRIVER_H

#include "Driver.h"

namespace hcq::runtime {

/// The CPU device's queue: a ring of 64-byte entries, the futex in the
/// doorbell word.
std::unique_ptr<Queue> makeCPUQueue(std::string name, const RingMemory &memory,
                                    std::chrono::milliseconds timeout,
                                    std::shared_ptr<QueueFlags> flags);

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_DRIVERS_CPU_CPUDRIVER_H
