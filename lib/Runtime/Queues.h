//===- Queues.h - The runtime's device queues (internal) --------*- C++ -*-===//
//
// A queue is a ring the host pushes into and what drains it: the CPU
// device's worker thread (Drivers/CPU), the emulated AMD command processor's
// (Drivers/AMDEmulated), or a GPU (Drivers/AMDKFD). Threads sleep on a futex
// when idle and are woken at most once per push. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_QUEUES_H
#define HCQ_LIB_RUNTIME_QUEUES_H

#include "HCQ/Base/Device.h"
#include "HCQ/Runtime/Executable.h"
#include "HCQ/Runtime/Twin.h"

#include "HCQ/Base/Bytes.h"
#include "HCQ/Base/Error.h"
#include "HCQ/Base/Ranges.h"
#include "HCQ/Base/Strings.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <shared_mutex>
#include <string>
#include <thread>

namespace hcq::runtime {

inline Error runtimeError(std::string why) {
  return Error::failure(std::move(why));
}

/// CLOCK_MONOTONIC in nanoseconds: the CPU queue's timestamps and the
/// emulated GPU clock.
uint64_t nowNs();

/// The 64-bit word at `address`, as an atomic.
inline std::atomic<uint64_t> &word(uint64_t address) {
  return *reinterpret_cast<std::atomic<uint64_t> *>(address);
}

/// What a host wait may sleep on once it has spun for a while: the device's
/// interrupt (a hardware AMD device's KFD event, raised after each timeline
/// store the host may wait for).
class InterruptWait {
public:
  virtual ~InterruptWait();
  /// Sleeps until the device raises its interrupt or `slice` passes. May
  /// return early; the caller checks what it waits for again.
  virtual void sleepUntilInterrupt(std::chrono::milliseconds slice) = 0;
};

/// How long a host wait spins and yields before it sleeps on the device's
/// interrupt, and the longest one sleep lasts: a wake lost to a race (an
/// interrupt another thread consumed between its check and its sleep) costs
/// at most that.
constexpr uint64_t SPIN_BEFORE_SLEEP_NS = 50000;
constexpr std::chrono::milliseconds INTERRUPT_SLICE{10};
/// How long a queue thread with nothing to do yields before it sleeps: a
/// run pushes more than once (its submits, then the timeline's signal), and
/// a thread asleep after the first push needs a second wake, a futex call of
/// 6-12 us on the project's machine (bench/README.md, machine/futex_wake).
/// Yielding, not spinning: where the pushing thread shares its CPU it runs.
constexpr uint64_t SPIN_BEFORE_QUEUE_SLEEP_NS = 20000;

/// Spins, then yields (or sleeps on `interrupts`, when given, once it has
/// spun for SPIN_BEFORE_SLEEP_NS), until `done()` holds or the value
/// `watched` points at stops changing for `timeout`. Returns false on a
/// timeout. A template: the plan's fences run it on every run.
template <typename Done, typename Watched>
bool waitUntil(Done done, const Watched &watched,
               std::chrono::milliseconds timeout,
               InterruptWait *interrupts = nullptr) {
  uint64_t last = watched.load(std::memory_order_acquire);
  uint64_t start = nowNs(), since = start, now = start;
  for (unsigned spin = 0; !done(); ++spin) {
    if (spin < 64)
      continue;
    // `now` is the previous round's: one clock read per round.
    if (interrupts && now - start > SPIN_BEFORE_SLEEP_NS)
      interrupts->sleepUntilInterrupt(std::min(timeout, INTERRUPT_SLICE));
    else
      std::this_thread::yield();
    uint64_t value = watched.load(std::memory_order_acquire);
    now = nowNs();
    if (value != last) {
      last = value;
      since = now;
    } else if (now - since >
               uint64_t(std::chrono::nanoseconds(timeout).count())) {
      return false;
    }
  }
  return true;
}

/// What memory is for, which decides where a GPU places it. Devices whose
/// memory is the host's (the CPU and emulated devices) treat all alike.
enum class Placement {
  /// Memory the host writes and the GPU reads, or the reverse: rings,
  /// signals, kernel arguments, tables, staging, Runtime::allocate buffers.
  /// System memory (GTT), coherent and uncached.
  Host,
  /// Memory only the GPU touches: hcq.alloc buffers, scratch. VRAM the host
  /// cannot map; its contents are not zeroed.
  Device,
  /// Memory the host writes once and the GPU reads often: programs. VRAM
  /// the host maps through the BAR.
  DeviceHostWritten,
};

/// Where a queue's ring and pointers live (the device's memory).
struct RingMemory {
  uint8_t *ring = nullptr;
  uint64_t ringBytes = 0;
  uint64_t put = 0, wptr = 0, rptr = 0, doorbell = 0; // addresses
  /// A PM4 queue's completion word (0: none): AMDRing closes every push
  /// with an end-of-pipe RELEASE_MEM storing the write pointer after the
  /// push there, so the host knows what the queue finished without reading
  /// the CP's read pointer (AMDRing).
  uint64_t done = 0;
};

/// What addresses a queue may report are, for hang reports: the signals it
/// waits on ("the AMD:0 timeline", "signal slot 3 of @mlp on AMD:1") and the
/// CPU kernel functions it calls ("kernel @spin (hcq_spin)"). Written at
/// device open and executable load/unload, read when a queue is reported.
class AddressNames {
public:
  void add(uint64_t address, std::string name) {
    std::lock_guard<std::mutex> lock(mutex);
    names[address] = std::move(name);
  }
  void remove(uint64_t address) {
    std::lock_guard<std::mutex> lock(mutex);
    names.erase(address);
  }
  /// " (the AMD:0 timeline)", or nothing for an address it does not know.
  std::string describe(uint64_t address) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = names.find(address);
    return it == names.end() ? std::string() : " (" + it->second + ")";
  }
  /// The name of `address`, or `otherwise`.
  std::string lookup(uint64_t address, std::string otherwise) const {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = names.find(address);
    return it == names.end() ? std::move(otherwise) : it->second;
  }

private:
  mutable std::mutex mutex;
  std::map<uint64_t, std::string> names;
};

/// What the queues of one runtime share. Queues keep it alive: a queue left
/// running in a kernel that never returns outlives its runtime.
struct QueueFlags {
  /// Some queue has an error to report; host-side waits stop on it.
  std::atomic<bool> error{false};
  /// Some queue faulted: every queue drops what it has and every wait gives
  /// up, since the work they wait for will never run.
  std::atomic<bool> fault{false};
  /// Names of signals and kernel functions, for hang reports.
  AddressNames names;
};

/// A ring and the thread draining it. The ring's put, write and read
/// pointers count in the queue's own unit (bytes, or dwords on a PM4 ring).
class Queue {
public:
  /// `name` is what errors call it ("AMD:0 COMPUTE:0").
  Queue(std::string name, const RingMemory &memory,
        std::chrono::milliseconds timeout, std::shared_ptr<QueueFlags> flags);
  virtual ~Queue();

  /// Copies `bytes` from `source` into the ring in the queue's way and
  /// publishes them.
  virtual Error push(const uint8_t *source, uint64_t bytes) = 0;
  /// The largest push the ring takes, wherever its put pointer is: loading
  /// an executable checks its pushes against it, and push() refuses more.
  virtual uint64_t maxPushBytes() const { return ringBytes; }
  /// Whether everything pushed so far has been executed.
  bool idle() const {
    return readPointer() == wptr.load(std::memory_order_acquire);
  }
  /// How far the reader has got, in the units of the write pointer: what
  /// the host knows is done (a GPU's compute queue: the push whose
  /// completion store last arrived, AMDRing), never more than was read.
  virtual uint64_t readPointer() const {
    return rptr.load(std::memory_order_acquire);
  }

  /// Records the queue's first error; the run reports it from its next
  /// synchronize. A timed-out wait (`reportHang`) lets the queue go on; a
  /// fault (a packet it cannot execute) kills every queue of the executable:
  /// everything pushed afterwards is dropped, and every later run fails with
  /// the fault.
  void reportHang(uint64_t signal, uint64_t value, uint64_t current);
  void reportFault(const std::string &what);
  /// A fault that is a hang: a GPU queue that stopped moving, which the
  /// runtime then stops for good (it is reported as a hang, every time).
  void reportStopped(const std::string &what);
  /// The error to report, if any: a hang once, a fault every time.
  std::string takeError();
  /// Whether this queue faulted.
  bool isDead() const { return dead.load(std::memory_order_acquire); }
  /// Whether it was stopped because it hung (reportStopped).
  bool isStopped() const { return stopped.load(std::memory_order_acquire); }
  /// Whether any queue of the executable faulted.
  bool deviceFaulted() const {
    return flags.fault.load(std::memory_order_acquire);
  }

  /// Waits until the queue is idle. Returns false if it is stuck: it has
  /// not moved on for its wait timeout while running something that does
  /// not time out by itself (a kernel that never returns). Its own waits do
  /// time out, so a queue in a wait is waited for.
  bool waitIdle();
  /// Stops the thread after it has executed what was pushed. Returns false
  /// if it is stuck (as waitIdle): the thread is then left running, and the
  /// queue, its ring and any memory its work may touch must stay allocated.
  /// Derived destructors call it before their members go.
  bool stop();
  /// What the queue is running that does not time out by itself ("kernel
  /// @spin (hcq_spin)"), or nothing when it is idle or in a wait.
  virtual std::string describeRunning() const = 0;
  /// Stops the device executing the queue for good, after its device hung
  /// (a GPU's queue is destroyed, as a driver's reset would: nothing of it
  /// touches memory afterwards). Host-drained queues need nothing.
  virtual void halt() {}
  /// Whether halt() destroyed it: nothing of it runs any more.
  virtual bool isHalted() const { return false; }

  const std::string &getName() const { return name; }
  std::chrono::milliseconds waitTimeout() const { return timeout; }
  uint64_t wakes() const { return wakeCount.load(); }

  /// The queue whose thread is running, for the CPU entry functions.
  static Queue *current();

protected:
  /// Starts the thread; derived constructors call it once their members
  /// exist.
  void start(std::atomic<uint32_t> &sleepFlag);
  /// Waits until `done()`, for as long as the queue moves on or is in a
  /// wait of its own; false once it is stuck (waitIdle).
  bool waitWhileMoving(std::function<bool()> done);
  /// The name of `address` in the runtime's AddressNames, or `otherwise`.
  std::string nameOf(uint64_t address, std::string otherwise) const;
  /// Waits until the thread has read far enough that `units` more fit
  /// after `put`, in a ring of `capacity` units; `reader` names the thread
  /// in the error.
  Error waitForRoom(uint64_t put, uint64_t units, uint64_t capacity,
                    const char *reader);
  /// Publishes pushed work up to `put`: the put and write pointers, then
  /// `doorbell` if the queue has one to ring, then a wake if the thread
  /// sleeps (the flag is cleared first, so a thread about to sleep sees the
  /// push and the wake cannot be lost).
  void publish(uint64_t put, std::atomic<uint64_t> *doorbell = nullptr);
  /// After a fault: marks everything pushed as read, so no host waits for
  /// room, and returns true; the drain then executes nothing.
  bool dropIfFaulted();
  /// Executes everything ready; called on the queue's thread.
  virtual void drain() = 0;

  uint8_t *const ring;
  const uint64_t ringBytes;
  std::atomic<uint64_t> &putPointer, &wptr, &rptr;

private:
  void loop();
  /// Whether work (or a stop) comes within SPIN_BEFORE_QUEUE_SLEEP_NS,
  /// yielding meanwhile, before the thread goes to sleep.
  bool workArrivesSoon();
  void report(const std::string &what);
  void wakeIfSleeping();

  std::string name;
  std::chrono::milliseconds timeout;
  std::shared_ptr<QueueFlags> sharedFlags;
  QueueFlags &flags;
  std::atomic<uint32_t> *sleepFlag = nullptr;
  std::thread thread;
  std::atomic<bool> stopping{false}, exited{false};
  std::atomic<uint64_t> wakeCount{0};
  std::atomic<bool> dead{false}, stopped{false};
  std::mutex errorMutex;
  std::string error;
};

/// The CPU entry function `id` (cpu::HostFunction), or 0 (Drivers/CPU).
uint64_t cpuEntryFunction(uint32_t id);

/// The smallest ring KFD runs as asked: a smaller one is silently run as
/// this size [Linux amdkfd kfd_chardev.c set_queue_properties_from_user,
/// KFD_MIN_QUEUE_RING_SIZE], so the host's idea of where the ring wraps
/// would be wrong; the runtime refuses it instead.
constexpr uint64_t AMD_MIN_RING_BYTES = 1024;
/// Checks RuntimeOptions::ringBytes for an AMD queue: a power of two (KFD
/// refuses others with EINVAL [set_queue_properties_from_user]) of at least
/// AMD_MIN_RING_BYTES, and a 32-bit size [kfd_ioctl_create_queue_args
/// ring_size].
Error verifyAMDRingBytes(uint64_t ringBytes);

/// The host side of an AMD queue, the KFD user-mode queue protocol
/// (docs/amd-facts.md#ring-pointers, #doorbells): the PM4 compute ring takes
/// one INDIRECT_BUFFER packet per push and counts dwords; the SDMA ring takes
/// the command buffer itself, zeroing the tail when a push would wrap, and
/// counts bytes; then the write pointer and the doorbell are stored. What
/// executes the ring is the subclass's: the emulated command processor's
/// thread, or the GPU.
class AMDRing : public Queue {
public:
  /// `reservedUnits` of the ring are never filled: a reader whose pointer
  /// wraps at the ring's size would read a full ring as an empty one. With
  /// a completion word (RingMemory::done, PM4 only), each push is followed
  /// by an end-of-pipe RELEASE_MEM writing the write pointer after it
  /// there: what the queue finished, and so how far the ring may be
  /// refilled, is then that word, and the CP's read-pointer report (which
  /// a CP writes only per RPTR_BLOCK_SIZE block, maybe late) is not needed
  /// (readPointer).
  AMDRing(std::string name, bool pm4, const RingMemory &memory,
          std::chrono::milliseconds timeout, std::shared_ptr<QueueFlags> flags,
          uint64_t reservedUnits = 0);
  Error push(const uint8_t *source, uint64_t bytes) override;
  uint64_t maxPushBytes() const override;
  uint64_t readPointer() const override;

  /// The dwords of the completion store closing each PM4 push.
  static constexpr uint64_t COMPLETION_DWORDS = 8;

protected:
  const bool isPM4;
  /// The completion word, or null.
  std::atomic<uint64_t> *const done;

private:
  const uint64_t reservedUnits;
  Error pushPM4(const uint8_t *source, uint64_t dwords);
  Error pushSDMA(const uint8_t *source, uint64_t bytes);

  std::atomic<uint64_t> &doorbell;
};

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_QUEUES_H
