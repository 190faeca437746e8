//===- ExecutableBytes.h - Editing executable files in tests ----*- C++ -*-===//
//
// For tests and fuzz targets that corrupt an executable file's payload and
// want the reader, not the checksum, to catch it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_UNITTESTS_EXECUTABLEBYTES_H
#define HCQ_UNITTESTS_EXECUTABLEBYTES_H

#include "HCQ/Base/Bytes.h"
#include "HCQ/Runtime/ABI.h"

#include <cstdint>
#include <vector>

namespace hcq::test {

/// Recomputes the payload checksum in the header of `bytes` in place; too
/// short a file is left alone (the reader refuses it).
inline void resealExecutable(std::vector<uint8_t> &bytes) {
  if (bytes.size() < abi::FILE_HEADER_BYTES)
    return;
  Span<const uint8_t> payload(bytes.data() + abi::FILE_HEADER_BYTES,
                              bytes.size() - abi::FILE_HEADER_BYTES);
  write32le(bytes.data() + abi::FILE_CHECKSUM_OFFSET, crc32(payload));
}

} // namespace hcq::test

#endif // HCQ_UNITTESTS_EXECUTABLEBYTES_H
