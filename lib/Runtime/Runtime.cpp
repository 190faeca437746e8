//===- Runtime.cpp - Loading and running executables ----------------------===//
//
// The executable's side of the runtime: the link into HostMemory.h's memory,
// and per run the inputs tables and the host plan. The queues it pushes to
// are Queues.h's: the CPU device's workers and the emulated AMD device's
// command processors.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Runtime/Link.h"
#include "HCQ/Support/Device.h"
#include "HCQ/Target/CPU/Entry.h"
#include "HostMemory.h"
#include "Queues.h"

#include "llvm/ADT/DenseMap.h"

#include <atomic>
#include <cstring>
#include <map>
#include <thread>

using namespace llvm;

namespace hcq::runtime {
namespace {

// Mirrors of the dialect's enums (HCQBase.td), as the file stores them.
enum : uint32_t { TAG_TIMELINE_SIGNAL = 1, TAG_TIMELINE_VALUE = 2 };
enum : uint32_t { KIND_ADDRESS = 1, KIND_VARIABLE = 2, KIND_LOAD = 3 };
enum : uint32_t { PART_FULL = 0, PART_LO = 1, PART_HI = 2 };
enum : uint32_t { PUSH_PM4 = 0, PUSH_SDMA = 1, PUSH_CPU = 2 };

class LoadedExecutableImpl : public LoadedExecutable {
public:
  LoadedExecutableImpl(const Executable &exe, const RuntimeOptions &options)
      : exe(exe), options(options),
        memory(makeHostMemory(this->exe, this->options)) {}

  ~LoadedExecutableImpl() override {
    // The queues' threads stop before the memory they read is freed.
    queues.clear();
  }

  Error load() {
    Expected<LinkResult> linked = link(exe, *memory);
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
    arguments = getArgumentUses(exe);
    // Host-run launches call their kernel's function directly.
    for (const PlanStep &step : exe.plan) {
      if (step.kind != PlanStep::Launch || hostKernels.count(step.callee))
        continue;
      const Kernel &kernel = exe.kernels[step.callee];
      if (kernel.target == KERNEL_AMD)
        return runtimeError("kernel " + kernel.name +
                            ": an AMD kernel cannot run on the host (its "
                            "launch is outside the HCQ devices)");
      Expected<uint64_t> fn = memory->hostFunction(kernel);
      if (!fn)
        return fn.takeError();
      hostKernels[step.callee] = reinterpret_cast<cpu::KernelFunction>(*fn);
    }
    return validatePlan();
  }

  Error run(ArrayRef<Argument> args) override {
    if (args.size() != exe.numArgs)
      return runtimeError("the executable takes " + Twine(exe.numArgs) +
                          " arguments, the run passes " + Twine(args.size()));
    // A queue that faulted is dead: report it rather than wait on it.
    if (flags.error.load(std::memory_order_acquire))
      if (Error e = queueError())
        return e;
    // Each argument as the schedule declares it: a buffer with a pointer
    // per lane, or a variable.
    for (auto [i, use] : llvm::enumerate(arguments)) {
      if (use.kind == ArgumentUse::Variable && !args[i].lanes.empty())
        return runtimeError("argument " + Twine(i) +
                            " is a variable; the run passes a buffer");
      if (use.kind == ArgumentUse::Buffer && use.lanes > args[i].lanes.size())
        return runtimeError(
            "argument " + Twine(i) + " is a buffer of " + Twine(use.lanes) +
            (use.lanes == 1 ? " lane" : " lanes") + "; the run passes " +
            (args[i].lanes.empty() ? "a variable"
                                   : Twine(args[i].lanes.size()) + " lanes"));
    }
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
      Error e = Error::success();
      switch (step.kind) {
      case PlanStep::Call:
        e = call(exe.submitters[step.callee], step.operands);
        break;
      case PlanStep::HostCall:
        e = hostCall(step);
        break;
      case PlanStep::Copy:
        e = hostCopy(step);
        break;
      case PlanStep::Launch:
        e = hostLaunch(step);
        break;
      }
      if (e)
        return e;
    }
    return Error::success();
  }

  Error synchronize() override {
    // Every queue drains (a stuck wait times out and lets it go on), ...
    for (auto &[key, queue] : queues)
      while (!queue->idle())
        std::this_thread::yield();
    // ... and every device timeline reaches its host value - 1: the last
    // finalizer of every run stored it. A queue that failed stops the wait.
    for (const Timeline &t : timelines) {
      std::atomic<uint64_t> &timeline = word(t.signal);
      uint64_t target = (t.value ? word(t.value).load() : 1) - 1;
      if (!waitUntil(
              [&] {
                return timeline.load() >= target ||
                       flags.error.load(std::memory_order_acquire);
              },
              timeline, timeoutFor(t.device)))
        return hang("synchronize: the " + deviceName(t.device) +
                    " timeline stays at " + Twine(timeline.load()) +
                    ", below " + Twine(target));
    }
    return queueError();
  }

  std::vector<ProfileEvent> profile() const override {
    std::vector<ProfileEvent> events;
    for (const ProfileEntry &entry : exe.profile) {
      std::string queue = queueName(entry.queueKind, entry.queueIndex);
      const Value &slots = exe.values[entry.start];
      for (auto [lane, device] : llvm::enumerate(slots.devices))
        events.push_back({entry.name, device, queue,
                          word(addresses[entry.start][lane]).load(),
                          word(addresses[entry.end][lane]).load(), 0});
    }
    return events;
  }

private:
  /// Checks, once linked, what the file reader cannot: every memory access
  /// the plan will make stays inside its value. Patch groups write at the
  /// offsets their offset table holds (blob contents), steps index their
  /// operands by lane, host copies have ranges. A crafted or corrupt file
  /// fails here with an error instead of writing out of bounds later.
  Error validatePlan() {
    auto bad = [](size_t i, const Twine &why) {
      return runtimeError("invalid hcq executable: plan step " + Twine(i) +
                          ": " + why);
    };
    for (const InputsTable &table : exe.inputs)
      if (table.slots.size() > exe.values[table.table].bytes / 8)
        return runtimeError("invalid hcq executable: an inputs table of " +
                            Twine(exe.values[table.table].bytes / 8) +
                            " slots fills " + Twine(table.slots.size()));
    for (auto [i, step] : llvm::enumerate(exe.plan)) {
      if (step.kind == PlanStep::Copy) {
        if (step.operands.size() < 2 || step.immediates.size() < 4)
          return bad(i, "a copy without its buffers and ranges");
        for (int side = 0; side < 2; ++side) {
          uint64_t offset = step.immediates[2 * side],
                   bytes = step.immediates[2 * side + 1],
                   size = exe.values[step.operands[side]].bytes;
          if (offset > size || bytes > size - offset)
            return bad(i, "copies bytes " + Twine(offset) + ".." +
                              Twine(offset + bytes) + " of a " + Twine(size) +
                              "-byte buffer");
        }
        // Lane by lane: a side has one lane for all, or as many as the other.
        size_t dstLanes = lanesOf(step.operands[0]),
               srcLanes = lanesOf(step.operands[1]);
        if (dstLanes != srcLanes && dstLanes != 1 && srcLanes != 1)
          return bad(i, "copies between " + Twine(srcLanes) + " and " +
                            Twine(dstLanes) + " lanes");
      }
      if (step.kind == PlanStep::Launch && step.immediates.size() < 3)
        return bad(i, "a launch without its grid");
      if (step.kind != PlanStep::Call)
        continue;
      for (const Step &s : exe.submitters[step.callee].steps) {
        SmallVector<uint32_t, 8> ops;
        for (uint32_t o : s.operands)
          ops.push_back(step.operands[o]);
        // Every operand has one lane for all, or one per lane read.
        auto lanesFit = [&](ArrayRef<uint32_t> values, size_t lanes) {
          return llvm::all_of(values, [&](uint32_t v) {
            return addresses[v].size() == 1 || addresses[v].size() >= lanes;
          });
        };
        // What steps read and write is linked memory; only a patch group's
        // source may be a variable (or the inputs table it reads).
        for (auto [k, v] : llvm::enumerate(ops)) {
          const Value &value = exe.values[v];
          bool isMemory = (value.kind == Value::Placeholder ||
                           value.kind == Value::Alloc) &&
                          !value.devices.empty();
          if (!isMemory && !(s.kind == Step::PatchGroup && k == 2))
            return bad(i, "a step of kind " + Twine(s.kind) + " reads value " +
                              Twine(v) + ", which is no linked memory");
        }
        bool fits = true;
        switch (s.kind) {
        case Step::Fence:
        case Step::Finalize:
          fits = lanesFit(ops[1], addresses[ops[0]].size());
          break;
        case Step::Push:
          fits =
              lanesFit(ArrayRef<uint32_t>(ops).take_front(6), s.devices.size());
          break;
        case Step::PatchGroup:
          if (Error e = validatePatchGroup(s, ops))
            return bad(i, toString(std::move(e)));
          break;
        case Step::Reset:
          break;
        }
        if (!fits)
          return bad(i, "a step's operands do not have the lanes it reads");
      }
    }
    return Error::success();
  }

  Error validatePatchGroup(const Step &step, ArrayRef<uint32_t> ops) {
    uint32_t target = ops[0], offsets = ops[1], source = ops[2];
    uint64_t start = step.immediates[0], count = step.immediates[1],
             bits = step.immediates[2];
    if (bits != 32 && bits != 64)
      return runtimeError("a patch group of " + Twine(bits) + "-bit words");
    if (start + count < start ||
        (start + count) * 8 > exe.values[offsets].bytes)
      return runtimeError("a patch group reads entries " + Twine(start) + ".." +
                          Twine(start + count) + " of a " +
                          Twine(exe.values[offsets].bytes / 8) +
                          "-entry offset table");
    size_t lanes = addresses[target].size();
    const Word &w = step.word;
    if (w.kind == KIND_LOAD && addresses[source].size() != 1 &&
        addresses[source].size() < lanes)
      return runtimeError("a patch group loads from a value of fewer lanes");
    if (w.kind == KIND_VARIABLE && exe.values[source].kind != Value::Variable)
      return runtimeError("a variable patch group's source is no variable");
    if (w.kind != KIND_ADDRESS && w.kind != KIND_VARIABLE &&
        w.kind != KIND_LOAD)
      return runtimeError("a patch group of unknown kind " + Twine(w.kind));
    const auto *table =
        reinterpret_cast<const uint32_t *>(laneAddress(offsets, 0));
    uint64_t slots = exe.values[source].bytes / 8;
    for (uint64_t e = start; e < start + count; ++e) {
      uint64_t offset = table[2 * e], slot = table[2 * e + 1];
      if (offset + bits / 8 > exe.values[target].bytes)
        return runtimeError("a patch at byte " + Twine(offset) + " of a " +
                            Twine(exe.values[target].bytes) + "-byte blob");
      if (w.kind == KIND_ADDRESS && slot + (lanes > 1 ? lanes : 1) > slots)
        return runtimeError("a patch reads inputs slot " + Twine(slot) +
                            " of " + Twine(slots));
    }
    return Error::success();
  }

  /// The first error a queue reported, if any. Hangs are reported once, so
  /// the executable can run again; a dead queue's fault every time.
  Error queueError() {
    if (!flags.error.exchange(false))
      return Error::success();
    std::string first;
    bool fault = false;
    for (auto &[key, queue] : queues) {
      std::string error = queue->takeError();
      if (queue->isDead()) {
        flags.error.store(true);
        if (!fault)
          first = "device fault: " + error;
        fault = true;
      } else if (!error.empty() && first.empty()) {
        first = "hang detected: " + error;
      }
    }
    if (first.empty())
      return Error::success();
    return runtimeError(first);
  }

  /// A host-side wait timed out: a queue's own report names the cause
  /// better than `what`, when there is one.
  Error hang(const Twine &what) {
    if (Error e = queueError())
      return e;
    return runtimeError("hang detected: " + what);
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

  /// A copy outside the HCQ devices (a staging copy's host side): run by the
  /// host once everything before it has finished, lane by lane.
  Error hostCopy(const PlanStep &step) {
    if (Error e = synchronize())
      return e;
    uint32_t dst = step.operands[0], src = step.operands[1];
    uint64_t bytes = std::min(step.immediates[1], step.immediates[3]);
    size_t lanes = std::max(lanesOf(dst), lanesOf(src));
    for (size_t lane = 0; lane < lanes; ++lane)
      std::memmove(reinterpret_cast<uint8_t *>(bufferAddress(dst, lane)) +
                       step.immediates[0],
                   reinterpret_cast<const uint8_t *>(bufferAddress(src, lane)) +
                       step.immediates[2],
                   bytes);
    return Error::success();
  }

  /// A CPU kernel outside the HCQ devices: called by the host, once every
  /// workgroup, after everything before it has finished.
  Error hostLaunch(const PlanStep &step) {
    if (Error e = synchronize())
      return e;
    SmallVector<uint64_t, 8> kernargs;
    for (uint32_t v : step.operands) {
      if (exe.values[v].kind == Value::Variable) {
        kernargs.push_back(
            static_cast<uint64_t>(args[exe.values[v].index].value));
        continue;
      }
      kernargs.push_back(bufferAddress(v, 0));
    }
    cpu::KernelFunction kernel = hostKernels.lookup(step.callee);
    const std::vector<uint64_t> &grid = step.immediates;
    for (uint64_t z = 0; z < grid[2]; ++z)
      for (uint64_t y = 0; y < grid[1]; ++y)
        for (uint64_t x = 0; x < grid[0]; ++x)
          kernel(kernargs.data(), x, y, z);
    return Error::success();
  }

  /// The address of lane `lane` of buffer value `v` (lane 0 for one-lane
  /// values): its linked memory, or a run argument's, which run() checked
  /// has every lane the schedule uses.
  uint64_t bufferAddress(uint32_t v, size_t lane) {
    const Value &value = exe.values[v];
    if (value.kind != Value::Input)
      return laneAddress(v, lane);
    return reinterpret_cast<uint64_t>(
        args[value.index].lanes[lanesOf(v) == 1 ? 0 : lane]);
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

  /// The wait timeout of `device`'s queues and timeline.
  std::chrono::milliseconds timeoutFor(const Device &device) const {
    if (options.deviceWaitTimeouts.empty())
      return options.waitTimeout;
    auto it = options.deviceWaitTimeouts.find(deviceName(device));
    return it == options.deviceWaitTimeouts.end() ? options.waitTimeout
                                                  : it->second;
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

  /// The queue of `lane`'s ring, created at its first push. Queues are
  /// keyed by the ring's linked address: a ring has one placeholder identity
  /// (tag, slot, device), so the lane of a multi-device push and a
  /// single-device push to the same queue share one ring and one queue.
  Expected<Queue *> queue(ArrayRef<uint32_t> ops, const Step &step,
                          size_t lane) {
    uint64_t ring = laneAddress(ops[1], lane);
    auto it = queues.find(ring);
    if (it != queues.end())
      return it->second.get();
    const Device &device = step.devices[lane];
    std::string name = deviceName(device) + " " +
                       queueName(step.immediates[2], step.immediates[3]);
    RingMemory ringMemory{
        reinterpret_cast<uint8_t *>(ring), exe.values[ops[1]].bytes,
        laneAddress(ops[2], lane),         laneAddress(ops[3], lane),
        laneAddress(ops[4], lane),         laneAddress(ops[5], lane)};
    uint64_t mode = step.immediates[1];
    DeviceKind kind = static_cast<DeviceKind>(device.kind);
    std::unique_ptr<Queue> q;
    if (mode == PUSH_CPU && kind == DeviceKind::CPU)
      q = makeCPUQueue(name, ringMemory, timeoutFor(device), flags);
    else if ((mode == PUSH_PM4 || mode == PUSH_SDMA) &&
             kind == DeviceKind::AMD && options.amd == AMDDevice::Emulated)
      q = makeEmulatedAMDQueue(name, mode == PUSH_PM4, ringMemory,
                               memory->getTwins(), timeoutFor(device), flags);
    else
      return runtimeError("no queue of this runtime takes a push of mode " +
                          Twine(mode) + " to " + name);
    return queues.emplace(ring, std::move(q)).first->second.get();
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
          const Device &device = exe.values[ops[0]].devices[lane];
          if (!waitUntil(
                  [&] {
                    return timeline.load() >= epoch ||
                           flags.error.load(std::memory_order_relaxed);
                  },
                  timeline, timeoutFor(device)))
            return hang("fence: the " + deviceName(device) +
                        " timeline stays below epoch " + Twine(epoch));
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
      case Step::Push:
        // A multi-device push is one push per lane, each of its lane's blob
        // to its lane's ring.
        for (size_t lane = 0; lane < step.devices.size(); ++lane) {
          Expected<Queue *> q = queue(ops, step, lane);
          if (!q)
            return q.takeError();
          if (Error e = (*q)->push(
                  reinterpret_cast<const uint8_t *>(laneAddress(ops[0], lane)),
                  step.immediates[0]))
            return e;
        }
        break;
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
  std::unique_ptr<HostMemory> memory;
  std::vector<std::vector<uint64_t>> addresses;
  std::map<uint64_t, std::unique_ptr<Queue>> queues; // by ring address
  QueueFlags flags;
  DenseMap<uint32_t, cpu::KernelFunction> hostKernels; // by kernel index
  std::vector<ArgumentUse> arguments; // what run() checks its arguments by
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
  auto loaded = std::make_unique<LoadedExecutableImpl>(exe, options);
  if (Error e = loaded->load())
    return std::move(e);
  return std::unique_ptr<LoadedExecutable>(std::move(loaded));
}

} // namespace hcq::runtime
