//===- File.h - Whole files in and out, without LLVM -------------*- C++
//-*-===//

#ifndef HCQ_BASE_FILE_H
#define HCQ_BASE_FILE_H

#include "HCQ/Base/Error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hcq {

/// The whole of the regular file `path`. A device or pipe (/dev/zero, which
/// would be read forever) is refused; errors read "cannot read 'PATH': WHY".
Expected<std::vector<uint8_t>> readRegularFile(const std::string &path);

/// Writes `size` bytes at `data` to `path`, replacing what it held.
Error writeFile(const std::string &path, const void *data, size_t size);

} // namespace hcq

#endif // HCQ_BASE_FILE_H
