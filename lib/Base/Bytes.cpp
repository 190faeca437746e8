//===- Bytes.cpp - Checksums and digests ----------------------------------===//

#include "HCQ/Base/Bytes.h"

#include <array>

namespace hcq {

namespace {
// Slicing by 8 (Kounavis and Berry, "A Systematic Approach to Building High
// Performance Software-based CRC Generators"): table k gives the CRC of a
// byte followed by k zero bytes, so eight bytes are folded in at once, with
// no chain of eight table lookups. Reading a file's checksum was the largest
// part of reading an executable byte by byte.
using CrcTables = std::array<std::array<uint32_t, 256>, 8>;
constexpr CrcTables makeCrcTables() {
  CrcTables tables{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    tables[0][i] = c;
  }
  for (size_t k = 1; k < 8; ++k)
    for (uint32_t i = 0; i < 256; ++i)
      tables[k][i] =
          (tables[k - 1][i] >> 8) ^ tables[0][tables[k - 1][i] & 0xff];
  return tables;
}
constexpr CrcTables CRC_TABLES = makeCrcTables();

constexpr uint64_t rotl(uint64_t x, int r) {
  return (x << r) | (x >> (64 - r));
}

// A 64-bit finalizer whose every input bit reaches every output bit (the
// SplitMix64 output function's shifts and odd multipliers).
constexpr uint64_t avalanche(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}
} // namespace

uint32_t crc32(Span<const uint8_t> bytes) {
  const CrcTables &t = CRC_TABLES;
  uint32_t c = ~0u;
  const uint8_t *p = bytes.data();
  size_t n = bytes.size();
  for (; n >= 8; n -= 8, p += 8) {
    uint32_t lo = read32le(p) ^ c, hi = read32le(p + 4);
    c = t[7][lo & 0xff] ^ t[6][(lo >> 8) & 0xff] ^ t[5][(lo >> 16) & 0xff] ^
        t[4][lo >> 24] ^ t[3][hi & 0xff] ^ t[2][(hi >> 8) & 0xff] ^
        t[1][(hi >> 16) & 0xff] ^ t[0][hi >> 24];
  }
  for (; n; --n, ++p)
    c = t[0][(c ^ *p) & 0xff] ^ (c >> 8);
  return ~c;
}

Digest128 digest128(Span<const uint8_t> bytes) {
  // Two lanes read every 8-byte word, each mixing it with its own odd
  // multiplier and rotation; the length seeds both, so zero padding of the
  // last word cannot make two lengths agree.
  const uint64_t n = bytes.size();
  uint64_t a = 0x9e3779b97f4a7c15ull ^ n;
  uint64_t b = 0xc2b2ae3d27d4eb4full + n;
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    uint64_t w = read64le(bytes.data() + i);
    a = rotl(a ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
    b = rotl(b + (w * 0xff51afd7ed558ccdull), 27) * 0x9fb21c651e98df25ull;
  }
  if (i < n) {
    uint8_t tail[8] = {};
    std::memcpy(tail, bytes.data() + i, n - i);
    uint64_t w = read64le(tail);
    a = rotl(a ^ (w * 0x87c37b91114253d5ull), 31) * 0x4cf5ad432745937full;
    b = rotl(b + (w * 0xff51afd7ed558ccdull), 27) * 0x9fb21c651e98df25ull;
  }
  return {avalanche(a ^ rotl(b, 17)), avalanche(b ^ rotl(a, 41))};
}

} // namespace hcq
