//===- Device.h - The process's devices and a Runtime's session -*- C++ -*-===//
//
// A process has one Device per physical device (CPU:0, AMD:1 on a driver),
// created at its first use by any Runtime and shared by every Runtime using
// it, as the seed keeps one device object per GPU and as the kernel driver
// demands (one KFD process, one acquired VM per GPU). A Device owns what
// every kind shares: its device-scoped placeholders (timeline signal and
// value, sentinel, scratch), its queue table, its program cache, synchronize
// and hang detection; its driver (Driver.h) does the rest. A Runtime
// (RuntimeImpl) is a session over the devices it uses: its options, its
// kernel libraries and twins, its executables. Work of two Runtimes on one
// device is ordered by that device's timeline, as work of two executables
// of one Runtime is. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_DEVICE_H
#define HCQ_LIB_RUNTIME_DEVICE_H

#include "Driver.h"
#include "Queues.h"

#include "HCQ/Base/Bytes.h"
#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <map>
#include <unordered_map>
#include <mutex>

namespace hcq::runtime {

/// One physical device of the process.
class Device {
public:
  Device(Driver &driver, DeviceId id, DeviceOptions options,
         std::unique_ptr<DriverDevice> impl, std::shared_ptr<QueueFlags> flags);
  /// Stops the queues' threads, then frees the memory they read. A queue
  /// stuck in a kernel is left running, and the memory with it.
  ~Device();

  DeviceId getId() const { return id; }
  const std::string &getName() const { return name; }
  const DeviceOptions &getOptions() const { return options; }
  std::chrono::milliseconds getTimeout() const { return options.waitTimeout; }
  QueueFlags &getFlags() const { return *flags; }

  /// `bytes` of memory for `placement`, 256-byte aligned (programs need it:
  /// COMPUTE_PGM_LO holds address >> 8); zeroed, except Placement::Device
  /// memory on a GPU, which the host cannot reach.
  Expected<uint64_t> allocate(uint64_t bytes,
                              Placement placement = Placement::Host);
  void free(uint64_t address);
  /// The device's memory for a device-scoped placeholder of `tag`, made at
  /// its first request with the tag's initial value (the timeline value 1,
  /// the sentinel all ones, everything else 0); a later request for more
  /// bytes than the first is refused.
  Expected<uint64_t> getPlaceholder(PlaceholderTag tag, uint64_t bytes);
  /// The number the device gives for a placeholder of scope DeviceNumber:
  /// its interrupt event's id (0 on devices no host sleeps on).
  Expected<uint64_t> getNumber(PlaceholderTag tag);
  /// What host waits on this device's timeline may sleep on, or null.
  InterruptWait *getInterrupts() const { return impl->getInterrupts(); }
  /// Makes the device's timeline: it exists from the start, so synchronize
  /// needs no executable. Called once, before the device is shared.
  Error open();
  /// Device clock ticks as CLOCK_MONOTONIC nanoseconds.
  uint64_t toHostNs(uint64_t ticks) { return impl->toHostNs(ticks); }
  /// Whether it is a GPU (DriverDevice::isHardware).
  bool isHardware() const { return impl->isHardware(); }
  /// The device's timeline signal and host timeline value (addresses).
  uint64_t getTimelineSignal() const { return timelineSignal; }
  uint64_t getTimelineValue() const { return timelineValue; }

  /// The device's queue `queue`, created at its first request; `mode` must
  /// be the queue's.
  Expected<Queue *> getQueue(QueueName queue, PushMode mode);
  /// Bytes of each queue's ring.
  uint64_t getRingBytes() const { return options.ringBytes; }

  /// Memory holding `image`, AMD kernel `kernel`'s loaded image, on this
  /// device, shared by every executable of every Runtime loading an image
  /// of the same content. Where programs run as CPU twins, `findTwin` gives
  /// `kernel`'s (the first load's stays).
  Expected<uint64_t>
  loadProgram(const Kernel &kernel, Span<const uint8_t> image,
              const std::function<Expected<hcq_amd_twin>()> &findTwin);

  /// Waits until every queue has executed what was pushed to it and the
  /// timeline has reached its host value - 1 (the last finalizer of every
  /// run stored it). A hang names the device; a fault stops the wait.
  Error synchronize();

  /// The queues made so far, for error reports.
  template <typename Fn> void forEachQueue(Fn fn) {
    std::lock_guard<std::mutex> lock(mutex);
    for (auto &[key, entry] : queues)
      fn(*entry.queue);
  }

private:
  /// `bytes` of the driver's memory, rounded up to 256 bytes (`size`), not
  /// yet recorded in `blocks`.
  Expected<uint64_t> allocateBlock(uint64_t bytes, Placement placement,
                                   uint64_t &size);

  Driver &driver;
  DeviceId id;
  std::string name;
  DeviceOptions options;
  std::unique_ptr<DriverDevice> impl;
  std::shared_ptr<QueueFlags> flags;
  uint64_t timelineSignal = 0, timelineValue = 0;

  std::mutex mutex;                    // everything below
  std::map<uint64_t, uint64_t> blocks; // address -> bytes
  std::map<PlaceholderTag, std::pair<uint64_t, uint64_t>> placeholders;
  struct DeviceQueue {
    PushMode mode;
    std::unique_ptr<Queue> queue;
  };
  std::map<std::pair<QueueKind, uint32_t>, DeviceQueue> queues;
  /// Loaded programs' addresses by their image's content.
  ContentMap<uint64_t> programs;
};

/// The process's devices: each opened at its first use, shared by every
/// Runtime using it, and closed when the last one lets it go (a GPU's
/// process-wide kernel-driver state stays: Drivers/AMDKFD).
class ProcessDevices {
public:
  static ProcessDevices &get();

  /// Device `id` of `driver`, opened with `options` unless it is open; open
  /// with other options, it is refused (FailedPrecondition) naming the
  /// option.
  Expected<std::shared_ptr<Device>> open(Driver &driver, DeviceId id,
                                         const DeviceOptions &options);
  /// What the queues of every open device share (their fault and error
  /// flags, their address names): a fault on one device stops them all, as
  /// in one GPU process. Each Device and Runtime holds it from acquire to
  /// release; once none does it is made anew, so a process whose devices
  /// all closed starts clean (a stuck queue left running keeps the old one
  /// alive without holding it here).
  std::shared_ptr<QueueFlags> acquireFlags();
  void releaseFlags();
  /// Every device open in the process now.
  std::vector<std::shared_ptr<Device>> openDevices();

  /// Held by every run, load, synchronize and unload of every Runtime: the
  /// host's side of the devices (timeline values, inputs tables, rings' put
  /// pointers) is written by one thread at a time. Recursive, so a host
  /// call may run another executable.
  std::recursive_mutex submitMutex;
  /// Set when a stuck queue was left running (Queue::stop): its device's
  /// memory and every Runtime's libraries then stay as they are.
  std::atomic<bool> abandonedQueues{false};

private:
  std::mutex mutex; // everything below
  std::map<std::pair<std::string, DeviceId>, std::weak_ptr<Device>> devices;
  std::shared_ptr<QueueFlags> flags;
  unsigned flagsUsers = 0;
};

/// A Runtime: a session over the process's devices (Session.cpp).
class RuntimeImpl : public Runtime {
public:
  explicit RuntimeImpl(RuntimeOptions options);
  ~RuntimeImpl() override;

  Expected<std::unique_ptr<LoadedExecutable>>
  load(const Executable &exe) override;
  Error synchronize() override;
  std::vector<DeviceId> openDevices() const override;

  /// `id`, opened at its first request.
  Expected<Device *> getDevice(DeviceId id);

  /// The address of a CPU kernel's function (its library loaded once).
  Expected<uint64_t> getHostFunction(const Kernel &kernel);
  /// The CPU twin of AMD `kernel`: RuntimeOptions::amdTwins by symbol, else
  /// null for the builtin copy kernel (the driver has its own), else
  /// `hcq_twin_<symbol>` in the first twin library defining it.
  Expected<hcq_amd_twin> findTwin(const Kernel &kernel);

  /// The first error a queue reported, if any. Hangs are reported once; a
  /// fault every time (it is fatal for the runtime).
  Error takeQueueError();
  /// Stops every queue: pushed work is dropped and waits give up. What
  /// destroying an executable whose work hangs does, so its memory can go.
  /// Returns false if a queue is stuck in work that does not end (a kernel
  /// that never returns), which may still touch that memory.
  bool stopQueues(const std::string &why);
  /// The same for the queues of `devices` (what releasing a buffer after a
  /// hang does); the fault is still this runtime's.
  bool stopQueuesOf(const std::vector<Device *> &devices,
                    const std::string &why);
  /// Waits for every open device.
  Error synchronizeLocked();
  /// Waits for `devices`; a wait that times out is reported as the queues'
  /// own error when they have one, else as a hang.
  Error synchronizeDevices(Span<Device *const> devices);
  /// A host-side wait timed out: a queue's own report names the cause better
  /// than `what`, when there is one.
  Error hang(const std::string &what);
  Error hang(Error e);
  /// `bytes` on `device` for `placement`, unless that is more than
  /// RuntimeOptions::maxAllocationBytes: a file or a caller asking for more
  /// is refused by name instead of exhausting the host.
  Expected<uint64_t> allocateOn(Device &device, uint64_t bytes,
                                Placement placement);

  /// The process's submission lock (ProcessDevices::submitMutex).
  std::recursive_mutex &mutex;
  std::shared_ptr<QueueFlags> queueFlags;
  QueueFlags &flags;
  AddressNames &names;

protected:
  Expected<uint64_t> allocateMemory(DeviceId device, uint64_t bytes) override;
  void freeMemory(DeviceId device, uint64_t address) override;

private:
  Expected<void *> openLibrary(const std::string &path);
  /// The driver of device `id`'s kind, as the options choose it.
  Expected<Driver *> driverFor(DeviceId id) const;
  /// What devices this Runtime opens are created with (for `id`).
  DeviceOptions deviceOptions(DeviceId id) const;
  /// The open devices, in the order they opened.
  std::vector<Device *> openDeviceList();

  mutable std::mutex devicesMutex;
  std::map<DeviceId, std::shared_ptr<Device>> devices;
  std::vector<DeviceId> order;
  std::mutex librariesMutex;
  std::map<std::string, void *> libraries; // by path
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_DEVICE_H
