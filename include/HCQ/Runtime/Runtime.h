//===- Runtime.h - Running executables --------------------------*- C++ -*-===//
//
// The thin runtime: loads an executable, links it into host memory, and per
// run writes the inputs tables and executes the host plan. CPU queues are
// rings of entries run by a worker thread per queue that drains every ready
// entry before it sleeps on a futex, woken at most once per push. AMD queues
// run on the emulated AMD device: a software command processor per ring that
// executes the PM4 and SDMA words, with CPU twins for the kernels. No MLIR.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_RUNTIME_H
#define HCQ_RUNTIME_RUNTIME_H

#include "HCQ/Runtime/Executable.h"
#include "HCQ/Runtime/Twin.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <functional>
#include <memory>

namespace hcq::runtime {

/// One argument of a run: a buffer (one pointer per lane) or a variable.
struct Argument {
  std::vector<void *> lanes;
  int64_t value = 0;
  static Argument buffer(void *p) { return {{p}, 0}; }
  static Argument variable(int64_t v) { return {{}, v}; }
};

/// The implementation of an `hcq.host_call`: called with its operands, each
/// a buffer (one pointer per lane) or a variable's value, once all the work
/// the run submitted before it has finished.
using HostCallFunction =
    std::function<llvm::Error(llvm::ArrayRef<Argument> operands)>;

/// What runs an executable's AMD devices.
enum class AMDDevice {
  /// None: loading an executable with AMD devices fails, saying so.
  None,
  /// The emulated AMD device: memory is host memory, each AMD queue a
  /// command processor thread executing the pushed PM4/SDMA packets, each
  /// kernel dispatch its CPU twin (docs/runtime.md).
  Emulated,
};

struct RuntimeOptions {
  /// A wait whose signal does not advance for this long fails the run.
  std::chrono::milliseconds waitTimeout{30000};
  /// Per device ("AMD:1"): a wait on its queues or its timeline uses this
  /// timeout instead of `waitTimeout`.
  llvm::StringMap<std::chrono::milliseconds> deviceWaitTimeouts;
  /// Host calls by callee name; a run that reaches a host call missing here
  /// fails, naming it.
  llvm::StringMap<HostCallFunction> hostCalls;
  /// The device AMD:N values and queues live on.
  AMDDevice amd = AMDDevice::None;
  /// CPU twins of AMD kernels by kernel symbol, for the emulated device;
  /// looked up before `twinLibraries`.
  llvm::StringMap<hcq_amd_twin> amdTwins;
  /// Shared libraries (dlopen paths) defining `hcq_twin_<symbol>` for AMD
  /// kernels without an entry in `amdTwins`.
  std::vector<std::string> twinLibraries;
};

/// One call's timestamps on one lane, read back with profiling on. Both
/// devices here count CLOCK_MONOTONIC nanoseconds (the emulated AMD device's
/// GPU clock is the host's).
struct ProfileEvent {
  std::string name; // the kernel, or "copy"
  Device device;
  std::string queue; // "COMPUTE:0"
  uint64_t startNs = 0, endNs = 0;
  /// Which run it was, for whoever gathers several.
  uint32_t run = 0;
};

/// An executable linked into this process, ready to run any number of times.
class LoadedExecutable {
public:
  virtual ~LoadedExecutable() = default;
  /// Runs once: fills the inputs tables from `args`, executes the plan, and
  /// returns once everything is submitted (not finished: see synchronize).
  virtual llvm::Error run(llvm::ArrayRef<Argument> args) = 0;
  /// Waits until every run so far has finished on every device; reports a
  /// hang (a wait that timed out) with its device, queue and signal.
  virtual llvm::Error synchronize() = 0;
  /// The last finished run's timestamps, one event per call and lane in the
  /// executable's order; empty unless it was compiled with profiling on.
  /// Call it after synchronize.
  virtual std::vector<ProfileEvent> profile() const = 0;
};

/// Writes `events` as Chrome trace JSON (chrome://tracing, Perfetto): one
/// complete event per call, one process per device, one thread per queue,
/// times in microseconds from the first event.
void writeChromeTrace(llvm::ArrayRef<ProfileEvent> events,
                      llvm::raw_ostream &os);

/// Loads and links `exe`: CPU devices on the CPU device, AMD devices on
/// `options.amd` (the emulated device, or none: then an error).
llvm::Expected<std::unique_ptr<LoadedExecutable>>
loadExecutable(const Executable &exe, const RuntimeOptions &options = {});

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_RUNTIME_H
