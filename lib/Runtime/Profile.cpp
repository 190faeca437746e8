//===- Profile.cpp - Timestamps as a Chrome trace -------------------------===//
//
// The Trace Event Format's complete events ("ph": "X"), with metadata
// events naming each process (a device) and thread (a queue), as
// chrome://tracing and Perfetto read them.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"
#include "Queues.h"

#include "llvm/Support/JSON.h"

#include <algorithm>
#include <map>
#include <optional>

using namespace llvm;

namespace hcq::runtime {

void writeChromeTrace(ArrayRef<ProfileEvent> events, raw_ostream &os) {
  uint64_t origin = ~uint64_t(0);
  for (const ProfileEvent &e : events)
    origin = std::min(origin, e.startNs);
  // Ids in order of first appearance: devices are processes, queues threads.
  std::map<DeviceId, int64_t> processes;
  std::map<std::pair<int64_t, std::string>, int64_t> threads;
  json::OStream json(os, /*IndentSize=*/1);
  // A metadata event naming a process or a thread.
  auto name = [&](const char *what, int64_t pid, std::optional<int64_t> tid,
                  const std::string &value) {
    json.object([&] {
      json.attribute("ph", "M");
      json.attribute("name", what);
      json.attribute("pid", pid);
      if (tid)
        json.attribute("tid", *tid);
      json.attributeObject("args", [&] { json.attribute("name", value); });
    });
  };
  json.object([&] {
    json.attribute("displayTimeUnit", "ns");
    json.attributeArray("traceEvents", [&] {
      for (const ProfileEvent &e : events) {
        auto process = processes.insert({e.device, int64_t(processes.size())});
        int64_t pid = process.first->second;
        if (process.second)
          name("process_name", pid, std::nullopt, e.device.str());
        auto thread = threads.insert({{pid, e.queue}, int64_t(threads.size())});
        int64_t tid = thread.first->second;
        if (thread.second)
          name("thread_name", pid, tid, e.queue);
        json.object([&] {
          json.attribute("ph", "X");
          json.attribute("name", e.name);
          json.attribute("pid", pid);
          json.attribute("tid", tid);
          json.attribute("ts", double(e.startNs - origin) / 1000.0);
          json.attribute("dur", e.endNs >= e.startNs
                                    ? double(e.endNs - e.startNs) / 1000.0
                                    : 0.0);
          json.attributeObject("args", [&] { json.attribute("run", e.run); });
        });
      }
    });
  });
  os << '\n';
}

} // namespace hcq::runtime
