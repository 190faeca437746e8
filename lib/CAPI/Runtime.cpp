//===- Runtime.cpp - The runtime's C API ---------------------------------===//
//
// include/hcq-c/runtime.h over the C++ runtime: each handle owns the C++
// object it stands for, each hcq::Error becomes a status carrying its
// message. Nothing here throws or aborts on bad input: a NULL handle or an
// unknown enum value is HCQ_STATUS_INVALID_ARGUMENT.
//
//===----------------------------------------------------------------------===//

#include "hcq-c/runtime.h"

#include "HCQ/Base/File.h"
#include "HCQ/Runtime/Runtime.h"

#include <cstring>
#include <string>
#include <vector>

using namespace hcq;
using namespace hcq::runtime;

struct hcq_status_s {
  hcq_status_code_t code;
  std::string message;
};

struct hcq_runtime_options_s {
  RuntimeOptions options;
};

struct hcq_runtime_s {
  std::shared_ptr<Runtime> runtime;
};

struct hcq_buffer_s {
  Buffer buffer;
};

struct hcq_executable_s {
  Executable exe;
  std::unique_ptr<LoadedExecutable> loaded;
  std::vector<ProfileEvent> profile;
};

namespace {

Error failure(std::string why) { return Error::failure(std::move(why)); }

hcq_status_t makeStatus(hcq_status_code_t code, std::string message) {
  return new hcq_status_s{code, std::move(message)};
}

hcq_status_t invalid(const char *what) {
  return makeStatus(HCQ_STATUS_INVALID_ARGUMENT, what);
}

hcq_status_t toStatus(Error error) {
  if (!error)
    return nullptr;
  return makeStatus(HCQ_STATUS_FAILED, toString(std::move(error)));
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

/// The arguments as the C++ runtime takes them; false if one is malformed.
bool toArguments(const hcq_argument_t *arguments, size_t count,
                 std::vector<Argument> &out) {
  if (count && !arguments)
    return false;
  out.reserve(count);
  for (size_t i = 0; i < count; ++i) {
    const hcq_argument_t &a = arguments[i];
    if (a.lane_count && !a.lanes)
      return false;
    Argument arg;
    arg.lanes.assign(a.lanes, a.lanes + a.lane_count);
    arg.value = a.value;
    out.push_back(std::move(arg));
  }
  return true;
}

hcq_status_t load(hcq_runtime_t runtime, Span<const uint8_t> bytes,
                  hcq_executable_t *out) {
  Expected<Executable> exe = readExecutable(bytes);
  if (!exe)
    return toStatus(exe.takeError());
  auto handle = std::make_unique<hcq_executable_s>();
  handle->exe = std::move(*exe);
  Expected<std::unique_ptr<LoadedExecutable>> loaded =
      runtime->runtime->load(handle->exe);
  if (!loaded)
    return toStatus(loaded.takeError());
  handle->loaded = std::move(*loaded);
  *out = handle.release();
  return nullptr;
}

} // namespace

extern "C" {

hcq_status_code_t hcq_status_code(hcq_status_t status) {
  return status ? status->code : HCQ_STATUS_OK;
}

const char *hcq_status_message(hcq_status_t status) {
  return status ? status->message.c_str() : "";
}

void hcq_status_free(hcq_status_t status) { delete status; }

hcq_status_t hcq_status_create(hcq_status_code_t code, const char *message) {
  return makeStatus(code == HCQ_STATUS_INVALID_ARGUMENT
                        ? HCQ_STATUS_INVALID_ARGUMENT
                        : HCQ_STATUS_FAILED,
                    message ? message : "");
}

const char *hcq_version(void) { return HCQ_VERSION; }

uint32_t hcq_executable_format_version(void) { return FORMAT_VERSION; }

//===----------------------------------------------------------------------===//
// Options
//===----------------------------------------------------------------------===//

hcq_runtime_options_t hcq_runtime_options_create(void) {
  return new hcq_runtime_options_s();
}

void hcq_runtime_options_free(hcq_runtime_options_t options) { delete options; }

hcq_status_t hcq_runtime_options_set_amd_device(hcq_runtime_options_t options,
                                                hcq_amd_device_t device) {
  if (!options)
    return invalid("no options");
  switch (device) {
  case HCQ_AMD_NONE:
    options->options.amd = AMDDevice::None;
    return nullptr;
  case HCQ_AMD_EMULATED:
    options->options.amd = AMDDevice::Emulated;
    return nullptr;
  case HCQ_AMD_HARDWARE:
    options->options.amd = AMDDevice::Hardware;
    return nullptr;
  }
  return invalid("unknown hcq_amd_device_t value");
}

hcq_status_t hcq_runtime_options_set_wait_timeout(hcq_runtime_options_t options,
                                                  uint64_t milliseconds) {
  if (!options)
    return invalid("no options");
  if (milliseconds == 0)
    return invalid("the wait timeout must be positive");
  options->options.waitTimeout = std::chrono::milliseconds(milliseconds);
  return nullptr;
}

hcq_status_t hcq_runtime_options_set_ring_bytes(hcq_runtime_options_t options,
                                                uint64_t bytes) {
  if (!options)
    return invalid("no options");
  if (bytes < 64 || bytes % 64)
    return invalid("ring bytes must be a positive multiple of 64");
  options->options.ringBytes = bytes;
  return nullptr;
}

hcq_status_t hcq_runtime_options_add_library_path(hcq_runtime_options_t options,
                                                  const char *folder) {
  if (!options || !folder)
    return invalid("no options or no folder");
  options->options.librarySearchPaths.push_back(folder);
  return nullptr;
}

hcq_status_t hcq_runtime_options_add_twin_library(hcq_runtime_options_t options,
                                                  const char *path) {
  if (!options || !path)
    return invalid("no options or no path");
  options->options.twinLibraries.push_back(path);
  return nullptr;
}

hcq_status_t
hcq_runtime_options_register_cpu_kernel(hcq_runtime_options_t options,
                                        const char *symbol,
                                        hcq_cpu_kernel_t kernel) {
  if (!options || !symbol || !kernel)
    return invalid("no options, symbol or kernel");
  options->options.cpuKernels[symbol] = kernel;
  return nullptr;
}

hcq_status_t
hcq_runtime_options_register_amd_twin(hcq_runtime_options_t options,
                                      const char *symbol, hcq_amd_twin twin) {
  if (!options || !symbol || !twin)
    return invalid("no options, symbol or twin");
  options->options.amdTwins[symbol] = twin;
  return nullptr;
}

hcq_status_t
hcq_runtime_options_register_host_call(hcq_runtime_options_t options,
                                       const char *callee, hcq_host_call_t call,
                                       void *userData) {
  if (!options || !callee || !call)
    return invalid("no options, callee or function");
  options->options.hostCalls[callee] =
      [call, userData](Span<const Argument> operands) -> Error {
    std::vector<hcq_argument_t> args;
    args.reserve(operands.size());
    for (const Argument &a : operands)
      args.push_back({a.lanes.data(), a.lanes.size(), a.value});
    hcq_status_t status = call(userData, args.data(), args.size());
    if (!status)
      return Error::success();
    std::string message = status->message;
    hcq_status_free(status);
    return failure(message);
  };
  return nullptr;
}

//===----------------------------------------------------------------------===//
// Runtime and buffers
//===----------------------------------------------------------------------===//

hcq_status_t hcq_runtime_create(hcq_runtime_options_t options,
                                hcq_runtime_t *out) {
  if (!out)
    return invalid("no handle to return the runtime in");
  *out = new hcq_runtime_s{
      Runtime::create(options ? options->options : RuntimeOptions())};
  return nullptr;
}

void hcq_runtime_release(hcq_runtime_t runtime) { delete runtime; }

hcq_status_t hcq_runtime_synchronize(hcq_runtime_t runtime) {
  if (!runtime)
    return invalid("no runtime");
  return toStatus(runtime->runtime->synchronize());
}

hcq_status_t hcq_buffer_allocate(hcq_runtime_t runtime, hcq_device_t device,
                                 uint64_t bytes, hcq_buffer_t *out) {
  if (!runtime || !out)
    return invalid("no runtime or no handle to return the buffer in");
  std::optional<DeviceId> id = toDevice(device);
  if (!id)
    return invalid("unknown hcq_device_kind_t value");
  Expected<Buffer> buffer = runtime->runtime->allocate(*id, bytes);
  if (!buffer)
    return toStatus(buffer.takeError());
  *out = new hcq_buffer_s{std::move(*buffer)};
  return nullptr;
}

void hcq_buffer_release(hcq_buffer_t buffer) { delete buffer; }

void *hcq_buffer_host_view(hcq_buffer_t buffer) {
  return buffer ? buffer->buffer.hostView() : nullptr;
}

uint64_t hcq_buffer_device_address(hcq_buffer_t buffer) {
  return buffer ? buffer->buffer.deviceAddress() : 0;
}

uint64_t hcq_buffer_size(hcq_buffer_t buffer) {
  return buffer ? buffer->buffer.size() : 0;
}

//===----------------------------------------------------------------------===//
// Executables
//===----------------------------------------------------------------------===//

hcq_status_t hcq_executable_load_file(hcq_runtime_t runtime, const char *path,
                                      hcq_executable_t *out) {
  if (!runtime || !path || !out)
    return invalid("no runtime, path or handle to return the executable in");
  Expected<std::vector<uint8_t>> bytes = readRegularFile(path);
  if (!bytes)
    return toStatus(bytes.takeError());
  return load(runtime, *bytes, out);
}

hcq_status_t hcq_executable_load_memory(hcq_runtime_t runtime, const void *data,
                                        size_t size, hcq_executable_t *out) {
  if (!runtime || (!data && size) || !out)
    return invalid("no runtime, data or handle to return the executable in");
  return load(runtime,
              Span<const uint8_t>(static_cast<const uint8_t *>(data), size),
              out);
}

void hcq_executable_release(hcq_executable_t executable) { delete executable; }

const char *hcq_executable_name(hcq_executable_t executable) {
  return executable ? executable->exe.name.c_str() : "";
}

size_t hcq_executable_argument_count(hcq_executable_t executable) {
  return executable ? executable->exe.numArgs : 0;
}

hcq_status_t hcq_executable_run(hcq_executable_t executable,
                                const hcq_argument_t *arguments,
                                size_t argumentCount) {
  if (!executable)
    return invalid("no executable");
  std::vector<Argument> args;
  if (!toArguments(arguments, argumentCount, args))
    return invalid("an argument has lanes but no lane array");
  if (args.size() != executable->exe.numArgs)
    return invalid(("@" + executable->exe.name + " takes " +
                    std::to_string(executable->exe.numArgs) +
                    " arguments, given " + std::to_string(args.size()))
                       .c_str());
  return toStatus(executable->loaded->run(args));
}

hcq_status_t hcq_executable_synchronize(hcq_executable_t executable) {
  if (!executable)
    return invalid("no executable");
  return toStatus(executable->loaded->synchronize());
}

size_t hcq_executable_profile(hcq_executable_t executable) {
  if (!executable)
    return 0;
  executable->profile = executable->loaded->profile();
  return executable->profile.size();
}

hcq_status_t hcq_executable_profile_event(hcq_executable_t executable,
                                          size_t index,
                                          hcq_profile_event_t *out) {
  if (!executable || !out)
    return invalid("no executable or no event to fill in");
  if (index >= executable->profile.size())
    return invalid("no profile event of that index (read the profile first)");
  const ProfileEvent &e = executable->profile[index];
  *out = {e.name.c_str(), e.queue.c_str(), fromDevice(e.device), e.startNs,
          e.endNs};
  return nullptr;
}

} // extern "C"
