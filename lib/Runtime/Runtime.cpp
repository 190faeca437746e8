//===- Runtime.cpp - Loading and running executables ----------------------===//
//
// A loaded executable: linked into its devices' memory (ExecutableMemory.h),
// its plan checked once (Validate.h), then per run the inputs tables and the
// host plan, whose calls patch and push to its devices' queues (Queues.h).
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"
#include "Device.h"
#include "ExecutableMemory.h"
#include "HCQ/Base/Device.h"
#include "HCQ/Runtime/Link.h"
#include "HCQ/Target/CPU/Entry.h"
#include "Validate.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <map>
#include <thread>

namespace hcq::runtime {
namespace {

class LoadedExecutableImpl : public LoadedExecutable {
public:
  LoadedExecutableImpl(std::shared_ptr<RuntimeImpl> runtime,
                       const Executable &exe)
      : runtime(std::move(runtime)), exe(exe),
        memory(*this->runtime, this->exe), flags(this->runtime->flags) {}

  ~LoadedExecutableImpl() override {
    // Its memory may be in flight: the runs finish first. Work that hangs
    // never will, so the runtime's queues stop (dropping what they hold)
    // before the memory goes.
    std::lock_guard<std::recursive_mutex> lock(runtime->mutex);
    if (Error e = synchronizeLocked())
      if (!runtime->stopQueues("executable @" + exe.name +
                               " destroyed while its work could not finish: " +
                               toString(std::move(e))))
        // A kernel that never returns may still use it.
        memory.abandon();
  }

  Error load() {
    Expected<LinkResult> linked = link(exe, memory);
    if (!linked)
      return linked.takeError();
    addresses = std::move(linked->addresses);
    // The devices whose memory it linked (arguments are the caller's, and
    // may be on devices outside the runtime, such as DISK:0), per value and
    // lane, found once: fences look their device up every run.
    valueDevices.resize(exe.values.size());
    for (auto [i, v] : enumerate(exe.values))
      if (v.kind != ValueKind::Input && v.kind != ValueKind::Variable)
        for (const DeviceId &id : v.devices) {
          if (Error e = useDevice(id))
            return e;
          valueDevices[i].push_back(*runtime->getDevice(id));
        }
    arguments = getArgumentUses(exe);
    // Host-run launches call their kernel's function directly.
    for (const PlanStep &step : exe.plan) {
      if (step.kind != PlanStepKind::Launch || hostKernels.count(step.callee))
        continue;
      const Kernel &kernel = exe.kernels[step.callee];
      if (kernel.target == KernelTarget::amd)
        return Error::failure(ErrorCode::InvalidFile,
                              "kernel " + kernel.name +
                                  ": an AMD kernel cannot run on the host (its "
                                  "launch is outside the HCQ devices)");
      Expected<uint64_t> fn = memory.hostFunction(kernel);
      if (!fn)
        return fn.takeError();
      hostKernels[step.callee] = reinterpret_cast<cpu::KernelFunction>(*fn);
    }
    if (Error e = validateLinkedPlan(exe, addresses))
      return e;
    if (Error e = resolveQueues())
      return e;
    // A GPU reaches only host memory registered with it: the CPU lanes of
    // an executable that runs on one are checked every run.
    checksHostLanes = std::any_of(used.begin(), used.end(),
                                  [](Device *d) { return d->isHardware(); });
    return Error::success();
  }

  Error run(Span<const Argument> args) override {
    std::lock_guard<std::recursive_mutex> lock(runtime->mutex);
    if (args.size() != exe.numArgs)
      return Error::failure(
          ErrorCode::InvalidArgument,
          "the executable takes " + std::to_string(exe.numArgs) +
              " arguments, the run passes " + std::to_string(args.size()));
    // A queue that faulted is dead: report it rather than wait on it.
    if (flags.error.load(std::memory_order_acquire))
      if (Error e = runtime->takeQueueError())
        return e;
    // Each argument as the schedule declares it: a buffer with a pointer
    // per lane, or a variable.
    for (auto [i, use] : enumerate(arguments)) {
      if (use.kind == ArgumentUse::Variable && !args[i].lanes.empty())
        return Error::failure(ErrorCode::InvalidArgument,
                              "argument " + std::to_string(i) +
                                  " is a variable; the run passes a buffer");
      if (use.kind == ArgumentUse::Buffer && use.lanes > args[i].lanes.size())
        return Error::failure(
            ErrorCode::InvalidArgument,
            "argument " + std::to_string(i) + " is a buffer of " +
                std::to_string(use.lanes) +
                (use.lanes == 1 ? " lane" : " lanes") + "; the run passes " +
                (args[i].lanes.empty()
                     ? "a variable"
                     : std::to_string(args[i].lanes.size()) + " lanes"));
      if (checksHostLanes && use.kind == ArgumentUse::Buffer)
        for (auto [lane, device] : enumerate(use.devices))
          if (device.kind == DeviceKind::CPU)
            if (Error e = checkHostMemoryWithDrivers(
                    reinterpret_cast<uint64_t>(args[i].lanes[lane]), use.bytes))
              return prependContext("argument " + std::to_string(i) + " lane " +
                                        std::to_string(lane) + " (" +
                                        device.str() + "): ",
                                    std::move(e));
    }
    this->args = args;
    for (const InputsTable &table : exe.inputs) {
      auto *slots = reinterpret_cast<uint64_t *>(addresses[table.table][0]);
      for (auto [i, slot] : enumerate(table.slots)) {
        Expected<uint64_t> a = inputAddress(slot.first, slot.second);
        if (!a)
          return a.takeError();
        slots[i] = *a;
      }
    }
    for (const PlanStep &step : exe.plan) {
      Error e = Error::success();
      switch (step.kind) {
      case PlanStepKind::Call:
        e = call(step.callee, step.operands);
        break;
      case PlanStepKind::HostCall:
        e = hostCall(step);
        break;
      case PlanStepKind::Copy:
        e = hostCopy(step);
        break;
      case PlanStepKind::Launch:
        e = hostLaunch(step);
        break;
      }
      if (e)
        return e;
    }
    return Error::success();
  }

  Error synchronize() override {
    std::lock_guard<std::recursive_mutex> lock(runtime->mutex);
    return synchronizeLocked();
  }

  std::vector<ProfileEvent> profile() const override {
    std::lock_guard<std::recursive_mutex> lock(runtime->mutex);
    std::vector<ProfileEvent> events;
    for (const ProfileEntry &entry : exe.profile) {
      std::string queue = entry.queue.str();
      const Value &slots = exe.values[entry.start];
      for (auto [lane, device] : enumerate(slots.devices)) {
        // A GPU counts its own clock's ticks.
        Expected<Device *> counting = runtime->getDevice(device);
        auto toNs = [&](uint64_t ticks) {
          return counting ? (*counting)->toHostNs(ticks) : ticks;
        };
        events.push_back({entry.name, device, queue,
                          toNs(word(addresses[entry.start][lane]).load()),
                          toNs(word(addresses[entry.end][lane]).load()), 0});
        if (!counting)
          consumeError(counting.takeError());
      }
    }
    return events;
  }

  std::vector<DeviceId> devices() const override {
    std::vector<DeviceId> ids;
    for (Device *device : used)
      ids.push_back(device->getId());
    return ids;
  }

private:
  Error useDevice(DeviceId id) {
    Expected<Device *> device = runtime->getDevice(id);
    if (!device)
      return device.takeError();
    if (!isContained(used, *device))
      used.push_back(*device);
    return Error::success();
  }

  /// Every device the executable uses has executed what was pushed and
  /// reached its timeline: this executable's runs and whatever others
  /// submitted to the same devices before.
  Error synchronizeLocked() { return runtime->synchronizeDevices(used); }

  /// Finds the device queue of every lane of every push, once: a push names
  /// its (device, queue), and the runtime owns the ring behind it.
  Error resolveQueues() {
    pushQueues.resize(exe.submitters.size());
    for (auto [i, sub] : enumerate(exe.submitters)) {
      pushQueues[i].resize(sub.steps.size());
      for (auto [j, step] : enumerate(sub.steps)) {
        if (step.kind != StepKind::Push)
          continue;
        for (const DeviceId &id : step.push.devices) {
          if (Error e = useDevice(id))
            return e;
          Device *device = *runtime->getDevice(id);
          Expected<Queue *> queue =
              device->getQueue(step.push.queue, step.push.mode);
          if (!queue)
            return queue.takeError();
          // The ring takes what is pushed: the INDIRECT_BUFFER packet on a
          // PM4 ring, the whole command buffer otherwise.
          if (step.push.bytes > (*queue)->maxPushBytes())
            return Error::failure(
                ErrorCode::FailedPrecondition,
                (*queue)->getName() + ": a push of " +
                    std::to_string(step.push.bytes) +
                    " bytes does not fit its " +
                    std::to_string(device->getRingBytes()) +
                    "-byte ring (it takes at most " +
                    std::to_string((*queue)->maxPushBytes()) +
                    " in one push): raise RuntimeOptions::ringBytes (hcq-run "
                    "--ring-bytes) or compile with a lower batch-size");
          pushQueues[i][j].push_back(*queue);
        }
      }
    }
    return Error::success();
  }

  /// A host step sees the results of everything submitted before it, by
  /// this executable or any other: the plan waits for every open device
  /// (a buffer may be shared with work on devices this executable does not
  /// use).
  Error hostSynchronize() { return runtime->synchronizeLocked(); }

  /// A host call sees the results of everything submitted before it, then
  /// is called with the operands.
  Error hostCall(const PlanStep &step) {
    const RuntimeOptions &options = runtime->getOptions();
    auto it = options.hostCalls.find(step.name);
    if (it == options.hostCalls.end())
      return Error::failure(
          ErrorCode::Unavailable,
          "host call '" + step.name +
              "' has no implementation (RuntimeOptions::hostCalls)");
    if (Error e = hostSynchronize())
      return e;
    std::vector<Argument> operands;
    for (uint32_t v : step.operands) {
      const Value &value = exe.values[v];
      if (value.kind == ValueKind::Input || value.kind == ValueKind::Variable) {
        operands.push_back(args[value.index]);
        continue;
      }
      Argument buffer;
      for (uint64_t address : addresses[v])
        buffer.lanes.push_back(reinterpret_cast<void *>(address));
      operands.push_back(std::move(buffer));
    }
    if (Error e = it->second(operands))
      return prependContext("host call '" + step.name + "' failed: ",
                            std::move(e));
    return Error::success();
  }

  /// A copy outside the HCQ devices (a staging copy's host side): run by the
  /// host once everything before it has finished, lane by lane.
  Error hostCopy(const PlanStep &step) {
    if (Error e = hostSynchronize())
      return e;
    uint32_t dst = step.operands[0], src = step.operands[1];
    uint64_t bytes = std::min(step.copy.dstBytes, step.copy.srcBytes);
    size_t lanes = std::max(exe.values[dst].lanes(), exe.values[src].lanes());
    for (size_t lane = 0; lane < lanes; ++lane)
      std::memmove(reinterpret_cast<uint8_t *>(bufferAddress(dst, lane)) +
                       step.copy.dstOffset,
                   reinterpret_cast<const uint8_t *>(bufferAddress(src, lane)) +
                       step.copy.srcOffset,
                   bytes);
    return Error::success();
  }

  /// A CPU kernel outside the HCQ devices: called by the host, once every
  /// workgroup, after everything before it has finished.
  Error hostLaunch(const PlanStep &step) {
    if (Error e = hostSynchronize())
      return e;
    std::vector<uint64_t> kernargs;
    for (uint32_t v : step.operands) {
      if (exe.values[v].kind == ValueKind::Variable) {
        kernargs.push_back(
            static_cast<uint64_t>(args[exe.values[v].index].value));
        continue;
      }
      kernargs.push_back(bufferAddress(v, 0));
    }
    cpu::KernelFunction kernel = hostKernels.at(step.callee);
    const uint64_t *grid = step.grid.global;
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
    if (value.kind != ValueKind::Input)
      return laneAddress(v, lane);
    return reinterpret_cast<uint64_t>(
        args[value.index].lanes[exe.values[v].lanes() == 1 ? 0 : lane]);
  }

  Expected<uint64_t> inputAddress(uint32_t value, uint32_t lane) {
    const Value &v = exe.values[value];
    if (v.kind != ValueKind::Input)
      return Error::failure(ErrorCode::InvalidFile,
                            "inputs table names a value that is no input");
    const Argument &arg = args[v.index];
    if (lane >= arg.lanes.size())
      return Error::failure(ErrorCode::InvalidArgument,
                            "argument " + std::to_string(v.index) + " has " +
                                std::to_string(arg.lanes.size()) +
                                " lanes, lane " + std::to_string(lane) +
                                " needed");
    return reinterpret_cast<uint64_t>(arg.lanes[lane]);
  }

  /// The address of lane `lane` of value `v` (lane 0 for one-lane values).
  uint64_t laneAddress(uint32_t v, size_t lane) {
    const std::vector<uint64_t> &lanes = addresses[v];
    return lanes[lanes.size() == 1 ? 0 : lane];
  }

  Error call(uint32_t submitter, const std::vector<uint32_t> &operands) {
    const Submitter &sub = exe.submitters[submitter];
    for (auto [index, step] : enumerate(sub.steps)) {
      // The step's operands as this call's values, in a vector kept from
      // step to step and run to run: every run goes through here.
      std::vector<uint32_t> &ops = stepOperands;
      ops.clear();
      for (uint32_t o : step.operands)
        ops.push_back(operands[o]);
      switch (step.kind) {
      case StepKind::Fence:
        for (size_t lane = 0; lane < exe.values[ops[0]].lanes(); ++lane) {
          std::atomic<uint64_t> &timeline = word(laneAddress(ops[0], lane));
          uint64_t epoch = word(laneAddress(ops[1], lane)).load();
          Device *device = valueDevices[ops[0]][lane];
          if (!waitUntil(
                  [&] {
                    return timeline.load() >= epoch ||
                           flags.error.load(std::memory_order_relaxed);
                  },
                  timeline, device->getTimeout(), device->getInterrupts()))
            return runtime->hang("fence: the " + device->getName() +
                                 " timeline stays below epoch " +
                                 std::to_string(epoch));
        }
        break;
      case StepKind::Reset:
        for (uint32_t signal : ops)
          for (uint64_t address : addresses[signal])
            word(address).store(0, std::memory_order_release);
        break;
      case StepKind::Finalize:
        for (size_t lane = 0; lane < exe.values[ops[0]].lanes(); ++lane) {
          std::atomic<uint64_t> &tlv = word(laneAddress(ops[0], lane));
          word(laneAddress(ops[1], lane)).store(tlv.load());
          tlv.fetch_add(1);
        }
        break;
      case StepKind::PatchGroup:
        patch(step.patch, ops);
        break;
      case StepKind::Push: {
        // A multi-device push is one push per lane, each of its lane's blob
        // onto its lane's device queue.
        const std::vector<Queue *> &queues = pushQueues[submitter][index];
        for (size_t lane = 0; lane < queues.size(); ++lane)
          if (Error e = queues[lane]->push(
                  reinterpret_cast<const uint8_t *>(laneAddress(ops[0], lane)),
                  step.push.bytes))
            return e;
        break;
      }
      }
    }
    return Error::success();
  }

  /// Writes one patch group: per entry of the offset table, the word's
  /// value for every lane of the target.
  void patch(const PatchGroup &group, Span<const uint32_t> ops) {
    uint32_t target = ops[0], offsets = ops[1], source = ops[2];
    const auto *table =
        reinterpret_cast<const uint32_t *>(laneAddress(offsets, 0));
    const Word &w = group.word;
    size_t lanes = addresses[target].size();
    for (uint64_t e = group.start; e < group.start + group.count; ++e) {
      uint32_t offset = table[2 * e], slot = table[2 * e + 1];
      for (size_t lane = 0; lane < lanes; ++lane) {
        uint64_t v;
        if (w.kind == WordKind::address) {
          const auto *inputs =
              reinterpret_cast<const uint64_t *>(laneAddress(source, 0));
          v = evaluateAddressWord(w, inputs[slot + (lanes > 1 ? lane : 0)]);
        } else {
          if (w.kind == WordKind::variable)
            v = static_cast<uint64_t>(args[exe.values[source].index].value);
          else // WordKind::load; validatePatchGroup refused the rest
            v = word(laneAddress(source, lane)).load() + w.value;
          if (w.part == WordPart::lo)
            v &= 0xFFFFFFFF;
          else if (w.part == WordPart::hi)
            v >>= 32;
          v |= w.orBits;
        }
        auto *at =
            reinterpret_cast<uint8_t *>(laneAddress(target, lane)) + offset;
        if (group.bits == 32) {
          uint32_t v32 = static_cast<uint32_t>(v);
          std::memcpy(at, &v32, 4);
        } else {
          std::memcpy(at, &v, 8);
        }
      }
    }
  }

  std::shared_ptr<RuntimeImpl> runtime;
  Executable exe;
  ExecutableMemory memory;
  QueueFlags &flags;
  std::vector<std::vector<uint64_t>> addresses;
  std::vector<Device *> used; // in the order first named
  /// Whether a device it uses is a GPU: its CPU buffer lanes must then be
  /// host memory registered with the GPUs (Driver::checkHostMemory).
  bool checksHostLanes = false;
  /// Per value, per lane: the device of its linked memory.
  std::vector<std::vector<Device *>> valueDevices;
  /// Per submitter, per step: each lane's queue (pushes only).
  std::vector<std::vector<std::vector<Queue *>>> pushQueues;
  std::map<uint32_t, cpu::KernelFunction> hostKernels; // by kernel index
  std::vector<ArgumentUse> arguments; // what run() checks its arguments by
  std::vector<uint32_t> stepOperands; // call()'s, reused
  Span<const Argument> args;
};

} // namespace

Expected<std::unique_ptr<LoadedExecutable>>
RuntimeImpl::load(const Executable &exe) {
  std::lock_guard<std::recursive_mutex> lock(mutex);
  auto self = std::static_pointer_cast<RuntimeImpl>(shared_from_this());
  auto loaded = std::make_unique<LoadedExecutableImpl>(self, exe);
  if (Error e = loaded->load())
    return std::move(e);
  return std::unique_ptr<LoadedExecutable>(std::move(loaded));
}

} // namespace hcq::runtime
