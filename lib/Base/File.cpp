//===- File.cpp - Whole files in and out, without LLVM --------------------===//

#include "HCQ/Base/File.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hcq {

/// Reads `n` bytes from `fd` into `out`, retrying interrupted reads; how many
/// it read, and errno (0 when the file ended first, or all was read).
static std::pair<size_t, int> readExactly(int fd, uint8_t *out, size_t n) {
  size_t done = 0;
  while (done < n) {
    ssize_t got = ::read(fd, out + done, n - done);
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

Expected<std::vector<uint8_t>> readRegularFile(const std::string &path) {
  auto failure = [&](const char *why) {
    return makeError("cannot read '", path, "': ", why);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return failure(std::strerror(errno));
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return failure("not a regular file");
  }
  std::vector<uint8_t> bytes(size_t(st.st_size));
  auto [done, error] = readExactly(fd, bytes.data(), bytes.size());
  ::close(fd);
  // A file that shrank while read ends early: an I/O error here.
  if (error || done < bytes.size())
    return failure(std::strerror(error ? error : EIO));
  return bytes;
}

Error readFilePrefix(const std::string &path, Span<uint8_t> bytes) {
  auto failure = [&](const std::string &why) {
    return makeError("cannot read ", bytes.size(), " bytes from ", path, ": ",
                     why);
  };
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return failure(std::strerror(errno));
  auto [done, error] = readExactly(fd, bytes.data(), bytes.size());
  ::close(fd);
  if (error)
    return failure(std::strerror(error));
  if (done < bytes.size())
    return failure(concat("the file ends after ", done, " bytes"));
  return Error::success();
}

Error writeFile(const std::string &path, const void *data, size_t size) {
  auto failure = [&](int error) {
    return makeError("cannot write '", path, "': ", std::strerror(error));
  };
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  if (fd < 0)
    return failure(errno);
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
