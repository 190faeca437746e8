//===- HostMemory.h - Zeroed host memory for devices (internal) -*- C++ -*-===//
//
// The memory of the devices whose memory is the host's (CPU, emulated AMD).
// Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_HOSTMEMORY_H
#define HCQ_LIB_RUNTIME_HOSTMEMORY_H

#include "Driver.h"

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

/// A device whose memory is the host's (the CPU and emulated AMD devices):
/// every placement is zeroed host memory, and a queue's ring and its four
/// pointer words (put, write, read, doorbell) are two blocks of it.
class HostMemoryDevice : public DriverDevice {
public:
  explicit HostMemoryDevice(std::string name) : name(std::move(name)) {}
  Expected<uint64_t> allocate(uint64_t bytes, Placement) override {
    return allocateHostMemory(bytes, name);
  }
  void free(uint64_t address, uint64_t bytes) override {
    freeHostMemory(address, bytes);
  }

protected:
  /// A ring of `ringBytes` and its pointers, from `allocate`.
  static Expected<RingMemory> allocateRing(const QueueAllocator &allocate,
                                           uint64_t ringBytes);

  std::string name;
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_HOSTMEMORY_H
