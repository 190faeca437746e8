//===- HostObject.cpp - Host code an executable carries -------------------===//

#include "HostObject.h"

#include "HCQ/Base/Bytes.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <dlfcn.h>
#include <map>
#include <mutex>
#include <sys/mman.h>
#include <unistd.h>

// memfd_create's flag asking for an executable memfd: required where the
// kernel makes memfds non-executable by default (vm.memfd_noexec = 1, Linux
// 6.3 and later), unknown (EINVAL) before.
#ifndef MFD_EXEC
#define MFD_EXEC 0x0010U
#endif

namespace hcq::runtime {

namespace {

/// Every loaded host object of the process, by content and by the addresses
/// find() gave. Never destroyed: a device's twins may let their objects go
/// during the process's exit, after static destructors ran. The lock is
/// recursive: a reference dropped under it may be an object's last, whose
/// destructor takes it again.
struct Registry {
  std::recursive_mutex mutex;
  std::multimap<uint32_t, std::pair<HostObject *, std::weak_ptr<HostObject>>>
      byDigest;
  std::map<const void *, std::pair<HostObject *, std::weak_ptr<HostObject>>>
      byAddress;
  std::vector<std::shared_ptr<HostObject>> keptLoaded;
};

Registry &registry() {
  static Registry *instance = new Registry;
  return *instance;
}

Error loadError(const std::string &why) {
  return Error::failure(ErrorCode::Unavailable,
                        "cannot load the executable's host object: " + why);
}

/// Writes all of `bytes` to `fd`.
bool writeAll(int fd, Span<const uint8_t> bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR)
      continue;
    if (n <= 0)
      return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

} // namespace

Expected<std::shared_ptr<HostObject>>
HostObject::load(Span<const uint8_t> bytes) {
  Registry &r = registry();
  uint32_t digest = crc32(bytes);
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  auto [first, last] = r.byDigest.equal_range(digest);
  for (auto it = first; it != last; ++it)
    if (std::shared_ptr<HostObject> loaded = it->second.second.lock())
      if (loaded->bytes.size() == bytes.size() &&
          std::equal(bytes.begin(), bytes.end(), loaded->bytes.begin()))
        return loaded;

  std::shared_ptr<HostObject> object(new HostObject());
  object->digest = digest;
  object->bytes.assign(bytes.begin(), bytes.end());
  object->fd = memfd_create("hcq-host-object", MFD_CLOEXEC | MFD_EXEC);
  if (object->fd < 0 && errno == EINVAL)
    object->fd = memfd_create("hcq-host-object", MFD_CLOEXEC);
  if (object->fd < 0)
    return loadError(std::string("memfd_create: ") + std::strerror(errno));
  if (!writeAll(object->fd, bytes))
    return loadError(std::string("writing its memfd: ") + std::strerror(errno));
  std::string path = "/proc/self/fd/" + std::to_string(object->fd);
  // RTLD_LOCAL: objects of several executables may export the same names.
  object->handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!object->handle)
    return loadError(dlerror());
  r.byDigest.emplace(digest, std::make_pair(object.get(), object));
  return object;
}

void *HostObject::find(const std::string &name) {
  void *address = dlsym(handle, name.c_str());
  if (address) {
    Registry &r = registry();
    std::lock_guard<std::recursive_mutex> lock(r.mutex);
    r.byAddress[address] = {this, weak_from_this()};
  }
  return address;
}

std::shared_ptr<HostObject> HostObject::owning(const void *address) {
  Registry &r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  auto it = r.byAddress.find(address);
  return it == r.byAddress.end() ? nullptr : it->second.second.lock();
}

void HostObject::keepLoaded(std::shared_ptr<HostObject> object) {
  Registry &r = registry();
  std::lock_guard<std::recursive_mutex> lock(r.mutex);
  if (std::find(r.keptLoaded.begin(), r.keptLoaded.end(), object) ==
      r.keptLoaded.end())
    r.keptLoaded.push_back(std::move(object));
}

HostObject::~HostObject() {
  {
    Registry &r = registry();
    std::lock_guard<std::recursive_mutex> lock(r.mutex);
    auto [first, last] = r.byDigest.equal_range(digest);
    for (auto it = first; it != last;)
      it = it->second.first == this ? r.byDigest.erase(it) : std::next(it);
    for (auto it = r.byAddress.begin(); it != r.byAddress.end();)
      it = it->second.first == this ? r.byAddress.erase(it) : std::next(it);
  }
  if (handle)
    dlclose(handle);
  if (fd >= 0)
    ::close(fd);
}

} // namespace hcq::runtime
