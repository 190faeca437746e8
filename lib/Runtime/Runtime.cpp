//===- Runtime.cpp - Running executables on the CPU device ----------------===//

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Runtime/Link.h"
#include "HCQ/Target/CPU/Entry.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <linux/futex.h>
#include <map>
#include <mutex>
#include <sys/syscall.h>
#include <thread>
#include <time.h>
#include <unistd.h>

using namespace llvm;

namespace hcq::runtime {
namespace {

/// The builtin `copy` kernel in the CPU kernel ABI: kernargs are (dst, src,
/// element bytes), one workgroup per element (docs/cpu-queue.md).
void builtinCopy(const uint64_t *args, uint32_t x, uint32_t, uint32_t) {
  uint64_t bytes = args[2];
  std::memcpy(reinterpret_cast<char *>(args[0]) + x * bytes,
              reinterpret_cast<const char *>(args[1]) + x * bytes, bytes);
}

// Mirrors of the dialect's enums (HCQBase.td), as the file stores them.
enum : uint32_t {
  TAG_TIMELINE_SIGNAL = 1,
  TAG_TIMELINE_VALUE = 2,
  TAG_SENTINEL = 4,
  TAG_RING = 13,
  TAG_HOST_FUNCTION = 17,
};
enum : uint32_t { DEVICE_CPU = 1 };
enum : uint32_t { KIND_ADDRESS = 1, KIND_VARIABLE = 2, KIND_LOAD = 3 };
enum : uint32_t { PART_FULL = 0, PART_LO = 1, PART_HI = 2 };
enum : uint32_t { PUSH_CPU = 2 };
const char *const QUEUE_NAMES[] = {"COMPUTE", "COPY", "SUBMIT"};

Error runtimeError(const Twine &why) {
  return createStringError(inconvertibleErrorCode(), why);
}

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

std::atomic<uint64_t> &word(uint64_t address) {
  return *reinterpret_cast<std::atomic<uint64_t> *>(address);
}

class Worker;
/// The worker running the current entry, for waits to report hangs to.
thread_local Worker *currentWorker = nullptr;

/// Spins, then yields, until `done` holds or the watched value stops
/// changing for `timeout`. Returns false on a timeout.
template <typename Done>
bool waitUntil(Done done, std::atomic<uint64_t> &watched,
               std::chrono::milliseconds timeout) {
  uint64_t last = watched.load(std::memory_order_acquire);
  uint64_t since = nowNs();
  for (unsigned spin = 0; !done(); ++spin) {
    if (spin < 64)
      continue;
    std::this_thread::yield();
    uint64_t value = watched.load(std::memory_order_acquire);
    uint64_t now = nowNs();
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

/// One CPU queue: a ring of entries, drained by its thread.
class Worker {
public:
  Worker(std::string name, uint8_t *ring, uint64_t ringBytes, uint64_t put,
         uint64_t wptr, uint64_t rptr, uint64_t doorbell,
         std::chrono::milliseconds timeout)
      : name(std::move(name)), ring(ring), ringBytes(ringBytes), put(word(put)),
        wptr(word(wptr)), rptr(word(rptr)),
        // The futex is the doorbell word's low half (little-endian).
        doorbell(*reinterpret_cast<std::atomic<uint32_t> *>(doorbell)),
        timeout(timeout) {
    thread = std::thread([this] { loop(); });
  }

  ~Worker() {
    stop.store(true);
    doorbell.store(0);
    wake();
    thread.join();
  }

  /// Copies `bytes` of entries into the ring and publishes them; wakes the
  /// worker only if it sleeps: at most one wake per push.
  Error push(const uint8_t *entries, uint64_t bytes) {
    uint64_t p = put.load(std::memory_order_relaxed);
    if (!waitUntil(
            [&] {
              return p + bytes - rptr.load(std::memory_order_acquire) <=
                     ringBytes;
            },
            rptr, timeout))
      return runtimeError(name + ": the worker left no room in its ring for " +
                          Twine(timeout.count()) + " ms");
    for (uint64_t off = 0; off < bytes; off += cpu::ENTRY_BYTES)
      std::memcpy(ring + (p + off) % ringBytes, entries + off,
                  cpu::ENTRY_BYTES);
    put.store(p + bytes, std::memory_order_relaxed);
    wptr.store(p + bytes, std::memory_order_seq_cst);
    // Clearing the flag makes a worker that is about to sleep return at
    // once: the wake cannot be lost between its check and its futex wait.
    if (doorbell.exchange(0, std::memory_order_seq_cst) == 1)
      wake();
    ++pushes;
    return Error::success();
  }

  bool idle() const {
    return rptr.load(std::memory_order_acquire) ==
           wptr.load(std::memory_order_acquire);
  }

  void reportHang(uint64_t signal, uint64_t value, uint64_t current) {
    std::lock_guard<std::mutex> lock(errorMutex);
    if (error.empty())
      error = (name + ": wait on signal " + Twine::utohexstr(signal) +
               " for value " + Twine(value) + " timed out after " +
               Twine(timeout.count()) + " ms (it holds " + Twine(current) + ")")
                  .str();
  }

  std::string takeError() {
    std::lock_guard<std::mutex> lock(errorMutex);
    return std::exchange(error, std::string());
  }

  std::chrono::milliseconds waitTimeout() const { return timeout; }
  uint64_t wakes() const { return wakeCount.load(); }
  uint64_t pushCount() const { return pushes; }

private:
  void wake() {
    wakeCount.fetch_add(1, std::memory_order_relaxed);
    syscall(SYS_futex, &doorbell, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }

  void loop() {
    currentWorker = this;
    uint64_t r = rptr.load();
    while (true) {
      // Drain every ready entry before sleeping.
      uint64_t w = wptr.load(std::memory_order_acquire);
      while (r < w) {
        const auto *entry =
            reinterpret_cast<const uint64_t *>(ring + r % ringBytes);
        reinterpret_cast<cpu::EntryFunction>(entry[0])(entry + 1);
        r += cpu::ENTRY_BYTES;
        rptr.store(r, std::memory_order_release);
      }
      if (stop.load())
        return;
      doorbell.store(1, std::memory_order_seq_cst);
      if (wptr.load(std::memory_order_seq_cst) != r || stop.load()) {
        doorbell.store(0);
        continue;
      }
      syscall(SYS_futex, &doorbell, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0);
      doorbell.store(0);
    }
  }

  std::string name;
  uint8_t *ring;
  uint64_t ringBytes;
  std::atomic<uint64_t> &put, &wptr, &rptr;
  std::atomic<uint32_t> &doorbell;
  std::chrono::milliseconds timeout;
  std::thread thread;
  std::atomic<bool> stop{false};
  std::atomic<uint64_t> wakeCount{0};
  uint64_t pushes = 0;
  std::mutex errorMutex;
  std::string error;
};

// The entry functions (include/HCQ/Target/CPU/Entry.h, docs/cpu-queue.md).
void entryLaunch(const uint64_t *args) {
  auto kernel = reinterpret_cast<cpu::KernelFunction>(args[0]);
  const auto *kernargs = reinterpret_cast<const uint64_t *>(args[1]);
  for (uint64_t z = 0; z < args[4]; ++z)
    for (uint64_t y = 0; y < args[3]; ++y)
      for (uint64_t x = 0; x < args[2]; ++x)
        kernel(kernargs, x, y, z);
}
void entryWait(const uint64_t *args) {
  std::atomic<uint64_t> &signal = word(args[0]);
  uint64_t value = args[1];
  Worker *worker = currentWorker;
  if (!waitUntil(
          [&] { return signal.load(std::memory_order_acquire) >= value; },
          signal, worker->waitTimeout()))
    worker->reportHang(args[0], value, signal.load());
}
void entrySignal(const uint64_t *args) {
  word(args[0]).store(args[1], std::memory_order_release);
}
void entryTimestamp(const uint64_t *args) {
  word(args[0]).store(nowNs(), std::memory_order_release);
}
void entryCopy(const uint64_t *args) {
  std::memmove(reinterpret_cast<void *>(args[0]),
               reinterpret_cast<const void *>(args[1]), args[2]);
}
const cpu::EntryFunction ENTRY_FUNCTIONS[cpu::NUM_HOST_FUNCTIONS] = {
    entryLaunch, entryWait, entrySignal, entryTimestamp, entryCopy};

/// Host memory for CPU values: 256-byte aligned, zeroed, signals at their
/// initial values.
class HostMemory : public Memory {
public:
  ~HostMemory() override {
    for (void *p : blocks)
      std::free(p);
    for (void *h : libraries)
      dlclose(h);
  }

  Expected<uint64_t> allocate(const Value &value, const Device &device,
                              uint64_t bytes) override {
    if (device.kind != DEVICE_CPU)
      return runtimeError("this runtime has no AMD device: cannot place "
                          "memory on device kind " +
                          Twine(device.kind));
    uint64_t size = alignTo(std::max<uint64_t>(bytes, 1), 256);
    void *p = std::aligned_alloc(256, size);
    if (!p)
      return runtimeError("out of host memory for " + Twine(size) + " bytes");
    std::memset(p, 0, size);
    blocks.push_back(p);
    if (value.kind == Value::Placeholder && value.tag == TAG_TIMELINE_VALUE)
      *static_cast<uint64_t *>(p) = 1;
    if (value.kind == Value::Placeholder && value.tag == TAG_SENTINEL)
      *static_cast<uint64_t *>(p) = ~uint64_t(0);
    return reinterpret_cast<uint64_t>(p);
  }

  Expected<uint64_t> hostFunction(const Kernel &kernel) override {
    if (kernel.target == KERNEL_BUILTIN) {
      if (kernel.symbol != "copy")
        return runtimeError("kernel " + kernel.name + ": no builtin '" +
                            kernel.symbol + "' in this runtime");
      return reinterpret_cast<uint64_t>(&builtinCopy);
    }
    if (kernel.library.empty())
      return runtimeError("kernel " + kernel.name + " has no library");
    void *handle = dlopen(kernel.library.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      return runtimeError("cannot load " + kernel.library + ": " + dlerror());
    libraries.push_back(handle);
    void *symbol = dlsym(handle, kernel.symbol.c_str());
    if (!symbol)
      return runtimeError("no symbol '" + kernel.symbol + "' in " +
                          kernel.library);
    return reinterpret_cast<uint64_t>(symbol);
  }

  Expected<uint64_t> runtimeFunction(uint32_t id) override {
    if (id >= cpu::NUM_HOST_FUNCTIONS)
      return runtimeError("unknown runtime function " + Twine(id));
    return reinterpret_cast<uint64_t>(ENTRY_FUNCTIONS[id]);
  }

  void write(uint64_t address, ArrayRef<uint8_t> bytes) override {
    std::memcpy(reinterpret_cast<void *>(address), bytes.data(), bytes.size());
  }

private:
  std::vector<void *> blocks, libraries;
};

class CPUExecutable : public LoadedExecutable {
public:
  CPUExecutable(const Executable &exe, const RuntimeOptions &options)
      : exe(exe), options(options) {}

  Error load() {
    Expected<LinkResult> linked = link(exe, memory);
    if (!linked)
      return linked.takeError();
    addresses = std::move(linked->addresses);
    // Each device's timeline signal and host value, found once: synchronize
    // and every host call wait on them.
    for (auto [i, v] : llvm::enumerate(exe.values)) {
      if (v.kind != Value::Placeholder || v.tag != TAG_TIMELINE_SIGNAL)
        continue;
      for (auto [lane, device] : llvm::enumerate(v.devices))
        timelines.push_back(
            {device, addresses[i][lane], timelineValueAddress(device)});
    }
    return Error::success();
  }

  Error run(ArrayRef<Argument> args) override {
    if (args.size() != exe.numArgs)
      return runtimeError("the executable takes " + Twine(exe.numArgs) +
                          " arguments, the run passes " + Twine(args.size()));
    this->args = args;
    for (const InputsTable &table : exe.inputs) {
      auto *slots = reinterpret_cast<uint64_t *>(addresses[table.table][0]);
      for (auto [i, slot] : llvm::enumerate(table.slots)) {
        Expected<uint64_t> a = inputAddress(slot.first, slot.second);
        if (!a)
          return a.takeError();
        slots[i] = *a;
      }
    }
    for (const PlanStep &step : exe.plan) {
      switch (step.kind) {
      case PlanStep::Call:
        if (Error e = call(exe.submitters[step.callee], step.operands))
          return e;
        break;
      case PlanStep::HostCall:
        if (Error e = hostCall(step))
          return e;
        break;
      case PlanStep::Copy:
      case PlanStep::Launch:
        return runtimeError("calls on devices without queues are not run by "
                            "this runtime yet");
      }
    }
    return Error::success();
  }

  Error synchronize() override {
    // Every queue drains (a stuck wait times out and lets it go on), ...
    for (auto &[key, worker] : workers)
      while (!worker->idle())
        std::this_thread::yield();
    // ... and every device timeline reaches its host value - 1: the last
    // finalizer of every run stored it.
    for (const Timeline &t : timelines) {
      std::atomic<uint64_t> &timeline = word(t.signal);
      uint64_t target = (t.value ? word(t.value).load() : 1) - 1;
      if (!waitUntil([&] { return timeline.load() >= target; }, timeline,
                     options.waitTimeout))
        if (Error e = hang("synchronize: the CPU:" + Twine(t.device.index) +
                           " timeline stays at " + Twine(timeline.load()) +
                           ", below " + Twine(target)))
          return e;
    }
    return workerHang();
  }

private:
  /// The first hang a queue worker reported, if any.
  Error workerHang() {
    for (auto &[key, worker] : workers)
      if (std::string error = worker->takeError(); !error.empty())
        return runtimeError("hang detected: " + error);
    return Error::success();
  }

  /// A host call sees the results of everything submitted before it: the
  /// plan waits, as synchronize does, for every batch so far (each ends with
  /// a finalizer), then calls the implementation with the operands.
  Error hostCall(const PlanStep &step) {
    auto it = options.hostCalls.find(step.name);
    if (it == options.hostCalls.end())
      return runtimeError(
          "host call '" + step.name +
          "' has no implementation (RuntimeOptions::hostCalls)");
    if (Error e = synchronize())
      return e;
    std::vector<Argument> operands;
    for (uint32_t v : step.operands) {
      const Value &value = exe.values[v];
      if (value.kind == Value::Input || value.kind == Value::Variable) {
        operands.push_back(args[value.index]);
        continue;
      }
      Argument buffer;
      for (uint64_t address : addresses[v])
        buffer.lanes.push_back(reinterpret_cast<void *>(address));
      operands.push_back(std::move(buffer));
    }
    if (Error e = it->second(operands))
      return runtimeError("host call '" + step.name +
                          "' failed: " + toString(std::move(e)));
    return Error::success();
  }

  /// A host-side wait timed out: a worker's own report names the cause
  /// better than `what`, when there is one.
  Error hang(const Twine &what) {
    if (Error e = workerHang())
      return e;
    return runtimeError("hang detected: " + what);
  }

  /// The address of `device`'s host timeline value; 0 when the executable
  /// has none (its timeline then counts as starting at 1).
  uint64_t timelineValueAddress(const Device &device) const {
    for (auto [i, v] : llvm::enumerate(exe.values))
      if (v.kind == Value::Placeholder && v.tag == TAG_TIMELINE_VALUE)
        for (auto [lane, d] : llvm::enumerate(v.devices))
          if (d == device)
            return addresses[i][lane];
    return 0;
  }

  Expected<uint64_t> inputAddress(uint32_t value, uint32_t lane) {
    const Value &v = exe.values[value];
    if (v.kind != Value::Input)
      return runtimeError("inputs table names a value that is no input");
    const Argument &arg = args[v.index];
    if (lane >= arg.lanes.size())
      return runtimeError("argument " + Twine(v.index) + " has " +
                          Twine(arg.lanes.size()) + " lanes, lane " +
                          Twine(lane) + " needed");
    return reinterpret_cast<uint64_t>(arg.lanes[lane]);
  }

  /// How many lanes value `v` has (at least one).
  size_t lanesOf(uint32_t v) const {
    return std::max<size_t>(exe.values[v].devices.size(), 1);
  }

  /// The address of lane `lane` of value `v` (lane 0 for one-lane values).
  uint64_t laneAddress(uint32_t v, size_t lane) {
    const std::vector<uint64_t> &lanes = addresses[v];
    return lanes[lanes.size() == 1 ? 0 : lane];
  }

  /// The worker of `lane`'s ring, created at its first push. Workers are
  /// keyed by the ring's linked address: a ring has one placeholder identity
  /// (tag, slot, device), so the lane of a multi-device push and a
  /// single-device push to the same queue share one ring and one worker.
  Worker *worker(ArrayRef<uint32_t> ops, const Step &step, size_t lane) {
    uint64_t ring = laneAddress(ops[1], lane);
    auto it = workers.find(ring);
    if (it != workers.end())
      return it->second.get();
    const Device &device = step.devices[lane];
    std::string name = ("CPU:" + Twine(device.index) + " " +
                        QUEUE_NAMES[std::min<uint64_t>(step.immediates[2], 2)] +
                        ":" + Twine(step.immediates[3]))
                           .str();
    auto w = std::make_unique<Worker>(
        name, reinterpret_cast<uint8_t *>(ring), exe.values[ops[1]].bytes,
        laneAddress(ops[2], lane), laneAddress(ops[3], lane),
        laneAddress(ops[4], lane), laneAddress(ops[5], lane),
        options.waitTimeout);
    return workers.emplace(ring, std::move(w)).first->second.get();
  }

  Error call(const Submitter &sub, const std::vector<uint32_t> &operands) {
    for (const Step &step : sub.steps) {
      // The step's operands as this call's values; on the stack, since
      // every run goes through here.
      SmallVector<uint32_t, 8> ops;
      for (uint32_t o : step.operands)
        ops.push_back(operands[o]);
      switch (step.kind) {
      case Step::Fence:
        for (size_t lane = 0; lane < lanesOf(ops[0]); ++lane) {
          std::atomic<uint64_t> &timeline = word(laneAddress(ops[0], lane));
          uint64_t epoch = word(laneAddress(ops[1], lane)).load();
          if (!waitUntil([&] { return timeline.load() >= epoch; }, timeline,
                         options.waitTimeout))
            return hang("fence: the timeline stays below epoch " +
                        Twine(epoch));
        }
        break;
      case Step::Reset:
        for (uint32_t signal : ops)
          for (uint64_t address : addresses[signal])
            word(address).store(0, std::memory_order_release);
        break;
      case Step::Finalize:
        for (size_t lane = 0; lane < lanesOf(ops[0]); ++lane) {
          std::atomic<uint64_t> &tlv = word(laneAddress(ops[0], lane));
          word(laneAddress(ops[1], lane)).store(tlv.load());
          tlv.fetch_add(1);
        }
        break;
      case Step::PatchGroup:
        if (Error e = patch(step, ops))
          return e;
        break;
      case Step::Push: {
        if (step.immediates[1] != PUSH_CPU)
          return runtimeError("this runtime has no AMD device to push to");
        // A multi-device push is one push per lane, each of its lane's blob
        // to its lane's ring.
        for (size_t lane = 0; lane < step.devices.size(); ++lane)
          if (Error e = worker(ops, step, lane)
                            ->push(reinterpret_cast<const uint8_t *>(
                                       laneAddress(ops[0], lane)),
                                   step.immediates[0]))
            return e;
        break;
      }
      }
    }
    return Error::success();
  }

  /// Writes one patch group: per entry of the offset table, the word's
  /// value for every lane of the target.
  Error patch(const Step &step, ArrayRef<uint32_t> ops) {
    uint32_t target = ops[0], offsets = ops[1], source = ops[2];
    uint64_t start = step.immediates[0], count = step.immediates[1],
             bits = step.immediates[2];
    const auto *table =
        reinterpret_cast<const uint32_t *>(laneAddress(offsets, 0));
    const Word &w = step.word;
    size_t lanes = addresses[target].size();
    for (uint64_t e = start; e < start + count; ++e) {
      uint32_t offset = table[2 * e], slot = table[2 * e + 1];
      for (size_t lane = 0; lane < lanes; ++lane) {
        uint64_t v;
        if (w.kind == KIND_ADDRESS) {
          const auto *inputs =
              reinterpret_cast<const uint64_t *>(laneAddress(source, 0));
          v = evaluateAddressWord(w, inputs[slot + (lanes > 1 ? lane : 0)]);
        } else {
          if (w.kind == KIND_VARIABLE)
            v = static_cast<uint64_t>(args[exe.values[source].index].value);
          else if (w.kind == KIND_LOAD)
            v = word(laneAddress(source, lane)).load() + w.value;
          else
            return runtimeError("a patch group of unknown kind");
          if (w.part == PART_LO)
            v &= 0xFFFFFFFF;
          else if (w.part == PART_HI)
            v >>= 32;
          v |= w.orBits;
        }
        auto *at =
            reinterpret_cast<uint8_t *>(laneAddress(target, lane)) + offset;
        if (bits == 32) {
          uint32_t v32 = static_cast<uint32_t>(v);
          std::memcpy(at, &v32, 4);
        } else {
          std::memcpy(at, &v, 8);
        }
      }
    }
    return Error::success();
  }

  Executable exe;
  RuntimeOptions options;
  HostMemory memory;
  std::vector<std::vector<uint64_t>> addresses;
  std::map<uint64_t, std::unique_ptr<Worker>> workers; // by ring address
  struct Timeline {
    Device device;
    uint64_t signal, value; // addresses; value 0: none
  };
  std::vector<Timeline> timelines;
  ArrayRef<Argument> args;
};

} // namespace

Expected<std::unique_ptr<LoadedExecutable>>
loadExecutable(const Executable &exe, const RuntimeOptions &options) {
  auto loaded = std::make_unique<CPUExecutable>(exe, options);
  if (Error e = loaded->load())
    return std::move(e);
  return std::unique_ptr<LoadedExecutable>(std::move(loaded));
}

} // namespace hcq::runtime
