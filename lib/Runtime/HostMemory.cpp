//===- HostMemory.cpp - Zeroed host memory for devices --------------------===//

#include "HostMemory.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>

namespace hcq::runtime {

Expected<uint64_t> allocateHostMemory(uint64_t bytes,
                                      const std::string &device) {
  if (bytes >= HOST_MAPPING_BYTES) {
    // Page-aligned, so 256-byte aligned too.
    void *p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      return makeError(ErrorCode::OutOfMemory, device, ": cannot map ", bytes,
                       " bytes: ", std::strerror(errno));
    return reinterpret_cast<uint64_t>(p);
  }
  void *p = std::aligned_alloc(256, bytes);
  if (!p)
    return makeError(ErrorCode::OutOfMemory, device, ": out of memory for ",
                     bytes, " bytes");
  std::memset(p, 0, bytes);
  return reinterpret_cast<uint64_t>(p);
}

void freeHostMemory(uint64_t address, uint64_t bytes) {
  if (bytes >= HOST_MAPPING_BYTES)
    ::munmap(reinterpret_cast<void *>(address), bytes);
  else
    std::free(reinterpret_cast<void *>(address));
}

Expected<RingMemory>
HostMemoryDevice::allocateRing(const QueueAllocator &allocate,
                               uint64_t ringBytes) {
  Expected<uint64_t> ring = allocate(ringBytes, Placement::Host);
  if (!ring)
    return ring.takeError();
  // The pointer words, in the order RingMemory names them.
  Expected<uint64_t> pointers = allocate(4 * 8, Placement::Host);
  if (!pointers)
    return pointers.takeError();
  RingMemory memory;
  memory.ring = reinterpret_cast<uint8_t *>(*ring);
  memory.ringBytes = ringBytes;
  memory.put = *pointers;
  memory.wptr = *pointers + 8;
  memory.rptr = *pointers + 16;
  memory.doorbell = *pointers + 24;
  return memory;
}

} // namespace hcq::runtime
