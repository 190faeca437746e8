//===- File.h - Whole files in and out, without LLVM ------------*- C++ -*-===//

#ifndef HCQ_BASE_FILE_H
#define HCQ_BASE_FILE_H

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hcq {

/// The whole of the regular file `path`. A device or pipe (/dev/zero, which
/// would be read forever) is refused; errors read "cannot read 'PATH': WHY".
Expected<std::vector<uint8_t>> readRegularFile(const std::string &path);

/// Exactly `bytes.size()` bytes from the start of `path`, however long (or
/// endless, as /dev/zero) the file is; errors read "cannot read N bytes from
/// PATH: WHY" (a file that ends first says after how many).
Error readFilePrefix(const std::string &path, Span<uint8_t> bytes);

/// Writes `size` bytes at `data` to `path`, replacing what it held.
Error writeFile(const std::string &path, const void *data, size_t size);

} // namespace hcq

#endif // HCQ_BASE_FILE_H
