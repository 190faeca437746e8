//===- Runtime.cpp - The runtime's C API ---------------------------------===//
//
// include/hcq-c/runtime.h over the C++ runtime: each handle is an entry of
// the table of live handles (Handles.h) owning the C++ object it stands for,
// each hcq::Error becomes a status carrying its code and message. Nothing
// here throws or aborts on bad input: a NULL, released or foreign handle, a
// number out of range or an unknown enum value is
// HCQ_STATUS_INVALID_ARGUMENT, checked before the C++ runtime sees it.
//
//===----------------------------------------------------------------------===//

#include "hcq-c/runtime.h"

#include "Handles.h"

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Strings.h"
#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Runtime/Workgroups.h"

#include <cstring>
#include <mutex>
#include <string>
#include <vector>

using namespace hcq;
using namespace hcq::capi;
using namespace hcq::runtime;

// The status codes are hcq::ErrorCode's numbers: a code passes through as
// it is.
#define HCQ_SAME_CODE(status, code)                                            \
  static_assert(uint32_t(status) == uint32_t(ErrorCode::code),                 \
                #status " is not ErrorCode::" #code)
HCQ_SAME_CODE(HCQ_STATUS_INVALID_ARGUMENT, InvalidArgument);
HCQ_SAME_CODE(HCQ_STATUS_INTERNAL, Internal);
HCQ_SAME_CODE(HCQ_STATUS_DEADLINE_EXCEEDED, DeadlineExceeded);
HCQ_SAME_CODE(HCQ_STATUS_DEVICE_FAULT, DeviceFault);
HCQ_SAME_CODE(HCQ_STATUS_INVALID_FILE, InvalidFile);
HCQ_SAME_CODE(HCQ_STATUS_OUT_OF_MEMORY, OutOfMemory);
HCQ_SAME_CODE(HCQ_STATUS_UNAVAILABLE, Unavailable);
HCQ_SAME_CODE(HCQ_STATUS_FAILED_PRECONDITION, FailedPrecondition);
#undef HCQ_SAME_CODE
static_assert(HCQ_STATUS_OK == 0, "a status of code 0 is success");

namespace {

/// The objects the handles stand for.
struct StatusObject {
  hcq_status_code_t code;
  std::string message;
};

struct OptionsObject {
  RuntimeOptions options = optionsNamedForC();
  /// Errors name the options as this API sets them.
  static RuntimeOptions optionsNamedForC() {
    RuntimeOptions o;
    o.optionNames = {
        {"librarySearchPaths", "hcq_runtime_options_add_library_path"},
        {"twinLibraries", "hcq_runtime_options_add_twin_library"},
        {"amdTwins", "hcq_runtime_options_register_amd_twin"},
    };
    return o;
  }
};

struct RuntimeObject {
  std::shared_ptr<Runtime> runtime;
};

struct BufferObject {
  Buffer buffer;
};

struct ExecutableObject {
  Executable exe;
  /// How the plan uses each argument, for checking a run's arguments.
  std::vector<ArgumentUse> uses;
  std::unique_ptr<LoadedExecutable> loaded;
  /// The last profile read, which the events returned point into.
  std::mutex profileMutex;
  std::vector<ProfileEvent> profile;
};

/// The C type of each handle, its kind and its name in messages.
template <typename T> struct HandleInfo;
template <> struct HandleInfo<StatusObject> {
  using Handle = hcq_status_t;
  static constexpr HandleKind kind = HandleKind::Status;
};
template <> struct HandleInfo<OptionsObject> {
  using Handle = hcq_runtime_options_t;
  static constexpr HandleKind kind = HandleKind::Options;
  static constexpr const char *name = "hcq_runtime_options_t";
};
template <> struct HandleInfo<RuntimeObject> {
  using Handle = hcq_runtime_t;
  static constexpr HandleKind kind = HandleKind::Runtime;
  static constexpr const char *name = "hcq_runtime_t";
};
template <> struct HandleInfo<BufferObject> {
  using Handle = hcq_buffer_t;
  static constexpr HandleKind kind = HandleKind::Buffer;
  static constexpr const char *name = "hcq_buffer_t";
};
template <> struct HandleInfo<ExecutableObject> {
  using Handle = hcq_executable_t;
  static constexpr HandleKind kind = HandleKind::Executable;
  static constexpr const char *name = "hcq_executable_t";
};

template <typename T>
typename HandleInfo<T>::Handle publish(std::shared_ptr<T> object) {
  return makeHandle<typename HandleInfo<T>::Handle>(HandleInfo<T>::kind,
                                                    std::move(object));
}

template <typename T>
std::shared_ptr<T> find(typename HandleInfo<T>::Handle handle) {
  return findHandle<T>(HandleInfo<T>::kind, handle);
}

template <typename T>
std::shared_ptr<T> remove(typename HandleInfo<T>::Handle handle) {
  return removeHandle<T>(HandleInfo<T>::kind, handle);
}

hcq_status_t makeStatus(hcq_status_code_t code, std::string message) {
  return publish(
      std::make_shared<StatusObject>(StatusObject{code, std::move(message)}));
}

template <typename... Parts> hcq_status_t invalid(const Parts &...parts) {
  return makeStatus(HCQ_STATUS_INVALID_ARGUMENT, concat(parts...));
}

/// The status for handle `handle` of T that is not live.
template <typename T>
hcq_status_t notLive(typename HandleInfo<T>::Handle handle) {
  if (!handle)
    return invalid("no ", HandleInfo<T>::name, " (NULL)");
  return invalid(HandleInfo<T>::name, " 0x",
                 toHex(uint64_t(reinterpret_cast<uintptr_t>(handle))),
                 " is not a live handle (released, or never made)");
}

hcq_status_t toStatus(Error error) {
  if (!error)
    return nullptr;
  hcq_status_code_t code = uint32_t(error.code());
  return makeStatus(code, toString(std::move(error)));
}

/// An out-parameter handle for a new object, or an out-of-memory status
/// when the table has no room.
template <typename T>
hcq_status_t publishTo(std::shared_ptr<T> object,
                       typename HandleInfo<T>::Handle *out) {
  typename HandleInfo<T>::Handle handle = publish(std::move(object));
  if (!handle)
    return makeStatus(HCQ_STATUS_OUT_OF_MEMORY,
                      "no handle to be had: too many live handles");
  *out = handle;
  return nullptr;
}

std::optional<DeviceId> toDevice(hcq_device_t device) {
  switch (device.kind) {
  case HCQ_DEVICE_AMD:
    return DeviceId{DeviceKind::AMD, device.index};
  case HCQ_DEVICE_CPU:
    return DeviceId{DeviceKind::CPU, device.index};
  }
  return std::nullopt;
}

hcq_device_t fromDevice(DeviceId id) {
  return {id.kind == DeviceKind::CPU ? HCQ_DEVICE_CPU : HCQ_DEVICE_AMD,
          id.index};
}

/// The arguments of a run of `e` as the C++ runtime takes them, each
/// checked against how the executable uses it: a NULL lane or a wrong
/// count of lanes is refused, naming the argument and the lane.
hcq_status_t toArguments(const ExecutableObject &e,
                         const hcq_argument_t *arguments, size_t count,
                         std::vector<Argument> &out) {
  const Executable &exe = e.exe;
  if (count != exe.numArgs)
    return invalid("@", exe.name, " takes ", exe.numArgs, " arguments, given ",
                   count);
  if (count && !arguments)
    return invalid("@", exe.name, ": ", count,
                   " arguments but no argument array (NULL)");
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const hcq_argument_t &a = arguments[i];
    const ArgumentUse &use = e.uses[i];
    auto bad = [&](const auto &...parts) {
      return invalid("@", exe.name, " argument ", i, " (",
                     formatArgument(exe.arguments[i], i), "): ", parts...);
    };
    Argument arg;
    arg.value = a.value;
    if (use.kind == ArgumentUse::Variable && a.lane_count)
      return bad("a variable, given ", a.lane_count, " lanes");
    if (use.kind == ArgumentUse::Buffer) {
      if (a.lane_count != use.lanes)
        return bad("a buffer of ", use.lanes,
                   use.lanes == 1 ? " lane" : " lanes", ", given ",
                   a.lane_count);
      if (!a.lanes)
        return bad(a.lane_count, " lanes but no lane array (NULL)");
      for (size_t lane = 0; lane < a.lane_count; ++lane)
        if (!a.lanes[lane])
          return bad("lane ", lane,
                     lane < use.devices.size()
                         ? " (" + use.devices[lane].str() + ")"
                         : std::string(),
                     " is NULL");
      arg.lanes.assign(a.lanes, a.lanes + a.lane_count);
    }
    out.push_back(std::move(arg));
  }
  return nullptr;
}

hcq_status_t load(hcq_runtime_t runtime, Expected<Executable> exe,
                  hcq_executable_t *out) {
  std::shared_ptr<RuntimeObject> r = find<RuntimeObject>(runtime);
  if (!r)
    return notLive<RuntimeObject>(runtime);
  if (!exe)
    return toStatus(exe.takeError());
  auto object = std::make_shared<ExecutableObject>();
  object->exe = std::move(*exe);
  object->uses = getArgumentUses(object->exe);
  Expected<std::unique_ptr<LoadedExecutable>> loaded =
      r->runtime->load(object->exe);
  if (!loaded)
    return toStatus(loaded.takeError());
  object->loaded = std::move(*loaded);
  return publishTo(std::move(object), out);
}

} // namespace

extern "C" {

hcq_status_code_t hcq_status_code(hcq_status_t status) {
  if (!status)
    return HCQ_STATUS_OK;
  std::shared_ptr<StatusObject> s = find<StatusObject>(status);
  return s ? s->code : HCQ_STATUS_INVALID_ARGUMENT;
}

const char *hcq_status_message(hcq_status_t status) {
  if (!status)
    return "";
  // The message lives as long as the status: the table holds it.
  std::shared_ptr<StatusObject> s = find<StatusObject>(status);
  return s ? s->message.c_str()
           : "hcq_status_t is not a live status (freed, or never made)";
}

void hcq_status_free(hcq_status_t status) { remove<StatusObject>(status); }

hcq_status_t hcq_status_create(hcq_status_code_t code, const char *message) {
  if (code == HCQ_STATUS_OK || code > HCQ_STATUS_FAILED_PRECONDITION)
    return invalid("hcq_status_create: code ", code, " is not a failure's (1..",
                   uint32_t(HCQ_STATUS_FAILED_PRECONDITION),
                   "); the message was: ", message ? message : "");
  return makeStatus(code, message ? message : "");
}

const char *hcq_version(void) { return HCQ_VERSION; }

uint32_t hcq_executable_format_version(void) { return FORMAT_VERSION; }

static_assert(HCQ_MAX_WORKGROUP_THREADS == MAX_WORKGROUP_THREADS,
              "the C API's bound is the runtime's");

hcq_status_t hcq_set_workgroup_threads(uint32_t threads) {
  if (threads > HCQ_MAX_WORKGROUP_THREADS)
    return invalid("workgroup threads must be 0 (the default) or 1..",
                   HCQ_MAX_WORKGROUP_THREADS, ", given ", threads);
  setWorkgroupThreads(threads);
  return nullptr;
}

uint32_t hcq_workgroup_threads(void) { return getWorkgroupThreads(); }

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

hcq_runtime_options_t hcq_runtime_options_create(void) {
  return publish(std::make_shared<OptionsObject>());
}

hcq_status_t hcq_runtime_options_free(hcq_runtime_options_t options) {
  if (!remove<OptionsObject>(options))
    return notLive<OptionsObject>(options);
  return nullptr;
}

#define HCQ_FIND_OPTIONS(o, handle)                                            \
  std::shared_ptr<OptionsObject> o = find<OptionsObject>(handle);              \
  if (!o)                                                                      \
    return notLive<OptionsObject>(handle);

hcq_status_t hcq_runtime_options_set_amd_device(hcq_runtime_options_t options,
                                                hcq_amd_device_t device) {
  HCQ_FIND_OPTIONS(o, options)
  switch (device) {
  case HCQ_AMD_NONE:
    o->options.amd = AMDDevice::None;
    return nullptr;
  case HCQ_AMD_EMULATED:
    o->options.amd = AMDDevice::Emulated;
    return nullptr;
  case HCQ_AMD_HARDWARE:
    o->options.amd = AMDDevice::Hardware;
    return nullptr;
  }
  return invalid("hcq_amd_device_t ", device,
                 " is none of HCQ_AMD_NONE, HCQ_AMD_EMULATED and "
                 "HCQ_AMD_HARDWARE");
}

hcq_status_t hcq_runtime_options_set_wait_timeout(hcq_runtime_options_t options,
                                                  uint64_t milliseconds) {
  HCQ_FIND_OPTIONS(o, options)
  if (milliseconds == 0 || milliseconds > HCQ_MAX_WAIT_TIMEOUT_MS)
    return invalid("the wait timeout must be 1..", HCQ_MAX_WAIT_TIMEOUT_MS,
                   " ms, given ", milliseconds);
  o->options.waitTimeout = std::chrono::milliseconds(int64_t(milliseconds));
  return nullptr;
}

hcq_status_t hcq_runtime_options_set_ring_bytes(hcq_runtime_options_t options,
                                                uint64_t bytes) {
  HCQ_FIND_OPTIONS(o, options)
  if (bytes < 64 || bytes % 64 || bytes > HCQ_MAX_RING_BYTES)
    return invalid("ring bytes must be a multiple of 64 in 64..",
                   HCQ_MAX_RING_BYTES, ", given ", bytes);
  o->options.ringBytes = bytes;
  return nullptr;
}

hcq_status_t hcq_runtime_options_add_library_path(hcq_runtime_options_t options,
                                                  const char *folder) {
  HCQ_FIND_OPTIONS(o, options)
  if (!folder)
    return invalid("no folder (NULL)");
  o->options.librarySearchPaths.push_back(folder);
  return nullptr;
}

hcq_status_t hcq_runtime_options_add_twin_library(hcq_runtime_options_t options,
                                                  const char *path) {
  HCQ_FIND_OPTIONS(o, options)
  if (!path)
    return invalid("no path (NULL)");
  o->options.twinLibraries.push_back(path);
  return nullptr;
}

hcq_status_t
hcq_runtime_options_register_cpu_kernel(hcq_runtime_options_t options,
                                        const char *symbol,
                                        hcq_cpu_kernel_t kernel) {
  HCQ_FIND_OPTIONS(o, options)
  if (!symbol || !kernel)
    return invalid("no symbol or kernel (NULL)");
  o->options.cpuKernels[symbol] = kernel;
  return nullptr;
}

hcq_status_t
hcq_runtime_options_register_amd_twin(hcq_runtime_options_t options,
                                      const char *symbol, hcq_amd_twin twin) {
  HCQ_FIND_OPTIONS(o, options)
  if (!symbol || !twin)
    return invalid("no symbol or twin (NULL)");
  o->options.amdTwins[symbol] = twin;
  return nullptr;
}

hcq_status_t
hcq_runtime_options_register_host_call(hcq_runtime_options_t options,
                                       const char *callee, hcq_host_call_t call,
                                       void *userData) {
  HCQ_FIND_OPTIONS(o, options)
  if (!callee || !call)
    return invalid("no callee or function (NULL)");
  o->options.hostCalls[callee] =
      [call, userData](Span<const Argument> operands) -> Error {
    std::vector<hcq_argument_t> args;
    args.reserve(operands.size());
    for (const Argument &a : operands)
      args.push_back({a.lanes.data(), a.lanes.size(), a.value});
    hcq_status_t status = call(userData, args.data(), args.size());
    if (!status)
      return Error::success();
    std::shared_ptr<StatusObject> s = remove<StatusObject>(status);
    if (!s)
      return makeError(ErrorCode::InvalidArgument,
                       "the host call returned a status that is not live "
                       "(freed, or never made)");
    return Error::failure(ErrorCode(s->code), s->message);
  };
  return nullptr;
}

#undef HCQ_FIND_OPTIONS

//===----------------------------------------------------------------------===//
// Runtime and buffers
//===----------------------------------------------------------------------===//

hcq_status_t hcq_runtime_create(hcq_runtime_options_t options,
                                hcq_runtime_t *out) {
  if (!out)
    return invalid("no handle to return the runtime in (NULL)");
  RuntimeOptions copy;
  if (options) {
    std::shared_ptr<OptionsObject> o = find<OptionsObject>(options);
    if (!o)
      return notLive<OptionsObject>(options);
    copy = o->options;
  }
  return publishTo(
      std::make_shared<RuntimeObject>(RuntimeObject{Runtime::create(copy)}),
      out);
}

hcq_status_t hcq_runtime_release(hcq_runtime_t runtime) {
  if (!remove<RuntimeObject>(runtime))
    return notLive<RuntimeObject>(runtime);
  return nullptr;
}

hcq_status_t hcq_runtime_synchronize(hcq_runtime_t runtime) {
  std::shared_ptr<RuntimeObject> r = find<RuntimeObject>(runtime);
  if (!r)
    return notLive<RuntimeObject>(runtime);
  return toStatus(r->runtime->synchronize());
}

hcq_status_t hcq_buffer_allocate(hcq_runtime_t runtime, hcq_device_t device,
                                 uint64_t bytes, hcq_buffer_t *out) {
  std::shared_ptr<RuntimeObject> r = find<RuntimeObject>(runtime);
  if (!r)
    return notLive<RuntimeObject>(runtime);
  if (!out)
    return invalid("no handle to return the buffer in (NULL)");
  std::optional<DeviceId> id = toDevice(device);
  if (!id)
    return invalid("hcq_device_kind_t ", device.kind,
                   " is neither HCQ_DEVICE_AMD nor HCQ_DEVICE_CPU");
  uint64_t most = r->runtime->getOptions().maxAllocationBytes;
  if (bytes == 0 || bytes > most)
    return invalid("a buffer is 1..", most, " bytes, given ", bytes);
  Expected<Buffer> buffer = r->runtime->allocate(*id, bytes);
  if (!buffer)
    return toStatus(buffer.takeError());
  return publishTo(
      std::make_shared<BufferObject>(BufferObject{std::move(*buffer)}), out);
}

hcq_status_t hcq_buffer_release(hcq_buffer_t buffer) {
  if (!remove<BufferObject>(buffer))
    return notLive<BufferObject>(buffer);
  return nullptr;
}

void *hcq_buffer_host_view(hcq_buffer_t buffer) {
  std::shared_ptr<BufferObject> b = find<BufferObject>(buffer);
  return b ? b->buffer.hostView() : nullptr;
}

uint64_t hcq_buffer_device_address(hcq_buffer_t buffer) {
  std::shared_ptr<BufferObject> b = find<BufferObject>(buffer);
  return b ? b->buffer.deviceAddress() : 0;
}

uint64_t hcq_buffer_size(hcq_buffer_t buffer) {
  std::shared_ptr<BufferObject> b = find<BufferObject>(buffer);
  return b ? b->buffer.size() : 0;
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

hcq_status_t hcq_executable_load_file(hcq_runtime_t runtime, const char *path,
                                      hcq_executable_t *out) {
  if (!path || !out)
    return invalid("no path or no handle to return the executable in (NULL)");
  if (!find<RuntimeObject>(runtime))
    return notLive<RuntimeObject>(runtime);
  return load(runtime, readExecutableFile(path), out);
}

hcq_status_t hcq_executable_load_memory(hcq_runtime_t runtime, const void *data,
                                        size_t size, hcq_executable_t *out) {
  if ((!data && size) || !out)
    return invalid("no data or no handle to return the executable in (NULL)");
  if (!find<RuntimeObject>(runtime))
    return notLive<RuntimeObject>(runtime);
  return load(runtime,
              readExecutable(Span<const uint8_t>(
                  static_cast<const uint8_t *>(data), size)),
              out);
}

hcq_status_t hcq_executable_release(hcq_executable_t executable) {
  // A run on another thread holds the object: it goes when that run
  // returns, the handle now.
  if (!remove<ExecutableObject>(executable))
    return notLive<ExecutableObject>(executable);
  return nullptr;
}

const char *hcq_executable_name(hcq_executable_t executable) {
  std::shared_ptr<ExecutableObject> e = find<ExecutableObject>(executable);
  return e ? e->exe.name.c_str() : "";
}

size_t hcq_executable_argument_count(hcq_executable_t executable) {
  std::shared_ptr<ExecutableObject> e = find<ExecutableObject>(executable);
  return e ? e->exe.numArgs : 0;
}

hcq_status_t hcq_executable_run(hcq_executable_t executable,
                                const hcq_argument_t *arguments,
                                size_t argumentCount) {
  std::shared_ptr<ExecutableObject> e = find<ExecutableObject>(executable);
  if (!e)
    return notLive<ExecutableObject>(executable);
  std::vector<Argument> args;
  if (hcq_status_t bad = toArguments(*e, arguments, argumentCount, args))
    return bad;
  return toStatus(e->loaded->run(args));
}

hcq_status_t hcq_executable_synchronize(hcq_executable_t executable) {
  std::shared_ptr<ExecutableObject> e = find<ExecutableObject>(executable);
  if (!e)
    return notLive<ExecutableObject>(executable);
  return toStatus(e->loaded->synchronize());
}

size_t hcq_executable_profile(hcq_executable_t executable) {
  std::shared_ptr<ExecutableObject> e = find<ExecutableObject>(executable);
  if (!e)
    return 0;
  std::lock_guard<std::mutex> lock(e->profileMutex);
  e->profile = e->loaded->profile();
  return e->profile.size();
}

hcq_status_t hcq_executable_profile_event(hcq_executable_t executable,
                                          size_t index,
                                          hcq_profile_event_t *out) {
  std::shared_ptr<ExecutableObject> e = find<ExecutableObject>(executable);
  if (!e)
    return notLive<ExecutableObject>(executable);
  if (!out)
    return invalid("no event to fill in (NULL)");
  std::lock_guard<std::mutex> lock(e->profileMutex);
  if (index >= e->profile.size())
    return invalid("no profile event ", index, " of ", e->profile.size(),
                   " (read the profile first)");
  const ProfileEvent &p = e->profile[index];
  *out = {p.name.c_str(), p.queue.c_str(), fromDevice(p.device), p.startNs,
          p.endNs};
  return nullptr;
}

} // extern "C"
