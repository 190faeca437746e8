//===- BatchDeps.cpp - Batches, dependencies and submits ------------------===//
//
// Seed section 2 ("deps"): consecutive enqueueable calls become submits on
// (devices, queue) with the waits and signal stores their dependencies need,
// bracketed per device group by a fence, a reset and a finalizer.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Support/DepsTracker.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Utils.h"

#include "mlir/IR/Builders.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/MapVector.h"

#include <numeric>

namespace hcq {
#define GEN_PASS_DEF_HCQBATCHDEPS
#include "HCQ/Transforms/Passes.h.inc"
} // namespace hcq

using namespace mlir;
using namespace hcq;

namespace {

/// A dependency: lane `lane` of the consumer waits for the call `tag` of the
/// batch, which ran on (`device`, `queue`).
struct Dep {
  DeviceAttr device;
  QueueAttr queue;
  int64_t tag;
  unsigned lane;
};

/// One command of a submit before it becomes IR.
struct Cmd {
  enum Kind { Barrier, Wait, Store, Timestamp, Call } kind;
  SmallVector<Value, 2> signals;
  Value valueBuffer;
  int64_t value = 0;
  Operation *call = nullptr;
};

/// Where a submit runs: it merges with others of the same.
struct SubmitKey {
  DevicesAttr devices;
  QueueAttr queue;
  bool operator==(const SubmitKey &other) const {
    return devices == other.devices && queue == other.queue;
  }
};

/// The bytes of one buffer one lane of a call touches.
struct LaneAccess {
  DepsTracker::Access access;
  DeviceAttr device; // where that memory lives
};

/// The bytes one lane of a call touches (a launch touches a few buffers:
/// kept inline), and those of each of its lanes.
using LaneAccessList = SmallVector<LaneAccess, 4>;
using LaneAccesses = SmallVector<LaneAccessList, 1>;

/// Everything about one batch (the seed's BatchCtx).
class Batch {
public:
  /// `calls` counts the schedule's calls by name so far, for profile
  /// names: with `profile`, each call's pair of timestamps is named after
  /// it and its rank among the calls of that name ("matmul#1").
  /// `symbolTable` is the schedule's nearest symbol table, where its calls'
  /// kernels are.
  Batch(PlaceholderCache &placeholders, SymbolTableCollection &symbols,
        Operation *symbolTable, int64_t &nextSlot, bool profile,
        llvm::StringMap<unsigned> &calls)
      : placeholders(placeholders), symbols(symbols), symbolTable(symbolTable),
        nextSlot(nextSlot), profile(profile), callCounts(calls) {}

  /// Room for up to `numCalls` calls: a batch of many calls then grows
  /// none of its per-call arrays (growing one moves every element).
  void reserve(size_t numCalls) {
    calls.reserve(numCalls);
    // A lane a call, and one per device used for the finalizers: a few.
    // (Past its capacity a SmallVector doubles, even through reserve;
    // calls on several devices, a lane each, take it there.)
    producers.reserve(numCalls + 16);
  }

  /// Adds a call enqueued on `devices` and works out the waits it needs;
  /// fails on a buffer the pass cannot track.
  LogicalResult add(QueueCallOpInterface call, DevicesAttr devices);
  bool empty() const { return calls.empty(); }
  /// Emits the batch at the builder's insertion point, each call moved into
  /// its submit.
  void emit(OpBuilder &builder, int64_t batchSize);

private:
  /// What emitting a call needs of it once added: its waits (in
  /// `callWaits`) and the other devices' memory it touches (in `foreign`),
  /// as ranges; its buffer accesses are in the tracker by then.
  struct CallInfo {
    Operation *call;
    DevicesAttr devices;
    QueueAttr queue;
    uint32_t waitsBegin, waitsEnd;
    uint32_t foreignBegin, foreignEnd;
  };

  /// `device` alone (uniqued once per batch: attributes are looked up under
  /// the context's lock).
  DevicesAttr single(DeviceAttr device) {
    DevicesAttr &devices = singles[device];
    if (!devices)
      devices = DevicesAttr::get(device.getContext(), {device});
    return devices;
  }
  int64_t slotFor(QueueAttr queue) {
    auto [it, inserted] = queueSlots.try_emplace(queue, 0);
    if (inserted)
      it->second = nextSlot++;
    return it->second;
  }
  Value queueSignal(QueueAttr queue, DevicesAttr devices) {
    return placeholders.getSignal(PlaceholderTag::signal, slotFor(queue),
                                  devices);
  }
  uint64_t streamOf(DeviceAttr device, QueueAttr queue) {
    auto [it, inserted] = streams.try_emplace({device, queue}, streams.size());
    (void)inserted;
    return it->second;
  }

  /// Records the accesses of `lanes` as those of call `tag` and appends the
  /// waits they need to `waits`.
  void waitsFor(ArrayRef<LaneAccessList> lanes, DevicesAttr devices,
                QueueAttr queue, int64_t tag, bool writeAll,
                SmallVectorImpl<Cmd> &waits);
  /// Groups the submits of `keys` (one per call, in order) into the submits
  /// they merge into, each group's call indices in order.
  static SmallVector<SmallVector<uint32_t>>
  mergeSubmits(ArrayRef<SubmitKey> keys, int64_t batchSize);
  /// Creates an empty submit at the builder's insertion point; returns its
  /// body.
  static Block *createSubmit(OpBuilder &builder, Location loc, SubmitKey key);
  /// Appends `cmds` to `body`, a call by moving it there (see Batch::emit
  /// for why it is not copied).
  static void emitCmds(Block *body, Location loc, ArrayRef<Cmd> cmds);

  PlaceholderCache &placeholders;
  SymbolTableCollection &symbols;
  Operation *symbolTable;
  int64_t &nextSlot;
  bool profile;
  llvm::StringMap<unsigned> &callCounts;
  SmallVector<CallInfo, 0> calls;
  /// A call's wait until it is emitted: the signals
  /// `waitSignals[signalsBegin, signalsEnd)` reach `value` (16 bytes and 8
  /// a signal, where a Cmd takes 64: at 1,000,000 ping-pong calls, two
  /// million waits). The ops are made at emit(), in the order a walk of
  /// the submits visits them: made as each call was added, the waits of
  /// both queues lay interleaved in memory and the verifier's walk after
  /// the pass took longer (hcq-batch-deps 1.34-1.39 s -> 1.70-1.76 s at
  /// 1,000,000 one-device calls, `--mlir-timing`).
  struct PendingWait {
    int64_t value;
    uint32_t signalsBegin, signalsEnd;
  };
  /// Every call's waits, in call order (CallInfo::waitsBegin/End).
  SmallVector<PendingWait, 0> callWaits;
  SmallVector<Value, 0> waitSignals;
  /// The waits of the call being added (kept: its storage is reused).
  SmallVector<Cmd, 2> scratchWaits;
  /// Per call, each (memory device, lane) pair of its accesses to another
  /// device's memory, in access order (CallInfo::foreignBegin/End). A
  /// std::vector: emit() frees it once read, before it makes the ops.
  std::vector<std::pair<DeviceAttr, uint32_t>> foreign;
  /// Every buffer range accessed, per memory device, for the finalizers.
  llvm::MapVector<
      Attribute,
      llvm::MapVector<std::tuple<const void *, uint32_t, int64_t, int64_t>,
                      LaneAccess>>
      deviceAccesses;
  /// The lane accesses of the call being added (kept: its lists' storage
  /// is reused).
  LaneAccesses scratchLanes;
  DepsTracker tracker;
  /// Producer of each dependency id: the call's tag and lane (its device
  /// and queue are in `calls`). A batch's calls are far fewer than 2^32:
  /// each is an op of at least 64 bytes.
  struct Producer {
    uint32_t tag, lane;
  };
  SmallVector<Producer, 0> producers;
  DenseMap<std::pair<Attribute, Attribute>, uint64_t> streams;
  llvm::MapVector<Attribute, int64_t> queueSlots;
  /// Which calls (by tag) someone waits on: they store their queue signal.
  /// Sized to the batch's calls when it is emitted.
  llvm::BitVector signalTags;
  DenseMap<DeviceAttr, DevicesAttr> singles;
  /// Queue 0 of each kind, by QueueKind.
  std::array<QueueAttr, 3> queues;
};

} // namespace

/// The lane accesses of a call: per lane, every buffer operand's bytes, into
/// `lanes`.
static LogicalResult getLaneAccesses(QueueCallOpInterface call, size_t numLanes,
                                     SymbolTableCollection &symbols,
                                     Operation *symbolTable,
                                     LaneAccesses &lanes) {
  BufferUses operands = call.getBufferUses(symbols, symbolTable);
  lanes.resize(numLanes);
  for (LaneAccessList &list : lanes)
    list.clear();
  for (auto [i, operand] : llvm::enumerate(operands)) {
    BufferBase base = getBufferBase(operand.buffer);
    Operation *def = base.base.getDefiningOp();
    if (!isa<BlockArgument>(base.base) && !isa_and_nonnull<AllocOp>(def) &&
        !isa_and_nonnull<PlaceholderOp>(def))
      return call->emitOpError()
             << "buffer operand #" << i
             << " is not a schedule input, an hcq.alloc, a placeholder or a "
                "view of one: its dependencies cannot be tracked";
    auto type = cast<BufferType>(base.base.getType());
    size_t bufferLanes = type.getNumLanes();
    for (size_t lane = 0; lane < numLanes; ++lane) {
      // A buffer of one device is shared by every lane; a multi-device one
      // has its own memory per lane.
      uint32_t bufferLane = bufferLanes == 1 ? 0 : lane % bufferLanes;
      int64_t begin = base.byteOffset + operand.offset;
      lanes[lane].push_back({{{base.base.getAsOpaquePointer(), bufferLane},
                              begin,
                              begin + operand.size,
                              operand.write},
                             type.getDevices().getDevices()[bufferLane]});
    }
  }
  return success();
}

LogicalResult Batch::add(QueueCallOpInterface call, DevicesAttr devices) {
  QueueAttr &queue = queues[static_cast<size_t>(call.getQueueKind())];
  if (!queue)
    queue = QueueAttr::get(call->getContext(), call.getQueueKind(), 0);
  if (failed(getLaneAccesses(call, devices.size(), symbols, symbolTable,
                             scratchLanes)))
    return failure();
  ArrayRef<LaneAccessList> lanes = scratchLanes;

  // The waits now, in call order as the tracker needs them; the call's
  // accesses need not be kept.
  int64_t tag = calls.size();
  signalTags.push_back(false);
  auto waitsBegin = static_cast<uint32_t>(callWaits.size());
  scratchWaits.clear();
  waitsFor(lanes, devices, queue, tag, /*writeAll=*/false, scratchWaits);
  for (const Cmd &wait : scratchWaits) {
    // A call's waits are on queue signals: no value buffer.
    assert(!wait.valueBuffer && "a call's wait with a value buffer");
    assert(waitSignals.size() + wait.signals.size() <= UINT32_MAX &&
           "a batch of more than 2^32 wait signals");
    auto signalsBegin = static_cast<uint32_t>(waitSignals.size());
    waitSignals.append(wait.signals.begin(), wait.signals.end());
    callWaits.push_back(
        {wait.value, signalsBegin, static_cast<uint32_t>(waitSignals.size())});
  }

  auto foreignBegin = static_cast<uint32_t>(foreign.size());
  for (auto [lane, accesses] : llvm::enumerate(lanes)) {
    DeviceAttr laneDevice = devices.getDevices()[lane];
    for (const LaneAccess &a : accesses) {
      deviceAccesses[a.device][{a.access.buffer.base, a.access.buffer.lane,
                                a.access.begin, a.access.end}] = a;
      if (a.device != laneDevice && a.device.isHCQ())
        foreign.push_back({a.device, static_cast<uint32_t>(lane)});
    }
  }
  calls.push_back({call, devices, queue, waitsBegin,
                   static_cast<uint32_t>(callWaits.size()), foreignBegin,
                   static_cast<uint32_t>(foreign.size())});
  return success();
}

/// The seed's `_wait_ins`: records the accesses in the tracker and returns
/// the waits they need.
void Batch::waitsFor(ArrayRef<LaneAccessList> lanes, DevicesAttr devices,
                     QueueAttr queue, int64_t tag, bool writeAll,
                     SmallVectorImpl<Cmd> &waits) {
  // A call has a few dependencies, each of a few lanes (two in a
  // ping-pong schedule): the maps below are small, kept inline, not on the
  // heap at every call.
  SmallVector<Dep, 8> deps;
  for (auto [lane, accesses] : llvm::enumerate(lanes)) {
    SmallVector<DepsTracker::Access, 8> list;
    for (const LaneAccess &a : accesses) {
      list.push_back(a.access);
      if (writeAll)
        list.back().write = true;
    }
    DeviceAttr device = devices.getDevices()[lane];
    uint64_t id = producers.size();
    assert(tag <= UINT32_MAX && lane <= UINT32_MAX && "a batch past 2^32");
    producers.push_back(
        {static_cast<uint32_t>(tag), static_cast<uint32_t>(lane)});
    for (uint64_t waitId :
         tracker.access(list, {id, streamOf(device, queue)})) {
      auto [pTag, pLane] = producers[waitId];
      if (pTag >= tag)
        continue;
      // An earlier call's: in `calls` by now.
      DeviceAttr pDevice = calls[pTag].devices.getDevices()[pLane];
      QueueAttr pQueue = calls[pTag].queue;
      // Submits on one (device, queue) run in order: no wait needed.
      if (pDevice == device && pQueue == queue)
        continue;
      deps.push_back({pDevice, pQueue, pTag, static_cast<unsigned>(lane)});
    }
  }

  // One wait of the row (queue, tag): each lane waits on its producer's
  // queue signal, or on the sentinel when it has none.
  auto pushWait = [&](QueueAttr queue, int64_t tag, auto &&producerOf) {
    Cmd wait{Cmd::Wait, {}, {}, tag + 1, nullptr};
    for (auto [lane, laneDevice] : llvm::enumerate(devices.getDevices())) {
      DeviceAttr producer = producerOf(lane);
      wait.signals.push_back(
          producer ? queueSignal(queue, single(producer))
                   : placeholders.getSignal(PlaceholderTag::sentinel_signal, 0,
                                            single(laneDevice)));
    }
    // One signal for every lane when they all wait on the same one.
    if (llvm::all_equal(wait.signals))
      wait.signals.resize(1);
    waits.push_back(std::move(wait));
    signalTags.set(tag); // a producer's tag is below the waiter's
  };
  if (deps.empty())
    return;
  // The commonest case, one dependency, is one row of one wait: made
  // without the maps the general case needs.
  if (deps.size() == 1) {
    const Dep &d = deps.front();
    pushWait(d.queue, d.tag, [&](size_t lane) {
      return lane == d.lane ? d.device : DeviceAttr();
    });
    return;
  }

  // Only the latest dependency per (device, queue, lane) matters.
  // Stable: equal tags keep their lane order.
  SmallVector<unsigned> order(deps.size());
  std::iota(order.begin(), order.end(), 0u);
  llvm::sort(order, [&](unsigned a, unsigned b) {
    return std::make_pair(deps[a].tag, a) < std::make_pair(deps[b].tag, b);
  });
  llvm::SmallMapVector<std::tuple<Attribute, Attribute, unsigned>, Dep, 8>
      latest;
  for (unsigned i : order)
    latest[{deps[i].device, deps[i].queue, deps[i].lane}] = deps[i];

  // One wait per (queue, tag) row; its lanes wait on their producer's signal,
  // or on the sentinel when they have none.
  llvm::SmallMapVector<std::pair<Attribute, int64_t>,
                       SmallVector<SmallVector<DeviceAttr, 1>, 1>, 4>
      rows;
  for (auto &[key, d] : latest) {
    auto &row = rows[{d.queue, d.tag}];
    row.resize(devices.size());
    row[d.lane].push_back(d.device);
  }
  for (auto &row : rows) {
    const auto &[key, byLane] = row;
    size_t depth = 0;
    for (auto &list : byLane)
      depth = std::max(depth, list.size());
    for (size_t k = 0; k < depth; ++k)
      pushWait(cast<QueueAttr>(key.first), key.second, [&](size_t lane) {
        const auto &producers = row.second[lane];
        return k < producers.size() ? producers[k] : DeviceAttr();
      });
  }
}

/// The seed's `_merge_queues`.
SmallVector<SmallVector<uint32_t>> Batch::mergeSubmits(ArrayRef<SubmitKey> keys,
                                                       int64_t batchSize) {
  bool anyCpu = llvm::any_of(keys, [](const SubmitKey &k) {
    return llvm::any_of(k.devices.getDevices(), [](DeviceAttr d) {
      return d.getKind() == DeviceKind::CPU;
    });
  });
  // CPU queues run their work inline and can block on another queue: keep
  // multi-queue CPU work in schedule order, merging could deadlock.
  SmallVector<SmallVector<uint32_t>> merged;
  if (anyCpu && llvm::any_of(keys, [&](auto &k) { return !(k == keys[0]); })) {
    for (uint32_t index = 0; index < keys.size(); ++index)
      merged.push_back({index});
    return merged;
  }

  // Open groups in the order of their latest submit, as the seed's dict.
  SmallVector<std::pair<SubmitKey, SmallVector<uint32_t>>> opened;
  DenseMap<std::pair<Attribute, Attribute>, int64_t> limits;
  for (uint32_t index = 0; index < keys.size(); ++index) {
    SubmitKey key = keys[index];
    auto it = llvm::find_if(opened, [&](auto &o) { return o.first == key; });
    SmallVector<uint32_t> group;
    if (it == opened.end()) {
      // First submit on this queue: close open groups on the same queue that
      // share devices, so their submit order is kept.
      for (auto o = opened.begin(); o != opened.end();) {
        if (o->first.queue == key.queue &&
            o->first.devices.intersects(key.devices)) {
          merged.push_back(std::move(o->second));
          o = opened.erase(o);
        } else {
          ++o;
        }
      }
    } else {
      group = std::move(it->second);
      opened.erase(it);
      int64_t &limit =
          limits.try_emplace({key.devices, key.queue}, batchSize).first->second;
      if (limit && static_cast<int64_t>(group.size()) >= limit) {
        merged.push_back(std::move(group));
        group = {};
        limit *= 2;
      }
    }
    group.push_back(index);
    opened.push_back({key, std::move(group)});
  }
  for (auto &o : opened)
    merged.push_back(std::move(o.second));
  return merged;
}

Block *Batch::createSubmit(OpBuilder &builder, Location loc, SubmitKey key) {
  auto submit = SubmitOp::create(builder, loc, key.devices, key.queue);
  Block *body = new Block();
  submit.getBody().push_back(body);
  return body;
}

void Batch::emitCmds(Block *body, Location loc, ArrayRef<Cmd> cmds) {
  OpBuilder inner = OpBuilder::atBlockEnd(body);
  for (const Cmd &cmd : cmds) {
    switch (cmd.kind) {
    case Cmd::Barrier:
      BarrierOp::create(inner, loc);
      break;
    case Cmd::Wait:
      WaitOp::create(inner, loc, cmd.signals, cmd.valueBuffer, cmd.value);
      break;
    case Cmd::Store:
      StoreOp::create(inner, loc, cmd.signals, cmd.valueBuffer, cmd.value);
      break;
    case Cmd::Timestamp:
      TimestampOp::create(inner, loc, cmd.signals);
      break;
    case Cmd::Call:
      cmd.call->moveBefore(body, body->end());
      break;
    }
  }
}

void Batch::emit(OpBuilder &builder, int64_t batchSize) {
  MLIRContext *ctx = builder.getContext();
  QueueAttr compute = QueueAttr::get(ctx, QueueKind::COMPUTE, 0);
  int64_t numCalls = calls.size();

  // Every call's waits are known (Batch::add); every buffer access per
  // device is in deviceAccesses.
  SmallVector<DeviceAttr> devicesUsed;
  for (auto &entry : deviceAccesses)
    devicesUsed.push_back(cast<DeviceAttr>(entry.first));
  llvm::sort(devicesUsed, [](DeviceAttr a, DeviceAttr b) {
    return std::make_pair(stringifyDeviceKind(a.getKind()), a.getIndex()) <
           std::make_pair(stringifyDeviceKind(b.getKind()), b.getIndex());
  });

  // Per device group (devices of one kind): its fence and reset, emitted
  // before the calls, and its finalizer, after them.
  struct GroupSync {
    DevicesAttr group;
    Value epoch, timeline, timelineValue;
    /// The signals the reset zeroes (none: no reset).
    SmallVector<Value> signals;
    /// The finalizer's submit.
    SmallVector<Cmd> finalCmds;
  };
  Location loc = calls.front().call->getLoc();
  SmallVector<GroupSync> syncs;
  for (size_t i = 0; i < devicesUsed.size();) {
    size_t j = i;
    while (j < devicesUsed.size() &&
           devicesUsed[j].getKind() == devicesUsed[i].getKind())
      ++j;
    auto group = DevicesAttr::get(
        ctx, ArrayRef<DeviceAttr>(devicesUsed).slice(i, j - i));
    i = j;

    GroupSync &sync = syncs.emplace_back();
    sync.group = group;
    sync.epoch =
        placeholders.getSignal(PlaceholderTag::epoch, nextSlot++, group);
    sync.timeline =
        placeholders.getSignal(PlaceholderTag::timeline_signal, 0, group);
    sync.timelineValue =
        placeholders.getSignal(PlaceholderTag::timeline_value, 0, group);

    // Queues of other groups wait on this group's signals: zero them only
    // once the fence saw the previous run finished.
    llvm::SetVector<Attribute> queues;
    for (const CallInfo &info : calls)
      if (info.devices.intersects(group))
        queues.insert(info.queue);
    for (Attribute queue : queues)
      sync.signals.push_back(queueSignal(cast<QueueAttr>(queue), group));

    // The finalizer waits for every buffer's last access, then stores the
    // host timeline value into the device timeline.
    LaneAccesses lanes;
    for (DeviceAttr device : group.getDevices()) {
      auto &lane = lanes.emplace_back();
      for (auto &entry : deviceAccesses[device])
        lane.push_back(entry.second);
    }
    waitsFor(lanes, group, compute, numCalls, /*writeAll=*/true,
             sync.finalCmds);
    sync.finalCmds.push_back(
        {Cmd::Store, {sync.timeline}, sync.timelineValue, 0, nullptr});
  }

  for (const GroupSync &sync : syncs)
    FenceOp::create(builder, loc, sync.timeline, sync.epoch);
  for (const GroupSync &sync : syncs)
    if (!sync.signals.empty())
      ResetOp::create(builder, loc, sync.signals);

  // Each call's commands, in two steps. First, in call order, everything
  // that depends on the calls before it: the timeline and foreign-memory
  // waits on a queue's first use (`preludes`), profile slots and names, and
  // the placeholders and signal slots these create. Then the ops, submit by
  // submit, each call moved in, not copied: a copy of every call beside the
  // parsed calls was most of the pass's peak memory (at 1,000,000
  // ping-pong calls, 1,181 MB against 988 MB moved). A moved call stays
  // where the parser put it, apart from the waits and stores made here, so
  // a walk of a submit changes pages more often: hcq-encode took 1.1-1.2 s
  // instead of 1.5 s there, but this pass 4.5-5.4 s instead of 4.1-4.7 s.
  // (Copying was first chosen when a walk of moved calls took ten times as
  // long; bench/HISTORY.md.)
  SmallVector<Cmd, 0> preludes;
  SmallVector<std::pair<uint32_t, uint32_t>, 0> preludeOf(numCalls);
  // Which call each timestamp pair times, named after the batch.
  struct ProfileName {
    Location loc;
    std::string name; // the kernel, or "copy"
    Value start, end;
    QueueAttr queue;
  };
  SmallVector<ProfileName> profiles;
  DenseSet<std::pair<Attribute, Attribute>> seenQueues;
  DenseSet<std::tuple<Attribute, Attribute, Attribute>> seenForeign;
  for (auto [tag, info] : llvm::enumerate(calls)) {
    auto begin = static_cast<uint32_t>(preludes.size());
    if (seenQueues.insert({info.devices, info.queue}).second) {
      preludes.push_back({Cmd::Barrier, {}, {}, 0, nullptr});
      preludes.push_back(
          {Cmd::Wait,
           {placeholders.getSignal(PlaceholderTag::timeline_signal, 0,
                                   info.devices)},
           placeholders.getSignal(PlaceholderTag::timeline_value, 0,
                                  info.devices),
           -1,
           nullptr});
    }
    // The first time a queue touches another device's memory in the batch,
    // it also waits for that device's timeline: that timeline, not the
    // queue's own, covers what earlier work (of this executable or another
    // on the same device) did to that memory. The seed waits only for the
    // queue's own devices, which leaves a write into another device's
    // memory unordered against a different executable's reads there.
    llvm::MapVector<Attribute, SmallVector<bool>> foreignLanes;
    for (auto [device, lane] : ArrayRef(foreign).slice(
             info.foreignBegin, info.foreignEnd - info.foreignBegin))
      if (!seenForeign.contains({info.devices, info.queue, device})) {
        SmallVector<bool> &lanes = foreignLanes[device];
        lanes.resize(info.devices.size());
        lanes[lane] = true;
      }
    for (auto &[device, lanes] : foreignLanes) {
      auto memory = cast<DeviceAttr>(device);
      seenForeign.insert({info.devices, info.queue, memory});
      Cmd wait{Cmd::Wait,
               {},
               placeholders.getSignal(PlaceholderTag::timeline_value, 0,
                                      single(memory)),
               -1,
               nullptr};
      for (auto [lane, touches] : llvm::enumerate(lanes))
        wait.signals.push_back(
            touches ? placeholders.getSignal(PlaceholderTag::timeline_signal, 0,
                                             single(memory))
                    : placeholders.getSignal(
                          PlaceholderTag::sentinel_signal, 0,
                          single(info.devices.getDevices()[lane])));
      if (llvm::all_equal(wait.signals))
        wait.signals.resize(1);
      preludes.push_back(std::move(wait));
    }
    preludeOf[tag] = {begin, static_cast<uint32_t>(preludes.size())};
    if (profile) {
      Value start = placeholders.getSignal(PlaceholderTag::timestamp,
                                           nextSlot++, info.devices);
      Value end = placeholders.getSignal(PlaceholderTag::timestamp, nextSlot++,
                                         info.devices);
      auto launch = dyn_cast<LaunchOp>(info.call);
      std::string name = launch ? launch.getKernel().str() : "copy";
      name += "#" + std::to_string(callCounts[name]++);
      profiles.push_back({info.call->getLoc(), name, start, end, info.queue});
    }
    // Its queue's signal, if someone waits on it: made now, so signals
    // get their slots in call order; the store is made below.
    if (signalTags.test(tag))
      queueSignal(info.queue, info.devices);
  }

  // The submits, in the order they merge into (which depends only on where
  // each call runs), each filled with its calls' commands: the timeline
  // sync on a queue's first use, the call's waits, timestamps, the call,
  // and a signal store if someone waits on it.
  // What emitting the ops no longer needs is freed first: at 1,000,000
  // ping-pong calls the ops are most of the pass's peak.
  std::vector<std::pair<DeviceAttr, uint32_t>>().swap(foreign);
  SmallVector<SmallVector<uint32_t>> groups = [&] {
    auto keys = llvm::map_to_vector(calls, [](const CallInfo &info) {
      return SubmitKey{info.devices, info.queue};
    });
    return mergeSubmits(keys, batchSize);
  }();
  SmallVector<Cmd, 8> cmds;
  for (ArrayRef<uint32_t> group : groups) {
    const CallInfo &first = calls[group.front()];
    Block *body = createSubmit(builder, first.call->getLoc(),
                               {first.devices, first.queue});
    for (uint32_t tag : group) {
      const CallInfo &info = calls[tag];
      auto [preludeBegin, preludeEnd] = preludeOf[tag];
      cmds.assign(std::make_move_iterator(preludes.begin() + preludeBegin),
                  std::make_move_iterator(preludes.begin() + preludeEnd));
      for (const PendingWait &wait : ArrayRef(callWaits).slice(
               info.waitsBegin, info.waitsEnd - info.waitsBegin))
        cmds.push_back({Cmd::Wait,
                        SmallVector<Value, 2>(
                            ArrayRef(waitSignals)
                                .slice(wait.signalsBegin,
                                       wait.signalsEnd - wait.signalsBegin)),
                        {},
                        wait.value,
                        nullptr});
      if (profile)
        cmds.push_back({Cmd::Timestamp, {profiles[tag].start}, {}, 0, nullptr});
      cmds.push_back({Cmd::Call, {}, {}, 0, info.call});
      if (profile)
        cmds.push_back({Cmd::Timestamp, {profiles[tag].end}, {}, 0, nullptr});
      if (signalTags.test(tag))
        cmds.push_back({Cmd::Store,
                        {queueSignal(info.queue, info.devices)},
                        {},
                        static_cast<int64_t>(tag) + 1,
                        nullptr});
      emitCmds(body, info.call->getLoc(), cmds);
    }
  }

  for (const GroupSync &sync : syncs) {
    emitCmds(createSubmit(builder, loc, {sync.group, compute}), loc,
             sync.finalCmds);
    FinalizeOp::create(builder, loc, sync.timelineValue, sync.epoch);
  }
  for (const ProfileName &p : profiles)
    ProfileOp::create(builder, p.loc, p.name, p.start, p.end, p.queue);
}

/// A call of a schedule: a queue call (`call` set) or a host call.
struct ScheduleCall {
  Operation *op;
  QueueCallOpInterface call;
};

/// Records on each schedule argument how the schedule uses it
/// (`hcq.access` = "read", "write" or "readwrite", the kernel signature's
/// words), from its launches (their kernels' signatures), copies (source
/// read, destination written) and host calls (which may do either): what
/// the executable file tells a runner of it (hcq-run --list-arguments,
/// --output). Arguments no call touches get none.
static void recordArgumentAccess(ScheduleOp schedule,
                                 ArrayRef<ScheduleCall> calls,
                                 SymbolTableCollection &symbols,
                                 Operation *symbolTable) {
  Block &body = schedule.getBody().front();
  SmallVector<unsigned> access(body.getNumArguments(), 0);
  enum : unsigned { READ = 1, WRITE = 2 };
  auto argumentOf = [&](Value buffer) {
    auto arg = dyn_cast<BlockArgument>(getBufferBase(buffer).base);
    return arg && arg.getOwner() == &body ? arg : BlockArgument();
  };
  auto note = [&](Value buffer, unsigned how) {
    if (BlockArgument arg = argumentOf(buffer))
      access[arg.getArgNumber()] |= how;
  };
  for (auto [op, call] : calls) {
    // Most calls touch no argument: no need to ask how they use buffers
    // (a launch looks its kernel up).
    if (llvm::none_of(op->getOperands(), argumentOf))
      continue;
    if (call) {
      for (const BufferUse &use : call.getBufferUses(symbols, symbolTable))
        note(use.buffer, (use.read ? READ : 0) | (use.write ? WRITE : 0));
    } else {
      for (Value operand : op->getOperands())
        if (isa<BufferType>(operand.getType()))
          note(operand, READ | WRITE);
    }
  }
  Builder builder(schedule.getContext());
  for (auto [i, how] : llvm::enumerate(access))
    if (how)
      schedule.setArgAttr(i, ACCESS_ATTR,
                          builder.getStringAttr(how == READ    ? "read"
                                                : how == WRITE ? "write"
                                                               : "readwrite"));
}

namespace {
struct BatchDepsPass : public hcq::impl::HCQBatchDepsBase<BatchDepsPass> {
  using Base::Base;

  /// Options are checked when the pass manager is set up, before any pass
  /// runs.
  LogicalResult initialize(MLIRContext *ctx) override {
    if (batchSize < 0)
      return emitOptionError(ctx, getArgument())
             << "'batch-size' must not be negative, got "
             << static_cast<int64_t>(batchSize);
    FailureOr<DeviceKindSet> parsed =
        DeviceKindSet::parse(devices, "devices", ctx, getArgument());
    if (failed(parsed))
      return failure();
    kinds = *parsed;
    return success();
  }

  void runOnOperation() override {
    if (failed(runOnSchedule(getOperation(), kinds)))
      return signalPassFailure();
  }

  DeviceKindSet kinds;

  LogicalResult runOnSchedule(ScheduleOp schedule, const DeviceKindSet &kinds) {
    if (schedule.getBody().empty())
      return success();
    // The calls and host calls, in one walk: a big schedule's ops are far
    // apart in memory, and the rest reads them from this array (with each
    // call's interface, which is found by a search of its op's interfaces).
    // A std::vector: freed before the last batch makes its ops.
    std::vector<ScheduleCall> calls;
    bool batched = false;
    for (Operation &op : schedule.getBody().front()) {
      if (auto call = dyn_cast<QueueCallOpInterface>(op))
        calls.push_back({&op, call});
      else if (isa<HostCallOp>(op))
        calls.push_back({&op, nullptr});
      batched |= isa<SubmitOp>(op);
    }
    // A schedule already batched has submits: leave it as it is; one that
    // also has calls a queue could run outside them was batched in part,
    // and is refused (calls on devices without queues stay outside).
    if (batched) {
      for (auto [op, call] : calls)
        if (call && getEnqueueDevices(call, kinds))
          return op->emitOpError("is outside any hcq.submit in a schedule "
                                 "already batched: batch all of it or none");
      return success();
    }
    PlaceholderCache placeholders(schedule);
    SymbolTableCollection symbols;
    // The calls are the schedule's own ops: their nearest symbol table is
    // its.
    Operation *symbolTable = SymbolTable::getNearestSymbolTable(schedule);
    recordArgumentAccess(schedule, calls, symbols, symbolTable);
    // Slot 0 is the per-device timeline, sentinel and staging buffer.
    int64_t nextSlot = 1;
    OpBuilder builder(schedule.getContext());
    llvm::StringMap<unsigned> callCounts;
    std::optional<Batch> batch;
    Operation *lastCall = nullptr;
    size_t callsLeft = calls.size();
    auto flush = [&]() {
      if (batch && !batch->empty()) {
        builder.setInsertionPointAfter(lastCall);
        batch->emit(builder, batchSize);
      }
      batch.emplace(placeholders, symbols, symbolTable, nextSlot, profile,
                    callCounts);
      // The calls left are as many as the batch can take.
      batch->reserve(callsLeft);
    };
    flush();
    for (auto [op, call] : calls) {
      --callsLeft;
      DevicesAttr devs = call ? getEnqueueDevices(call, kinds) : DevicesAttr();
      if (!devs) {
        // Not enqueueable: it ends the batch and stays in place.
        flush();
        continue;
      }
      if (failed(batch->add(call, devs)))
        return failure();
      lastCall = op;
    }
    std::vector<ScheduleCall>().swap(calls);
    flush();
    return success();
  }
};
} // namespace
