//===- KFDSim.cpp - A simulated AMD kernel driver, preloaded --------------===//
//
// Lets the amd-kfd driver (lib/Runtime/Drivers/AMDKFD) run unchanged on a
// machine without an AMD GPU: loaded with LD_PRELOAD, it answers the system
// calls that device makes at the kernel boundary, as the amdgpu/KFD driver
// would, and nothing else:
//   - open/openat of /dev/kfd and /dev/dri/renderD<N>, and reads of the KFD
//     topology (/sys/devices/virtual/kfd/kfd/topology), served from a tree
//     it writes into a temporary folder;
//   - ioctl on /dev/kfd: GET_VERSION, ACQUIRE_VM, ALLOC/FREE_MEMORY_OF_GPU
//     (VRAM, GTT, and USERPTR: the process's own pages, registered),
//     MAP/UNMAP_MEMORY_TO/FROM_GPU, CREATE/DESTROY_QUEUE,
//     GET_CLOCK_COUNTERS, CREATE/DESTROY/WAIT_EVENTS, with the checks the
//     kernel's functions make, each named beside the code that models it
//     (docs/kfd-sim.md lists them); a refused call returns the kernel's
//     errno and logs why to stderr;
//   - ioctl on a render node: AMDGPU_INFO's DEV_INFO (the counter rate);
//   - mmap of the render node at an allocation's offset (its memory; a
//     USERPTR buffer's is refused, as amdgpu_gem_object_mmap does) and of
//     /dev/kfd at the doorbell offset (the doorbell page);
//   - reads of the amdgpu IP-discovery versions under
//     /sys/class/drm/renderD<N>/device/ip_discovery (GC, SDMA0, NBIF).
// Behind each queue a thread plays the GPU: it watches the doorbell, as the
// hardware does (the write pointer alone starts nothing), and runs the
// runtime's emulated command processor (CommandProcessor.h) up to it. The
// doorbell and the write pointer count dwords (PM4) or bytes (SDMA) in 64
// bits and never wrap; the read pointer a PM4 queue's CP reports is a
// 32-bit dword offset into the ring, written when it crosses a
// RPTR_BLOCK_SIZE block; an SDMA queue's is a 64-bit byte count;
// DISPATCH_DIRECT finds the kernel by reading the code object in GPU memory
// and, once its kernel arguments and the buffers they point at are found in
// the GPU's page tables (else a page fault), runs its CPU twin
// (hcq_twin_<kernel> from HCQ_KFD_SIM_TWINS); a register wait is an HDP
// flush on the registers the GPU's IP discovery publishes. A packet
// the command processor cannot execute stops the queue, as a GPU hang does.
// An interrupt the command processor raises signals events as KFD's
// interrupt handler does (kfd_events.c kfd_signal_event_interrupt): the
// event its context id names if that event's mailbox slot was written, else
// every event whose slot was; the counts are hcq_kfd_sim_get_counts'
// (KFDSim.h). Event ids start at 5, as if another library of the process
// had made some, so a runtime that assumes its first event is 0 is caught.
//
// Configuration (environment):
//   HCQ_KFD_SIM_GPUS   the GPUs, in order: "gfx1100,gfx942"; "gfx942x8"
//                      is a gfx942 with 8 XCCs. Unset: everything passes
//                      through to the real system calls.
//   HCQ_KFD_SIM_TWINS  colon-separated shared libraries with the twins
//                      (after those the runtime offers, KFDSim.h).
//   HCQ_KFD_SIM_COUNTER_MHZ  the GPUs' timestamp counter rate (100: what
//                      gfx9 to gfx11 run at), told by AMDGPU_INFO.
//   HCQ_KFD_SIM_EVENT_COUNTS  set: the event counts are printed to stderr
//                      at exit.
//   HCQ_KFD_SIM_RPTR   "packet": a PM4 queue reports its read pointer
//                      after every packet rather than at RPTR_BLOCK_SIZE
//                      granularity (still a wrapped 32-bit dword offset),
//                      for debugging; "lazy": a block's report is written
//                      only when the CP starts a packet past it, so the
//                      block a queue drains in is not reported; "never":
//                      no report at all.
//   HCQ_KFD_SIM_STRICT_COPIES  0: SDMA copies reach any host memory, for
//                      debugging. By default (1) a copy that reads or
//                      writes memory outside the GPU's VM is a page fault
//                      (KFD memory exception events with the page), as on
//                      hardware.
//   HCQ_KFD_SIM_HIDDEN comma-separated topology node indices (1 is the
//                      first GPU) that a device cgroup hides: reading their
//                      gpu_id, name or properties fails with EPERM, and
//                      their render node cannot be opened (EPERM).
//   HCQ_KFD_SIM_NBIF   <major>.<minor>.<revision>[@<hex base>]: the NBIF
//                      version (and register segment 2's base) every GPU's
//                      IP discovery publishes, instead of its part's.
//
// Struct layouts are <linux/kfd_ioctl.h>, as for the device.
//
//===----------------------------------------------------------------------===//

#include "KFDSim.h"
#include "CommandProcessor.h"

#include "HCQ/Target/AMD/CodeObject.h"
#include "HCQ/Target/AMD/Target.h"

#include <libdrm/amdgpu_drm.h>
#include <linux/kfd_ioctl.h>

#include <atomic>
#include <cerrno>
#include <condition_variable>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <fcntl.h>
#include <ftw.h>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <sys/mman.h>
#include <sys/stat.h>
#include <thread>
#include <time.h>
#include <unistd.h>
#include <vector>

using namespace hcq::runtime;

namespace {

//===----------------------------------------------------------------------===//
// The real functions
//===----------------------------------------------------------------------===//

template <typename Fn> Fn lookupReal(const char *name) {
  static_assert(sizeof(Fn) == sizeof(void *));
  void *f = dlsym(RTLD_NEXT, name);
  if (!f) {
    std::fprintf(stderr, "hcq-kfd-sim: no next '%s'\n", name);
    std::abort();
  }
  return reinterpret_cast<Fn>(f);
}
/// The next definition of `name` (libc's), looked up once per function.
#define REAL(type, name)                                                       \
  ([] {                                                                        \
    static type f = lookupReal<type>(name);                                    \
    return f;                                                                  \
  }())
using OpenFn = int (*)(const char *, int, ...);
using OpenatFn = int (*)(int, const char *, int, ...);
using CloseFn = int (*)(int);
using IoctlFn = int (*)(int, unsigned long, ...);
using MmapFn = void *(*)(void *, size_t, int, int, int, off_t);
using OpendirFn = DIR *(*)(const char *);
using ReadFn = ssize_t (*)(int, void *, size_t);
using PreadFn = ssize_t (*)(int, void *, size_t, off_t);

void log(const char *format, ...) {
  va_list args;
  va_start(args, format);
  std::fputs("hcq-kfd-sim: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputc('\n', stderr);
  va_end(args);
}

uint64_t clockNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

constexpr const char *TOPOLOGY = "/sys/devices/virtual/kfd/kfd/topology";
constexpr const char *DRM_CLASS = "/sys/class/drm/";
constexpr uint64_t PAGE = 4096, DOORBELL_PAGE = 0x2000;
/// The kernel's -ENOTSUPP (include/linux/errno.h), which reaches user space
/// as errno 524: set_queue_properties_from_user's answer to an unknown
/// queue type.
constexpr int KERNEL_ENOTSUPP = 524;
/// The dwords a PM4 queue's CP reads before it writes its read pointer
/// report: kfd_mqd_manager_v9.c / _v11.c update_mqd program
/// CP_HQD_PQ_CONTROL.RPTR_BLOCK_SIZE = 5, a field encoded as QUEUE_SIZE is
/// (log2 of the dwords, minus one: update_mqd writes QUEUE_SIZE as
/// ffs(queue_size / 4) - 1 - 1), so 2^6 dwords = 256 bytes.
constexpr uint64_t RPTR_BLOCK_DWORDS = uint64_t(1) << (5 + 1);
/// When a PM4 queue's CP writes its read-pointer report (HCQ_KFD_SIM_RPTR).
enum class RptrReports {
  /// Once it has read past a new RPTR_BLOCK_SIZE boundary (the default).
  Block,
  /// After every packet ("packet").
  Packet,
  /// A boundary only once it starts a packet past it ("lazy"): the block a
  /// queue drains in is reported only when more work comes. The public
  /// sources do not say when the CP writes the last block's report.
  Lazy,
  /// Never ("never"): the report stays 0.
  Never,
};

//===----------------------------------------------------------------------===//
// The process's own pages (USERPTR memory)
//===----------------------------------------------------------------------===//

/// A mapping of the process's address space: one of the kernel's VMAs, as
/// /proc/self/maps lists them.
struct HostArea {
  uint64_t start = 0, end = 0;
  bool read = false, write = false;
  /// Device memory (VM_IO | VM_PFNMAP): the simulated doorbell page, which
  /// the kernel maps from /dev/kfd (kfd_doorbell_mmap).
  bool device = false;
};

/// The process's mappings in address order. Read through libc's own open,
/// read and close: the interposed ones may take the simulator's lock, which
/// the callers hold.
std::vector<HostArea> hostAreas() {
  std::vector<HostArea> areas;
  int fd = REAL(OpenFn, "open")("/proc/self/maps", O_RDONLY | O_CLOEXEC, 0);
  if (fd < 0)
    return areas;
  std::string text;
  char buffer[16384];
  for (ssize_t n; (n = REAL(ReadFn, "read")(fd, buffer, sizeof(buffer))) > 0;)
    text.append(buffer, size_t(n));
  REAL(CloseFn, "close")(fd);
  // "start-end perms offset dev inode   path"
  for (size_t at = 0; at < text.size();) {
    size_t eol = std::min(text.find('\n', at), text.size());
    std::string line = text.substr(at, eol - at);
    at = eol + 1;
    HostArea area;
    char *p = nullptr;
    area.start = std::strtoull(line.c_str(), &p, 16);
    if (*p != '-')
      continue;
    area.end = std::strtoull(p + 1, &p, 16);
    if (*p != ' ' || std::strlen(p) < 5)
      continue;
    area.read = p[1] == 'r';
    area.write = p[2] == 'w';
    area.device = line.find("/memfd:hcq-kfd-doorbells") != std::string::npos;
    areas.push_back(area);
  }
  return areas;
}

/// Whether the GPU may be given the process's pages [address, address +
/// bytes), as amdgpu_ttm_tt_get_user_pages gets them for a USERPTR buffer:
/// 0, or the kernel's errno; `*bad` is then the first address that failed.
///  - vma_lookup of the first address finds no mapping: EFAULT;
///  - amdgpu_hmm_range_get_pages -> hmm_range_fault faults every page in,
///    for writing (KFD registers user pages without
///    AMDGPU_GEM_USERPTR_READONLY, whatever its WRITABLE flag): a hole
///    (hmm_vma_walk_hole with no VMA) and a mapping without read access or
///    of device memory (hmm_vma_walk_test) are EFAULT, a mapping without
///    write access (hmm_vma_fault) is EPERM; the first failure in address
///    order is the answer.
int userPagesError(uint64_t address, uint64_t bytes, uint64_t *bad = nullptr) {
  uint64_t end = address + bytes, at = address;
  int error = 0;
  for (const HostArea &area : hostAreas()) {
    if (at >= end)
      break;
    if (area.end <= at)
      continue;
    if (area.start > at || !area.read || area.device) {
      error = EFAULT;
      break;
    }
    if (!area.write) {
      error = EPERM;
      break;
    }
    at = area.end;
  }
  if (!error && at < end)
    error = EFAULT; // past the last mapping
  if (bad)
    *bad = error ? at : end;
  return error;
}

//===----------------------------------------------------------------------===//
// The simulated driver's state
//===----------------------------------------------------------------------===//

struct SimGpu {
  unsigned index = 0;
  uint32_t gpuId = 0, version = 0, numXcc = 1;
  uint32_t simdCount = 0, simdPerCu = 0, arrayCount = 0, arraysPerEngine = 0,
           wavesPerSimd = 0;
  /// The node's queue buffer sizes, as kfd_queue_ctx_save_restore_size
  /// computes them; topology publishes cwsr_size and ctl_stack_size.
  uint32_t ctlStackSize = 0, cwsrSize = 0, debugMemorySize = 0,
           eopBufferSize = 0;
  /// The render-node file whose VM the process acquired (0: none yet). KFD
  /// keeps a reference to that file until the process ends
  /// (kfd_process_destroy_pdds drops it), so closing it releases nothing.
  uint64_t vmFile = 0;
  bool vmAcquired() const { return vmFile != 0; }
  /// Hidden by a device cgroup (HCQ_KFD_SIM_HIDDEN).
  bool hidden = false;
  int doorbellFd = -1;          // a memfd: the doorbell page
  uint8_t *doorbells = nullptr; // the simulator's own view of it
  uint64_t doorbellOffset = 0;  // where /dev/kfd maps it
  unsigned nextDoorbell = 0;
  std::string target;
  std::atomic<uint64_t> sdmaCopies{0}; // SDMA copies finished
  /// The HDP flush's request and done registers (dword offsets), from the
  /// NBIO version and register base IP discovery publishes for it
  /// (writeIpDiscovery); none where the simulator knows no NBIO offsets.
  std::optional<CommandProcessorHost::HdpFlushRegisters> hdpFlush;
  bool servesIpDiscovery = false;
  uint64_t counterKHz = 100000; // the timestamp counter's rate
  /// The GPU timestamp counter (RELEASE_MEM GPU_CLOCK, SDMA TIMESTAMP).
  uint64_t clock() const {
    return uint64_t(double(clockNs(CLOCK_MONOTONIC_RAW)) * double(counterKHz) /
                    1e6);
  }
};

struct Allocation {
  uint64_t va = 0, size = 0, handle = 0, mmapOffset = 0;
  /// A USERPTR buffer's pages: the process's own, at this address (the
  /// simulator has them at va too); 0 for other buffers.
  uint64_t userAddr = 0;
  SimGpu *gpu = nullptr;
  uint32_t flags = 0; // KFD_IOC_ALLOC_MEM_FLAGS_*
  /// The host maps the memory at va: through the render node, by the
  /// simulator for the GPU's sake, or (USERPTR) as the process's own pages.
  bool cpuMapped = false;
  std::set<uint32_t> mappedOn; // gpu ids
};

class Sim;

/// One user-mode queue and the thread playing the GPU behind it.
class SimQueue : public CommandProcessorHost {
public:
  SimQueue(Sim &sim, SimGpu &gpu, uint32_t id, bool pm4, uint64_t ring,
           uint64_t ringBytes, uint64_t wptr, uint64_t rptr,
           std::atomic<uint64_t> &doorbell, RptrReports rptrReports)
      : sim(sim), gpu(gpu), id(id), pm4(pm4),
        ring(reinterpret_cast<const uint32_t *>(ring)),
        ringDwords(ringBytes / 4),
        wptr(*reinterpret_cast<std::atomic<uint64_t> *>(wptr)),
        rptrAddress(rptr), reports(rptrReports), doorbell(doorbell),
        // A PM4 queue's CP keeps its own count of the dwords it read and
        // reports it (report()); an SDMA queue's writes its 64-bit byte
        // count straight to the read pointer.
        processor(pm4, reinterpret_cast<const uint8_t *>(ring), ringBytes,
                  pm4 ? consumed
                      : *reinterpret_cast<std::atomic<uint64_t> *>(rptr),
                  *this,
                  // The hardware waits for as long as it takes.
                  std::chrono::hours(24)) {
    thread = std::thread([this] { run(); });
  }
  ~SimQueue() override {
    stopping.store(true);
    thread.join();
  }

  const TwinProgram *findProgram(uint64_t entry) override;
  bool abandonWaits() override { return stopping.load(); }
  void waitTimedOut(uint64_t, uint64_t, uint64_t) override {}
  /// The GPU timestamp counter: 100 MHz, as on gfx9 to gfx11.
  uint64_t gpuClock() override { return gpu.clock(); }
  /// gfx11 counts TMPRING_SIZE WAVES per shader engine; gfx9 per device.
  std::optional<ScratchLayout> scratchLayout() override {
    if (gpu.version < 100000)
      return ScratchLayout{1, 1024};
    return ScratchLayout{gpu.arrayCount / gpu.arraysPerEngine, 256};
  }
  bool isGpuMemory(uint64_t address, uint64_t bytes) override;
  void memoryFault(uint64_t address, uint64_t bytes, bool write) override;
  bool checksCopyAddresses() override;
  /// The GPU's, from its IP discovery (SimGpu::hdpFlush); the encoder's
  /// constants for a target the simulator serves no IP discovery for.
  std::optional<HdpFlushRegisters> hdpFlushRegisters() override;
  /// gfx9's SDMA writes memory around the compute L2.
  std::optional<uint64_t> sdmaCopiesAroundL2() override {
    if (gpu.version >= 100000)
      return std::nullopt;
    return gpu.sdmaCopies.load(std::memory_order_acquire);
  }
  void noteSdmaCopy() override {
    gpu.sdmaCopies.fetch_add(1, std::memory_order_release);
  }
  void interrupt(uint32_t context) override;

private:
  /// What the CP has read: dwords (PM4) or bytes (SDMA), never wrapping,
  /// the unit the doorbell counts in.
  uint64_t position() {
    if (pm4)
      return consumed.load(std::memory_order_acquire);
    return reinterpret_cast<std::atomic<uint64_t> *>(rptrAddress)
        ->load(std::memory_order_acquire);
  }

  void run() {
    unsigned idle = 0;
    while (!stopping.load()) {
      uint64_t rung = doorbell.load(std::memory_order_acquire);
      if (dead || rung == position()) {
        // Spin briefly, then back off: a doorbell is a memory write, and
        // nothing here can be told of it.
        if (++idle < 2000)
          std::this_thread::yield();
        else
          std::this_thread::sleep_for(std::chrono::microseconds(50));
        continue;
      }
      idle = 0;
      uint64_t written = wptr.load(std::memory_order_acquire);
      if (written < rung) {
        fault("the doorbell says " + std::to_string(rung) +
              " and the write pointer " + std::to_string(written) +
              ": the write pointer must be stored first");
        continue;
      }
      if (hcq::Error e = pm4 ? runPM4(rung) : processor.execute(rung))
        fault(hcq::toString(std::move(e)));
    }
  }

  /// Runs the PM4 ring up to `rung` one packet at a time, reporting the
  /// read pointer after each as the CP would.
  hcq::Error runPM4(uint64_t rung) {
    while (consumed.load(std::memory_order_relaxed) < rung) {
      uint64_t at = consumed.load(std::memory_order_relaxed);
      uint32_t header =
          __atomic_load_n(&ring[at % ringDwords], __ATOMIC_ACQUIRE);
      uint64_t length = 1; // fillers, and what the CP refuses anyway
      if (header != hcq::amd::pm4::NOP_PAD &&
          hcq::amd::pm4::packetType(header) == 3)
        length = uint64_t(hcq::amd::pm4::packetCount(header)) + 2;
      if (reports == RptrReports::Lazy)
        report(); // what it read before this packet
      // A packet past the doorbell is the CP's error to report.
      if (hcq::Error e = processor.execute(std::min(at + length, rung)))
        return e;
      if (reports != RptrReports::Lazy)
        report();
    }
    return hcq::Error::success();
  }

  /// gfx_v9_0_ring_get_rptr_compute reads the report as a 32-bit value
  /// ("gfx9 hardware is 32bit rptr") and kq_acquire_packet_buffer treats it
  /// as a dword offset into the ring: the CP writes the offset, wrapped at
  /// the ring size, when it has read a whole RPTR_BLOCK_SIZE block past the
  /// last report (every packet with HCQ_KFD_SIM_RPTR=packet; a block only
  /// once the next packet starts with =lazy; never with =never).
  void report() {
    uint64_t at = consumed.load(std::memory_order_relaxed);
    uint64_t value = reports == RptrReports::Packet
                         ? at
                         : at / RPTR_BLOCK_DWORDS * RPTR_BLOCK_DWORDS;
    if (reports == RptrReports::Never || value == reported)
      return;
    reported = value;
    reinterpret_cast<std::atomic<uint32_t> *>(rptrAddress)
        ->store(uint32_t(value % ringDwords), std::memory_order_release);
  }

  void fault(const std::string &what) {
    log("%s GPU 0x%x %s queue %u stops, as a hung GPU queue does: %s",
        gpu.target.c_str(), gpu.gpuId, pm4 ? "compute" : "SDMA", id,
        what.c_str());
    dead = true;
  }

  Sim &sim;
  SimGpu &gpu;
  uint32_t id;
  bool pm4;
  const uint32_t *ring;
  uint64_t ringDwords;
  std::atomic<uint64_t> &wptr;
  uint64_t rptrAddress;
  RptrReports reports;
  std::atomic<uint64_t> &doorbell;
  std::atomic<uint64_t> consumed{0}; // PM4: the dwords read
  uint64_t reported = 0;             // PM4: the last report, unwrapped
  CommandProcessor processor;
  std::atomic<bool> stopping{false};
  bool dead = false;
  std::thread thread;
};

class Sim {
public:
  /// The simulator, or null when HCQ_KFD_SIM_GPUS is unset. Never
  /// destroyed: queue threads may run until the process exits.
  static Sim *get() {
    static Sim *sim = [] {
      const char *gpus = std::getenv("HCQ_KFD_SIM_GPUS");
      Sim *made = gpus && *gpus ? new Sim(gpus) : nullptr;
      constructed.store(made, std::memory_order_release);
      return made;
    }();
    return sim;
  }
  /// The simulator if it exists already (never constructs it): for read(),
  /// which must not start the simulator from inside its own constructor.
  static Sim *ifConstructed() {
    return constructed.load(std::memory_order_acquire);
  }

  /// The path `path` in the simulated tree (KFD topology, or a simulated
  /// render node's IP discovery), or empty.
  std::string redirect(const char *path) {
    if (!path)
      return {};
    size_t n = std::strlen(TOPOLOGY);
    if (std::strncmp(path, TOPOLOGY, n) == 0 &&
        (path[n] == '\0' || path[n] == '/'))
      return root + (path + n);
    n = std::strlen(DRM_CLASS);
    if (std::strncmp(path, DRM_CLASS, n) != 0)
      return {};
    for (const SimGpu &gpu : gpus) {
      std::string device =
          "renderD" + std::to_string(128 + gpu.index) + "/device/ip_discovery";
      if (std::strncmp(path + n, device.c_str(), device.size()) == 0 &&
          (path[n + device.size()] == '\0' || path[n + device.size()] == '/'))
        return root + "/drm/" + (path + n);
    }
    return {};
  }

  /// What open() of `path` gives: a simulated fd, or -2 to pass through.
  int open(const char *path) {
    if (!path)
      return -2;
    std::string p = path;
    if (p == "/dev/kfd")
      return track(Kind::KFD, nullptr);
    const std::string render = "/dev/dri/renderD";
    if (p.rfind(render, 0) == 0) {
      unsigned minor = std::atoi(p.c_str() + render.size());
      for (SimGpu &gpu : gpus)
        if (minor == 128 + gpu.index) {
          // A device cgroup that denies the device denies opening its node
          // (security/device_cgroup.c devcgroup_check_permission: EPERM).
          if (gpu.hidden)
            return refuse(EPERM, "open %s: the device cgroup hides it", path);
          return track(Kind::Render, &gpu);
        }
      errno = ENOENT;
      return -1;
    }
    return openHidden(p);
  }

  /// Forgets a simulated fd; true if `fd` was one.
  bool close(int fd) {
    std::lock_guard<std::mutex> lock(mutex);
    if (hiddenFds.erase(fd))
      hiddenCount.fetch_sub(1, std::memory_order_release);
    return fds.erase(fd) != 0;
  }

  /// Whether reads of `fd` fail with EPERM: a hidden node's attribute.
  bool isHiddenFd(int fd) {
    if (hiddenCount.load(std::memory_order_acquire) == 0)
      return false;
    std::lock_guard<std::mutex> lock(mutex);
    return hiddenFds.count(fd) != 0;
  }

  /// -2 if `fd` is not simulated.
  int ioctl(int fd, unsigned long request, void *args);
  /// MAP_FAILED with errno, or nullptr if `fd` is not simulated.
  void *mmap(void *addr, size_t length, int prot, int flags, int fd,
             off_t offset);

  const TwinProgram *findProgram(SimGpu &gpu, uint64_t entry);
  /// An interrupt from a queue, as KFD's handler takes it.
  void interrupt(uint32_t context);
  /// An interrupt the kernel's top half drops before any lookup.
  void dropInterrupt();
  hcq_kfd_sim_counts getCounts() {
    std::lock_guard<std::mutex> lock(mutex);
    return counts;
  }
  /// The twin of the program entered at `entry`, from its executable's host
  /// object (hcq_simulated_driver::add_twin): used before HCQ_KFD_SIM_TWINS.
  void addTwin(uint64_t entry, hcq_amd_twin twin) {
    std::lock_guard<std::mutex> lock(mutex);
    offeredTwins[entry] = twin;
  }
  /// Whether HCQ_KFD_SIM_TWINS has the twin of `kernel` (or it is the
  /// builtin copy kernel, whose twin is the runtime's), as findProgram
  /// looks for it at a dispatch (hcq_simulated_driver::has_twin).
  bool hasTwin(const std::string &kernel) {
    if (kernel == hcq::amd::BUILTIN_COPY_SYMBOL)
      return true;
    std::lock_guard<std::mutex> lock(mutex);
    for (void *library : twinLibraries)
      if (dlsym(library, ("hcq_twin_" + kernel).c_str()))
        return true;
    return false;
  }
  /// An SDMA copy touching memory outside the GPU's VM is a page fault, as
  /// on hardware, unless HCQ_KFD_SIM_STRICT_COPIES=0.
  bool strictCopies = true;
  bool isGpuMemory(const SimGpu &gpu, uint64_t address, uint64_t bytes) {
    std::lock_guard<std::mutex> lock(mutex);
    if (bytes == 0)
      return reachable(gpu, address, 0) != nullptr;
    return address + bytes >= address &&
           firstUnreachable(gpu, address, bytes) == address + bytes;
  }
  /// A queue of `gpu` touched [address, address + bytes), not all of it
  /// mapped: the GPU's VM fault, as the kernel reports it
  /// (kfd_int_process_v9.c/v11 event_interrupt_wq: kfd_signal_vm_fault_event
  /// with the faulting page): every memory-exception event of the process
  /// is set with {gpu_id, the page's address, NotPresent, and ReadOnly for
  /// a write}, whichever GPU it was created for: the handlers set ReadOnly
  /// from the IH entry's prot_write, the faulting access's direction.
  void vmFault(const SimGpu &gpu, uint64_t address, uint64_t bytes, bool write);

private:
  enum class Kind { KFD, Render };
  struct Fd {
    Kind kind;
    SimGpu *gpu;
    uint64_t file; // the open file, as the kernel's struct file: never reused
  };

  explicit Sim(const char *spec);
  int track(Kind kind, SimGpu *gpu) {
    int fd = memfd_create(kind == Kind::KFD ? "hcq-kfd-sim" : "hcq-kfd-render",
                          MFD_CLOEXEC);
    if (fd < 0)
      return -1;
    std::lock_guard<std::mutex> lock(mutex);
    fds[fd] = {kind, gpu, nextFile++};
    return fd;
  }
  /// kfd_topology.c node_show: a GPU node's gpu_id, name and properties
  /// answer -EPERM when kfd_devcgroup_check_permission denies the GPU. The
  /// open succeeds; the read fails. The fd is the node's folder (so a
  /// reader the read() below cannot see, such as stdio, fails too, with
  /// EISDIR), and read() of it fails with EPERM. -2: not such a file.
  int openHidden(const std::string &path) {
    std::string nodes = std::string(TOPOLOGY) + "/nodes/";
    if (path.rfind(nodes, 0) != 0)
      return -2;
    size_t slash = path.find('/', nodes.size());
    if (slash == std::string::npos)
      return -2;
    std::string node = path.substr(nodes.size(), slash - nodes.size());
    std::string attribute = path.substr(slash + 1);
    if (attribute != "gpu_id" && attribute != "name" &&
        attribute != "properties")
      return -2;
    for (SimGpu &gpu : gpus) {
      if (!gpu.hidden || node != std::to_string(gpu.index + 1))
        continue;
      std::string folder = root + "/nodes/" + node;
      int fd = REAL(OpenFn, "open")(folder.c_str(),
                                    O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
      if (fd < 0)
        return -1;
      std::lock_guard<std::mutex> lock(mutex);
      hiddenFds.insert(fd);
      hiddenCount.fetch_add(1, std::memory_order_release);
      return fd;
    }
    return -2;
  }
  std::optional<Fd> lookup(int fd) {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = fds.find(fd);
    if (it == fds.end())
      return std::nullopt;
    return it->second;
  }
  SimGpu *gpuById(uint32_t id) {
    for (SimGpu &gpu : gpus)
      if (gpu.gpuId == id)
        return &gpu;
    return nullptr;
  }
  /// kfd_queue.c kfd_queue_buffer_get: the GPU VM mapping holding
  /// `address` (amdgpu_vm_bo_lookup_mapping, by GPU page) must start at
  /// that page and, unless `bytes` is under a page, end `bytes` later.
  Allocation *queueBuffer(const SimGpu &gpu, uint64_t address, uint64_t bytes) {
    Allocation *a = mapped(gpu, address & ~(PAGE - 1), 1);
    if (!a || address / PAGE != a->va / PAGE)
      return nullptr;
    uint64_t pages = bytes / PAGE;
    if (pages && address / PAGE + pages - 1 != (a->va + a->size - 1) / PAGE)
      return nullptr;
    return a;
  }
  /// The allocation mapped on `gpu` holding [address, address + bytes):
  /// the mapping in the GPU's VM (amdgpu_vm_bo_lookup_mapping), whether or
  /// not its pages are there.
  Allocation *mapped(const SimGpu &gpu, uint64_t address, uint64_t bytes) {
    auto it = byVa.upper_bound(address);
    if (it == byVa.begin())
      return nullptr;
    Allocation *a = allocations[std::prev(it)->second].get();
    if (address + bytes > a->va + a->size || bytes > a->size ||
        !a->mappedOn.count(gpu.gpuId))
      return nullptr;
    return a;
  }
  /// What a queue of `gpu` reaches at [address, address + bytes): the
  /// allocation mapped on it holding the range, with its pages present. A
  /// USERPTR buffer's pages are the process's. When the process unmaps them
  /// (or leaves them unwritable), the MMU notifier evicts the buffer
  /// (amdgpu_hmm_invalidate_hsa -> amdgpu_amdkfd_evict_userptr: the
  /// process's queues stop) and the restore worker gets the pages again
  /// (amdgpu_amdkfd_restore_userptr_worker -> update_invalid_user_pages).
  /// If they are gone, it takes the -EFAULT as success and clears the GPU's
  /// page-table entries (validate_invalid_user_pages), so a GPU access there
  /// is a VM fault; if new pages are mapped at that address, the GPU gets
  /// those. The simulator looks at the pages at the time of the access,
  /// which is where the kernel ends up once its restore worker has run.
  Allocation *reachable(const SimGpu &gpu, uint64_t address, uint64_t bytes) {
    Allocation *a = mapped(gpu, address, bytes);
    if (a && a->userAddr && userPagesError(address, bytes))
      return nullptr;
    return a;
  }
  /// The first address of [address, address + bytes) a queue of `gpu`
  /// cannot reach, or address + bytes if it reaches all of it. The GPU's
  /// VM translates each page on its own: every mapping writes its own
  /// page-table entries (amdgpu_vm_bo_update -> amdgpu_vm_update_range) and
  /// a fault is for one page (amdgpu_vm_handle_fault), so one access may
  /// span mappings of several buffers that lie end to end. A USERPTR
  /// buffer's pages are looked up together.
  uint64_t firstUnreachable(const SimGpu &gpu, uint64_t address,
                            uint64_t bytes) {
    uint64_t at = address, end = address + bytes;
    while (at < end) {
      Allocation *a = mapped(gpu, at, 1);
      if (!a)
        return at;
      uint64_t stop = std::min(end, a->va + a->size), bad = stop;
      if (a->userAddr && userPagesError(at, stop - at, &bad))
        return bad;
      at = stop;
    }
    return end;
  }
  /// ALLOC_MEMORY_OF_GPU's checks of a USERPTR buffer's pages; -1 with
  /// errno if the kernel refuses them, with `size` the buffer's.
  int checkUserPages(const kfd_ioctl_alloc_memory_of_gpu_args &args,
                     uint64_t &size);
  int refuse(int error, const char *what, ...) {
    va_list args;
    va_start(args, what);
    char text[512];
    std::vsnprintf(text, sizeof(text), what, args);
    va_end(args);
    log("%s", text);
    errno = error;
    return -1;
  }
  void writeTopology();
  void writeIpDiscovery(SimGpu &gpu,
                        const std::function<void(const std::string &,
                                                 const std::string &)> &write);
  int createQueue(kfd_ioctl_create_queue_args &args);
  int createEvent(kfd_ioctl_create_event_args &args);
  int renderIoctl(SimGpu &gpu, unsigned long request, void *args);
  int waitEvents(kfd_ioctl_wait_events_args &args,
                 std::unique_lock<std::mutex> &lock);
  /// The 64-bit mailbox slot of event `id` in the event page.
  std::atomic<uint64_t> &slot(uint32_t id) {
    return reinterpret_cast<std::atomic<uint64_t> *>(eventPage)[id];
  }
  /// The count of `a`'s heap.
  uint64_t &heapBytes(const Allocation &a) {
    if (a.flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT)
      return counts.gttBytes;
    return a.flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC ? counts.publicVramBytes
                                                    : counts.privateVramBytes;
  }
  /// kfd_events.c set_event_from_interrupt: acknowledge the slot, then set
  /// the event (an auto-reset event stays set only if nobody waits).
  void setEvent(uint32_t id);

  static std::atomic<Sim *> constructed;
  std::mutex mutex;        // everything below
  std::deque<SimGpu> gpus; // stays where it is: queues refer to its GPUs
  std::string root;
  std::vector<void *> twinLibraries;
  std::map<int, Fd> fds;
  uint64_t nextFile = 1;
  std::set<int> hiddenFds;
  std::atomic<unsigned> hiddenCount{0};
  RptrReports rptrReports = RptrReports::Block; // HCQ_KFD_SIM_RPTR

  std::map<uint64_t, std::unique_ptr<Allocation>> allocations; // by handle
  std::map<uint64_t, uint64_t> byVa;                           // va -> handle
  uint64_t nextHandle = 1;
  std::map<uint32_t, std::unique_ptr<SimQueue>> queues;
  uint32_t nextQueue = 0;
  std::map<uint64_t, std::unique_ptr<TwinProgram>> programs; // by entry
  std::map<uint64_t, hcq_amd_twin> offeredTwins;             // by entry
  /// The process's event page (kfd_event_page_set) and its signal events.
  uint64_t eventPage = 0, eventPageHandle = 0, eventSlots = 0;
  struct Event {
    uint32_t type = KFD_IOC_EVENT_SIGNAL;
    bool autoReset = true, signaled = false;
    unsigned waiters = 0;
    uint64_t sets = 0; // bumped by every set, for waiters to see
    /// What a memory-exception event reports to WAIT_EVENTS.
    kfd_hsa_memory_exception_data memory{};
  };
  /// Non-signal events (memory, hardware exception) have no slot; their ids
  /// follow the signal events' range (kfd_events.c create_other_event).
  uint32_t nextOtherEventId = KFD_SIGNAL_EVENT_LIMIT;
  std::map<uint32_t, Event> events;
  std::condition_variable eventSet;
  hcq_kfd_sim_counts counts{};
};

std::atomic<Sim *> Sim::constructed{nullptr};

/// UNSIGNALED_EVENT_SLOT [kfd_events.c]; the first id the simulator gives.
constexpr uint64_t UNSIGNALED = ~uint64_t(0);
constexpr uint32_t FIRST_EVENT_ID = 5;

/// kfd_queue.c kfd_queue_ctx_save_restore_size, for the GPU node `gpu`:
/// the control stack and the context save area (work-group state plus
/// control stack) per XCC, the debugger's bytes per XCC and the EOP buffer.
void computeQueueSizes(SimGpu &gpu) {
  uint32_t v = gpu.version;
  if (v < 80001)
    return;
  uint32_t cus = gpu.simdCount / gpu.simdPerCu / gpu.numXcc;
  // Waves a context save holds: 40 per CU capped at 512 per shader
  // engine before gfx10.1 (NAVI10, 100100), 32 per CU since.
  uint32_t waves =
      v < 100100
          ? std::min(cus * 40, gpu.arrayCount / gpu.arraysPerEngine * 512)
          : cus * 32;
  // kfd_get_vgpr_size_per_cu: 512 KiB of VGPRs per CU on the gfx9 parts
  // with accumulation registers, 384 KiB on gfx11.0.0/1 and gfx12, else
  // 256 KiB; then SGPRs (16 KiB), LDS (64 KiB) and hardware registers
  // (4 KiB) per CU.
  uint32_t vgprs = 0x40000;
  if (v == 90402 || v == 90010 || v == 90008 || v == 90500)
    vgprs = 0x80000;
  else if (v == 110000 || v == 110001 || v == 120000 || v == 120001)
    vgprs = 0x60000;
  auto alignPage = [](uint64_t n) { return (n + PAGE - 1) / PAGE * PAGE; };
  uint64_t workGroups =
      alignPage(uint64_t(cus) * (vgprs + 0x4000 + 0x10000 + 0x1000));
  // 8 bytes of control stack per wave before NAVI10, 12 since, plus 8, plus
  // the 40-byte header of the user context save area.
  uint64_t stack = alignPage(40 + uint64_t(waves) * (v >= 100100 ? 12 : 8) + 8);
  if (v / 10000 * 10000 == 100000)
    stack = std::min<uint64_t>(stack, 0x7000); // gfx10's hardware limit
  gpu.ctlStackSize = uint32_t(stack);
  gpu.debugMemorySize = (waves * 32 + 63) / 64 * 64;
  gpu.cwsrSize = uint32_t(stack + workGroups);
  gpu.eopBufferSize = v == 80002 ? 0x8000 : 4096;
}

Sim::Sim(const char *spec) {
  std::string list = spec;
  for (size_t at = 0; at <= list.size();) {
    size_t comma = std::min(list.find(',', at), list.size());
    std::string name = list.substr(at, comma - at);
    at = comma + 1;
    SimGpu &gpu = gpus.emplace_back();
    gpu.index = gpus.size() - 1;
    gpu.gpuId = 0x4a3c + 0x1111 * gpu.index;
    size_t x = name.find('x', 3); // after "gfx"
    if (x != std::string::npos) {
      gpu.numXcc = std::atoi(name.c_str() + x + 1);
      name = name.substr(0, x);
    }
    gpu.target = name;
    // The node properties of each kind of GPU (KFD topology as the driver
    // reports them): CUs = simd_count / simd_per_cu, SEs = array_count /
    // simd_arrays_per_engine, per XCC.
    if (name == "gfx1100" || name == "gfx1101" || name == "gfx1102") {
      // RX 7900 XTX (96 CUs, 6 SEs), 7800 XT (60, 3), 7600 (32, 2).
      unsigned cus = name == "gfx1100" ? 96 : name == "gfx1101" ? 60 : 32;
      unsigned ses = name == "gfx1100" ? 6 : name == "gfx1101" ? 3 : 2;
      gpu.version = 110000 + (name == "gfx1101"   ? 1
                              : name == "gfx1102" ? 2
                                                  : 0);
      gpu.simdPerCu = 2;
      gpu.simdCount = cus * 2;
      gpu.arraysPerEngine = 2;
      gpu.arrayCount = ses * 2;
      gpu.wavesPerSimd = 16;
    } else if (name == "gfx942") {
      // One MI300X XCD (CPX mode): 38 CUs in 4 SEs; SPX has 8 of them.
      gpu.version = 90402;
      gpu.simdPerCu = 4;
      gpu.simdCount = 38 * 4 * gpu.numXcc;
      gpu.arraysPerEngine = 1;
      gpu.arrayCount = 4 * gpu.numXcc;
      gpu.wavesPerSimd = 8;
    } else if (name == "gfx90a") {
      // MI210, a target hcq does not encode for.
      gpu.version = 90010;
      gpu.simdPerCu = 4;
      gpu.simdCount = 104 * 4;
      gpu.arraysPerEngine = 1;
      gpu.arrayCount = 8;
      gpu.wavesPerSimd = 8;
    } else {
      log("HCQ_KFD_SIM_GPUS: unknown GPU '%s'", name.c_str());
      std::exit(2);
    }
    if (const char *mhz = std::getenv("HCQ_KFD_SIM_COUNTER_MHZ"))
      gpu.counterKHz = uint64_t(std::atoi(mhz)) * 1000;
    computeQueueSizes(gpu);
    gpu.doorbellFd = memfd_create("hcq-kfd-doorbells", MFD_CLOEXEC);
    if (gpu.doorbellFd < 0 || ftruncate(gpu.doorbellFd, DOORBELL_PAGE) != 0) {
      log("cannot make a doorbell page: %s", std::strerror(errno));
      std::exit(2);
    }
    gpu.doorbells = static_cast<uint8_t *>(
        REAL(MmapFn, "mmap")(nullptr, DOORBELL_PAGE, PROT_READ | PROT_WRITE,
                             MAP_SHARED, gpu.doorbellFd, 0));
    gpu.doorbellOffset = uint64_t(gpu.index + 1) << 32;
  }
  if (const char *hidden = std::getenv("HCQ_KFD_SIM_HIDDEN")) {
    std::string list = hidden;
    for (size_t at = 0; at < list.size();) {
      size_t comma = std::min(list.find(',', at), list.size());
      unsigned node = std::atoi(list.substr(at, comma - at).c_str());
      at = comma + 1;
      if (node == 0 || node > gpus.size()) {
        log("HCQ_KFD_SIM_HIDDEN: node %u is not a simulated GPU", node);
        std::exit(2);
      }
      gpus[node - 1].hidden = true;
    }
  }
  if (const char *strict = std::getenv("HCQ_KFD_SIM_STRICT_COPIES"))
    strictCopies = std::strcmp(strict, "0") != 0;
  if (const char *rptr = std::getenv("HCQ_KFD_SIM_RPTR")) {
    if (std::strcmp(rptr, "packet") == 0)
      rptrReports = RptrReports::Packet;
    else if (std::strcmp(rptr, "lazy") == 0)
      rptrReports = RptrReports::Lazy;
    else if (std::strcmp(rptr, "never") == 0)
      rptrReports = RptrReports::Never;
  }
  if (const char *twins = std::getenv("HCQ_KFD_SIM_TWINS")) {
    std::string paths = twins;
    for (size_t at = 0; at < paths.size();) {
      size_t colon = std::min(paths.find(':', at), paths.size());
      std::string path = paths.substr(at, colon - at);
      at = colon + 1;
      if (path.empty())
        continue;
      void *library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
      if (!library) {
        log("HCQ_KFD_SIM_TWINS: %s", dlerror());
        std::exit(2);
      }
      twinLibraries.push_back(library);
    }
  }
  writeTopology();
  if (std::getenv("HCQ_KFD_SIM_EVENT_COUNTS"))
    std::atexit([] {
      hcq_kfd_sim_counts c = Sim::get()->getCounts();
      log("%llu interrupts (%llu by id, %llu searched, %llu signaled "
          "nothing); %llu event waits (%llu woken, %llu timed out)",
          (unsigned long long)c.interrupts, (unsigned long long)c.byId,
          (unsigned long long)c.searches, (unsigned long long)c.signaledNothing,
          (unsigned long long)c.waits, (unsigned long long)c.woken,
          (unsigned long long)c.timedOut);
    });
}

void Sim::writeTopology() {
  char folder[] = "/tmp/hcq-kfd-sim.XXXXXX";
  if (!mkdtemp(folder)) {
    log("cannot make the topology folder: %s", std::strerror(errno));
    std::exit(2);
  }
  root = folder;
  static std::string removeAtExit = root;
  std::atexit([] {
    nftw(
        removeAtExit.c_str(),
        [](const char *path, const struct stat *, int, FTW *) {
          return ::remove(path);
        },
        8, FTW_DEPTH | FTW_PHYS);
  });
  std::function<void(const std::string &, const std::string &)> write =
      [](const std::string &path, const std::string &text) {
        FILE *f = std::fopen(path.c_str(), "w");
        if (!f) {
          log("cannot write %s", path.c_str());
          std::exit(2);
        }
        std::fputs(text.c_str(), f);
        std::fclose(f);
      };
  std::string nodes = root + "/nodes";
  ::mkdir(nodes.c_str(), 0755);
  // Node 0 is the CPU (gpu_id 0), as on a real machine.
  ::mkdir((nodes + "/0").c_str(), 0755);
  write(nodes + "/0/gpu_id", "0\n");
  write(nodes + "/0/properties", "cpu_cores_count 2\nsimd_count 0\n");
  for (SimGpu &gpu : gpus) {
    std::string node = nodes + "/" + std::to_string(gpu.index + 1);
    ::mkdir(node.c_str(), 0755);
    write(node + "/gpu_id", std::to_string(gpu.gpuId) + "\n");
    std::string p;
    auto prop = [&](const char *name, uint64_t value) {
      p += std::string(name) + " " + std::to_string(value) + "\n";
    };
    prop("cpu_cores_count", 0);
    prop("simd_count", gpu.simdCount);
    prop("lds_size_in_kb", 64);
    prop("gfx_target_version", gpu.version);
    prop("simd_arrays_per_engine", gpu.arraysPerEngine);
    prop("array_count", gpu.arrayCount);
    prop("simd_per_cu", gpu.simdPerCu);
    prop("max_waves_per_simd", gpu.wavesPerSimd);
    prop("max_slots_scratch_cu", 32);
    prop("drm_render_minor", 128 + gpu.index);
    prop("num_xcc", gpu.numXcc);
    // kfd_topology.c node_show prints these two of the node's queue sizes
    // (not the EOP buffer's or the debugger's).
    prop("cwsr_size", gpu.cwsrSize);
    prop("ctl_stack_size", gpu.ctlStackSize);
    write(node + "/properties", p);
    writeIpDiscovery(gpu, write);
  }
}

/// amdgpu_discovery.c amdgpu_discovery_sysfs_ips: the render node's device
/// has ip_discovery/die/<die>/<hw id>/<instance>/ holding hw_id,
/// num_instance, major, minor and revision (and harvest and base
/// addresses, not simulated), plus a link named for the hw id
/// (hw_id_names: "NBIF" for NBIF_HWID 108) to its folder.
void Sim::writeIpDiscovery(
    SimGpu &gpu,
    const std::function<void(const std::string &, const std::string &)>
        &write) {
  struct Ip {
    const char *name;
    unsigned hwId, major, minor, revision;
  };
  // hw ids from soc15_hw_ip.h (GC_HWID 11, SDMA0_HWID 42, NBIF_HWID 108).
  // The versions are each part's IP-discovery table: gfx1100 (Navi31) has
  // GC 11.0.0, SDMA 6.0.0 and NBIO 4.3.0 (the soc21 parts, driven by
  // nbio_v4_3.c; tinygrad's test/mockgpu/amd/amddriver.py serves the same
  // for its gfx1100); gfx942 (MI300) has GC 9.4.3, SDMA 4.4.2 and NBIO 7.9.0
  // (gfx_v9_4_3.c, sdma_v4_4_2.c, nbio_v7_9.c, chosen by
  // amdgpu_discovery_set_ip_blocks).
  std::vector<Ip> ips;
  // HCQ_KFD_SIM_NBIF=<major>.<minor>.<revision>[@<segment 2 base>]: another
  // NBIO than the part's, as a GPU hcq does not know would publish.
  unsigned nbif[3] = {0, 0, 0};
  uint32_t nbifSegment2 = 0;
  bool nbifOverride = false;
  if (const char *env = std::getenv("HCQ_KFD_SIM_NBIF"))
    nbifOverride = std::sscanf(env, "%u.%u.%u@%x", &nbif[0], &nbif[1], &nbif[2],
                               &nbifSegment2) >= 3;
  if (gpu.target == "gfx1100")
    ips = {
        {"GC", 11, 11, 0, 0}, {"SDMA0", 42, 6, 0, 0}, {"NBIF", 108, 4, 3, 0}};
  else if (gpu.target == "gfx942")
    ips = {{"GC", 11, 9, 4, 3}, {"SDMA0", 42, 4, 4, 2}, {"NBIF", 108, 7, 9, 0}};
  else
    return; // the simulator does not know the others' tables
  gpu.servesIpDiscovery = true;
  if (nbifOverride)
    ips.back() = {"NBIF", 108, nbif[0], nbif[1], nbif[2]};
  std::string die = root;
  for (const std::string &part :
       {std::string("drm"), "renderD" + std::to_string(128 + gpu.index),
        std::string("device"), std::string("ip_discovery"), std::string("die"),
        std::string("0")}) {
    die += "/" + part;
    ::mkdir(die.c_str(), 0755);
  }
  for (const Ip &ip : ips) {
    std::string id = die + "/" + std::to_string(ip.hwId);
    std::string instance = id + "/0";
    ::mkdir(id.c_str(), 0755);
    ::mkdir(instance.c_str(), 0755);
    write(instance + "/hw_id", std::to_string(ip.hwId) + "\n");
    write(instance + "/num_instance", "0\n");
    write(instance + "/major", std::to_string(ip.major) + "\n");
    write(instance + "/minor", std::to_string(ip.minor) + "\n");
    write(instance + "/revision", std::to_string(ip.revision) + "\n");
    // base_addr_show: one "0x%08X" line per register segment. Only NBIF's
    // are served (the runtime reads nothing else): sienna_cichlid_ip_offset.h
    // and vega20_ip_offset.h give NBIO the same segments, and IP discovery
    // is where a part's own come from (an unverified reading for Navi31
    // and MI300: docs/amd-facts.md#unverified).
    if (ip.hwId == 108) {
      uint32_t segments[] = {0x0, 0x14, 0xD20, 0x10400, 0x241B000, 0x4040000};
      if (nbifSegment2)
        segments[2] = nbifSegment2;
      std::string lines;
      for (uint32_t base : segments) {
        char line[16];
        std::snprintf(line, sizeof(line), "0x%08X\n", base);
        lines += line;
      }
      write(instance + "/base_addr", lines);
      // Where the GPU's CP and SDMA engines find the HDP flush registers:
      // nbio_v4_3_get_hdp_flush_req_offset / _done_offset (nbio_v4_3.c)
      // and nbio_v7_9_get_hdp_flush_req_offset / _done_offset (nbio_v7_9.c)
      // return SOC15_REG_OFFSET(NBIO, 0, regBIF_BX_PF0_GPU_HDP_FLUSH_REQ /
      // _DONE): register 0x106 / 0x107 of segment 2 (BASE_IDX 2) in the
      // nbio_4_3_0 and nbio_7_9_0 offset headers, from the base IP
      // discovery publishes. For any other NBIO the simulator knows no
      // offsets, and its CP refuses every register wait.
      if ((ip.major == 4 && ip.minor == 3) || (ip.major == 7 && ip.minor == 9))
        gpu.hdpFlush = CommandProcessorHost::HdpFlushRegisters{
            segments[2] + 0x106, segments[2] + 0x107};
    }
    if (::symlink(std::to_string(ip.hwId).c_str(),
                  (die + "/" + ip.name).c_str()) != 0) {
      log("cannot link %s/%s", die.c_str(), ip.name);
      std::exit(2);
    }
  }
}

//===----------------------------------------------------------------------===//
// ioctls
//===----------------------------------------------------------------------===//

int Sim::ioctl(int fd, unsigned long request, void *argp) {
  std::optional<Fd> file = lookup(fd);
  if (!file)
    return -2;
  if (file->kind == Kind::Render)
    return renderIoctl(*file->gpu, request, argp);
  std::unique_lock<std::mutex> lock(mutex);
  switch (request) {
  case AMDKFD_IOC_GET_VERSION: {
    auto &args = *static_cast<kfd_ioctl_get_version_args *>(argp);
    args.major_version = KFD_IOCTL_MAJOR_VERSION;
    args.minor_version = KFD_IOCTL_MINOR_VERSION;
    return 0;
  }
  case AMDKFD_IOC_ACQUIRE_VM: {
    auto &args = *static_cast<kfd_ioctl_acquire_vm_args *>(argp);
    SimGpu *gpu = gpuById(args.gpu_id);
    auto render = fds.find(int(args.drm_fd));
    if (!gpu || render == fds.end() || render->second.kind != Kind::Render ||
        render->second.gpu != gpu)
      return refuse(EINVAL, "ACQUIRE_VM: fd %u is not gpu 0x%x's render node",
                    args.drm_fd, args.gpu_id);
    // kfd_ioctl_acquire_vm: once a GPU's VM is acquired, the same file
    // again is a no-op and any other file is EBUSY. The process keeps its
    // reference to that file (pdd->drm_file) until it ends: closing the fd
    // frees nothing, and a new open of the node is another file.
    if (gpu->vmAcquired() && gpu->vmFile != render->second.file)
      return refuse(EBUSY,
                    "ACQUIRE_VM: gpu 0x%x's VM was acquired through another "
                    "render-node file (the kernel keeps that file until the "
                    "process exits)",
                    args.gpu_id);
    gpu->vmFile = render->second.file;
    return 0;
  }
  case AMDKFD_IOC_ALLOC_MEMORY_OF_GPU: {
    auto &args = *static_cast<kfd_ioctl_alloc_memory_of_gpu_args *>(argp);
    SimGpu *gpu = gpuById(args.gpu_id);
    if (!gpu || !gpu->vmAcquired())
      return refuse(EINVAL, "ALLOC_MEMORY_OF_GPU: gpu 0x%x has no VM",
                    args.gpu_id);
    uint32_t kind =
        args.flags &
        (KFD_IOC_ALLOC_MEM_FLAGS_VRAM | KFD_IOC_ALLOC_MEM_FLAGS_GTT |
         KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_DOORBELL |
         KFD_IOC_ALLOC_MEM_FLAGS_MMIO_REMAP);
    bool userptr = kind == KFD_IOC_ALLOC_MEM_FLAGS_USERPTR;
    if (kind != KFD_IOC_ALLOC_MEM_FLAGS_VRAM &&
        kind != KFD_IOC_ALLOC_MEM_FLAGS_GTT && !userptr)
      return refuse(EINVAL,
                    "ALLOC_MEMORY_OF_GPU: flags 0x%x (the simulator "
                    "has VRAM, GTT and USERPTR)",
                    args.flags);
    uint64_t size = args.size;
    if (userptr) {
      if (checkUserPages(args, size))
        return -1;
    } else if (!args.size || args.size % PAGE || !args.va_addr ||
               args.va_addr % PAGE) {
      return refuse(EINVAL, "ALLOC_MEMORY_OF_GPU: 0x%llx bytes at 0x%llx",
                    (unsigned long long)args.size,
                    (unsigned long long)args.va_addr);
    }
    auto next = byVa.lower_bound(args.va_addr);
    if ((next != byVa.end() && next->first < args.va_addr + size) ||
        (next != byVa.begin() && [&] {
          Allocation &before = *allocations[std::prev(next)->second];
          return before.va + before.size > args.va_addr;
        }()))
      return refuse(EINVAL, "ALLOC_MEMORY_OF_GPU: 0x%llx overlaps memory",
                    (unsigned long long)args.va_addr);
    auto a = std::make_unique<Allocation>();
    a->va = args.va_addr;
    a->size = size;
    a->gpu = gpu;
    a->flags = args.flags;
    if (userptr) {
      // The process's own pages, already mapped by the host: nothing is
      // allocated, and nothing may ever be mapped over them.
      a->userAddr = args.mmap_offset;
      a->cpuMapped = true;
    } else {
      heapBytes(*a) += a->size;
    }
    a->handle = (uint64_t(gpu->gpuId) << 32) | nextHandle++;
    // Where the render node maps it. amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu
    // answers every buffer's amdgpu_bo_mmap_offset, a USERPTR's too (whose
    // mmap amdgpu_gem_object_mmap refuses).
    a->mmapOffset = nextHandle << 24;
    args.handle = a->handle;
    args.mmap_offset = a->mmapOffset;
    byVa[a->va] = a->handle;
    allocations[a->handle] = std::move(a);
    return 0;
  }
  case AMDKFD_IOC_FREE_MEMORY_OF_GPU: {
    auto &args = *static_cast<kfd_ioctl_free_memory_of_gpu_args *>(argp);
    auto it = allocations.find(args.handle);
    if (it == allocations.end())
      return refuse(EINVAL, "FREE_MEMORY_OF_GPU: no handle 0x%llx",
                    (unsigned long long)args.handle);
    // amdgpu_amdkfd_gpuvm_free_memory_of_gpu: still mapped is EBUSY.
    if (!it->second->mappedOn.empty())
      return refuse(EBUSY, "FREE_MEMORY_OF_GPU: 0x%llx is still mapped",
                    (unsigned long long)it->second->va);
    // kfd_ioctl_free_memory_of_gpu: "Free signal BO is not allowed".
    if (args.handle == eventPageHandle)
      return refuse(EPERM, "FREE_MEMORY_OF_GPU: 0x%llx is the event page",
                    (unsigned long long)it->second->va);
    Allocation &a = *it->second;
    if (!a.userAddr)
      heapBytes(a) -= a.size;
    for (auto p = programs.lower_bound(a.va);
         p != programs.end() && p->first < a.va + a.size;)
      p = programs.erase(p);
    offeredTwins.erase(offeredTwins.lower_bound(a.va),
                       offeredTwins.lower_bound(a.va + a.size));
    byVa.erase(a.va);
    allocations.erase(it);
    return 0;
  }
  case AMDKFD_IOC_MAP_MEMORY_TO_GPU:
  case AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU: {
    bool map = request == AMDKFD_IOC_MAP_MEMORY_TO_GPU;
    auto &args = *static_cast<kfd_ioctl_map_memory_to_gpu_args *>(argp);
    auto it = allocations.find(args.handle);
    if (it == allocations.end())
      return refuse(EINVAL, "%s: no handle 0x%llx", map ? "MAP" : "UNMAP",
                    (unsigned long long)args.handle);
    Allocation &a = *it->second;
    const auto *ids =
        reinterpret_cast<const uint32_t *>(args.device_ids_array_ptr);
    for (uint32_t i = args.n_success; i < args.n_devices; ++i) {
      SimGpu *gpu = gpuById(ids[i]);
      if (!gpu || !gpu->vmAcquired())
        return refuse(EINVAL, "%s: gpu 0x%x has no VM", map ? "MAP" : "UNMAP",
                      ids[i]);
      if (map) {
        // kfd_mem_attach: on its own GPU a buffer is shared
        // (KFD_MEM_ATT_SHARED); a USERPTR buffer goes to any other GPU of
        // the process as a DMA mapping of the same user pages
        // (KFD_MEM_ATT_USERPTR, kfd_mem_dmamap_userptr), with no
        // peer-access check (that is for VRAM, doorbells and MMIO).
        a.mappedOn.insert(gpu->gpuId);
        // Memory the host never mapped still exists for the GPU. A USERPTR
        // buffer's pages are the process's: never mapped over.
        if (!a.userAddr && !a.cpuMapped &&
            REAL(MmapFn, "mmap")(
                reinterpret_cast<void *>(a.va), a.size, PROT_READ | PROT_WRITE,
                MAP_FIXED | MAP_SHARED | MAP_ANONYMOUS, -1, 0) != MAP_FAILED)
          a.cpuMapped = true;
      } else if (!a.mappedOn.erase(gpu->gpuId)) {
        return refuse(EINVAL, "UNMAP: 0x%llx is not mapped on gpu 0x%x",
                      (unsigned long long)a.va, gpu->gpuId);
      }
      args.n_success = i + 1;
    }
    return 0;
  }
  case AMDKFD_IOC_CREATE_QUEUE:
    return createQueue(*static_cast<kfd_ioctl_create_queue_args *>(argp));
  case AMDKFD_IOC_DESTROY_QUEUE: {
    auto &args = *static_cast<kfd_ioctl_destroy_queue_args *>(argp);
    auto it = queues.find(args.queue_id);
    if (it == queues.end())
      return refuse(EINVAL, "DESTROY_QUEUE: no queue %u", args.queue_id);
    std::unique_ptr<SimQueue> queue = std::move(it->second);
    queues.erase(it);
    lock.unlock(); // its thread may be looking up a program
    queue.reset();
    return 0;
  }
  case AMDKFD_IOC_GET_CLOCK_COUNTERS: {
    auto &args = *static_cast<kfd_ioctl_get_clock_counters_args *>(argp);
    if (!gpuById(args.gpu_id))
      return refuse(EINVAL, "GET_CLOCK_COUNTERS: no gpu 0x%x", args.gpu_id);
    // As kfd_ioctl_get_clock_counters: the GPU's counter, the raw
    // monotonic and boot-time clocks in ns.
    args.gpu_clock_counter = gpuById(args.gpu_id)->clock();
    args.cpu_clock_counter = clockNs(CLOCK_MONOTONIC_RAW);
    args.system_clock_counter = clockNs(CLOCK_BOOTTIME);
    args.system_clock_freq = 1000000000;
    return 0;
  }
  case AMDKFD_IOC_CREATE_EVENT:
    return createEvent(*static_cast<kfd_ioctl_create_event_args *>(argp));
  case AMDKFD_IOC_DESTROY_EVENT: {
    auto &args = *static_cast<kfd_ioctl_destroy_event_args *>(argp);
    if (!events.erase(args.event_id))
      return refuse(EINVAL, "DESTROY_EVENT: no event %u", args.event_id);
    eventSet.notify_all(); // its waiters fail
    return 0;
  }
  case AMDKFD_IOC_WAIT_EVENTS:
    return waitEvents(*static_cast<kfd_ioctl_wait_events_args *>(argp), lock);
  default:
    return refuse(ENOTTY, "ioctl 0x%lx on /dev/kfd: not simulated", request);
  }
}

int Sim::checkUserPages(const kfd_ioctl_alloc_memory_of_gpu_args &args,
                        uint64_t &size) {
  uint64_t address = args.mmap_offset;
  // kfd_ioctl_alloc_memory_of_gpu: size 0 is EINVAL.
  if (!args.size)
    return refuse(EINVAL, "ALLOC_MEMORY_OF_GPU: USERPTR of 0 bytes");
  // ROCm's amdgpu driver (kfd_ioctl_alloc_memory_of_gpu in ROCm/amdgpu):
  // "Unaligned userptr address" is EINVAL. Mainline takes it and maps the
  // page holding it at va_addr, the offset in the page lost.
  if (address % PAGE)
    return refuse(EINVAL,
                  "ALLOC_MEMORY_OF_GPU: USERPTR address 0x%llx is not page "
                  "aligned",
                  (unsigned long long)address);
  // amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu: the user address comes in
  // mmap_offset; "if (!offset || !*offset) return -EINVAL".
  if (!address)
    return refuse(EINVAL, "ALLOC_MEMORY_OF_GPU: USERPTR with no user "
                          "address (mmap_offset is 0)");
  // The buffer is PAGE_ALIGN(size) bytes (amdgpu_amdkfd_gpuvm_alloc_memory_
  // of_gpu); amdgpu_amdkfd_reserve_mem_limit refuses more system memory
  // than there is (ENOMEM), as a range past the address space would be.
  if (args.size > ~uint64_t(0) - PAGE + 1 ||
      address > ~uint64_t(0) - ((args.size + PAGE - 1) & ~(PAGE - 1)))
    return refuse(ENOMEM, "ALLOC_MEMORY_OF_GPU: USERPTR of 0x%llx bytes",
                  (unsigned long long)args.size);
  size = (args.size + PAGE - 1) & ~(PAGE - 1);
  // A GPU buffer's host range is a render-node (or doorbell) mapping,
  // VM_IO | VM_PFNMAP, or no memory of the host's at all: mainline's
  // hmm_range_fault (hmm_vma_walk_test) answers EFAULT. ROCm's driver
  // instead registers a VM_IO address as a DOORBELL buffer of its first
  // page (kfd_ioctl_alloc_memory_of_gpu: find_vma, follow_pfn), which the
  // simulator does not model.
  for (auto &[handle, other] : allocations)
    if (!other->userAddr && other->va < address + size &&
        address < other->va + other->size)
      return refuse(EFAULT,
                    "ALLOC_MEMORY_OF_GPU: USERPTR 0x%llx reaches GPU buffer "
                    "0x%llx, a VM_IO mapping hmm_range_fault cannot take "
                    "(ROCm's driver would make it a DOORBELL buffer: not "
                    "simulated)",
                    (unsigned long long)address, (unsigned long long)other->va);
  // init_user_pages -> amdgpu_ttm_tt_get_user_pages: the pages must be the
  // process's, readable and writable (userPagesError).
  uint64_t bad = 0;
  if (int error = userPagesError(address, size, &bad))
    return refuse(error,
                  "ALLOC_MEMORY_OF_GPU: USERPTR [0x%llx, 0x%llx): the page "
                  "at 0x%llx is %s",
                  (unsigned long long)address,
                  (unsigned long long)(address + size), (unsigned long long)bad,
                  error == EPERM ? "not writable"
                                 : "not mapped, not readable, or a device's");
  // The kernel maps the pages at any va_addr (user space usually passes
  // the same address); the simulated GPUs reach memory at its host
  // address, so they cannot see user pages elsewhere.
  if (args.va_addr != address)
    return refuse(EINVAL,
                  "ALLOC_MEMORY_OF_GPU: USERPTR 0x%llx at GPU address "
                  "0x%llx: a GPU address other than the host's is not "
                  "simulated",
                  (unsigned long long)address,
                  (unsigned long long)args.va_addr);
  return 0;
}

int Sim::renderIoctl(SimGpu &gpu, unsigned long request, void *argp) {
  // amdgpu_info_ioctl: AMDGPU_INFO_DEV_INFO copies at most return_size
  // bytes of drm_amdgpu_info_device.
  if (request != DRM_IOCTL_AMDGPU_INFO)
    return refuse(ENOTTY, "ioctl 0x%lx on a render node: not simulated",
                  request);
  auto &args = *static_cast<drm_amdgpu_info *>(argp);
  if (args.query != AMDGPU_INFO_DEV_INFO)
    return refuse(EINVAL, "AMDGPU_INFO query 0x%x: not simulated", args.query);
  drm_amdgpu_info_device info{};
  info.num_shader_engines = gpu.arrayCount / gpu.arraysPerEngine;
  info.num_shader_arrays_per_engine = gpu.arraysPerEngine;
  info.cu_active_number = gpu.simdCount / gpu.simdPerCu;
  info.gpu_counter_freq = uint32_t(gpu.counterKHz);
  info.wave_front_size = gpu.version < 100000 ? 64 : 32;
  std::memcpy(reinterpret_cast<void *>(args.return_pointer), &info,
              std::min<size_t>(args.return_size, sizeof(info)));
  return 0;
}

int Sim::createEvent(kfd_ioctl_create_event_args &args) {
  // kfd_ioctl_create_event: on a dGPU the event page is user memory, given
  // by its handle (kfd_kmap_event_page).
  if (args.event_page_offset) {
    // kfd_kmap_event_page: "Event page is already set" is EINVAL (before
    // kfd_event_page_set's own EBUSY could be reached).
    if (eventPage)
      return refuse(EINVAL, "CREATE_EVENT: the event page is already set");
    // kfd_process_device_data_by_id, kfd_process_device_translate_handle:
    // the handle's GPU (its upper 32 bits) and buffer must be the
    // process's.
    SimGpu *gpu = gpuById(uint32_t(args.event_page_offset >> 32));
    auto it = allocations.find(args.event_page_offset);
    if (!gpu || !gpu->vmAcquired() || it == allocations.end())
      return refuse(EINVAL,
                    "CREATE_EVENT: event page handle 0x%llx is no "
                    "memory of this process",
                    (unsigned long long)args.event_page_offset);
    Allocation &a = *it->second;
    // amdgpu_amdkfd_gpuvm_map_gtt_bo_to_kernel pins the buffer in GTT to
    // map it for the kernel: a VRAM buffer is moved there, not refused.
    if (!(a.flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT))
      log("CREATE_EVENT: the event page 0x%llx is VRAM; the kernel pins it "
          "in GTT (amdgpu_bo_pin), moving it",
          (unsigned long long)a.va);
    // kfd_event_page_set: the page must hold KFD_SIGNAL_EVENT_LIMIT 64-bit
    // slots (EINVAL since the fix for its out-of-bounds write), all of which
    // it sets to UNSIGNALED_EVENT_SLOT.
    if (a.size < KFD_SIGNAL_EVENT_LIMIT * 8)
      return refuse(EINVAL,
                    "CREATE_EVENT: the event page is 0x%llx bytes; it must "
                    "hold KFD_SIGNAL_EVENT_LIMIT (%u) 8-byte slots",
                    (unsigned long long)a.size, KFD_SIGNAL_EVENT_LIMIT);
    if (!a.cpuMapped &&
        REAL(MmapFn, "mmap")(
            reinterpret_cast<void *>(a.va), a.size, PROT_READ | PROT_WRITE,
            MAP_FIXED | MAP_SHARED | MAP_ANONYMOUS, -1, 0) != MAP_FAILED)
      a.cpuMapped = true; // the kernel's own mapping of the memory
    eventPage = a.va;
    eventPageHandle = a.handle;
    eventSlots = KFD_SIGNAL_EVENT_LIMIT;
    std::memset(reinterpret_cast<void *>(eventPage), 0xff,
                KFD_SIGNAL_EVENT_LIMIT * 8);
  }
  // kfd_event_create: memory and hardware-exception events are "other"
  // events, with no slot in the event page (create_other_event).
  if (args.event_type == KFD_IOC_EVENT_MEMORY ||
      args.event_type == KFD_IOC_EVENT_HW_EXCEPTION) {
    uint32_t id = nextOtherEventId++;
    Event &event = events[id];
    event.type = args.event_type;
    event.autoReset = args.auto_reset != 0;
    args.event_id = id;
    args.event_trigger_data = id;
    args.event_slot_index = 0;
    return 0;
  }
  if (!eventPage)
    return refuse(EINVAL, "CREATE_EVENT: no event page (the simulated GPUs "
                          "are discrete: the process gives the page)");
  if (args.event_type != KFD_IOC_EVENT_SIGNAL)
    return refuse(EINVAL,
                  "CREATE_EVENT: event type %u (the simulator has "
                  "signal, memory and hardware-exception events)",
                  args.event_type);
  uint32_t id = FIRST_EVENT_ID;
  while (id < eventSlots && events.count(id))
    ++id;
  if (id >= eventSlots)
    return refuse(ENOSPC, "CREATE_EVENT: out of event slots");
  events[id].autoReset = args.auto_reset != 0;
  slot(id).store(UNSIGNALED);
  args.event_id = id;
  args.event_slot_index = id;
  args.event_trigger_data = id;
  return 0;
}

int Sim::waitEvents(kfd_ioctl_wait_events_args &args,
                    std::unique_lock<std::mutex> &lock) {
  // kfd_wait_on_events: every event must exist; wait for all or any, up to
  // the timeout in ms; auto-reset events are reset when the wait takes them.
  const auto *data = reinterpret_cast<const kfd_event_data *>(args.events_ptr);
  std::vector<uint32_t> ids;
  for (uint32_t i = 0; i < args.num_events; ++i) {
    if (!events.count(data[i].event_id))
      return refuse(EINVAL, "WAIT_EVENTS: no event %u", data[i].event_id);
    ids.push_back(data[i].event_id);
  }
  ++counts.waits;
  std::map<uint32_t, uint64_t> setsAtStart;
  for (uint32_t id : ids) {
    setsAtStart[id] = events[id].sets;
    ++events[id].waiters;
  }
  auto fired = [&](uint32_t id) {
    auto it = events.find(id);
    return it == events.end() || it->second.signaled ||
           it->second.sets != setsAtStart[id];
  };
  auto done = [&] {
    return args.wait_for_all ? std::all_of(ids.begin(), ids.end(), fired)
                             : std::any_of(ids.begin(), ids.end(), fired);
  };
  bool woken =
      eventSet.wait_for(lock, std::chrono::milliseconds(args.timeout), done);
  // copy_signaled_event_data: a memory event that fired gives its
  // exception data back in the caller's kfd_event_data (read before the
  // auto-reset below clears what fired).
  if (woken) {
    auto *out = reinterpret_cast<kfd_event_data *>(args.events_ptr);
    for (uint32_t i = 0; i < args.num_events; ++i) {
      auto it = events.find(out[i].event_id);
      if (it != events.end() && it->second.type == KFD_IOC_EVENT_MEMORY &&
          fired(out[i].event_id))
        out[i].memory_exception_data = it->second.memory;
    }
  }
  bool destroyed = false;
  for (uint32_t id : ids) {
    auto it = events.find(id);
    if (it == events.end()) {
      destroyed = true;
      continue;
    }
    --it->second.waiters;
    if (woken && it->second.autoReset)
      it->second.signaled = false;
  }
  if (destroyed) {
    args.wait_result = KFD_IOC_WAIT_RESULT_FAIL;
    return refuse(EINVAL, "WAIT_EVENTS: an event was destroyed during the "
                          "wait");
  }
  ++(woken ? counts.woken : counts.timedOut);
  args.wait_result =
      woken ? KFD_IOC_WAIT_RESULT_COMPLETE : KFD_IOC_WAIT_RESULT_TIMEOUT;
  return 0;
}

void Sim::setEvent(uint32_t id) {
  Event &event = events[id];
  if (event.type == KFD_IOC_EVENT_SIGNAL)
    slot(id).store(UNSIGNALED);
  ++event.sets;
  event.signaled = !event.autoReset || event.waiters == 0;
  eventSet.notify_all();
}

void Sim::dropInterrupt() {
  std::lock_guard<std::mutex> lock(mutex);
  ++counts.interrupts;
  ++counts.dropped;
}

void Sim::interrupt(uint32_t context) {
  std::lock_guard<std::mutex> lock(mutex);
  ++counts.interrupts;
  if (!eventPage) {
    ++counts.signaledNothing;
    return;
  }
  // kfd_signal_event_interrupt: the event the context id names, if its slot
  // was written ...
  if (context < eventSlots && events.count(context) &&
      events[context].type == KFD_IOC_EVENT_SIGNAL &&
      slot(context).load() != UNSIGNALED) {
    ++counts.byId;
    setEvent(context);
    return;
  }
  // ... else every event whose slot was.
  ++counts.searches;
  bool any = false;
  for (auto &[id, event] : events)
    if (event.type == KFD_IOC_EVENT_SIGNAL && slot(id).load() != UNSIGNALED) {
      setEvent(id);
      any = true;
    }
  if (!any)
    ++counts.signaledNothing;
}

void SimQueue::interrupt(uint32_t context) {
  // event_interrupt_isr_v9 (kfd_int_process_v9.c, the handler of GC 9
  // GPUs) drops a CP end-of-pipe interrupt whose context id is 0 when
  // context_id_expected: for GC 9.4.1 and later, "Other GFXv9 and later
  // GPUs always sent valid context IDs on legitimate events". Of the
  // simulated GPUs that is gfx90a (GC 9.4.2) and gfx942 (GC 9.4.3). An SDMA
  // trap is not affected; gfx11's event_interrupt_isr_v11 has no such check.
  if (pm4 && context == 0 &&
      (gpu.target == "gfx942" || gpu.target == "gfx90a")) {
    sim.dropInterrupt();
    return;
  }
  sim.interrupt(context);
}

int Sim::createQueue(kfd_ioctl_create_queue_args &args) {
  // set_queue_properties_from_user (kfd_chardev.c), in its order.
  // Only the low byte is the percentage: bits 8-15 are the PM4 target XCC
  // (q_properties->pm4_target_xcc), which a one-XCC GPU ignores.
  if ((args.queue_percentage & 0xFF) > KFD_MAX_QUEUE_PERCENTAGE)
    return refuse(EINVAL, "CREATE_QUEUE: queue_percentage %u is over %u",
                  args.queue_percentage & 0xFF, KFD_MAX_QUEUE_PERCENTAGE);
  if (args.queue_priority > KFD_MAX_QUEUE_PRIORITY)
    return refuse(EINVAL, "CREATE_QUEUE: queue_priority %u is over %u",
                  args.queue_priority, KFD_MAX_QUEUE_PRIORITY);
  if (args.ring_size & (args.ring_size - 1))
    return refuse(EINVAL,
                  "CREATE_QUEUE: ring_size %u is not a power of two (or 0)",
                  args.ring_size);
  // A smaller ring (0 included) is silently run as KFD_MIN_QUEUE_RING_SIZE
  // bytes; the kernel writes the size it used back into the arguments.
  if (args.ring_size < KFD_MIN_QUEUE_RING_SIZE)
    args.ring_size = KFD_MIN_QUEUE_RING_SIZE;
  bool pm4 = args.queue_type == KFD_IOC_QUEUE_TYPE_COMPUTE;
  if (args.queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE &&
      args.queue_type != KFD_IOC_QUEUE_TYPE_COMPUTE_AQL &&
      args.queue_type != KFD_IOC_QUEUE_TYPE_SDMA &&
      args.queue_type != KFD_IOC_QUEUE_TYPE_SDMA_XGMI)
    return refuse(KERNEL_ENOTSUPP, "CREATE_QUEUE: queue type %u",
                  args.queue_type);
  if (!pm4 && args.queue_type != KFD_IOC_QUEUE_TYPE_SDMA)
    return refuse(EINVAL,
                  "CREATE_QUEUE: queue type %u (the simulator has PM4 "
                  "compute and SDMA queues)",
                  args.queue_type);
  // kfd_ioctl_create_queue: kfd_process_device_data_by_id, then
  // kfd_bind_process_to_device, which fails (ESRCH) without a VM.
  SimGpu *gpu = gpuById(args.gpu_id);
  if (!gpu)
    return refuse(EINVAL, "CREATE_QUEUE: no gpu 0x%x", args.gpu_id);
  if (!gpu->vmAcquired())
    return refuse(ESRCH, "CREATE_QUEUE: gpu 0x%x has no VM", args.gpu_id);
  // kfd_ioctl_create_queue, with MES (gfx11): the write pointer's buffer
  // is looked up in the VM, must be at most a page, and is pinned in GTT
  // and mapped into the GART for the scheduler (amdgpu_amdkfd_map_gtt_bo_
  // to_gart: a VRAM buffer is moved to GTT rather than refused).
  if (gpu->version >= 110000 && gpu->version < 120000) {
    Allocation *w = mapped(*gpu, args.write_pointer_address, 1);
    if (!w || w->size > PAGE)
      return refuse(EINVAL,
                    "CREATE_QUEUE: the write pointer 0x%llx must be in "
                    "mapped memory of at most a page (gfx11 maps it into "
                    "the GART)",
                    (unsigned long long)args.write_pointer_address);
    if (!(w->flags & KFD_IOC_ALLOC_MEM_FLAGS_GTT))
      log("CREATE_QUEUE: the write pointer 0x%llx is VRAM; the kernel pins "
          "its buffer in GTT for the GART, moving it",
          (unsigned long long)args.write_pointer_address);
  }
  // kfd_queue_acquire_buffers (kfd_queue.c, from pqm_create_queue): each
  // buffer is looked up in the GPU's VM by kfd_queue_buffer_get, which
  // wants the address's page to start a mapping of exactly the size given
  // (any size when that is under a page). The write and read pointers are
  // each a one-page buffer of their own; the ring a buffer of ring_size.
  if (!queueBuffer(*gpu, args.write_pointer_address, PAGE))
    return refuse(EINVAL,
                  "CREATE_QUEUE: the write pointer 0x%llx is not in the "
                  "first page of a one-page buffer mapped on the GPU",
                  (unsigned long long)args.write_pointer_address);
  if (!queueBuffer(*gpu, args.read_pointer_address, PAGE))
    return refuse(EINVAL,
                  "CREATE_QUEUE: the read pointer 0x%llx is not in the "
                  "first page of a one-page buffer mapped on the GPU",
                  (unsigned long long)args.read_pointer_address);
  if (!queueBuffer(*gpu, args.ring_base_address, args.ring_size))
    return refuse(EINVAL,
                  "CREATE_QUEUE: the ring 0x%llx is not the start of a "
                  "buffer of ring_size (0x%x) bytes mapped on the GPU",
                  (unsigned long long)args.ring_base_address, args.ring_size);
  if (pm4) {
    // Only compute queues have an EOP buffer (optional) and a CWSR area.
    if (args.eop_buffer_address) {
      if (args.eop_buffer_size != gpu->eopBufferSize)
        return refuse(EINVAL,
                      "CREATE_QUEUE: eop_buffer_size 0x%llx is not the "
                      "node's 0x%x",
                      (unsigned long long)args.eop_buffer_size,
                      gpu->eopBufferSize);
      if (!queueBuffer(*gpu, args.eop_buffer_address, args.eop_buffer_size))
        return refuse(EINVAL,
                      "CREATE_QUEUE: the EOP buffer 0x%llx is not the start "
                      "of a buffer of eop_buffer_size bytes",
                      (unsigned long long)args.eop_buffer_address);
    }
    if (args.ctl_stack_size != gpu->ctlStackSize)
      return refuse(EINVAL,
                    "CREATE_QUEUE: ctl_stack_size 0x%x is not the node's "
                    "ctl_stack_size 0x%x",
                    args.ctl_stack_size, gpu->ctlStackSize);
    if (args.ctx_save_restore_size < gpu->cwsrSize)
      return refuse(EINVAL,
                    "CREATE_QUEUE: ctx_save_restore_size 0x%x is under the "
                    "node's cwsr_size 0x%x",
                    args.ctx_save_restore_size, gpu->cwsrSize);
    // The CWSR buffer holds, for each XCC, the save area and the
    // debugger's bytes, rounded up to a page; without SVM (the simulator
    // has none) it must be exactly a buffer of that size.
    uint64_t total =
        (uint64_t(args.ctx_save_restore_size) + gpu->debugMemorySize) *
        gpu->numXcc;
    total = (total + PAGE - 1) / PAGE * PAGE;
    if (!queueBuffer(*gpu, args.ctx_save_restore_address, total))
      return refuse(EINVAL,
                    "CREATE_QUEUE: the context save area 0x%llx is not the "
                    "start of a buffer of (ctx_save_restore_size + "
                    "debugger's 0x%x) x %u XCCs = 0x%llx bytes",
                    (unsigned long long)args.ctx_save_restore_address,
                    gpu->debugMemorySize, gpu->numXcc,
                    (unsigned long long)total);
  }
  unsigned slot = gpu->nextDoorbell++;
  if ((slot + 1) * 8 > DOORBELL_PAGE)
    return refuse(ENOMEM, "CREATE_QUEUE: out of doorbells");
  auto &doorbell =
      *reinterpret_cast<std::atomic<uint64_t> *>(gpu->doorbells + slot * 8);
  doorbell.store(0);
  uint32_t id = nextQueue++;
  queues[id] = std::make_unique<SimQueue>(
      *this, *gpu, id, pm4, args.ring_base_address, args.ring_size,
      args.write_pointer_address, args.read_pointer_address, doorbell,
      rptrReports);
  args.queue_id = id;
  args.doorbell_offset = gpu->doorbellOffset + slot * 8;
  return 0;
}

void *Sim::mmap(void *addr, size_t length, int prot, int flags, int fd,
                off_t offset) {
  std::optional<Fd> file = lookup(fd);
  if (!file)
    return nullptr;
  auto fail = [&](int error, const char *what) {
    log("mmap: %s", what);
    errno = error;
    return MAP_FAILED;
  };
  std::lock_guard<std::mutex> lock(mutex);
  if (file->kind == Kind::KFD) {
    for (SimGpu &gpu : gpus)
      if (uint64_t(offset) == gpu.doorbellOffset) {
        if (length != DOORBELL_PAGE)
          return fail(EINVAL, "the doorbells are two pages");
        return REAL(MmapFn, "mmap")(addr, length, prot, flags & ~MAP_ANONYMOUS,
                                    gpu.doorbellFd, 0);
      }
    return fail(EINVAL, "no doorbell page at that offset of /dev/kfd");
  }
  for (auto &[handle, a] : allocations)
    if (a->mmapOffset == uint64_t(offset) && a->gpu == file->gpu) {
      // amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu allows the buffer's mmap
      // offset (drm_vma_node_allow) only to the file whose VM KFD
      // acquired; drm_gem_mmap refuses any other file with EACCES.
      if (file->file != a->gpu->vmFile)
        return fail(EACCES, "the memory's offset is allowed only through "
                            "the render-node file that acquired the VM");
      // amdgpu_gem_object_mmap: a userptr BO (amdgpu_ttm_tt_get_usermm)
      // has no mapping through the render node: the host has its pages.
      if (a->userAddr)
        return fail(EPERM, "a USERPTR buffer cannot be mapped through the "
                           "render node (its pages are the process's)");
      // amdgpu_gem_object_mmap: a BO made NO_CPU_ACCESS (VRAM without
      // PUBLIC) has no CPU mapping.
      if ((a->flags & KFD_IOC_ALLOC_MEM_FLAGS_VRAM) &&
          !(a->flags & KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC))
        return fail(EPERM, "VRAM allocated without PUBLIC cannot be mapped "
                           "by the host");
      if (length != a->size)
        return fail(EINVAL, "a render node mapping must cover its memory");
      if (!(flags & MAP_FIXED) || reinterpret_cast<uint64_t>(addr) != a->va)
        return fail(EINVAL, "GPU memory must be mapped at its GPU address "
                            "(MAP_FIXED at va_addr)");
      void *p = REAL(MmapFn, "mmap")(
          addr, length, prot, MAP_FIXED | MAP_SHARED | MAP_ANONYMOUS, -1, 0);
      if (p != MAP_FAILED)
        a->cpuMapped = true;
      return p;
    }
  return fail(EINVAL, "no memory at that offset of the render node");
}

//===----------------------------------------------------------------------===//
// Kernels: the code object in GPU memory, and its twin
//===----------------------------------------------------------------------===//

const TwinProgram *SimQueue::findProgram(uint64_t entry) {
  return sim.findProgram(gpu, entry);
}

bool SimQueue::isGpuMemory(uint64_t address, uint64_t bytes) {
  return sim.isGpuMemory(gpu, address, bytes);
}

bool SimQueue::checksCopyAddresses() { return sim.strictCopies; }

std::optional<CommandProcessorHost::HdpFlushRegisters>
SimQueue::hdpFlushRegisters() {
  if (gpu.servesIpDiscovery)
    return gpu.hdpFlush;
  return CommandProcessorHost::hdpFlushRegisters();
}

void SimQueue::memoryFault(uint64_t address, uint64_t bytes, bool write) {
  sim.vmFault(gpu, address, bytes, write);
}

void Sim::vmFault(const SimGpu &gpu, uint64_t address, uint64_t bytes,
                  bool write) {
  std::lock_guard<std::mutex> lock(mutex);
  // The first page of the access the GPU cannot reach: where it faults.
  // (Past the end if it reaches every page: an access that wraps around
  // the address space.)
  uint64_t end = address + bytes,
           at = end < address ? end : firstUnreachable(gpu, address, bytes);
  uint64_t page = at < end ? at & ~(PAGE - 1) : (end + PAGE - 1) & ~(PAGE - 1);
  kfd_hsa_memory_exception_data data{};
  data.gpu_id = gpu.gpuId;
  data.va = page;
  // event_interrupt_wq_v9 / event_interrupt_wq_v11 (kfd_int_process_v9.c,
  // _v11.c) fill the data from the fault's IH entry: NotPresent from
  // prot_valid, NoExecute from prot_exec, and ReadOnly from prot_write,
  // the access being a write (ring_id & 0x20), whatever the page's own
  // protection. The simulated faults are data accesses to pages nothing
  // maps.
  data.failure.NotPresent = 1;
  data.failure.ReadOnly = write ? 1 : 0;
  log("GPU 0x%x: page fault at 0x%llx (not present, %s)", gpu.gpuId,
      (unsigned long long)page, write ? "write" : "read");
  bool any = false;
  for (auto &[id, event] : events)
    if (event.type == KFD_IOC_EVENT_MEMORY) {
      event.memory = data;
      setEvent(id);
      any = true;
    }
  // lookup_events_by_type_and_signal: with no memory event to signal, the
  // kernel sends the process SIGSEGV.
  if (!any)
    log("no memory-exception event: the kernel would send SIGSEGV");
}

const TwinProgram *Sim::findProgram(SimGpu &gpu, uint64_t entry) {
  std::lock_guard<std::mutex> lock(mutex);
  auto cached = programs.find(entry);
  if (cached != programs.end())
    return cached->second.get();
  // The program is a loaded code object at the start of its memory: its
  // dynamic symbols name the kernel whose descriptor leads to `entry`.
  Allocation *a = mapped(gpu, entry, 4);
  if (!a)
    return nullptr;
  hcq::Span<const uint8_t> image(reinterpret_cast<const uint8_t *>(a->va),
                                 a->size);
  auto at = [&](uint64_t offset, uint64_t bytes) -> const uint8_t * {
    return offset + bytes <= image.size() && offset + bytes >= offset
               ? image.data() + offset
               : nullptr;
  };
  const auto *header = reinterpret_cast<const Elf64_Ehdr *>(at(0, 64));
  if (!header || std::memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 ||
      header->e_machine != EM_AMDGPU)
    return nullptr;
  uint64_t symtab = 0, strtab = 0, count = 0;
  for (unsigned i = 0; i < header->e_phnum; ++i) {
    const auto *ph = reinterpret_cast<const Elf64_Phdr *>(
        at(header->e_phoff + i * sizeof(Elf64_Phdr), sizeof(Elf64_Phdr)));
    if (!ph || ph->p_type != PT_DYNAMIC)
      continue;
    for (uint64_t d = ph->p_vaddr;; d += sizeof(Elf64_Dyn)) {
      const auto *dyn =
          reinterpret_cast<const Elf64_Dyn *>(at(d, sizeof(Elf64_Dyn)));
      if (!dyn || dyn->d_tag == DT_NULL)
        break;
      if (dyn->d_tag == DT_SYMTAB)
        symtab = dyn->d_un.d_ptr;
      else if (dyn->d_tag == DT_STRTAB)
        strtab = dyn->d_un.d_ptr;
      else if (dyn->d_tag == DT_HASH)
        if (const uint8_t *hash = at(dyn->d_un.d_ptr, 8))
          std::memcpy(&count, hash + 4, 4); // nchain: the symbol count
    }
  }
  if (!count && strtab > symtab)
    count = (strtab - symtab) / sizeof(Elf64_Sym);
  for (uint64_t i = 0; symtab && i < count; ++i) {
    const auto *sym = reinterpret_cast<const Elf64_Sym *>(
        at(symtab + i * sizeof(Elf64_Sym), sizeof(Elf64_Sym)));
    if (!sym)
      break;
    const char *name =
        reinterpret_cast<const char *>(at(strtab + sym->st_name, 1));
    if (!name)
      continue;
    std::string symbol(name,
                       strnlen(name, image.size() - (strtab + sym->st_name)));
    if (symbol.size() < 4 || symbol.compare(symbol.size() - 3, 3, ".kd") != 0)
      continue;
    hcq::amd::KernelInfo info;
    if (hcq::Error e =
            hcq::amd::decodeKernelDescriptor(image, sym->st_value, info)) {
      hcq::consumeError(std::move(e));
      continue;
    }
    if (a->va + info.entryOffset != entry)
      continue;
    std::string kernel = symbol.substr(0, symbol.size() - 3);
    auto program =
        std::make_unique<TwinProgram>(TwinProgram::of(nullptr, kernel, info));
    // Its arguments, from the metadata note in the loaded image: the CP
    // checks the kernel-argument segment and every global-memory pointer
    // in it against the GPU's page tables before the dispatch, as the
    // kernel's first access through one would fault there.
    info.name = kernel;
    if (hcq::Error e = hcq::amd::readLoadedMetadata(image, info))
      log("kernel %s: %s", kernel.c_str(), hcq::toString(std::move(e)).c_str());
    program->kernargBytes = info.kernargBytes;
    program->bufferArguments = info.bufferArguments;
    if (kernel == hcq::amd::BUILTIN_COPY_SYMBOL)
      program->twin = &builtinCopyTwin; // the runtime's, as for emulation
    if (auto offered = offeredTwins.find(entry); offered != offeredTwins.end())
      program->twin = offered->second;
    for (void *library : twinLibraries)
      if (void *twin = program->twin
                           ? nullptr
                           : dlsym(library, ("hcq_twin_" + kernel).c_str())) {
        program->twin = reinterpret_cast<hcq_amd_twin>(twin);
        break;
      }
    if (!program->twin) {
      log("kernel %s has no CPU twin hcq_twin_%s in HCQ_KFD_SIM_TWINS",
          kernel.c_str(), kernel.c_str());
      return nullptr;
    }
    return (programs[entry] = std::move(program)).get();
  }
  return nullptr;
}

} // namespace

//===----------------------------------------------------------------------===//
// The interposed functions (the only symbols this library exports)
//===----------------------------------------------------------------------===//

/// Declares `mode`: the argument open() and openat() take only with O_CREAT
/// or O_TMPFILE (a variadic argument, so a macro).
#define READ_OPEN_MODE(flags)                                                  \
  mode_t mode = 0;                                                             \
  if ((flags) & (O_CREAT | O_TMPFILE)) {                                       \
    va_list args;                                                              \
    va_start(args, flags);                                                     \
    mode = va_arg(args, mode_t);                                               \
    va_end(args);                                                              \
  }

extern "C" {

int open(const char *path, int flags, ...) {
  READ_OPEN_MODE(flags);
  if (Sim *sim = Sim::get()) {
    int fd = sim->open(path);
    if (fd != -2)
      return fd;
    std::string redirected = sim->redirect(path);
    if (!redirected.empty())
      return REAL(OpenFn, "open")(redirected.c_str(), flags, mode);
  }
  return REAL(OpenFn, "open")(path, flags, mode);
}

int open64(const char *path, int flags, ...) {
  READ_OPEN_MODE(flags);
  return open(path, flags, mode);
}

int openat(int dir, const char *path, int flags, ...) {
  READ_OPEN_MODE(flags);
  if (path[0] == '/')
    return open(path, flags, mode);
  return REAL(OpenatFn, "openat")(dir, path, flags, mode);
}

int openat64(int dir, const char *path, int flags, ...) {
  READ_OPEN_MODE(flags);
  return openat(dir, path, flags, mode);
}

DIR *opendir(const char *path) {
  if (Sim *sim = Sim::get()) {
    std::string redirected = sim->redirect(path);
    if (!redirected.empty())
      return REAL(OpendirFn, "opendir")(redirected.c_str());
  }
  return REAL(OpendirFn, "opendir")(path);
}

int close(int fd) {
  if (Sim *sim = Sim::get())
    sim->close(fd);
  return REAL(CloseFn, "close")(fd);
}

/// A hidden topology node's attributes open but cannot be read
/// (kfd_topology.c node_show returns -EPERM).
ssize_t read(int fd, void *buffer, size_t bytes) {
  if (Sim *sim = Sim::ifConstructed())
    if (sim->isHiddenFd(fd)) {
      errno = EPERM;
      return -1;
    }
  return REAL(ReadFn, "read")(fd, buffer, bytes);
}

ssize_t pread(int fd, void *buffer, size_t bytes, off_t offset) {
  if (Sim *sim = Sim::ifConstructed())
    if (sim->isHiddenFd(fd)) {
      errno = EPERM;
      return -1;
    }
  return REAL(PreadFn, "pread")(fd, buffer, bytes, offset);
}

ssize_t pread64(int fd, void *buffer, size_t bytes, off_t offset) {
  return pread(fd, buffer, bytes, offset);
}

int ioctl(int fd, unsigned long request, ...) {
  va_list args;
  va_start(args, request);
  void *argp = va_arg(args, void *);
  va_end(args);
  if (Sim *sim = Sim::get()) {
    int result = sim->ioctl(fd, request, argp);
    if (result != -2)
      return result;
  }
  return REAL(IoctlFn, "ioctl")(fd, request, argp);
}

void *mmap(void *addr, size_t length, int prot, int flags, int fd,
           off_t offset) {
  if (fd >= 0)
    if (Sim *sim = Sim::get())
      if (void *p = sim->mmap(addr, length, prot, flags, fd, offset))
        return p;
  return REAL(MmapFn, "mmap")(addr, length, prot, flags, fd, offset);
}

void *mmap64(void *addr, size_t length, int prot, int flags, int fd,
             off_t offset) {
  return mmap(addr, length, prot, flags, fd, offset);
}

void hcq_kfd_sim_get_counts(hcq_kfd_sim_counts *counts) {
  Sim *sim = Sim::get();
  *counts = sim ? sim->getCounts() : hcq_kfd_sim_counts{};
}

const hcq_simulated_driver *hcq_simulated_driver_get() {
  static const hcq_simulated_driver driver = {
      HCQ_SIMULATED_DRIVER_VERSION,
      [](uint64_t entry, hcq_amd_twin twin) {
        if (Sim *sim = Sim::get())
          sim->addTwin(entry, twin);
      },
      [](const char *kernel) -> int {
        Sim *sim = Sim::get();
        return !sim || !kernel || sim->hasTwin(kernel);
      }};
  return &driver;
}

} // extern "C"
