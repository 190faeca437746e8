//===- File.h - Whole files in and out, without LLVM ------------*- C++ -*-===//
//
// Reading is always bounded: nothing here allocates what a file's size says
// before the caller's limit allowed it, so a huge (or sparse) file is an
// error naming it and both sizes, never an allocation that aborts. Errors
// have code InvalidFile, or Unavailable for a file that does not exist.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_FILE_H
#define HCQ_BASE_FILE_H

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"

#include <cstdint>
#include <string>
#include <vector>

namespace hcq {

/// A regular file open for reading, read in pieces of the caller's size. A
/// device or pipe (/dev/zero, which would be read forever) is refused when
/// opened. Closed when it goes.
class RegularFile {
public:
  /// Errors read "cannot read 'PATH': WHY".
  static Expected<RegularFile> open(const std::string &path);

  RegularFile(RegularFile &&other) noexcept { *this = std::move(other); }
  RegularFile &operator=(RegularFile &&other) noexcept;
  RegularFile(const RegularFile &) = delete;
  RegularFile &operator=(const RegularFile &) = delete;
  ~RegularFile();

  const std::string &getPath() const { return path; }
  /// Its size when opened.
  uint64_t size() const { return bytes; }
  /// Exactly `out.size()` bytes from byte `offset`; a file that ends first
  /// is an error naming it, its size and the bytes needed.
  Error read(uint64_t offset, Span<uint8_t> out) const;

private:
  RegularFile() = default;
  std::string path;
  uint64_t bytes = 0;
  int fd = -1;
};

/// The whole of the regular file `path`, if it is at most `maxBytes`
/// (what the caller needs, or a limit it states): a larger file is an error
/// naming the file, its size and `maxBytes`, before anything is allocated.
/// Errors read "cannot read 'PATH': WHY".
Expected<std::vector<uint8_t>> readRegularFile(const std::string &path,
                                               uint64_t maxBytes);

/// Exactly `bytes.size()` bytes from the start of `path`, however long (or
/// endless, as /dev/zero) the file is; errors read "cannot read N bytes from
/// PATH: WHY" (a file that ends first says after how many).
Error readFilePrefix(const std::string &path, Span<uint8_t> bytes);

/// Writes `size` bytes at `data` to `path`, replacing what it held.
Error writeFile(const std::string &path, const void *data, size_t size);

} // namespace hcq

#endif // HCQ_BASE_FILE_H
