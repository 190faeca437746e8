//===- Device.cpp - Device and queue names --------------------------------===//

#include "HCQ/Support/Device.h"

#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace hcq {

StringRef stringifyDeviceKind(DeviceKind kind) {
  switch (kind) {
  case DeviceKind::AMD:
    return "AMD";
  case DeviceKind::CPU:
    return "CPU";
  case DeviceKind::CUDA:
    return "CUDA";
  case DeviceKind::NV:
    return "NV";
  case DeviceKind::METAL:
    return "METAL";
  case DeviceKind::DISK:
    return "DISK";
  }
  llvm_unreachable("unknown device kind");
}

std::optional<DeviceKind> symbolizeDeviceKind(StringRef name) {
  return StringSwitch<std::optional<DeviceKind>>(name)
      .Case("AMD", DeviceKind::AMD)
      .Case("CPU", DeviceKind::CPU)
      .Case("CUDA", DeviceKind::CUDA)
      .Case("NV", DeviceKind::NV)
      .Case("METAL", DeviceKind::METAL)
      .Case("DISK", DeviceKind::DISK)
      .Default(std::nullopt);
}

StringRef stringifyQueueKind(QueueKind kind) {
  switch (kind) {
  case QueueKind::COMPUTE:
    return "COMPUTE";
  case QueueKind::COPY:
    return "COPY";
  case QueueKind::SUBMIT:
    return "SUBMIT";
  }
  llvm_unreachable("unknown queue kind");
}

std::optional<QueueKind> symbolizeQueueKind(StringRef name) {
  return StringSwitch<std::optional<QueueKind>>(name)
      .Case("COMPUTE", QueueKind::COMPUTE)
      .Case("COPY", QueueKind::COPY)
      .Case("SUBMIT", QueueKind::SUBMIT)
      .Default(std::nullopt);
}

bool hasCommandQueueBackend(DeviceKind kind) {
  return kind == DeviceKind::AMD || kind == DeviceKind::CPU;
}

std::string DeviceName::str() const {
  return (stringifyDeviceKind(kind) + ":" + Twine(index)).str();
}

std::string QueueName::str() const {
  return (stringifyQueueKind(kind) + ":" + Twine(index)).str();
}

/// Splits "KIND[:N]" into its kind and index; shared by devices and queues.
static Error splitName(StringRef text, StringRef what, StringRef &kind,
                       uint32_t &index) {
  auto [head, tail] = text.split(':');
  kind = head;
  index = 0;
  if (head.empty())
    return createStringError(inconvertibleErrorCode(),
                             "empty " + what + " name in '" + text + "'");
  if (text.contains(':')) {
    unsigned long long value;
    if (tail.getAsInteger(10, value) || value > UINT32_MAX)
      return createStringError(inconvertibleErrorCode(),
                               "invalid " + what + " index '" + tail +
                                   "' in '" + text + "'");
    index = static_cast<uint32_t>(value);
  }
  return Error::success();
}

Expected<DeviceName> parseDeviceName(StringRef text) {
  StringRef kindName;
  uint32_t index;
  if (Error err = splitName(text, "device", kindName, index))
    return std::move(err);
  std::optional<DeviceKind> kind = symbolizeDeviceKind(kindName);
  if (!kind)
    return createStringError(inconvertibleErrorCode(),
                             "unknown device kind '" + kindName +
                                 "' (expected AMD, CPU, CUDA, NV, METAL or "
                                 "DISK)");
  return DeviceName{*kind, index};
}

Expected<QueueName> parseQueueName(StringRef text) {
  StringRef kindName;
  uint32_t index;
  if (Error err = splitName(text, "queue", kindName, index))
    return std::move(err);
  std::optional<QueueKind> kind = symbolizeQueueKind(kindName);
  if (!kind)
    return createStringError(inconvertibleErrorCode(),
                             "unknown queue kind '" + kindName +
                                 "' (expected COMPUTE, COPY or SUBMIT)");
  return QueueName{*kind, index};
}

Expected<uint32_t> parseDeviceKindSet(StringRef text) {
  uint32_t mask = 0;
  SmallVector<StringRef> names;
  text.split(names, ',', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  for (StringRef name : names) {
    name = name.trim();
    std::optional<DeviceKind> kind = symbolizeDeviceKind(name);
    if (!kind)
      return createStringError(inconvertibleErrorCode(),
                               "unknown device kind '" + name + "'");
    uint32_t bit = 1u << static_cast<uint32_t>(*kind);
    if (mask & bit)
      return createStringError(inconvertibleErrorCode(),
                               "device kind '" + name + "' listed twice");
    mask |= bit;
  }
  return mask;
}

} // namespace hcq
