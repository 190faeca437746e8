//===- TestRing.h - A queue's ring in plain host memory ---------*- C++ -*-===//
//
// A ring and its put, write, read and doorbell words, for tests and
// benchmarks that drive the runtime's queues directly (lib/Runtime/
// Queues.h), with no executable around them.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_UNITTESTS_TESTRING_H
#define HCQ_UNITTESTS_TESTRING_H

#include "../lib/Runtime/Queues.h"

#include <vector>

namespace hcq::test {

struct HostRing {
  /// `bytes` of ring (a multiple of 8), every byte `fill`; pointers at 0.
  explicit HostRing(uint64_t bytes, uint8_t fill = 0)
      : words(bytes / 8, 0x0101010101010101ull * fill), pointers(4, 0) {}

  runtime::RingMemory memory() {
    return {reinterpret_cast<uint8_t *>(words.data()),
            words.size() * 8,
            reinterpret_cast<uint64_t>(&pointers[0]),
            reinterpret_cast<uint64_t>(&pointers[1]),
            reinterpret_cast<uint64_t>(&pointers[2]),
            reinterpret_cast<uint64_t>(&pointers[3])};
  }
  uint64_t readPointer() const { return pointers[2]; }

  std::vector<uint64_t> words;    // the ring, 8-byte aligned
  std::vector<uint64_t> pointers; // put, wptr, rptr, doorbell
};

} // namespace hcq::test

#endif // HCQ_UNITTESTS_TESTRING_H
