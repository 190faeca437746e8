//===- Bytes.h - Little-endian fields, alignment, checksums -----*- C++ -*-===//
//
// The byte-level helpers the executable format and the runtime need, without
// LLVM: little-endian loads and stores, alignment, the file's CRC-32 and the
// link cache's content digest.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_BYTES_H
#define HCQ_BASE_BYTES_H

#include "HCQ/Base/Span.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <unordered_map>
#include <vector>

namespace hcq {

// Every field hcq stores is little-endian, as are the hosts it runs on
// (x86-64, AArch64 Linux): loads and stores are plain copies.
static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__,
              "hcq's file and packet fields assume a little-endian host");

inline uint32_t read32le(const void *p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}
inline uint64_t read64le(const void *p) {
  uint64_t v;
  std::memcpy(&v, p, 8);
  return v;
}
inline void write32le(void *p, uint32_t v) { std::memcpy(p, &v, 4); }
inline void write64le(void *p, uint64_t v) { std::memcpy(p, &v, 8); }

/// `value` rounded up to a multiple of `align` (not 0).
constexpr uint64_t alignTo(uint64_t value, uint64_t align) {
  return (value + align - 1) / align * align;
}
constexpr bool isPowerOf2(uint64_t v) { return v && !(v & (v - 1)); }

/// CRC-32 as zlib and the executable format compute it (reflected
/// polynomial 0xEDB88320, initial and final value ~0).
uint32_t crc32(Span<const uint8_t> bytes);

/// A 128-bit digest of `bytes` for cache keys: not cryptographic, but two
/// different executables share one only by accident of 2^-128.
struct Digest128 {
  uint64_t low = 0, high = 0;
};
Digest128 digest128(Span<const uint8_t> bytes);

/// Values by the content of byte strings (program images): found by a
/// 128-bit digest, and told apart from a colliding digest by the bytes,
/// which it keeps, since a file may be crafted to collide.
template <typename V> class ContentMap {
public:
  /// The value stored for `bytes`, whose digest is `digest`, or null.
  V *find(const Digest128 &digest, Span<const uint8_t> bytes) {
    auto [first, last] = entries.equal_range(digest.low);
    for (auto it = first; it != last; ++it)
      if (it->second.high == digest.high &&
          it->second.bytes.size() == bytes.size() &&
          std::equal(bytes.begin(), bytes.end(), it->second.bytes.begin()))
        return &it->second.value;
    return nullptr;
  }

  /// Stores `value` for `bytes` (not stored yet), keeping a copy of them.
  V &insert(const Digest128 &digest, Span<const uint8_t> bytes, V value) {
    return entries
        .emplace(digest.low,
                 Entry{digest.high,
                       std::vector<uint8_t>(bytes.begin(), bytes.end()),
                       std::move(value)})
        ->second.value;
  }

  size_t size() const { return entries.size(); }

private:
  struct Entry {
    uint64_t high;
    std::vector<uint8_t> bytes;
    V value;
  };
  std::unordered_multimap<uint64_t, Entry> entries;
};

} // namespace hcq

#endif // HCQ_BASE_BYTES_H
