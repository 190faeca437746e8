//===- HostObject.h - Host code an executable carries -----------*- C++ -*-===//
//
// The host objects of executables (Executable::hostObjects: ELF shared
// objects that #hcq.host_target compiled) loaded into the process from
// memory: written into a memfd and dlopen'ed through /proc/self/fd
// (docs/design.md says why not with a loader of our own). A process holds
// one loaded copy of each distinct object, shared by every executable and
// device using it, and unloads it when the last lets go. Internal to
// lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_HOSTOBJECT_H
#define HCQ_LIB_RUNTIME_HOSTOBJECT_H

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hcq::runtime {

class HostObject : public std::enable_shared_from_this<HostObject> {
public:
  /// The process's loaded copy of the object `bytes`, loaded now if no one
  /// holds it. Errors (code Unavailable) say why it cannot be loaded.
  static Expected<std::shared_ptr<HostObject>> load(Span<const uint8_t> bytes);

  /// The address of the object's exported symbol `name`, or null.
  void *find(const std::string &name);

  /// The loaded object whose find() gave `address`, or null (code of no host
  /// object, or of one unloaded since): what keeps a twin's code loaded as
  /// long as the device running it.
  static std::shared_ptr<HostObject> owning(const void *address);

  /// Keeps `object` loaded for the process's life: code that may still run
  /// in a kernel that never returned.
  static void keepLoaded(std::shared_ptr<HostObject> object);

  ~HostObject();
  HostObject(const HostObject &) = delete;
  HostObject &operator=(const HostObject &) = delete;

private:
  HostObject() = default;

  void *handle = nullptr;
  /// The memfd the object was loaded from, open while it is loaded: the
  /// dynamic loader knows the object by its /proc/self/fd path, which must
  /// not name another object meanwhile.
  int fd = -1;
  uint32_t digest = 0;
  std::vector<uint8_t> bytes;
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_HOSTOBJECT_H
