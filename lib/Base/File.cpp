//===- File.cpp - Whole files in and out, without LLVM --------------------===//

#include "HCQ/Base/File.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hcq {

/// Reads `n` bytes from `fd` at `offset` (or, for offset -1, from where the
/// file is) into `out`, retrying interrupted reads; how many it read, and
/// errno (0 when the file ended first, or all was read).
static std::pair<size_t, int> readExactly(int fd, uint8_t *out, size_t n,
                                          int64_t offset = -1) {
  // One read takes at most this many bytes (Linux stops at 2 GiB anyway).
  constexpr size_t STEP = size_t(1) << 30;
  size_t done = 0;
  while (done < n) {
    size_t want = std::min(n - done, STEP);
    ssize_t got = offset < 0
                      ? ::read(fd, out + done, want)
                      : ::pread(fd, out + done, want, off_t(offset + done));
    if (got < 0 && errno == EINTR)
      continue;
    if (got < 0)
      return {done, errno};
    if (got == 0)
      break;
    done += size_t(got);
  }
  return {done, 0};
}

/// The code of a failure to open a file: one that is not there is
/// unavailable, every other failure an invalid file.
static ErrorCode openErrorCode(int error) {
  return error == ENOENT || error == ENOTDIR ? ErrorCode::Unavailable
                                             : ErrorCode::InvalidFile;
}

Expected<RegularFile> RegularFile::open(const std::string &path) {
  auto failure = [&](ErrorCode code, const char *why) {
    return makeError(code, "cannot read '", path, "': ", why);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return failure(openErrorCode(errno), std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size < 0) {
    ::close(fd);
    return failure(ErrorCode::InvalidFile, "not a regular file");
  }
  RegularFile file;
  file.path = path;
  file.bytes = uint64_t(st.st_size);
  file.fd = fd;
  return file;
}

RegularFile &RegularFile::operator=(RegularFile &&other) noexcept {
  if (this == &other)
    return *this;
  if (fd >= 0)
    ::close(fd);
  path = std::move(other.path);
  bytes = other.bytes;
  fd = other.fd;
  other.fd = -1;
  return *this;
}

RegularFile::~RegularFile() {
  if (fd >= 0)
    ::close(fd);
}

Error RegularFile::read(uint64_t offset, Span<uint8_t> out) const {
  auto failure = [&](const std::string &why) {
    return makeError(ErrorCode::InvalidFile, "cannot read '", path, "': ", why);
  };
  // A file that shrank since it was opened ends early, as a short one does.
  if (offset > bytes || out.size() > bytes - offset)
    return failure(concat("it is ", bytes, " bytes, shorter than the ",
                          offset + out.size(), " needed"));
  auto [done, error] = readExactly(fd, out.data(), out.size(), offset);
  if (error)
    return failure(std::strerror(error));
  if (done < out.size())
    return failure(concat("it ended after ", offset + done,
                          " bytes while reading; ", offset + out.size(),
                          " are needed"));
  return Error::success();
}

Expected<std::vector<uint8_t>> readRegularFile(const std::string &path,
                                               uint64_t maxBytes) {
  Expected<RegularFile> file = RegularFile::open(path);
  if (!file)
    return file.takeError();
  if (file->size() > maxBytes)
    return makeError(ErrorCode::InvalidFile, "cannot read '", path, "': it is ",
                     file->size(), " bytes, more than the ", maxBytes,
                     " it may be");
  std::vector<uint8_t> bytes(size_t(file->size()));
  if (Error e = file->read(0, bytes))
    return std::move(e);
  return bytes;
}

Error readFilePrefix(const std::string &path, Span<uint8_t> bytes) {
  auto failure = [&](ErrorCode code, const std::string &why) {
    return makeError(code, "cannot read ", bytes.size(), " bytes from ", path,
                     ": ", why);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return failure(openErrorCode(errno), std::strerror(errno));
  auto [done, error] = readExactly(fd, bytes.data(), bytes.size());
  ::close(fd);
  if (error)
    return failure(ErrorCode::InvalidFile, std::strerror(error));
  if (done < bytes.size())
    return failure(ErrorCode::InvalidFile,
                   concat("the file ends after ", done, " bytes"));
  return Error::success();
}

Error writeFile(const std::string &path, const void *data, size_t size) {
  auto failure = [&](int error, ErrorCode code = ErrorCode::Internal) {
    return makeError(code, "cannot write '", path, "': ", std::strerror(error));
  };
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return failure(errno, openErrorCode(errno));
  const char *p = static_cast<const char *>(data);
  size_t done = 0;
  while (done < size) {
    ssize_t n = ::write(fd, p + done, size - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      return failure(error);
    }
    done += size_t(n);
  }
  if (::close(fd) != 0)
    return failure(errno);
  return Error::success();
}

} // namespace hcq
