//===- Encode.cpp - PM4 and SDMA encoding of AMD submits ------------------===//
//
// Seed section 3 for the AMD backend (tinygrad's ops_amd2.py opsel): every op
// of a submit becomes PM4 packets on a compute queue and SDMA packets on a
// copy queue. The packet facts and their sources are in
// include/HCQ/Target/AMD/{PM4,SDMA}.h. The encoder only reads the IR: it
// returns the words, and hcq-encode makes the ops.
//
//===----------------------------------------------------------------------===//

#include "Encode.h"

#include "HCQ/Target/AMD/BufferResource.h"
#include "HCQ/Target/AMD/CodeObject.h"
#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/PacketSink.h"
#include "HCQ/Target/AMD/SDMA.h"
#include "HCQ/Target/AMD/Target.h"
#include "HCQ/Transforms/CommandStream.h"
#include "HCQ/Transforms/Utils.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/CheckedArithmetic.h"
#include "llvm/Support/MathExtras.h"

#include <limits>

using namespace mlir;
using namespace hcq;
namespace pm4 = hcq::amd::pm4;
namespace sdma = hcq::amd::sdma;

namespace {

/// The most bytes of kernel arguments (explicit and hidden) a launch gets.
/// hcq's own bound, not the hardware's: it keeps a submit's kernel-argument
/// stream, which the encoder sizes in 32-bit words, far from overflowing,
/// and is orders of magnitude above what compilers emit (a few hundred
/// bytes).
constexpr uint32_t MAX_KERNARG_BYTES = 1u << 20;

/// Whether the host may wait for what `store` writes: only the device
/// timeline (synchronize and the plan's fences wait on it; queue signals are
/// waited on by other queues). Only after those stores does a queue raise
/// the device's interrupt event, so a host may sleep on it: under KFD each
/// interrupt costs the driver an event lookup, and nothing sleeps on the
/// others.
bool hostWaitsOn(StoreOp store) {
  return llvm::any_of(store.getSignals(), [](Value signal) {
    auto placeholder = signal.getDefiningOp<PlaceholderOp>();
    return placeholder &&
           placeholder.getTag() == PlaceholderTag::timeline_signal;
  });
}

/// The hidden kernel arguments `info` lists, as the AMDGPU ABI defines them
/// (LLVM AMDGPUUsage, "Code Object V5 Metadata", hidden_*), for `launch`:
/// the kernel-argument segment's bytes, zero where nothing is listed. A
/// hidden argument hcq cannot provide (a printf or hostcall buffer, the
/// queue, apertures) is refused, since the kernel would use it.
FailureOr<std::vector<uint8_t>> hiddenArguments(LaunchOp launch,
                                                const amd::KernelInfo &info) {
  std::vector<uint8_t> bytes(info.kernargBytes, 0);
  ArrayRef<int64_t> groups = launch.getGlobalSize(),
                    local = launch.getLocalSize();
  for (const amd::KernelInfo::HiddenArgument &arg : info.hiddenArguments) {
    StringRef kind = arg.kind;
    uint64_t value = 0;
    auto axis = [&](StringRef prefix) -> int {
      if (!kind.consume_front(prefix) || kind.size() != 1 || kind[0] < 'x' ||
          kind[0] > 'z')
        return -1;
      return kind[0] - 'x';
    };
    int d;
    if ((d = axis("hidden_block_count_")) >= 0)
      value = groups[d]; // workgroups: hcq's global size counts them
    else if ((kind = arg.kind, d = axis("hidden_group_size_")) >= 0)
      value = local[d];
    else if ((kind = arg.kind, d = axis("hidden_remainder_")) >= 0)
      value = 0; // the grid is whole workgroups
    else if ((kind = arg.kind, d = axis("hidden_global_offset_")) >= 0)
      value = 0;
    else if (arg.kind == "hidden_grid_dims")
      value = 3; // as the dispatch packet's setup says
    else if (arg.kind == "hidden_none" || arg.kind == "hidden_dynamic_lds_size")
      value = 0;
    else
      return launch.emitOpError()
             << "@" << launch.getKernel() << " reads the hidden argument "
             << arg.kind << ", which hcq does not provide";
    if (arg.size < 8 && value >> (8 * arg.size))
      return launch.emitOpError()
             << arg.kind << " of @" << launch.getKernel() << " is " << value
             << ", which does not fit its " << arg.size << " bytes";
    std::memcpy(bytes.data() + arg.offset, &value, arg.size); // little-endian
  }
  return bytes;
}

/// An address known at link time: that of `lanes` (one value for every
/// lane, or one per lane), or of the memory `deferred` names (the submit's
/// DeferredRefs: a placeholder, a program, the kernel arguments), plus
/// `offset`, shifted right by `shift`, its high half OR `highBits`. Without
/// either, the constant 0 with `highBits` (the absent scratch buffer).
struct Address {
  ArrayRef<Value> lanes;
  uint64_t offset = 0;
  uint32_t shift = 0;
  uint64_t highBits = 0;
  std::optional<uint32_t> deferred = std::nullopt;

  static Address of(std::optional<uint32_t> deferred, uint64_t offset = 0,
                    uint32_t shift = 0, uint64_t highBits = 0) {
    return Address{{}, offset, shift, highBits, deferred};
  }
};

/// A signal value: the constant `value`, or the host value of `buffer` plus
/// `value`.
struct SignalValue {
  Value buffer;
  int64_t value = 0;
};

/// The device's interrupt event number, 32 bits: the low half of its
/// placeholder's address (the runtime puts the placeholder at the number),
/// `placeholder` being the submit's DeferredRefs id for it.
struct EventNumber {
  uint32_t placeholder;
};

/// The packet builders' sink (PacketSink.h) over a CommandStream. On a PM4
/// stream split every `splitDwords`, it pads with NOPs where a packet would
/// straddle a split.
class StreamSink {
public:
  StreamSink(CommandStream &cmds, uint32_t splitDwords)
      : cmds(cmds), splitDwords(splitDwords) {}

  void packet(uint32_t dwords) {
    if (fits(dwords))
      return;
    auto used = static_cast<uint32_t>(cmds.size() - currentSplit());
    std::vector<uint32_t> nops;
    amd::DwordSink sink{nops};
    pm4::emitNop(sink, splitDwords - used);
    cmds.constants(nops);
  }
  /// Whether `dwords` more dwords end before the next split: then no packet
  /// among them straddles one, and none needs packet().
  bool fits(uint32_t dwords) {
    return !splitDwords || cmds.size() + dwords <= currentSplit() + splitDwords;
  }
  /// The stream so far.
  const CommandStream &stream() const { return cmds; }
  void dword(uint32_t d) { cmds.constant(d); }
  void dwords(ArrayRef<uint32_t> ds) { cmds.constants(ds); }
  void low(uint64_t q) { cmds.constant(q & 0xFFFFFFFF); }
  void high(uint64_t q) { cmds.constant(q >> 32); }
  /// An address's low then high half (the builders reach it through
  /// lowHigh(s, q): an address is never written half alone).
  void lowHigh(const Address &a) {
    assert(a.highBits <= UINT32_MAX && "high bits of more than 32 bits");
    auto highBits = static_cast<uint32_t>(a.highBits);
    if (a.deferred)
      return cmds.deferredLoHi(*a.deferred, a.offset, a.shift, highBits);
    if (a.lanes.empty()) {
      cmds.constant(0);
      return cmds.constant(highBits);
    }
    cmds.addressLoHi(a.lanes, a.offset, a.shift, highBits);
  }
  void low(const SignalValue &v) {
    cmds.signalValue(v.buffer, v.value, WordPart::lo);
  }
  void high(const SignalValue &v) {
    cmds.signalValue(v.buffer, v.value, WordPart::hi);
  }
  void low(const EventNumber &e) { cmds.deferred(e.placeholder, WordPart::lo); }
  void high(const EventNumber &) { cmds.constant(0); }

private:
  /// Where the current split began, followed as the stream grows: no
  /// division per packet.
  size_t currentSplit() {
    while (cmds.size() - splitStart >= splitDwords)
      splitStart += splitDwords;
    return splitStart;
  }

  CommandStream &cmds;
  uint32_t splitDwords;
  size_t splitStart = 0;
};

/// A packet sink that keeps a few packets' dwords in a local buffer, then
/// writes them into a StreamSink at once: a dispatch's ~55 dwords cost a
/// store each instead of a call, and the stream's split is checked once
/// for all of them (packet by packet only when they would cross it). Holds
/// only addresses (lowHigh), which is all a dispatch's packets write.
class PacketBuffer {
public:
  void packet(uint32_t dwords) { packets.push_back({words.size(), dwords}); }
  void dword(uint32_t d) { words.push_back(d); }
  void lowHigh(const Address &a) {
    // The address is kept until flushTo: lanes would be an ArrayRef into
    // what the caller may have freed by then.
    assert(a.lanes.empty() && "a buffered address of lanes");
    holes.push_back({words.size(), a});
    words.append(2, 0);
  }

  /// Writes the packets into `sink`, as writing them there one by one
  /// would.
  void flushTo(StreamSink &sink) const {
    assert((packets.empty() || packets.front().start == 0) &&
           "a dword before the first packet");
    const Hole *hole = holes.begin();
    if (sink.fits(words.size()))
      return write(sink, 0, words.size(), hole);
    for (auto [index, packet] : llvm::enumerate(packets)) {
      sink.packet(packet.dwords);
      write(sink, packet.start,
            index + 1 < packets.size() ? packets[index + 1].start
                                       : words.size(),
            hole);
    }
  }

private:
  struct Packet {
    size_t start;
    uint32_t dwords;
  };
  struct Hole {
    size_t at;
    Address address;
  };
  /// Writes words [at, end) into `sink`, the holes among them (from
  /// `hole` on) as addresses.
  void write(StreamSink &sink, size_t at, size_t end, const Hole *&hole) const {
    for (; hole != holes.end() && hole->at < end; ++hole) {
      sink.dwords(ArrayRef(words).slice(at, hole->at - at));
      sink.lowHigh(hole->address);
      at = hole->at + 2;
    }
    sink.dwords(ArrayRef(words).slice(at, end - at));
  }

  SmallVector<uint32_t, 80> words;
  SmallVector<Packet, 16> packets;
  SmallVector<Hole, 4> holes;
};

/// Encodes a schedule's submits for a target, one at a time.
class Encoder : public SubmitEncoder {
public:
  Encoder(const amd::Target &target, uint32_t indirectBufferDwords)
      : target(target), indirectBufferDwords(indirectBufferDwords) {}

  FailureOr<EncodedSubmit>
  encode(SubmitOp submit, ArrayRef<Operation *> ops,
         function_ref<void(Operation *)> encoded) override;

private:
  /// Encodes `ops`, the body of `submit`, noting in `sizer` what each op
  /// took, and passing each to `encoded` when done.
  LogicalResult encodeCompute(SubmitOp submit, ArrayRef<Operation *> ops,
                              StreamSink &cmds, StreamSizer &sizer,
                              function_ref<void(Operation *)> encoded);
  LogicalResult encodeCopy(SubmitOp submit, ArrayRef<Operation *> ops,
                           StreamSink &cmds, StreamSizer &sizer,
                           function_ref<void(Operation *)> encoded);

  template <typename Sink> void acquireMem(Sink &cmds, bool full);
  /// RELEASE_MEM at the end of the pipe writing `data` as `dataSelect`
  /// says, after flushing the caches if `flush`.
  void releaseMem(StreamSink &cmds, ArrayRef<Value> address,
                  uint32_t dataSelect, bool flush, SignalValue data);
  /// The interrupt event's placeholders on `devices`: its mailbox and its
  /// number.
  std::pair<uint32_t, uint32_t> interruptEvent(DevicesAttr devices);
  /// Writes the event's number into its mailbox, then raises the interrupt
  /// carrying it (KFD wakes a sleeping host only for an event whose mailbox
  /// slot was written: kfd_events.c lookup_signaled_event_by_partial_id).
  void raiseInterruptPM4(StreamSink &cmds, DevicesAttr devices);
  /// An SDMA FENCE's MTYPE: uncached on SDMA 6, which has the field.
  uint32_t fenceMType() const {
    return target.isGfx9() ? 0 : sdma::FENCE_MTYPE_UC;
  }
  void raiseInterruptSDMA(StreamSink &cmds, DevicesAttr devices);
  void memoryBarrier(StreamSink &cmds);
  LogicalResult dispatch(LaunchOp launch, DevicesAttr devices,
                         StreamSink &cmds);
  FailureOr<const amd::KernelInfo *> kernelInfo(KernelOp kernel);
  FailureOr<KernelOp> builtinCopyKernel(LaunchOp launch);

  /// What the launches of one kernel in the submit being encoded share,
  /// checked and made at the first (kernelDispatch).
  struct KernelDispatch {
    const amd::KernelInfo *info = nullptr;
    /// The DeferredRefs ids of the kernel's program and, if it uses any,
    /// its scratch memory; TMPRING_SIZE for that scratch.
    uint32_t program = 0;
    std::optional<uint32_t> scratch;
    uint32_t tmpring = 0;
    /// Whether its scratch is more than TMPRING_SIZE describes.
    bool scratchTooBig = false;
  };
  FailureOr<const KernelDispatch *>
  kernelDispatch(LaunchOp launch, KernelOp kernel, DevicesAttr devices);
  /// The words of `launch`'s kernel-argument segment as its hidden
  /// arguments make it (zero elsewhere, the last word zero-padded): the
  /// same for every launch of a kernel and grid, made once.
  FailureOr<ArrayRef<uint32_t>> kernargWords(LaunchOp launch,
                                             const amd::KernelInfo &info);

  /// A copy: the attribute's lookup returns the facts by value.
  const amd::Target target;
  /// Where hcq-lower-submit splits a compute command buffer between
  /// INDIRECT_BUFFER packets: no packet straddles a multiple of it.
  uint32_t indirectBufferDwords;
  SymbolTableCollection symbols;
  /// Each kernel's code object, read once. Held by pointer: KernelDispatch
  /// and kernargWordCache keep pointers to them, which a DenseMap's growth
  /// would move.
  DenseMap<Operation *, std::unique_ptr<amd::KernelInfo>> kernels;
  /// The kernels launched, by name.
  DenseMap<Attribute, KernelOp> kernelsByName;
  /// Each kernel's program, as DeferredRefs names it (made once: a
  /// reference is uniqued in the context, a lock and a hash a launch).
  DenseMap<Operation *, FlatSymbolRefAttr> programNames;
  /// What the submit being encoded names that the pass makes.
  DeferredRefs deferred;
  /// Each kernel's KernelDispatch, and the kernel arguments' DeferredRefs
  /// id, in the submit being encoded (DeferredRefs ids are per submit).
  DenseMap<Operation *, KernelDispatch> submitKernels;
  std::optional<uint32_t> kernargsRef;
  /// kernargWords' words, by kernel and grid.
  DenseMap<std::tuple<const void *, int64_t, int64_t, int64_t, int64_t,
                      int64_t, int64_t>,
           SmallVector<uint32_t>>
      kernargWordCache;
  /// The kernel arguments of the submit being encoded: one stream, a
  /// segment per launch, the submit's indirect stream 0.
  IndirectStream kernargStream{PlaceholderTag::kernargs, 32};
  /// The size per op of the compute and copy queues' command streams and
  /// of the kernel arguments so far. Before any, a guess: a dispatch is
  /// about 60 dwords and 3 symbol entries (a lo/hi pair is one), anything
  /// else at most 16 and 3; a launch's kernel arguments, a few buffer
  /// addresses (a pair each) and scalars.
  StreamSizer computeSizer{{60, 3}, {16, 3}}, copySizer{{60, 3}, {16, 3}},
      kernargSizer{{8, 3}, {0, 0}};
};

template <typename Sink> void Encoder::acquireMem(Sink &cmds, bool full) {
  // `full` invalidates every cache (the barrier); before a dispatch the
  // instruction cache and L2 are left alone, as tinygrad does.
  if (target.isGfx9()) {
    uint32_t coher = pm4::COHER_SH_KCACHE | pm4::COHER_TCL1;
    if (full)
      coher |= pm4::COHER_SH_ICACHE | pm4::COHER_TC | pm4::COHER_TC_WB;
    return pm4::emitAcquireMemGfx9(cmds, coher);
  }
  uint32_t gcr = pm4::GCR_GLM_WB | pm4::GCR_GLM_INV | pm4::GCR_GLK_WB |
                 pm4::GCR_GLK_INV | pm4::GCR_GLV_INV | pm4::GCR_GL1_INV;
  if (full)
    gcr |= pm4::GCR_GLI_INV | pm4::GCR_GL2_INV | pm4::GCR_GL2_WB;
  pm4::emitAcquireMemGfx10(cmds, gcr);
}

void Encoder::releaseMem(StreamSink &cmds, ArrayRef<Value> address,
                         uint32_t dataSelect, bool flush, SignalValue data) {
  uint32_t event = pm4::releaseEvent(pm4::CACHE_FLUSH_AND_INV_TS_EVENT,
                                     pm4::EVENT_INDEX_END_OF_PIPE);
  if (flush)
    event |= target.isGfx9()
                 ? pm4::EOP_TC_WB_ACTION_EN | pm4::EOP_TC_NC_ACTION_EN
                 : pm4::RELEASE_GCR_GLV_INV | pm4::RELEASE_GCR_GL1_INV |
                       pm4::RELEASE_GCR_GL2_INV | pm4::RELEASE_GCR_GLM_WB |
                       pm4::RELEASE_GCR_GLM_INV | pm4::RELEASE_GCR_GL2_WB |
                       pm4::RELEASE_GCR_SEQ;
  pm4::emitReleaseMem(cmds, event,
                      pm4::releaseSelect(dataSelect, pm4::INT_SEL_NONE),
                      Address{address}, data, /*contextId=*/0u);
}

std::pair<uint32_t, uint32_t> Encoder::interruptEvent(DevicesAttr devices) {
  uint32_t mailbox = deferred.signal(PlaceholderTag::event_mailbox, 0, devices);
  uint32_t number =
      deferred.placeholder(PlaceholderTag::interrupt_event, 0, devices, 1);
  return {mailbox, number};
}

void Encoder::raiseInterruptPM4(StreamSink &cmds, DevicesAttr devices) {
  auto [mailbox, number] = interruptEvent(devices);
  // No cache action: the timeline store before it flushed; the interrupt
  // follows the write's confirmation [nvd/s15 RELEASE_MEM INT_SEL 2], and
  // its context id names the event on both families, as the kernel expects
  // [Linux amdkfd event_interrupt_wq_v9 / event_interrupt_wq_v11:
  // CP_END_OF_PIPE -> kfd_signal_event_interrupt(pasid, context_id0, 32)].
  // Not 0 on gfx942, as tinygrad writes on gfx9: event_interrupt_isr_v9
  // drops an end-of-pipe interrupt whose context id is 0 on GC 9.4.1 and
  // later (context_id_expected), so a sleeping host would wake only when
  // its wait timed out (docs/amd-facts.md#interrupt-context-id).
  pm4::emitReleaseMem(
      cmds,
      pm4::releaseEvent(pm4::CACHE_FLUSH_AND_INV_TS_EVENT,
                        pm4::EVENT_INDEX_END_OF_PIPE),
      pm4::releaseSelect(pm4::DATA_SEL_LOW32, pm4::INT_SEL_AFTER_WRITE_CONFIRM),
      Address::of(mailbox), EventNumber{number},
      /*contextId=*/EventNumber{number});
}

void Encoder::raiseInterruptSDMA(StreamSink &cmds, DevicesAttr devices) {
  auto [mailbox, number] = interruptEvent(devices);
  // FENCE into the mailbox, then TRAP with the event in INT_CONTEXT [27:0]
  // [sd6 SDMA_PKT_TRAP; Linux amdkfd kfd_int_process_v11.c SDMA_TRAP ->
  // kfd_signal_event_interrupt(context_id0 & 0xfffffff, 28)].
  sdma::emitFence(cmds, Address::of(mailbox), EventNumber{number},
                  fenceMType());
  sdma::emitTrap(cmds, EventNumber{number});
}

void Encoder::memoryBarrier(StreamSink &cmds) {
  // Wait for the HDP flush (register write-then-poll), then invalidate.
  pm4::emitWaitRegisters(cmds, pm4::WAIT_FUNCTION_GEQ, /*operation=*/1,
                         pm4::HDP_FLUSH_REQ, pm4::HDP_FLUSH_DONE, 0xFFFFFFFF,
                         0xFFFFFFFF);
  acquireMem(cmds, /*full=*/true);
}

FailureOr<const amd::KernelInfo *> Encoder::kernelInfo(KernelOp kernel) {
  auto it = kernels.find(kernel);
  if (it != kernels.end())
    return it->second.get();
  hcq::Expected<amd::KernelInfo> info = amd::readKernel(
      *kernel.getCodeObjectBytes(), kernel.getSymbol().value_or(""));
  if (!info)
    return kernel.emitOpError()
           << "has a bad code object: " << hcq::toString(info.takeError());
  if (info->mach != target.elfMach) {
    // Named, with what to do: compile for the chosen target, or choose the
    // code object's when hcq supports it.
    InFlightDiagnostic diag = kernel.emitOpError()
                              << "has a code object for "
                              << amd::describeMach(info->mach) << ", not "
                              << target.name << ", the schedule's target";
    if (std::optional<amd::Target> built = amd::lookupTargetByMach(info->mach))
      diag << ": compile the schedule for " << built->name
           << " (--hcq-pipeline's target=" << built->name
           << ") or the kernel for " << target.name;
    else
      diag << "; hcq supports " << amd::listTargetNames()
           << ": compile the kernel for one of them";
    return diag;
  }
  if (info->groupSegmentBytes > target.ldsBytes)
    return kernel.emitOpError()
           << "asks for " << info->groupSegmentBytes << " bytes of LDS but "
           << target.name << " has " << target.ldsBytes;
  // The descriptor's kernarg_size is a 32-bit field: every launch's
  // segment is padded to it, so a hostile 4 GiB would be 4 GiB of words
  // per launch. hcq's limit is far above any kernel's (CUDA allows 32,764
  // bytes of parameters).
  if (info->kernargBytes > MAX_KERNARG_BYTES)
    return kernel.emitOpError() << "asks for " << info->kernargBytes
                                << " bytes of kernel arguments, more than the "
                                << MAX_KERNARG_BYTES << " hcq gives a launch";
  return kernels
      .try_emplace(kernel, std::make_unique<amd::KernelInfo>(std::move(*info)))
      .first->second.get();
}

/// The amd kernel `@hcq_copy_<target>` holding the target's builtin copy
/// code object, which hcq-materialize-builtins made beside the schedule
/// (this pass runs on one schedule and adds nothing outside it).
FailureOr<KernelOp> Encoder::builtinCopyKernel(LaunchOp launch) {
  std::string name = getBuiltinCopyKernelName(target.name);
  auto kernel = symbols.lookupNearestSymbolFrom<KernelOp>(
      launch, StringAttr::get(launch.getContext(), name));
  if (!kernel || kernel.getTarget() != KernelTarget::amd)
    return launch.emitOpError()
           << "is a builtin copy on " << target.name << " but there is no amd "
           << "kernel @" << name
           << ": run hcq-materialize-builtins before hcq-encode (hcq-pipeline "
              "does)";
  return kernel;
}

FailureOr<const Encoder::KernelDispatch *>
Encoder::kernelDispatch(LaunchOp launch, KernelOp kernel, DevicesAttr devices) {
  auto it = submitKernels.find(kernel);
  if (it != submitKernels.end())
    return &it->second;
  if (kernel.getTarget() != KernelTarget::amd) {
    InFlightDiagnostic diag = launch.emitOpError()
                              << "runs @" << kernel.getSymName() << ", a "
                              << stringifyKernelTarget(kernel.getTarget())
                              << " kernel: AMD queues run only amd kernels";
    diag.attachNote(kernel.getLoc()) << "kernel declared here";
    return failure();
  }
  FailureOr<const amd::KernelInfo *> found = kernelInfo(kernel);
  if (failed(found))
    return failure();
  KernelDispatch facts;
  facts.info = *found;
  const amd::KernelInfo &info = **found;
  FlatSymbolRefAttr &programName = programNames[kernel];
  if (!programName)
    programName = FlatSymbolRefAttr::get(kernel.getSymNameAttr());
  facts.program = deferred.program(programName, devices, info.image.size());

  // Scratch: WAVESIZE units per wave, for scratchWaves waves (WAVES counts
  // per shader engine on gfx11: Target::scratchShaderEngines).
  unsigned waveLanes = info.wave32 ? 32 : 64;
  uint64_t waveSize = llvm::divideCeil(
      uint64_t(info.privateSegmentBytes) * waveLanes, target.waveSizeUnitBytes);
  if (waveSize >> (target.waveSizeFieldBits)) {
    // Said by dispatch, after the checks that come before it.
    facts.scratchTooBig = true;
  } else if (waveSize) {
    facts.tmpring = pm4::tmpringSize(target.tmpringWaves(),
                                     static_cast<uint32_t>(waveSize));
    int64_t bytes =
        int64_t(waveSize) * target.waveSizeUnitBytes * target.scratchWaves;
    facts.scratch =
        deferred.placeholder(PlaceholderTag::scratch, 0, devices, bytes);
  }
  return &submitKernels.try_emplace(kernel, facts).first->second;
}

FailureOr<ArrayRef<uint32_t>> Encoder::kernargWords(LaunchOp launch,
                                                   const amd::KernelInfo &info) {
  ArrayRef<int64_t> global = launch.getGlobalSize(),
                    local = launch.getLocalSize();
  auto key = std::make_tuple(static_cast<const void *>(&info), global[0],
                             global[1], global[2], local[0], local[1],
                             local[2]);
  auto it = kernargWordCache.find(key);
  if (it != kernargWordCache.end())
    return ArrayRef(it->second);
  FailureOr<std::vector<uint8_t>> hidden = hiddenArguments(launch, info);
  if (failed(hidden))
    return failure();
  // Whole words, the last zero-padded.
  SmallVector<uint32_t> words(llvm::divideCeil(hidden->size(), 4), 0);
  if (!hidden->empty())
    std::memcpy(words.data(), hidden->data(), hidden->size());
  return ArrayRef(
      kernargWordCache.try_emplace(key, std::move(words)).first->second);
}

LogicalResult Encoder::dispatch(LaunchOp launch, DevicesAttr devices,
                                StreamSink &cmds) {
  // A schedule's launches name a few kernels: each is looked up once (a
  // lookup is two hash-table probes, ~250 instructions).
  KernelOp &named = kernelsByName[launch.getKernelAttr()];
  if (!named)
    named = launch.lookupKernel(symbols);
  KernelOp kernel = named;
  // A builtin copy (a copy on an AMD device without a copy queue) runs the
  // target's builtin copy kernel, which takes the element size third, as the
  // CPU device's does.
  std::optional<uint32_t> copyElementBytes;
  if (isBuiltinCopy(kernel)) {
    copyElementBytes = cast<BufferType>(launch.getBuffers().front().getType())
                           .getElementBytes();
    FailureOr<KernelOp> builtin = builtinCopyKernel(launch);
    if (failed(builtin))
      return failure();
    kernel = *builtin;
  }
  // The kernel arguments' reference first, then the kernel's: the order
  // the pass makes them in.
  if (!kernargsRef)
    kernargsRef = deferred.stream(0);
  FailureOr<const KernelDispatch *> facts =
      kernelDispatch(launch, kernel, devices);
  if (failed(facts))
    return failure();
  const amd::KernelInfo &info = *(*facts)->info;

  // The hardware runs no more work-items per workgroup than the kernel was
  // compiled for (its registers and LDS are budgeted for that many).
  // hcq.launch's verifier bounds the sizes (32-bit grid dimensions, at
  // most 1024 work-items per workgroup); the products here are checked all
  // the same, so that no wrapped value passes a limit.
  ArrayRef<int64_t> global = launch.getGlobalSize(),
                    local = launch.getLocalSize();
  // (llvm::MulOverflow, not checkedMul: this runs for every launch, and
  // checkedMul goes through APInt.)
  int64_t workItems = 0;
  if (llvm::MulOverflow(local[0], local[1], workItems) ||
      llvm::MulOverflow(workItems, local[2], workItems))
    return launch.emitOpError()
           << "has a local size [" << local << "] whose product overflows";
  if (info.maxFlatWorkgroupSize && workItems > info.maxFlatWorkgroupSize)
    return launch.emitOpError()
           << "runs " << workItems << " work-items per workgroup, and @"
           << launch.getKernel() << " was compiled for at most "
           << info.maxFlatWorkgroupSize
           << " (.max_flat_workgroup_size in its code object)";

  // Kernel arguments, C-like: each buffer's 64-bit address, then each bound
  // variable as 32 bits, zero-padded to the descriptor's size, with the
  // hidden arguments the kernel reads where its metadata puts them. They are
  // a segment of the submit's one kernel-argument stream.
  uint64_t argsOffset = kernargStream.beginSegment(launch.getLoc());
  CommandStream &kernargs = kernargStream.getWords();
  for (Value buffer : launch.getBuffers())
    kernargs.addressLoHi(buffer);
  for (Value var : launch.getVars()) {
    if (var.getType().getIntOrFloatBitWidth() > 32) {
      kernargs.variable(var, WordPart::lo);
      kernargs.variable(var, WordPart::hi);
    } else {
      kernargs.variable(var);
    }
  }
  if (copyElementBytes)
    kernargs.constant(*copyElementBytes);
  // The hidden arguments' diagnostics come before the explicit ones'.
  FailureOr<ArrayRef<uint32_t>> argumentWords = kernargWords(launch, info);
  if (failed(argumentWords))
    return failure();
  uint64_t explicitBytes = kernargs.segmentSize() * 4;
  if (explicitBytes > info.kernargBytes)
    return launch.emitOpError()
           << "passes " << explicitBytes << " bytes of kernel arguments but @"
           << launch.getKernel() << "'s code object takes "
           << info.kernargBytes;
  for (const amd::KernelInfo::HiddenArgument &arg : info.hiddenArguments)
    if (arg.offset < explicitBytes)
      return launch.emitOpError()
             << "@" << launch.getKernel() << "'s hidden argument " << arg.kind
             << " at byte " << arg.offset
             << " overlaps the explicit arguments hcq passes (" << explicitBytes
             << " bytes)";
  // The stream's words are indexed by int32 (hcq.cmds `segments`): the
  // descriptor's kernarg_size, a 32-bit field, and the dispatch packet must
  // leave the submit's kernel arguments below that.
  uint64_t streamWords = uint64_t(kernargs.size()) - kernargs.segmentSize() +
                         info.kernargBytes / 4 + 1 +
                         (info.dispatchPtr ? 16 : 0);
  if (streamWords > uint64_t(std::numeric_limits<int32_t>::max()))
    return launch.emitOpError()
           << "@" << launch.getKernel() << "'s code object takes "
           << info.kernargBytes
           << " bytes of kernel arguments, more than a submit's "
              "kernel-argument stream can hold";
  // Then the hidden arguments and padding (explicitBytes is whole words).
  kernargs.constants(argumentWords->drop_front(kernargs.segmentSize()));
  uint64_t dispatchPacketOffset = argsOffset + kernargs.segmentSize() * 4;
  if (info.dispatchPtr) {
    // An hsa_kernel_dispatch_packet_t (HSA runtime spec, hsa.h) after the
    // arguments: setup (3 dims), workgroup size (16 bits per dimension),
    // grid size in work-items (32 bits per dimension), and segment sizes;
    // the kernel object and signals are unused.
    uint32_t threads[3];
    for (int d = 0; d < 3; ++d) {
      std::optional<int64_t> n = llvm::checkedMul(global[d], local[d]);
      if (!n || *n > std::numeric_limits<uint32_t>::max() ||
          local[d] > std::numeric_limits<uint16_t>::max())
        return launch.emitOpError()
               << "has a grid of " << global[d] << " x " << local[d]
               << " work-items in dimension "
               << "xyz"[d] << ", but @" << launch.getKernel()
               << " reads the dispatch packet, whose grid_size_"
               << "xyz"[d] << " is 32 bits";
      threads[d] = static_cast<uint32_t>(*n);
    }
    kernargs.constants({3u << 16,
                        static_cast<uint32_t>(local[0] | (local[1] << 16)),
                        static_cast<uint32_t>(local[2]), threads[0], threads[1],
                        threads[2], info.privateSegmentBytes,
                        info.groupSegmentBytes, 0, 0, 0, 0, 0, 0, 0, 0});
  }
  if ((*facts)->scratchTooBig)
    return launch.emitOpError()
           << "needs " << info.privateSegmentBytes
           << " bytes of scratch per lane, more than " << target.name
           << "'s TMPRING_SIZE can describe";
  uint32_t args = *kernargsRef;
  auto scratchAddress = [&](uint32_t shift, uint64_t highBits) {
    return Address::of((*facts)->scratch, 0, shift, highBits);
  };

  PacketBuffer packets;
  acquireMem(packets, /*full=*/false);
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_PGM_LO, 2);
  packets.lowHigh(
      Address::of((*facts)->program, info.entryOffset, /*shift=*/8));
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_PGM_RSRC1, 2);
  // gfx11: PRIV for the trap handler's context save, and the LDS size in
  // 512-byte granules in RSRC2 (tinygrad ops_amd2.py amd_build_program).
  uint32_t ldsGranules = (info.groupSegmentBytes + 511) / 512;
  packets.dword(info.rsrc1 | (target.isGfx9() ? 0 : pm4::RSRC1_PRIV));
  packets.dword(info.rsrc2 | pm4::rsrc2LdsSize(ldsGranules));
  pm4::emitSetShReg(packets, target.rsrc3Register(), 1);
  packets.dword(info.rsrc3);
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_TMPRING_SIZE, 1);
  packets.dword((*facts)->tmpring);
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO, 2);
  packets.lowHigh(scratchAddress(/*shift=*/8, 0));
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_RESTART_X, 3);
  for (int i = 0; i < 3; ++i)
    packets.dword(0);

  // User SGPRs in the order the hardware loads them: the scratch buffer
  // descriptor (base; swizzled, stride 0; all records; word 3 for the
  // target's layout and the kernel's wave size: BufferResource.h), the
  // dispatch packet pointer, the kernel argument pointer.
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_USER_DATA_0,
                    info.userDataCount());
  if (info.privateSegmentBuffer) {
    bool gfx9 = target.isGfx9();
    packets.lowHigh(
        scratchAddress(/*shift=*/0, amd::rsrc::scratchWord1Bits(gfx9)));
    packets.dword(amd::rsrc::SCRATCH_WORD2);
    packets.dword(amd::rsrc::scratchWord3(gfx9, /*wave64=*/!info.wave32));
  }
  if (info.dispatchPtr)
    packets.lowHigh(Address::of(args, dispatchPacketOffset));
  packets.lowHigh(Address::of(args, argsOffset));

  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_RESOURCE_LIMITS, 1);
  packets.dword(0);
  // COMPUTE_START_X/Y/Z, then NUM_THREAD_X/Y/Z, then two reserved (the
  // verifier keeps local sizes within NUM_THREAD_FULL's 16 bits and global
  // sizes within DISPATCH_DIRECT's 32-bit dimensions).
  pm4::emitSetShReg(packets, pm4::reg::COMPUTE_START_X, 8);
  for (uint32_t value : {0u, 0u, 0u, static_cast<uint32_t>(local[0]),
                         static_cast<uint32_t>(local[1]),
                         static_cast<uint32_t>(local[2]), 0u, 0u})
    packets.dword(value);
  uint32_t initiator =
      pm4::INITIATOR_COMPUTE_SHADER_EN | pm4::INITIATOR_FORCE_START_AT_000;
  if (!target.isGfx9() && info.wave32)
    initiator |= pm4::INITIATOR_CS_W32_EN;
  pm4::emitDispatchDirect(packets, static_cast<uint32_t>(global[0]),
                          static_cast<uint32_t>(global[1]),
                          static_cast<uint32_t>(global[2]), initiator);
  pm4::emitEventWrite(packets, pm4::CS_PARTIAL_FLUSH,
                      pm4::EVENT_INDEX_PARTIAL_FLUSH);
  packets.flushTo(cmds);
  return success();
}

/// What `op` took of `cmds` since it had `words` words and `symbolic`
/// symbol entries, noted in `sizer`.
static void recordOp(StreamSizer &sizer, Operation *op, const StreamSink &cmds,
                     size_t words, size_t symbolic) {
  sizer.record(isa<LaunchOp>(op) ? StreamSizer::OpKind::launch
                                 : StreamSizer::OpKind::other,
               1, cmds.stream().size() - words,
               cmds.stream().symbolCount() - symbolic);
}

LogicalResult
Encoder::encodeCompute(SubmitOp submit, ArrayRef<Operation *> ops,
                       StreamSink &cmds, StreamSizer &sizer,
                       function_ref<void(Operation *)> encoded) {
  for (Operation *op : ops) {
    size_t words = cmds.stream().size();
    size_t symbolic = cmds.stream().symbolCount();
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](BarrierOp) {
              memoryBarrier(cmds);
              return success();
            })
            .Case([&](WaitOp wait) {
              pm4::emitWaitMemory(
                  cmds, pm4::WAIT_FUNCTION_GEQ,
                  Address{llvm::to_vector(wait.getSignals())},
                  SignalValue{wait.getValueBuffer(), wait.getValue()},
                  0xFFFFFFFF);
              // gfx9's SDMA engines write memory around the compute L2, and
              // the per-dispatch ACQUIRE_MEM invalidates only K$ and L1:
              // once the waits are done, what they waited for (a copy of
              // another queue or device) is made visible through L2 as the
              // barrier does. gfx11's SDMA goes through GL2.
              if (target.isGfx9() &&
                  !isa_and_nonnull<WaitOp>(wait->getNextNode()))
                acquireMem(cmds, /*full=*/true);
              return success();
            })
            .Case([&](StoreOp store) {
              releaseMem(cmds, llvm::to_vector(store.getSignals()),
                         pm4::DATA_SEL_LOW32, /*flush=*/true,
                         SignalValue{store.getValueBuffer(), store.getValue()});
              if (hostWaitsOn(store))
                raiseInterruptPM4(cmds, submit.getDevices());
              return success();
            })
            .Case([&](TimestampOp ts) {
              releaseMem(cmds, llvm::to_vector(ts.getSlots()),
                         pm4::DATA_SEL_GPU_CLOCK,
                         /*flush=*/false, SignalValue{});
              return success();
            })
            .Case([&](LaunchOp launch) {
              return dispatch(launch, submit.getDevices(), cmds);
            })
            .Default([&](Operation *other) {
              return other->emitOpError()
                     << "cannot be encoded on an AMD COMPUTE queue";
            });
    if (failed(result))
      return failure();
    recordOp(sizer, op, cmds, words, symbolic);
    encoded(op);
  }
  return success();
}

LogicalResult Encoder::encodeCopy(SubmitOp submit, ArrayRef<Operation *> ops,
                                  StreamSink &cmds, StreamSizer &sizer,
                                  function_ref<void(Operation *)> encoded) {
  bool hdpFlushed = false;
  for (Operation *op : ops) {
    size_t words = cmds.stream().size();
    size_t symbolic = cmds.stream().symbolCount();
    LogicalResult result =
        llvm::TypeSwitch<Operation *, LogicalResult>(op)
            .Case([&](BarrierOp) { return success(); })
            .Case([&](CopyOp copy) {
              // Host writes to VRAM through the BAR sit in the HDP until it
              // is flushed. The only VRAM the host writes is a program image
              // (the runtime's DeviceHostWritten placement; its other host
              // memory is GTT, which SDMA reads from system memory without
              // the HDP): a copy out of one flushes first, as the kernel's
              // SDMA rings do before every job (amdgpu_ib_schedule ->
              // sdma_v*_ring_emit_hdp_flush). Copies of anything else need
              // none (docs/amd-facts.md#hdp-flush-on-copy-queues).
              if (!hdpFlushed && copy.getSrc().getDefiningOp<ProgramOp>()) {
                sdma::emitHdpFlush(cmds, pm4::HDP_FLUSH_REQ,
                                   pm4::HDP_FLUSH_DONE, 0xFFFFFFFF);
                hdpFlushed = true;
              }
              uint64_t size = copy.getSrcSize();
              for (uint64_t done = 0; done < size;
                   done += target.copyMaxBytes) {
                uint64_t n = std::min(target.copyMaxBytes, size - done);
                sdma::emitCopyLinear(
                    cmds, static_cast<uint32_t>(n),
                    Address{copy.getSrc(), copy.getSrcOffset() + done},
                    Address{copy.getDst(), copy.getDstOffset() + done});
              }
              return success();
            })
            .Case([&](WaitOp wait) {
              sdma::emitPollMemory(
                  cmds, pm4::WAIT_FUNCTION_GEQ,
                  Address{llvm::to_vector(wait.getSignals())},
                  SignalValue{wait.getValueBuffer(), wait.getValue()},
                  0xFFFFFFFF, /*interval=*/4, /*retry=*/0xFFF);
              return success();
            })
            .Case([&](StoreOp store) {
              sdma::emitFence(
                  cmds, Address{llvm::to_vector(store.getSignals())},
                  SignalValue{store.getValueBuffer(), store.getValue()},
                  fenceMType());
              if (hostWaitsOn(store))
                raiseInterruptSDMA(cmds, submit.getDevices());
              return success();
            })
            .Case([&](TimestampOp ts) {
              sdma::emitTimestamp(cmds,
                                  Address{llvm::to_vector(ts.getSlots())});
              return success();
            })
            .Default([&](Operation *other) {
              return other->emitOpError()
                     << "cannot be encoded on an AMD COPY queue";
            });
    if (failed(result))
      return failure();
    recordOp(sizer, op, cmds, words, symbolic);
    encoded(op);
  }
  return success();
}

FailureOr<EncodedSubmit>
Encoder::encode(SubmitOp submit, ArrayRef<Operation *> ops,
                function_ref<void(Operation *)> encodedOp) {
  size_t launches =
      llvm::count_if(ops, [](Operation *op) { return isa<LaunchOp>(op); });
  QueueKind queue = submit.getQueue().getKind();
  StreamSizer &sizer = queue == QueueKind::COPY ? copySizer : computeSizer;
  auto [count, symbolic] = sizer.estimate(launches, ops.size() - launches);
  CommandStream cmds(32);
  cmds.reserve(count, symbolic);
  if (launches) {
    auto [argWords, argSymbolic] = kernargSizer.estimate(launches, 0);
    // Room for the arguments as hcq-seal lays them out, each launch's
    // segment padded to STREAM_ALIGNMENT: seal then pads them in place,
    // where it copied them into an array four times their size (28 bytes a
    // launch of the bench's kernel, 128 laid out). Pages reserved but not
    // yet written take no memory.
    size_t perLaunch = llvm::divideCeil(argWords, launches);
    size_t laidOut = getPaddedStreamBytes(perLaunch * 4) / 4 * launches;
    kernargStream.reserve(launches, std::max(argWords, laidOut), argSymbolic);
  }
  LogicalResult result = success();
  if (queue == QueueKind::COMPUTE) {
    StreamSink sink(cmds, indirectBufferDwords);
    result = encodeCompute(submit, ops, sink, sizer, encodedOp);
  } else if (queue == QueueKind::COPY) {
    StreamSink sink(cmds, /*splitDwords=*/0);
    result = encodeCopy(submit, ops, sink, sizer, encodedOp);
  } else {
    result = submit.emitOpError("an AMD device has no SUBMIT queue");
  }
  // The next submit starts afresh, whether or not this one is encoded.
  std::optional<EncodedStream> kernargs = kernargStream.finish();
  SmallVector<DeferredRef> refs = deferred.take();
  submitKernels.clear();
  kernargsRef.reset();
  if (failed(result))
    return failure();
  EncodedSubmit encoded;
  encoded.deferred = std::move(refs);
  if (kernargs) {
    kernargSizer.record(StreamSizer::OpKind::launch, launches,
                        kernargs->words.size(), kernargs->words.symbols.size());
    encoded.indirect.push_back(std::move(*kernargs));
  }
  encoded.commands = std::move(cmds).take(PlaceholderTag::cmdbuf);
  return encoded;
}

} // namespace

std::unique_ptr<SubmitEncoder>
hcq::amd::createSubmitEncoder(const amd::Target &target,
                              uint32_t indirectBufferDwords) {
  return std::make_unique<Encoder>(target, indirectBufferDwords);
}
