//===- KFD.h - AMD GPUs through the kernel driver (internal) ----*- C++ -*-===//
//
// The amd-kfd driver: GPUs found in the KFD topology in sysfs, memory and
// user-mode queues made with KFD ioctls on /dev/kfd, the GPU's address
// space acquired through its DRM render node. Struct layouts and ioctl
// numbers are the installed <linux/kfd_ioctl.h> (linux-libc-dev, KFD ABI
// 1.11); the sequence is docs/amd-facts.md. Internal to lib/Runtime.
//
// What the kernel driver keeps per process is kept per process here too:
// /dev/kfd, and per GPU its render-node file, its acquired VM, its interrupt
// event and its doorbell page (Gpu), opened at the first use of the GPU and
// never closed (kfd_ioctl_acquire_vm keeps the first file for the life of
// the KFD process and refuses another with EBUSY).
//
// Everything here is real system calls: CI runs it against the simulated
// kernel driver (test/KFDSim), which answers them at that boundary.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_KFD_H
#define HCQ_LIB_RUNTIME_KFD_H

#include "Queues.h"

#include "HCQ/Base/Error.h"
#include <string_view>

#include <linux/kfd_ioctl.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace hcq::runtime::kfd {

/// Where the KFD topology lives: one folder per node, each with `gpu_id`
/// and `properties` ("name value" lines) [Linux amdkfd kfd_topology.c,
/// node_show].
constexpr const char *TOPOLOGY_NODES =
    "/sys/devices/virtual/kfd/kfd/topology/nodes";

/// KFD allocations are whole pages; the doorbells of a process on one GPU
/// are two pages of /dev/kfd [docs/amd-facts.md#doorbells]; a compute queue's
/// end-of-pipe buffer is one page (tinygrad's and libhsakmt's size).
constexpr uint64_t PAGE_BYTES = 4096, DOORBELL_PAGE_BYTES = 0x2000,
                   EOP_BYTES = 4096;
/// Where in its read pointer's page a compute queue's completion word is
/// (RingMemory::done): the CP writes only the first 4 bytes of the page.
constexpr uint64_t COMPLETION_WORD_OFFSET = 64;
/// The process's event page: one 64-bit mailbox slot per signal event
/// [kfd_ioctl.h KFD_SIGNAL_EVENT_LIMIT; kfd_events.c page_slots].
constexpr uint64_t EVENT_PAGE_BYTES = KFD_SIGNAL_EVENT_LIMIT * 8;

/// What the runtime reads from a GPU node of the topology.
struct GpuNode {
  unsigned node = 0;
  uint32_t gpuId = 0;
  /// major * 10000 + minor * 100 + stepping: 110000 is gfx1100, 90402 is
  /// gfx942 (the minor and stepping print as hex digits).
  uint32_t gfxTargetVersion = 0;
  uint32_t simdCount = 0, simdPerCu = 0, arrayCount = 0,
           simdArraysPerEngine = 0, numXcc = 1, maxWavesPerSimd = 0,
           ldsSizeInKb = 0, drmRenderMinor = 0;
  /// What a compute queue's context save area must hold, as the kernel
  /// computes and publishes it (kfd_queue.c kfd_queue_ctx_save_restore_size;
  /// kfd_topology.c node_show "cwsr_size", "ctl_stack_size"), and checks
  /// at CREATE_QUEUE (kfd_queue_acquire_buffers); 0 where a kernel does not
  /// publish them.
  uint32_t cwsrSize = 0, ctlStackSize = 0;

  /// "gfx1100".
  std::string targetName() const;
  /// Per XCC (an MI300X in SPX mode has 8 XCCs; a CPX partition 1).
  unsigned computeUnits() const;
  unsigned shaderEngines() const;

  /// A compute queue's context-save sizes as kfd_queue_ctx_save_restore_size
  /// computes them from the node's properties.
  struct SaveAreaSizes {
    uint64_t ctlStack = 0, cwsr = 0, debugMemory = 0;
  };
  SaveAreaSizes computeSaveAreaSizes() const;
  /// The sizes a CREATE_QUEUE must give: the published ones where the
  /// kernel publishes them (an error where the formula disagrees with them
  /// would only be ours, so the published ones win and the formula is kept
  /// for the debugger's bytes, which are not published).
  SaveAreaSizes saveAreaSizes() const;
};

/// The GPU nodes under `nodes` (nodes whose gpu_id is 0 are CPUs), in node
/// order: AMD:0 is the first. A node whose files the process may not read
/// (EPERM: a device cgroup hiding the GPU, as containers given one render
/// node have) is skipped, so AMD:N counts the visible GPUs. Any other node
/// that cannot be read is an error naming the file.
Expected<std::vector<GpuNode>>
readTopology(std::string_view nodes = TOPOLOGY_NODES);

class KFDProcess;

/// One GPU opened through KFD, for the whole process: its address space,
/// memory, queues and the event its timeline stores raise (InterruptWait).
class Gpu : public InterruptWait {
public:
  /// AMD:`index`: the index-th visible GPU node of the topology, opened at
  /// the first request and kept for the process's life. Fails, saying why
  /// (Unavailable), without /dev/kfd, without that GPU, or when its target
  /// is not one hcq encodes for; a failure is not kept, so a later request
  /// tries again.
  static Expected<Gpu *> get(unsigned index);
  ~Gpu() override;

  const GpuNode &getNode() const { return node; }
  const std::string &getTargetName() const { return target; }
  /// "AMD:0".
  const std::string &getName() const { return name; }

  /// `bytes` of memory for `placement` at the returned address, the same
  /// for the GPU and the host (GPU VA = CPU VA); zeroed unless it is
  /// Placement::Device, which the host cannot map. VRAM the driver cannot
  /// give (a small BAR, an APU's carve-out) falls back to GTT.
  Expected<uint64_t> allocate(uint64_t bytes,
                              Placement placement = Placement::Host);
  void free(uint64_t address);
  /// Registers the process's own memory [address, address + bytes) (whole
  /// pages) with the GPU as a user pointer at the same GPU address, mapped
  /// on every open GPU, so their queues may read and write it; free()
  /// unregisters it and leaves the memory to its owner.
  Error registerHostPages(uint64_t address, uint64_t bytes);

  /// A user-mode queue of `ringBytes` (PM4 compute, or SDMA) whose ring and
  /// pointers the caller allocated with allocate(); fills in the doorbell.
  Expected<std::unique_ptr<Queue>>
  createQueue(std::string queueName, bool pm4, RingMemory memory,
              std::chrono::milliseconds timeout,
              std::shared_ptr<QueueFlags> flags);

  /// GPU clock ticks (RELEASE_MEM GPU_CLOCK, SDMA TIMESTAMP) as
  /// CLOCK_MONOTONIC nanoseconds.
  uint64_t toHostNs(uint64_t ticks);

  /// The GPU's interrupt event (a KFD signal event): its id, which the
  /// interrupts carry, and its mailbox, the slot of the process's event page
  /// the GPU writes before each (placeholders interrupt_event and
  /// event_mailbox).
  uint32_t getEventId() const { return eventId; }
  uint64_t getEventMailbox() const { return eventMailbox; }
  /// WAIT_EVENTS on the event and on the GPU's memory and hardware
  /// exception events, for at most `slice`. An exception is reported as a
  /// fault of the GPU it names (fault()).
  void sleepUntilInterrupt(std::chrono::milliseconds slice) override;

  /// The GPU faulted (`why`: a page fault with its address, a reset): the
  /// first time, each of its queues reports it as a device fault (every host
  /// wait then stops and every later run fails with it) and is destroyed,
  /// so nothing of them touches memory afterwards. The
  /// queues of other GPUs stop through the process's fault flag.
  void fault(const std::string &why);
  /// The process's GPU whose gpu_id is `gpuId`, if it was opened.
  static Gpu *findOpen(uint32_t gpuId);

private:
  friend class KFDQueue;
  friend class KFDProcess;
  Gpu(KFDProcess &process, GpuNode node, std::string name);
  Error acquire();
  struct Allocation {
    uint64_t address, handle, bytes;
    /// The host's own pages registered as a user pointer: free() leaves
    /// them mapped for the host.
    bool hostPages = false;
    /// The other GPUs of the process it is mapped on too.
    std::vector<uint32_t> peers;
  };
  /// Memory as allocate() makes it, not yet recorded as the GPU's.
  Expected<Allocation>
  allocateUnrecorded(uint64_t bytes, Placement placement = Placement::Host);
  Error mapToGpu(uint64_t handle);
  /// Maps `handle` into `peer`'s address space (this GPU's own, or another
  /// one's, so its queues may copy from and to it: a GPU touching memory
  /// outside its own VM faults).
  Error mapToPeer(uint64_t handle, const Gpu &peer);
  /// Maps this GPU's memory into `peer`, and `peer`'s into this: what a
  /// GPU opening after others needs for copies between them.
  void mapAllTo(Gpu &peer);
  /// The process's other open GPUs.
  std::vector<Gpu *> openPeers();
  Expected<uint64_t> doorbellPage(uint64_t doorbellOffset);
  Error destroyQueue(uint32_t queueId);
  struct ClockSample {
    uint64_t gpu = 0, hostNs = 0;
  };
  Expected<ClockSample> sampleClock();

  KFDProcess &process;
  GpuNode node;
  std::string name, target;
  int renderFd = -1;
  std::mutex mutex;                           // everything below
  std::map<uint64_t, Allocation> allocations; // by address
  uint64_t doorbells = 0, doorbellBase = 0;   // the mapped doorbell page
  ClockSample lastClock;
  double nsPerTick = 10; // from the driver at open
  static constexpr uint32_t NO_EVENT = ~0u;
  uint32_t eventId = NO_EVENT;
  uint64_t eventMailbox = 0;
  /// KFD's memory-exception event (a GPU page fault: kfd_signal_vm_fault_event,
  /// which sends the process SIGSEGV when it has none) and hardware-
  /// exception event (a GPU reset: kfd_signal_hw_exception_event), made
  /// for this GPU's node.
  uint32_t memoryEventId = NO_EVENT, hwExceptionEventId = NO_EVENT;
  /// The queues made on this GPU and not yet destroyed.
  std::vector<Queue *> queues;
  bool faulted = false;
};

/// Ordinary host memory (a CPU device's) that the process's GPUs may reach:
/// KFD lets a GPU touch only memory in its VM, so each range is registered
/// as a user pointer with the first open GPU and mapped on every GPU
/// (tinygrad maps host memory for its GPUs the same way). Ranges added while
/// no GPU is open are registered when the first one opens. Registration is
/// by whole pages; ranges sharing a page share its registration, which
/// lasts until the last of them is removed.
class HostPages {
public:
  static HostPages &get();
  /// [address, address + bytes) is host memory GPUs may be given.
  Error add(uint64_t address, uint64_t bytes);
  /// The range added at `address` is about to be freed.
  void remove(uint64_t address);
  /// A GPU opened: registers what was added before any GPU was.
  Error gpuOpened(Gpu &gpu);
  /// Whether [address, address + bytes) lies in added memory, or no GPU
  /// is open (then nothing needs registering yet).
  bool covers(uint64_t address, uint64_t bytes);

private:
  /// Registers the pages [begin, end) with `gpu`, sharing what is
  /// registered already.
  Error cover(Gpu &gpu, uint64_t begin, uint64_t end);
  /// Drops one user of each registration in [begin, end).
  void uncover(uint64_t begin, uint64_t end);

  std::mutex mutex;                    // everything below
  Gpu *owner = nullptr;                // registers; null: none open
  std::map<uint64_t, uint64_t> ranges; // added: address -> bytes
  struct Registration {
    uint64_t end;
    unsigned users;
  };
  std::map<uint64_t, Registration> registered; // by first page
};

} // namespace hcq::runtime::kfd

#endif // HCQ_LIB_RUNTIME_KFD_H
