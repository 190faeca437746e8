//===- KFD.h - AMD GPUs through the kernel driver (internal) ----*- C++ -*-===//
//
// The hardware AMD device: GPUs found in the KFD topology in sysfs, memory
// and user-mode queues made with KFD ioctls on /dev/kfd, the GPU's address
// space acquired through its DRM render node. Struct layouts and ioctl
// numbers are the installed <linux/kfd_ioctl.h> (linux-libc-dev, KFD ABI
// 1.11); the sequence is AMD-FACTS.md §3a. Internal to lib/Runtime.
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
/// are two pages of /dev/kfd [AMD-FACTS.md §3a]; a compute queue's
/// end-of-pipe buffer is one page (tinygrad's and libhsakmt's size).
constexpr uint64_t PAGE_BYTES = 4096, DOORBELL_PAGE_BYTES = 0x2000,
                   EOP_BYTES = 4096;
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

  /// "gfx1100".
  std::string targetName() const;
  /// Per XCC (an MI300X in SPX mode has 8 XCCs; a CPX partition 1).
  unsigned computeUnits() const;
  unsigned shaderEngines() const;
};

/// The GPU nodes under `nodes` (nodes whose gpu_id is 0 are CPUs), in node
/// order: AMD:0 is the first. A node that cannot be read is an error naming
/// the file.
Expected<std::vector<GpuNode>>
readTopology(std::string_view nodes = TOPOLOGY_NODES);

class Driver;

/// One GPU opened through KFD: its address space, memory, queues and the
/// event its timeline stores raise (InterruptWait).
class Gpu : public InterruptWait {
public:
  /// AMD:`index` (`name`): the index-th GPU node of the topology. Fails at
  /// once, saying why, without /dev/kfd, without that GPU, or when its
  /// target is not one hcq encodes for.
  static Expected<std::unique_ptr<Gpu>> open(unsigned index, std::string name);
  ~Gpu() override;

  const GpuNode &getNode() const { return node; }
  const std::string &getTargetName() const { return target; }

  /// `bytes` of memory for `placement` at the returned address, the same
  /// for the GPU and the host (GPU VA = CPU VA); zeroed unless it is
  /// Placement::Device, which the host cannot map. VRAM the driver cannot
  /// give (a small BAR, an APU's carve-out) falls back to GTT.
  Expected<uint64_t> allocate(uint64_t bytes,
                              Placement placement = Placement::Host);
  void free(uint64_t address);

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
  /// WAIT_EVENTS on the event, for at most `slice`.
  void sleepUntilInterrupt(std::chrono::milliseconds slice) override;

private:
  friend class KFDQueue;
  friend class Driver;
  Gpu(Driver &driver, GpuNode node, std::string name);
  Error acquire();
  struct Allocation {
    uint64_t address, handle, bytes;
  };
  /// Memory as allocate() makes it, not yet recorded as the GPU's.
  Expected<Allocation>
  allocateUnrecorded(uint64_t bytes, Placement placement = Placement::Host);
  Error mapToGpu(uint64_t handle);
  Expected<uint64_t> doorbellPage(uint64_t doorbellOffset);
  Error destroyQueue(uint32_t queueId);
  struct ClockSample {
    uint64_t gpu = 0, hostNs = 0;
  };
  Expected<ClockSample> sampleClock();

  Driver &driver;
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
};

} // namespace hcq::runtime::kfd

#endif // HCQ_LIB_RUNTIME_KFD_H
