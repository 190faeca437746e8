//===- Device.h - Device and queue names ------------------------*- C++ -*-===//
//
// Device strings ("AMD:0", "CPU") and queue strings ("COMPUTE:0") as used by
// the dialect's attributes, the pass options and the runtime. LLVM-free: the
// runtime shares it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_BASE_DEVICE_H
#define HCQ_BASE_DEVICE_H

#include "HCQ/Base/Error.h"

#include <cstdint>
#include <optional>
#include <string>

namespace hcq {

/// The device kinds a schedule may name. AMD and CPU have command-queue
/// backends; the others only appear as the far end of a copy (the seed's
/// non-HCQ devices), which is what makes staging copies necessary.
enum class DeviceKind : uint32_t { AMD, CPU, CUDA, NV, METAL, DISK };

/// The queue kinds: COMPUTE runs kernels, COPY runs copies, SUBMIT is the
/// host queue that runs the batched submitter.
enum class QueueKind : uint32_t { COMPUTE, COPY, SUBMIT };

std::string_view stringifyDeviceKind(DeviceKind kind);
std::optional<DeviceKind> symbolizeDeviceKind(std::string_view name);
std::string_view stringifyQueueKind(QueueKind kind);
std::optional<QueueKind> symbolizeQueueKind(std::string_view name);

/// Whether the kind has a command-queue backend (the seed's HCQ_DEVS).
bool hasCommandQueueBackend(DeviceKind kind);

struct DeviceName {
  DeviceKind kind;
  uint32_t index = 0;
  bool operator==(const DeviceName &o) const {
    return kind == o.kind && index == o.index;
  }
  std::string str() const;
};

struct QueueName {
  QueueKind kind;
  uint32_t index = 0;
  bool operator==(const QueueName &o) const {
    return kind == o.kind && index == o.index;
  }
  std::string str() const;
};

/// Parses "KIND" or "KIND:N". A missing index means 0, as in tinygrad.
Expected<DeviceName> parseDeviceName(std::string_view text);
/// Parses "KIND" or "KIND:N" for queues.
Expected<QueueName> parseQueueName(std::string_view text);
/// Parses a comma-separated set of device kinds, e.g. "AMD,CPU"; rejects
/// unknown and repeated kinds. Returns a bit mask indexed by DeviceKind.
Expected<uint32_t> parseDeviceKindSet(std::string_view text);

} // namespace hcq

#endif // HCQ_BASE_DEVICE_H
