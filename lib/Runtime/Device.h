//===- Device.h - The runtime's devices (internal) --------------*- C++ -*-===//
//
// A Runtime's devices: each owns its memory, its device-scoped placeholders
// (timeline signal and value, sentinel, scratch), its queues (ring,
// pointers, doorbell and the thread draining them; one per (device, queue)
// for the whole process) and, on the emulated AMD device, its loaded
// programs and their CPU twins. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_DEVICE_H
#define HCQ_LIB_RUNTIME_DEVICE_H

#include "KFD.h"
#include "Queues.h"

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Target/AMD/CodeObject.h"

#include <map>
#include <mutex>

namespace hcq::runtime {

class RuntimeImpl;

class DeviceImpl {
public:
  DeviceImpl(RuntimeImpl &runtime, DeviceId id);
  /// Stops the queues' threads, then frees the memory they read. A queue
  /// stuck in a kernel is left running, and the memory with it.
  ~DeviceImpl();

  DeviceId getId() const { return id; }
  const std::string &getName() const { return name; }
  std::chrono::milliseconds getTimeout() const { return timeout; }

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
  InterruptWait *getInterrupts() const { return gpu.get(); }
  /// Opens the device (the GPU, for a hardware AMD device) and makes its
  /// timeline: it exists from the start, so synchronize needs no
  /// executable. Called once, before the device is shared.
  Error open();
  /// GPU clock ticks as CLOCK_MONOTONIC nanoseconds (the emulated and CPU
  /// devices count those already).
  uint64_t toHostNs(uint64_t ticks) {
    return gpu ? gpu->toHostNs(ticks) : ticks;
  }
  /// The device's timeline signal and host timeline value (addresses).
  uint64_t getTimelineSignal() const { return timelineSignal; }
  uint64_t getTimelineValue() const { return timelineValue; }

  /// The device's queue `queue`, created at its first request; `mode` must
  /// be the queue's.
  Expected<Queue *> getQueue(QueueName queue, PushMode mode);
  /// Bytes of each queue's ring.
  uint64_t getRingBytes() const;

  /// Memory holding `info.image` on this device, shared by every executable
  /// loading the same image; `kernel`'s twin is registered at its entry.
  Expected<uint64_t> loadProgram(const Kernel &kernel,
                                 const amd::KernelInfo &info);

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
  RuntimeImpl &runtime;
  DeviceId id;
  std::string name;
  std::chrono::milliseconds timeout;
  uint64_t timelineSignal = 0, timelineValue = 0;
  /// The GPU behind a hardware AMD device; its memory and queues.
  std::unique_ptr<kfd::Gpu> gpu;

  std::mutex mutex;                    // everything below
  std::map<uint64_t, uint64_t> blocks; // address -> bytes
  std::map<PlaceholderTag, std::pair<uint64_t, uint64_t>> placeholders;
  struct DeviceQueue {
    PushMode mode;
    std::unique_ptr<Queue> queue;
  };
  std::map<std::pair<QueueKind, uint32_t>, DeviceQueue> queues;
  std::map<std::vector<uint8_t>, uint64_t> programs; // by image
  std::shared_ptr<TwinMap> twins = std::make_shared<TwinMap>();
};

class RuntimeImpl : public Runtime {
public:
  explicit RuntimeImpl(RuntimeOptions options) : Runtime(std::move(options)) {}
  ~RuntimeImpl() override;

  Expected<std::unique_ptr<LoadedExecutable>>
  load(const Executable &exe) override;
  Error synchronize() override;
  std::vector<DeviceId> openDevices() const override;

  /// `id`, opened at its first request.
  Expected<DeviceImpl *> getDevice(DeviceId id);

  /// The address of a CPU kernel's function (its library loaded once).
  Expected<uint64_t> getHostFunction(const Kernel &kernel);
  /// The CPU twin of AMD `kernel`: RuntimeOptions::amdTwins by symbol, else
  /// the runtime's own for the builtin copy kernel, else `hcq_twin_<symbol>`
  /// in the first twin library defining it.
  Expected<hcq_amd_twin> findTwin(const Kernel &kernel);

  /// The first error a queue reported, if any. Hangs are reported once; a
  /// fault every time (it is fatal for the runtime).
  Error takeQueueError();
  /// Stops every queue: pushed work is dropped and waits give up. What
  /// destroying an executable whose work hangs does, so its memory can go.
  /// Returns false if a queue is stuck in work that does not end (a kernel
  /// that never returns), which may still touch that memory.
  bool stopQueues(const std::string &why);
  /// Waits for every open device.
  Error synchronizeLocked();
  /// Waits for `devices`; a wait that times out is reported as the queues'
  /// own error when they have one, else as a hang.
  Error synchronizeDevices(Span<DeviceImpl *const> devices);
  /// A host-side wait timed out: a queue's own report names the cause better
  /// than `what`, when there is one.
  Error hang(const std::string &what);

  /// Held by every run, load, synchronize and unload: the runtime's host
  /// state (timeline values, inputs tables, rings' put pointers) is
  /// written by one thread at a time. Recursive, so a host call may run
  /// another executable.
  std::recursive_mutex mutex;
  std::shared_ptr<QueueFlags> queueFlags = std::make_shared<QueueFlags>();
  QueueFlags &flags = *queueFlags;
  AddressNames &names = queueFlags->names;
  /// Set when a stuck queue was left running (Queue::stop): its device's
  /// memory and the runtime's libraries then stay as they are.
  std::atomic<bool> abandonedQueues{false};

protected:
  Expected<uint64_t> allocateMemory(DeviceId device, uint64_t bytes) override;
  void freeMemory(DeviceId device, uint64_t address) override;

private:
  Expected<void *> openLibrary(const std::string &path);
  /// The open devices, in the order they opened.
  std::vector<DeviceImpl *> openDeviceList();

  mutable std::mutex devicesMutex;
  std::map<DeviceId, std::unique_ptr<DeviceImpl>> devices;
  std::vector<DeviceId> order;
  std::mutex librariesMutex;
  std::map<std::string, void *> libraries; // by path
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_DEVICE_H
