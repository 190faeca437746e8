//===- Profile.cpp - Timestamps as a Chrome trace -------------------------===//
//
// The Trace Event Format's complete events ("ph": "X"), with metadata
// events naming each process (a device) and thread (a queue), as
// chrome://tracing and Perfetto read them.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"

#include <algorithm>
#include <cinttypes>
#include <cstdio>
#include <map>

namespace hcq::runtime {

/// `text` as a JSON string literal (RFC 8259 section 7): quotes, backslashes
/// and control characters escaped; other bytes (UTF-8) as they are.
static void appendJsonString(std::string &out, std::string_view text) {
  out += '"';
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
    } else {
      out += c;
    }
  }
  out += '"';
}

/// Nanoseconds as the microseconds the format counts in, exactly.
static void appendMicroseconds(std::string &out, uint64_t ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%" PRIu64 ".%03" PRIu64, ns / 1000,
                ns % 1000);
  out += text;
}

std::string chromeTrace(Span<const ProfileEvent> events) {
  uint64_t origin = ~uint64_t(0);
  for (const ProfileEvent &e : events)
    origin = std::min(origin, e.startNs);
  // Ids in order of first appearance: devices are processes, queues threads.
  std::map<DeviceId, int64_t> processes;
  std::map<std::pair<int64_t, std::string>, int64_t> threads;
  std::string out = "{\"displayTimeUnit\":\"ns\",\"traceEvents\":[";
  bool first = true;
  auto beginEvent = [&] {
    out += first ? "\n{" : ",\n{";
    first = false;
  };
  // A metadata event naming a process or a thread (tid < 0: a process).
  auto name = [&](const char *what, int64_t pid, int64_t tid,
                  const std::string &value) {
    beginEvent();
    out += concat("\"ph\":\"M\",\"name\":\"", what, "\",\"pid\":", pid);
    if (tid >= 0)
      out += concat(",\"tid\":", tid);
    out += ",\"args\":{\"name\":";
    appendJsonString(out, value);
    out += "}}";
  };
  for (const ProfileEvent &e : events) {
    auto process = processes.insert({e.device, int64_t(processes.size())});
    int64_t pid = process.first->second;
    if (process.second)
      name("process_name", pid, -1, e.device.str());
    auto thread = threads.insert({{pid, e.queue}, int64_t(threads.size())});
    int64_t tid = thread.first->second;
    if (thread.second)
      name("thread_name", pid, tid, e.queue);
    beginEvent();
    out += "\"ph\":\"X\",\"name\":";
    appendJsonString(out, e.name);
    out += concat(",\"pid\":", pid, ",\"tid\":", tid, ",\"ts\":");
    appendMicroseconds(out, e.startNs - origin);
    out += ",\"dur\":";
    appendMicroseconds(out, e.endNs >= e.startNs ? e.endNs - e.startNs : 0);
    out += concat(",\"args\":{\"run\":", e.run, "}}");
  }
  out += "\n]}\n";
  return out;
}

} // namespace hcq::runtime
