//===- File.cpp - Whole files in and out, without LLVM --------------------===//

#include "HCQ/Base/File.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace hcq {

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
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::read(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0) {
      // A file that shrank while read ends early: an I/O error here.
      int error = n < 0 ? errno : EIO;
      ::close(fd);
      return failure(std::strerror(error));
    }
    done += size_t(n);
  }
  ::close(fd);
  return bytes;
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
