//===- Runtime.h - Devices and the executables loaded on them ---*- C++ -*-===//
//
// The thin runtime, organised as the seed and the hardware are: a Runtime is
// the process's session with its devices; each Device (CPU:0, AMD:1) is
// opened once per Runtime and owns its queues (ring, pointers, doorbell and
// the thread standing in for the hardware), its timeline signal and value,
// its sentinel, its scratch and its memory. Executables are loaded onto a
// Runtime; every executable on a device shares that device's queues and
// timeline, so work of several executables is ordered as the seed orders
// it. A run writes the inputs tables and executes the host plan. No MLIR.
// Which thread may call what: docs/runtime.md.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_RUNTIME_H
#define HCQ_RUNTIME_RUNTIME_H

#include "HCQ/Runtime/Executable.h"
#include "HCQ/Runtime/Twin.h"
#include "HCQ/Target/CPU/Entry.h"

#include <chrono>
#include <cstring>
#include <functional>
#include <map>
#include <memory>

namespace hcq::runtime {

/// Things by name, found by any string-like key.
template <typename T> using NameMap = std::map<std::string, T, std::less<>>;

/// One argument of a run: a buffer (one address per lane: a Buffer's
/// hostView(), or host memory on the CPU and emulated AMD devices) or a
/// variable.
struct Argument {
  std::vector<void *> lanes;
  int64_t value = 0;
  static Argument buffer(void *p) { return {{p}, 0}; }
  static Argument variable(int64_t v) { return {{}, v}; }
  /// An f32 or f64 bound variable: its bits.
  static Argument f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return {{}, static_cast<int64_t>(bits)};
  }
  static Argument f64(double v) {
    int64_t bits;
    std::memcpy(&bits, &v, 8);
    return {{}, bits};
  }
};

/// The implementation of an `hcq.host_call`: called with its operands, each
/// a buffer (one pointer per lane) or a variable's value, once all the work
/// the run submitted before it has finished.
using HostCallFunction = std::function<Error(Span<const Argument> operands)>;

/// What runs an executable's AMD devices.
enum class AMDDevice {
  /// None: loading an executable with AMD devices fails, saying so.
  None,
  /// The emulated AMD device: memory is host memory, each AMD queue a
  /// command processor thread executing the pushed PM4/SDMA packets, each
  /// kernel dispatch its CPU twin (docs/runtime.md).
  Emulated,
  /// AMD GPUs through the kernel driver (KFD): AMD:N is the N-th GPU of the
  /// KFD topology, its memory GPU memory, its queues the GPU's user-mode
  /// queues (docs/runtime.md, "Running on a real AMD GPU").
  Hardware,
};

struct RuntimeOptions {
  /// A wait whose signal does not advance for this long fails the run.
  std::chrono::milliseconds waitTimeout{30000};
  /// Per device ("AMD:1"): a wait on its queues or its timeline uses this
  /// timeout instead of `waitTimeout`.
  NameMap<std::chrono::milliseconds> deviceWaitTimeouts;
  /// Host calls by callee name; a run that reaches a host call missing here
  /// fails, naming it.
  NameMap<HostCallFunction> hostCalls;
  /// The device AMD:N values and queues live on.
  AMDDevice amd = AMDDevice::None;
  /// CPU twins of AMD kernels by kernel symbol, for the emulated device;
  /// looked up before `twinLibraries`.
  NameMap<hcq_amd_twin> amdTwins;
  /// Shared libraries (dlopen paths) defining `hcq_twin_<symbol>` for AMD
  /// kernels without an entry in `amdTwins`.
  std::vector<std::string> twinLibraries;
  /// CPU kernels in this process by kernel symbol: found before the
  /// kernel's library, which is then not loaded.
  NameMap<cpu::KernelFunction> cpuKernels;
  /// Folders where kernel and twin libraries named without a '/' are looked
  /// for, in order, before the dynamic loader's own search (LD_LIBRARY_PATH
  /// is read once, when the process starts).
  std::vector<std::string> librarySearchPaths;
  /// Bytes of each device queue's ring: a multiple of 64, at least 64. A
  /// push larger than its ring is refused at load.
  uint64_t ringBytes = 1 << 20;
  /// The largest single allocation (a value's lane, a Buffer): a file that
  /// asks for more is refused by name instead of exhausting the host.
  uint64_t maxAllocationBytes = uint64_t(16) << 30;
  /// How errors name the options they tell the user to set, by field name
  /// ("twinLibraries", "amdTwins", "librarySearchPaths"): a program that sets
  /// them under its own names gives those (hcq-run: "--twins"; the C API:
  /// its functions), and "" for an option its users cannot set, which
  /// errors then do not suggest. A field not here is named as the C++ API
  /// names it ("RuntimeOptions::twinLibraries").
  NameMap<std::string> optionNames;
  /// What `optionNames` says `field` is called ("" if it cannot be set).
  std::string nameOption(std::string_view field) const {
    auto it = optionNames.find(field);
    return it != optionNames.end() ? it->second
                                   : "RuntimeOptions::" + std::string(field);
  }
};

/// One call's timestamps on one lane, read back with profiling on. Both
/// devices here count CLOCK_MONOTONIC nanoseconds (the emulated AMD device's
/// GPU clock is the host's).
struct ProfileEvent {
  std::string name; // the kernel, or "copy"
  DeviceId device;
  std::string queue; // "COMPUTE:0"
  uint64_t startNs = 0, endNs = 0;
  /// Which run it was, for whoever gathers several.
  uint32_t run = 0;
};

class Runtime;

/// Memory of one device, freed when the Buffer goes. On the CPU and the
/// emulated AMD devices it is host memory, its device address its host
/// address; on hardware the host view would be a mapping of GPU memory.
/// Keeps its runtime alive.
class Buffer {
public:
  Buffer() = default;
  Buffer(Buffer &&other) noexcept { *this = std::move(other); }
  Buffer &operator=(Buffer &&other) noexcept;
  Buffer(const Buffer &) = delete;
  Buffer &operator=(const Buffer &) = delete;
  ~Buffer() { reset(); }

  /// Frees the memory (after every run so far has finished with it: every
  /// device open in the process is synchronized first, since the memory may
  /// have been given to another device's or another Runtime's run). Work
  /// that cannot finish is handled as unloading handles it: the devices'
  /// queues stop (a fault for the runtime), and if one cannot (a kernel
  /// that never returns) the memory stays allocated (docs/runtime.md).
  void reset();
  explicit operator bool() const { return address != 0; }
  /// The address the device's queues and kernels use.
  uint64_t deviceAddress() const { return address; }
  /// The host's view of the memory.
  void *hostView() const { return reinterpret_cast<void *>(address); }
  template <typename T> T *data() const { return static_cast<T *>(hostView()); }
  uint64_t size() const { return bytes; }
  DeviceId device() const { return owner; }

private:
  friend class Runtime;
  std::shared_ptr<Runtime> runtime;
  DeviceId owner;
  uint64_t address = 0, bytes = 0;
};

/// A buffer argument with one lane per Buffer, in lane order.
inline Argument bufferArgument(std::initializer_list<const Buffer *> lanes) {
  Argument a;
  for (const Buffer *b : lanes)
    a.lanes.push_back(b->hostView());
  return a;
}

/// An executable linked into this process, ready to run any number of times.
/// It keeps its Runtime alive; destroying it waits for its work to finish
/// (or, when the work hangs, stops the runtime's queues: docs/runtime.md).
class LoadedExecutable {
public:
  virtual ~LoadedExecutable() = default;
  /// Runs once: fills the inputs tables from `args`, executes the plan, and
  /// returns once everything is submitted (not finished: see synchronize).
  virtual Error run(Span<const Argument> args) = 0;
  /// Waits until every run so far has finished on every device the
  /// executable uses (and with it everything else submitted to them);
  /// reports a hang (a wait that timed out) with its device, queue and
  /// signal.
  virtual Error synchronize() = 0;
  /// The last finished run's timestamps, one event per call and lane in the
  /// executable's order; empty unless it was compiled with profiling on.
  /// Call it after synchronize.
  virtual std::vector<ProfileEvent> profile() const = 0;
  /// The devices it runs on, in the order the file first names them.
  virtual std::vector<DeviceId> devices() const = 0;
};

/// The process's session with its devices. Create one with create(); load
/// any number of executables onto it. Devices open at first use and stay
/// open until the Runtime goes (with its last executable and buffer).
class Runtime : public std::enable_shared_from_this<Runtime> {
public:
  static std::shared_ptr<Runtime> create(RuntimeOptions options = {});
  virtual ~Runtime() = default;

  const RuntimeOptions &getOptions() const { return options; }

  /// Loads and links `exe` onto this runtime's devices (CPU devices, AMD
  /// devices as `RuntimeOptions::amd` says, or an error).
  virtual Expected<std::unique_ptr<LoadedExecutable>>
  load(const Executable &exe) = 0;

  /// `bytes` of zeroed memory on `device` (opened if it is not yet),
  /// 256-byte aligned.
  Expected<Buffer> allocate(DeviceId device, uint64_t bytes);

  /// Waits until everything submitted to every open device has finished.
  virtual Error synchronize() = 0;

  /// The devices open so far.
  virtual std::vector<DeviceId> openDevices() const = 0;

protected:
  friend class Buffer;
  explicit Runtime(RuntimeOptions options) : options(std::move(options)) {}
  virtual Expected<uint64_t> allocateMemory(DeviceId device,
                                            uint64_t bytes) = 0;
  virtual void freeMemory(DeviceId device, uint64_t address) = 0;

  RuntimeOptions options;
};

/// `events` as Chrome trace JSON (chrome://tracing, Perfetto): one
/// complete event per call, one process per device, one thread per queue,
/// times in microseconds from the first event.
std::string chromeTrace(Span<const ProfileEvent> events);

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_RUNTIME_H
