//===- Device.cpp - Device and queue names --------------------------------===//

#include "HCQ/Base/Device.h"

#include "HCQ/Base/Strings.h"

namespace hcq {

std::string_view stringifyDeviceKind(DeviceKind kind) {
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
  return "?";
}

std::optional<DeviceKind> symbolizeDeviceKind(std::string_view name) {
  for (DeviceKind kind : {DeviceKind::AMD, DeviceKind::CPU, DeviceKind::CUDA,
                          DeviceKind::NV, DeviceKind::METAL, DeviceKind::DISK})
    if (stringifyDeviceKind(kind) == name)
      return kind;
  return std::nullopt;
}

std::string_view stringifyQueueKind(QueueKind kind) {
  switch (kind) {
  case QueueKind::COMPUTE:
    return "COMPUTE";
  case QueueKind::COPY:
    return "COPY";
  case QueueKind::SUBMIT:
    return "SUBMIT";
  }
  return "?";
}

std::optional<QueueKind> symbolizeQueueKind(std::string_view name) {
  for (QueueKind kind :
       {QueueKind::COMPUTE, QueueKind::COPY, QueueKind::SUBMIT})
    if (stringifyQueueKind(kind) == name)
      return kind;
  return std::nullopt;
}

bool hasCommandQueueBackend(DeviceKind kind) {
  return kind == DeviceKind::AMD || kind == DeviceKind::CPU;
}

std::string DeviceName::str() const {
  return concat(stringifyDeviceKind(kind), ":", index);
}

std::string QueueName::str() const {
  return concat(stringifyQueueKind(kind), ":", index);
}

/// Splits "KIND[:N]" into its kind and index; shared by devices and queues.
static Error splitName(std::string_view text, std::string_view what,
                       std::string_view &kind, uint32_t &index) {
  auto [head, tail] = splitOnce(text, ':');
  kind = head;
  index = 0;
  if (head.empty())
    return makeError("empty ", what, " name in '", text, "'");
  if (text.find(':') != std::string_view::npos) {
    std::optional<uint64_t> value = parseUnsigned(tail);
    if (!value || *value > UINT32_MAX)
      return makeError("invalid ", what, " index '", tail, "' in '", text, "'");
    index = static_cast<uint32_t>(*value);
  }
  return Error::success();
}

Expected<DeviceName> parseDeviceName(std::string_view text) {
  std::string_view kindName;
  uint32_t index;
  if (Error err = splitName(text, "device", kindName, index))
    return std::move(err);
  std::optional<DeviceKind> kind = symbolizeDeviceKind(kindName);
  if (!kind)
    return makeError("unknown device kind '", kindName,
                     "' (expected AMD, CPU, CUDA, NV, METAL or DISK)");
  return DeviceName{*kind, index};
}

Expected<QueueName> parseQueueName(std::string_view text) {
  std::string_view kindName;
  uint32_t index;
  if (Error err = splitName(text, "queue", kindName, index))
    return std::move(err);
  std::optional<QueueKind> kind = symbolizeQueueKind(kindName);
  if (!kind)
    return makeError("unknown queue kind '", kindName,
                     "' (expected COMPUTE, COPY or SUBMIT)");
  return QueueName{*kind, index};
}

Expected<uint32_t> parseDeviceKindSet(std::string_view text) {
  uint32_t mask = 0;
  for (std::string_view name : splitAll(text, ',')) {
    name = trim(name);
    std::optional<DeviceKind> kind = symbolizeDeviceKind(name);
    if (!kind)
      return makeError("unknown device kind '", name, "'");
    uint32_t bit = 1u << static_cast<uint32_t>(*kind);
    if (mask & bit)
      return makeError("device kind '", name, "' listed twice");
    mask |= bit;
  }
  return mask;
}

} // namespace hcq
