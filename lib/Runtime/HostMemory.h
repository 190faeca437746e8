//===- HostMemory.h - Zeroed host memory for devices (internal) -*- C++ -*-===//
//
// The memory of the devices whose memory is the host's (CPU, emulated AMD).
// Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_HOSTMEMORY_H
#define HCQ_LIB_RUNTIME_HOSTMEMORY_H

#include "HCQ/Base/Error.h"

#include <cstdint>
#include <string>

namespace hcq::runtime {

/// Allocations from this size on are fresh anonymous mappings.
constexpr uint64_t HOST_MAPPING_BYTES = 64 * 1024;

/// `bytes` of zeroed host memory, 256-byte aligned, for `device` (named in
/// errors). From HOST_MAPPING_BYTES on it is a fresh anonymous mapping,
/// which the kernel zeroes page by page as it is first touched: a large
/// allocation costs address space, not time, until it is used.
Expected<uint64_t> allocateHostMemory(uint64_t bytes,
                                      const std::string &device);
/// Frees what allocateHostMemory(`bytes`) gave.
void freeHostMemory(uint64_t address, uint64_t bytes);

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_HOSTMEMORY_H
