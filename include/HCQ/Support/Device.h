//===- Device.h - Device and queue names ------------------------*- C++ -*-===//
//
// Device strings ("AMD:0", "CPU") and queue strings ("COMPUTE:0") as used by
// the dialect's attributes, the pass options and the runtime. MLIR-free so the
// runtime can share it.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_SUPPORT_DEVICE_H
#define HCQ_SUPPORT_DEVICE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

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

llvm::StringRef stringifyDeviceKind(DeviceKind kind);
std::optional<DeviceKind> symbolizeDeviceKind(llvm::StringRef name);
llvm::StringRef stringifyQueueKind(QueueKind kind);
std::optional<QueueKind> symbolizeQueueKind(llvm::StringRef name);

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
llvm::Expected<DeviceName> parseDeviceName(llvm::StringRef text);
/// Parses "KIND" or "KIND:N" for queues.
llvm::Expected<QueueName> parseQueueName(llvm::StringRef text);
/// Parses a comma-separated set of device kinds, e.g. "AMD,CPU"; rejects
/// unknown and repeated kinds. Returns a bit mask indexed by DeviceKind.
llvm::Expected<uint32_t> parseDeviceKindSet(llvm::StringRef text);

} // namespace hcq

#endif // HCQ_SUPPORT_DEVICE_H
