//===- KFD.cpp - AMD GPUs through the kernel driver -----------------------===//
//
// The hardware AMD device (KFD.h). Sources for each step are beside it; the
// ioctl structs are <linux/kfd_ioctl.h> as installed (KFD ABI 1.11).
//
//===----------------------------------------------------------------------===//

#include "KFD.h"

#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/Target.h"

#include <libdrm/amdgpu_drm.h>
#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

namespace hcq::runtime::kfd {

namespace {

std::string errnoText(int error) { return std::strerror(error); }

/// Reads a whole sysfs file with open/read (sysfs files are small). A
/// file the process may not read fails with FailedPrecondition (EPERM,
/// EACCES), any other with Unavailable.
Expected<std::string> readFile(const std::string &path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    int error = errno;
    return makeError(error == EPERM || error == EACCES
                         ? ErrorCode::FailedPrecondition
                         : ErrorCode::Unavailable,
                     "cannot read ", path, ": ", errnoText(error));
  }
  std::string text;
  char buffer[4096];
  while (true) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0 && errno == EINTR)
      continue;
    if (n < 0) {
      int error = errno;
      ::close(fd);
      return makeError(error == EPERM || error == EACCES
                           ? ErrorCode::FailedPrecondition
                           : ErrorCode::Unavailable,
                       "cannot read ", path, ": ", errnoText(error));
    }
    if (n == 0)
      break;
    text.append(buffer, size_t(n));
    if (text.size() > (1 << 20)) {
      ::close(fd);
      return runtimeError(path + " is larger than a topology file can be");
    }
  }
  ::close(fd);
  return text;
}

Expected<uint64_t> parseNumber(std::string_view text, const std::string &what) {
  std::optional<uint64_t> value = parseUnsigned(trim(text));
  if (!value)
    return runtimeError(what + " is not a number: '" + std::string(trim(text)) +
                        "'");
  return *value;
}

/// An ioctl retried on EINTR/EAGAIN, as libhsakmt's kmtIoctl does.
int retryIoctl(int fd, unsigned long request, void *args) {
  int result;
  do
    result = ::ioctl(fd, request, args);
  while (result == -1 && (errno == EINTR || errno == EAGAIN));
  return result;
}

uint64_t monotonicNs(clockid_t clock) {
  timespec ts;
  clock_gettime(clock, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

} // namespace

//===----------------------------------------------------------------------===//
// Topology
//===----------------------------------------------------------------------===//

std::string GpuNode::targetName() const {
  // gfx_target_version = major * 10000 + minor * 100 + stepping; the name
  // prints minor and stepping as one hex digit each (gfx90a) [Linux amdkfd
  // kfd_topology.c; ROCm's rocminfo].
  unsigned major = gfxTargetVersion / 10000,
           minor = gfxTargetVersion / 100 % 100,
           stepping = gfxTargetVersion % 100;
  return "gfx" + std::to_string(major) + toHex(minor) + toHex(stepping);
}

unsigned GpuNode::computeUnits() const {
  return simdPerCu && numXcc ? simdCount / simdPerCu / numXcc : 0;
}

unsigned GpuNode::shaderEngines() const {
  return simdArraysPerEngine && numXcc
             ? arrayCount / simdArraysPerEngine / numXcc
             : 0;
}

GpuNode::SaveAreaSizes GpuNode::computeSaveAreaSizes() const {
  // Per CU: VGPRs (0x80000 on gfx90a/gfx942, 0x60000 on gfx1100/1101,
  // 0x40000 on other gfx11), SGPRs 0x4000, LDS 0x10000, hardware registers
  // 0x1000; a control stack of 12 bytes per wave (8 before gfx10) and 8
  // more after a 40-byte header, page-aligned; 32 debugger bytes per wave,
  // 64-aligned. Waves: 32 per CU, or before gfx10 40 per CU up to 512 per
  // shader engine [kfd_queue.c kfd_queue_ctx_save_restore_size,
  // kfd_get_vgpr_size_per_cu].
  uint32_t gfxv = gfxTargetVersion;
  bool beforeGfx10 = gfxv < 100100;
  uint64_t cus = computeUnits();
  uint64_t waves =
      beforeGfx10
          ? std::min<uint64_t>(cus * 40, uint64_t(shaderEngines()) * 512)
          : cus * 32;
  uint64_t vgprs = gfxv == 90402 || gfxv == 90010 || gfxv == 90008 ? 0x80000
                   : gfxv == 110000 || gfxv == 110001              ? 0x60000
                                                                   : 0x40000;
  uint64_t wgData =
      alignTo(cus * (vgprs + 0x4000 + 0x10000 + 0x1000), PAGE_BYTES);
  SaveAreaSizes sizes;
  sizes.ctlStack = alignTo(40 + waves * (beforeGfx10 ? 8 : 12) + 8, PAGE_BYTES);
  sizes.cwsr = sizes.ctlStack + wgData;
  sizes.debugMemory = alignTo(waves * 32, 64);
  return sizes;
}

GpuNode::SaveAreaSizes GpuNode::saveAreaSizes() const {
  SaveAreaSizes sizes = computeSaveAreaSizes();
  if (cwsrSize)
    sizes.cwsr = cwsrSize;
  if (ctlStackSize)
    sizes.ctlStack = ctlStackSize;
  return sizes;
}

Expected<std::vector<GpuNode>> readTopology(std::string_view nodesPath) {
  std::string root(nodesPath);
  DIR *dir = ::opendir(root.c_str());
  if (!dir)
    return makeError(ErrorCode::Unavailable, "cannot list the KFD topology ",
                     root, ": ", errnoText(errno),
                     " (is the amdgpu kernel driver loaded?)");
  std::vector<unsigned> ids;
  while (dirent *entry = ::readdir(dir)) {
    std::optional<uint64_t> id = parseUnsigned(entry->d_name);
    if (id && *id <= UINT32_MAX)
      ids.push_back(unsigned(*id));
  }
  ::closedir(dir);
  std::sort(ids.begin(), ids.end());

  std::vector<GpuNode> gpus;
  for (unsigned id : ids) {
    std::string folder = root + "/" + std::to_string(id);
    // A node hidden from the process (a device cgroup denies its files
    // with EPERM) is not one of its GPUs, as tinygrad skips it too.
    auto hidden = [](Error &e) {
      return e.code() == ErrorCode::FailedPrecondition;
    };
    Expected<std::string> gpuIdText = readFile(folder + "/gpu_id");
    if (!gpuIdText) {
      Error e = gpuIdText.takeError();
      if (hidden(e))
        continue;
      return e;
    }
    Expected<uint64_t> gpuId = parseNumber(*gpuIdText, folder + "/gpu_id");
    if (!gpuId)
      return gpuId.takeError();
    if (*gpuId == 0)
      continue; // a CPU node
    Expected<std::string> properties = readFile(folder + "/properties");
    if (!properties) {
      Error e = properties.takeError();
      if (hidden(e))
        continue;
      return e;
    }
    GpuNode node;
    node.node = id;
    node.gpuId = uint32_t(*gpuId);
    // "name value" per line [kfd_topology.c node_show: sysfs_show_32bit_prop].
    std::map<std::string, uint64_t, std::less<>> props;
    for (std::string_view line : splitAll(*properties, '\n')) {
      auto [key, value] = splitOnce(trim(line), ' ');
      if (std::optional<uint64_t> number = parseUnsigned(trim(value)))
        props[std::string(key)] = *number;
    }
    auto get = [&](std::string_view key, uint32_t &field,
                   bool required) -> Error {
      auto it = props.find(key);
      if (it == props.end())
        return required ? runtimeError(folder + "/properties has no " +
                                       std::string(key))
                        : Error::success();
      field = uint32_t(it->second);
      return Error::success();
    };
    for (auto [key, field, required] :
         {std::tuple{"gfx_target_version", &node.gfxTargetVersion, true},
          {"simd_count", &node.simdCount, true},
          {"simd_per_cu", &node.simdPerCu, true},
          {"array_count", &node.arrayCount, true},
          {"simd_arrays_per_engine", &node.simdArraysPerEngine, true},
          {"max_waves_per_simd", &node.maxWavesPerSimd, true},
          {"lds_size_in_kb", &node.ldsSizeInKb, true},
          {"drm_render_minor", &node.drmRenderMinor, true},
          {"num_xcc", &node.numXcc, false},
          {"cwsr_size", &node.cwsrSize, false},
          {"ctl_stack_size", &node.ctlStackSize, false}})
      if (Error e = get(key, *field, required))
        return std::move(e);
    gpus.push_back(node);
  }
  return gpus;
}

//===----------------------------------------------------------------------===//
// KFDProcess: /dev/kfd, one per process
//===----------------------------------------------------------------------===//

class KFDProcess {
public:
  /// The process's /dev/kfd, opened at the first request and kept open for
  /// the process's life: KFD sets the process's event page once and never
  /// lets it go (kfd_chardev.c refuses to free the signal BO; a second page
  /// is refused), as libhsakmt keeps /dev/kfd open.
  static Expected<KFDProcess *> get() {
    static std::mutex mutex;
    static KFDProcess *current = nullptr;
    std::lock_guard<std::mutex> lock(mutex);
    if (current)
      return current;
    int fd = ::open("/dev/kfd", O_RDWR | O_CLOEXEC);
    if (fd < 0)
      return Error::failure(
          ErrorCode::Unavailable,
          "cannot open /dev/kfd: " + errnoText(errno) +
              " (no AMD GPU driver here; --amd=hardware needs "
              "the amdgpu kernel driver and read-write access to "
              "/dev/kfd, usually membership of the render group)");
    kfd_ioctl_get_version_args version{};
    if (retryIoctl(fd, AMDKFD_IOC_GET_VERSION, &version) != 0) {
      int error = errno;
      ::close(fd);
      return runtimeError("/dev/kfd: GET_VERSION failed: " + errnoText(error));
    }
    // Only the major version breaks compatibility [kfd_ioctl.h].
    if (version.major_version != KFD_IOCTL_MAJOR_VERSION) {
      ::close(fd);
      return runtimeError(
          "/dev/kfd speaks KFD ABI " + std::to_string(version.major_version) +
          "." + std::to_string(version.minor_version) + ", this runtime " +
          std::to_string(KFD_IOCTL_MAJOR_VERSION) + ".x");
    }
    current = new KFDProcess(fd, version.minor_version);
    return current;
  }

  Error ioctl(unsigned long request, void *args, const char *what) {
    if (retryIoctl(fd, request, args) == 0)
      return Error::success();
    int error = errno;
    return makeError(error == ENOMEM ? ErrorCode::OutOfMemory
                                     : ErrorCode::Internal,
                     "KFD ", what, " failed: ", errnoText(error));
  }

  /// A signal event for `gpu`, auto-reset, and its mailbox. The first one
  /// sets the process's event page, allocated on `gpu`; later GPUs get the
  /// page mapped [kfd_chardev.c kfd_ioctl_create_event: "For dGPUs the
  /// event page is allocated in user mode"; kfd_events.c
  /// kfd_event_page_set].
  Expected<std::pair<uint32_t, uint64_t>> createEvent(Gpu &gpu);

  const int fd;
  const uint32_t minor;

private:
  KFDProcess(int fd, uint32_t minor) : fd(fd), minor(minor) {}

  std::mutex mutex; // everything below
  uint64_t eventPage = 0, eventPageHandle = 0;
  std::vector<uint32_t> eventPageGpus; // GPUs the page is mapped on
};

//===----------------------------------------------------------------------===//
// Gpu
//===----------------------------------------------------------------------===//

namespace {
/// Where an NBIO version places the HDP flush request and done registers:
/// the register segment (BASE_IDX) and each one's dword offset in it, as
/// the kernel's nbio_v*_get_hdp_flush_{req,done}_offset return them
/// [Linux nbio_v4_3.c, nbio_v7_9.c; regBIF_BX_PF0_GPU_HDP_FLUSH_REQ 0x0106
/// and _DONE 0x0107, BASE_IDX 2, in nbio_4_3_0_offset.h and
/// nbio_7_9_0_offset.h; docs/amd-facts.md#hdp-flush].
struct NbioHdpFlush {
  unsigned major, minor;
  unsigned segment;
  uint32_t request, done;
};
constexpr NbioHdpFlush NBIO_HDP_FLUSH[] = {
    {4, 3, 2, 0x106, 0x107}, // gfx11 (soc21)
    {7, 9, 2, 0x106, 0x107}, // gfx942
};
} // namespace

static Error checkHdpFlushRegisters(const std::string &gpu,
                                    unsigned renderMinor) {
  // The GPU's NBIF block as IP discovery publishes it: die 0, NBIF_HWID
  // 108, instance 0, with its version and one "0x%08X" line per register
  // segment base [amdgpu_discovery.c amdgpu_discovery_sysfs_ips,
  // base_addr_show; soc15_hw_ip.h NBIF_HWID].
  std::string nbif = "/sys/class/drm/renderD" + std::to_string(renderMinor) +
                     "/device/ip_discovery/die/0/108/0";
  Expected<std::string> majorText = readFile(nbif + "/major");
  if (!majorText) {
    // A kernel without the ip_discovery folder (before Linux 5.18) gives
    // nothing to check: the encoder's addresses stand unchecked.
    consumeError(majorText.takeError());
    return Error::success();
  }
  Expected<std::string> minorText = readFile(nbif + "/minor");
  Expected<std::string> revisionText = readFile(nbif + "/revision");
  Expected<std::string> bases = readFile(nbif + "/base_addr");
  for (Expected<std::string> *text : {&minorText, &revisionText, &bases})
    if (!*text)
      return prependContext(gpu + ": ", text->takeError());
  Expected<uint64_t> major = parseNumber(*majorText, nbif + "/major");
  Expected<uint64_t> minor = parseNumber(*minorText, nbif + "/minor");
  Expected<uint64_t> revision = parseNumber(*revisionText, nbif + "/revision");
  for (Expected<uint64_t> *number : {&major, &minor, &revision})
    if (!*number)
      return prependContext(gpu + ": ", number->takeError());
  std::string version = std::to_string(*major) + "." + std::to_string(*minor) +
                        "." + std::to_string(*revision);
  const NbioHdpFlush *known = nullptr;
  for (const NbioHdpFlush &entry : NBIO_HDP_FLUSH)
    if (entry.major == *major && entry.minor == *minor)
      known = &entry;
  if (!known)
    return makeError(ErrorCode::Unavailable, gpu, " has NBIO ", version,
                     ", for which hcq does not know the HDP flush registers "
                     "its memory barrier polls (it knows NBIO 4.3 and 7.9)");
  std::vector<uint64_t> segments;
  for (std::string_view rest = *bases; !rest.empty();) {
    size_t end = rest.find('\n');
    std::string_view line = rest.substr(0, end);
    rest = end == std::string_view::npos ? "" : rest.substr(end + 1);
    if (line.empty())
      continue;
    std::optional<uint64_t> base = parseUnsigned(trim(line), 16);
    if (!base)
      return makeError(ErrorCode::Unavailable, gpu, ": ", nbif,
                       "/base_addr has '", line, "', not a hex address");
    segments.push_back(*base);
  }
  if (segments.size() <= known->segment)
    return makeError(ErrorCode::Unavailable, gpu, ": ", nbif,
                     "/base_addr lists ", segments.size(),
                     " register segments; the HDP flush registers are in "
                     "segment ",
                     known->segment);
  uint64_t request = segments[known->segment] + known->request,
           done = segments[known->segment] + known->done;
  // The encoder wrote its addresses into every executable's barrier.
  if (request != amd::pm4::HDP_FLUSH_REQ || done != amd::pm4::HDP_FLUSH_DONE)
    return makeError(ErrorCode::Unavailable, gpu, " (NBIO ", version,
                     ") has its HDP flush registers at 0x",
                     toHex(request, true), "/0x", toHex(done, true),
                     ", and hcq's memory barrier polls 0x",
                     toHex(amd::pm4::HDP_FLUSH_REQ, true), "/0x",
                     toHex(amd::pm4::HDP_FLUSH_DONE, true),
                     ": a barrier there would never complete");
  return Error::success();
}

Gpu::Gpu(KFDProcess &process, GpuNode node, std::string name)
    : process(process), node(node), name(std::move(name)),
      target(node.targetName()) {}

namespace {
/// The process's opened GPUs by AMD:N index, never destroyed: kept for the
/// process's life, as the kernel keeps the first render-node file that
/// acquired a GPU's VM [kfd_chardev.c kfd_ioctl_acquire_vm: a VM acquired
/// through another file is refused with EBUSY].
struct OpenGpus {
  std::mutex mutex;
  std::map<unsigned, Gpu *> byIndex;
};
OpenGpus &openGpus() {
  static OpenGpus *gpus = new OpenGpus;
  return *gpus;
}
} // namespace

Gpu *Gpu::findOpen(uint32_t gpuId) {
  OpenGpus &gpus = openGpus();
  std::lock_guard<std::mutex> lock(gpus.mutex);
  for (auto &[index, gpu] : gpus.byIndex)
    if (gpu->node.gpuId == gpuId)
      return gpu;
  return nullptr;
}

Expected<Gpu *> Gpu::get(unsigned index) {
  OpenGpus &gpus = openGpus();
  std::lock_guard<std::mutex> lock(gpus.mutex);
  auto it = gpus.byIndex.find(index);
  if (it != gpus.byIndex.end())
    return it->second;
  std::string name = "AMD:" + std::to_string(index);
  Expected<KFDProcess *> process = KFDProcess::get();
  if (!process)
    return prependContext(name + ": ", process.takeError());
  Expected<std::vector<GpuNode>> nodes = readTopology();
  if (!nodes)
    return prependContext(name + ": ", nodes.takeError());
  if (index >= nodes->size()) {
    // The cause is the device's index: say what there is, and what a
    // schedule on this device needs.
    std::string there = nodes->empty() ? "none" : "AMD:0";
    if (nodes->size() > 1)
      there += " to AMD:" + std::to_string(nodes->size() - 1);
    return makeError(
        ErrorCode::Unavailable, name, ": no such GPU: the KFD topology has ",
        nodes->size(), nodes->size() == 1 ? " GPU" : " GPUs",
        " this process may use (", there, "); a schedule compiled for ", name,
        " needs ", index + 1, " GPUs");
  }
  const GpuNode &node = (*nodes)[index];
  std::unique_ptr<Gpu> gpu(new Gpu(**process, node, name));
  // A target the encoder does not know cannot run what it encoded.
  if (!amd::lookupTarget(gpu->target))
    return makeError(ErrorCode::Unavailable, name, " is a ", gpu->target,
                     ", which hcq does not encode for (it does ",
                     amd::listTargetNames(), ")");
  // Several XCCs share one queue's dispatches; hcq gives each dispatch one
  // scratch base and writes signals and timestamps once, as for one XCC.
  // Ring room rests on it too: every XCC's CP would write the completion
  // word (AMDRing::readPointer), and the first to finish would free ring
  // space a slower one has not read.
  if (node.numXcc != 1)
    return makeError(
        ErrorCode::Unavailable, name, " is a ", gpu->target, " with ",
        node.numXcc,
        " XCCs, which hcq does not drive yet: partition it into one device "
        "per XCC (CPX mode, e.g. amd-smi set --compute-partition CPX)");
  if (Error e = checkHdpFlushRegisters(name, node.drmRenderMinor))
    return std::move(e);
  if (Error e = gpu->acquire())
    return std::move(e);
  for (auto &[otherIndex, other] : gpus.byIndex)
    other->mapAllTo(*gpu);
  return gpus.byIndex[index] = gpu.release();
}

Error Gpu::acquire() {
  // The render node carries the GPU's VM; KFD takes it over
  // [docs/amd-facts.md#kfd-process; kfd_ioctl.h AMDKFD_IOC_ACQUIRE_VM].
  std::string render = "/dev/dri/renderD" + std::to_string(node.drmRenderMinor);
  renderFd = ::open(render.c_str(), O_RDWR | O_CLOEXEC);
  if (renderFd < 0)
    return runtimeError(name + ": cannot open " + render + ": " +
                        errnoText(errno));
  // What only the amdgpu driver knows: the GPU timestamp counter's rate
  // [amdgpu_drm.h AMDGPU_INFO_DEV_INFO gpu_counter_freq, in kHz; what
  // libdrm's amdgpu_query_gpu_info reads and Mesa converts RELEASE_MEM
  // timestamps with]. The ioctl, not libdrm: the runtime links nothing.
  drm_amdgpu_info_device device{};
  drm_amdgpu_info query{};
  query.return_pointer = reinterpret_cast<uint64_t>(&device);
  query.return_size = sizeof(device);
  query.query = AMDGPU_INFO_DEV_INFO;
  if (retryIoctl(renderFd, DRM_IOCTL_AMDGPU_INFO, &query) != 0)
    return runtimeError(name + ": AMDGPU_INFO on " + render +
                        " failed: " + errnoText(errno));
  if (!device.gpu_counter_freq)
    return runtimeError(name + ": the amdgpu driver gives no GPU counter "
                               "frequency");
  nsPerTick = 1e6 / double(device.gpu_counter_freq);
  kfd_ioctl_acquire_vm_args vm{};
  vm.drm_fd = uint32_t(renderFd);
  vm.gpu_id = node.gpuId;
  if (Error e = process.ioctl(AMDKFD_IOC_ACQUIRE_VM, &vm, "ACQUIRE_VM"))
    return runtimeError(name + ": " + toString(std::move(e)));
  Expected<ClockSample> clock = sampleClock();
  if (!clock)
    return clock.takeError();
  lastClock = *clock;
  Expected<std::pair<uint32_t, uint64_t>> event = process.createEvent(*this);
  if (!event)
    return runtimeError(name + ": " + toString(event.takeError()));
  std::tie(eventId, eventMailbox) = *event;
  // Without a memory-exception event a GPU page fault is a SIGSEGV of the
  // process [kfd_events.c lookup_events_by_type_and_signal]; with one it is
  // an error the runtime reports with its address.
  for (auto [type, id] :
       {std::pair{KFD_IOC_EVENT_MEMORY, &memoryEventId},
        std::pair{KFD_IOC_EVENT_HW_EXCEPTION, &hwExceptionEventId}}) {
    kfd_ioctl_create_event_args args{};
    args.event_type = type;
    args.auto_reset = 1;
    args.node_id = node.node;
    if (Error e = process.ioctl(AMDKFD_IOC_CREATE_EVENT, &args, "CREATE_EVENT"))
      return prependContext(name + ": ", std::move(e));
    *id = args.event_id;
  }
  return Error::success();
}

Expected<std::pair<uint32_t, uint64_t>> KFDProcess::createEvent(Gpu &gpu) {
  std::lock_guard<std::mutex> lock(mutex);
  kfd_ioctl_create_event_args args{};
  if (!eventPage) {
    Expected<Gpu::Allocation> page = gpu.allocateUnrecorded(EVENT_PAGE_BYTES);
    if (!page)
      return page.takeError();
    // Slots read "unsignaled" until an event's GPU writes them
    // [kfd_events.h UNSIGNALED_EVENT_SLOT].
    std::memset(reinterpret_cast<void *>(page->address), 0xFF,
                EVENT_PAGE_BYTES);
    args.event_page_offset = page->handle;
    eventPage = page->address;
    eventPageHandle = page->handle;
    eventPageGpus.push_back(gpu.node.gpuId);
  } else if (!isContained(eventPageGpus, gpu.node.gpuId)) {
    if (Error e = gpu.mapToGpu(eventPageHandle))
      return std::move(e);
    eventPageGpus.push_back(gpu.node.gpuId);
  }
  args.event_type = KFD_IOC_EVENT_SIGNAL;
  args.auto_reset = 1;
  args.node_id = gpu.node.node;
  if (Error e = ioctl(AMDKFD_IOC_CREATE_EVENT, &args, "CREATE_EVENT"))
    return std::move(e);
  if (args.event_slot_index >= KFD_SIGNAL_EVENT_LIMIT)
    return runtimeError("KFD gave event slot " +
                        std::to_string(args.event_slot_index) +
                        ", past the event page");
  return std::make_pair(args.event_id,
                        eventPage + uint64_t(args.event_slot_index) * 8);
}

void Gpu::sleepUntilInterrupt(std::chrono::milliseconds slice) {
  // A failure or a timeout is a return too: the caller looks at its signal
  // again either way. Any of the three events ends the wait
  // [kfd_chardev.c kfd_ioctl_wait_events, wait_for_all 0]; a memory or
  // hardware exception comes back with its data filled in
  // [kfd_events.c copy_signaled_event_data].
  kfd_event_data events[3]{};
  events[0].event_id = eventId;
  events[1].event_id = memoryEventId;
  events[2].event_id = hwExceptionEventId;
  kfd_ioctl_wait_events_args args{};
  args.events_ptr = reinterpret_cast<uint64_t>(events);
  args.num_events = 3;
  args.wait_for_all = 0;
  args.timeout = uint32_t(std::max<int64_t>(slice.count(), 1));
  if (retryIoctl(process.fd, AMDKFD_IOC_WAIT_EVENTS, &args) != 0 ||
      args.wait_result != KFD_IOC_WAIT_RESULT_COMPLETE)
    return;
  // A page fault's data names the GPU: every memory event of the process
  // is set, whichever GPU faulted [kfd_signal_vm_fault_event].
  const kfd_hsa_memory_exception_data &memory = events[1].memory_exception_data;
  if (memory.gpu_id) {
    std::string what = memory.failure.imprecise
                           ? "at an address the GPU did not report"
                           : "at 0x" + toHex(memory.va, /*upper=*/true);
    // The interrupt handlers fill the failure bits from the fault's IH
    // entry: ReadOnly from prot_write (the access was a write), NoExecute
    // from prot_exec, NotPresent from prot_valid [kfd_int_process_v9.c
    // event_interrupt_wq_v9, kfd_int_process_v11.c event_interrupt_wq_v11,
    // then kfd_signal_vm_fault_event].
    std::string access = memory.failure.NoExecute  ? "an instruction fetch"
                         : memory.failure.ReadOnly ? "a write"
                                                   : "a read";
    std::string cause =
        access + (memory.failure.NotPresent ? ", no page mapped there"
                                            : ", a protection fault");
    Gpu *faulting = findOpen(memory.gpu_id);
    (faulting ? faulting : this)
        ->fault("GPU page fault " + what + ": " + cause +
                " (KFD memory exception; the GPU's queues are stopped)");
  }
  const kfd_hsa_hw_exception_data &hw = events[2].hw_exception_data;
  if (hw.gpu_id) {
    Gpu *faulting = findOpen(hw.gpu_id);
    (faulting ? faulting : this)
        ->fault(std::string("GPU reset (KFD hardware exception") +
                (hw.memory_lost ? ", its memory lost" : "") +
                "; the GPU's queues are stopped)");
  }
}

void Gpu::fault(const std::string &why) {
  std::vector<Queue *> stopping;
  {
    std::lock_guard<std::mutex> lock(mutex);
    // Nothing to stop (no device uses the GPU now): nothing to report to.
    if (faulted || queues.empty())
      return;
    faulted = true;
    stopping = queues;
  }
  // Every queue of the GPU reports it: each user of the GPU (a Runtime,
  // or a tool driving the GPU directly) takes its errors from its own
  // queues.
  for (Queue *queue : stopping) {
    queue->reportFault(name + ": " + why);
    queue->halt();
  }
}

Gpu::~Gpu() {
  if (eventId != NO_EVENT) {
    kfd_ioctl_destroy_event_args args{};
    args.event_id = eventId;
    consumeError(
        process.ioctl(AMDKFD_IOC_DESTROY_EVENT, &args, "DESTROY_EVENT"));
  }
  // What is left (the device frees its own first): unmapped, then freed, as
  // the driver requires.
  while (!allocations.empty())
    free(allocations.begin()->first);
  if (doorbells)
    ::munmap(reinterpret_cast<void *>(doorbells), DOORBELL_PAGE_BYTES);
  if (renderFd >= 0)
    ::close(renderFd);
}

Expected<uint64_t> Gpu::allocate(uint64_t bytes, Placement placement) {
  Expected<Allocation> allocation = allocateUnrecorded(bytes, placement);
  if (!allocation && placement != Placement::Host) {
    consumeError(allocation.takeError());
    allocation = allocateUnrecorded(bytes, Placement::Host);
  }
  if (!allocation)
    return allocation.takeError();
  // Every GPU of the process may copy from and to it: SDMA and kernels of
  // another GPU reach it only through a mapping in that GPU's VM, as
  // tinygrad maps memory on a peer before a copy. A peer that cannot map
  // it (VRAM without peer-to-peer access) is left out: its access is then a
  // page fault the runtime reports with the address.
  for (Gpu *peer : openPeers()) {
    if (Error e = mapToPeer(allocation->handle, *peer))
      consumeError(std::move(e));
    else
      allocation->peers.push_back(peer->node.gpuId);
  }
  std::lock_guard<std::mutex> lock(mutex);
  allocations[allocation->address] = *allocation;
  return allocation->address;
}

std::vector<Gpu *> Gpu::openPeers() {
  OpenGpus &gpus = openGpus();
  std::lock_guard<std::mutex> lock(gpus.mutex);
  std::vector<Gpu *> peers;
  for (auto &[index, gpu] : gpus.byIndex)
    if (gpu != this)
      peers.push_back(gpu);
  return peers;
}

Error Gpu::mapToPeer(uint64_t handle, const Gpu &peer) {
  uint32_t gpuId = peer.node.gpuId;
  kfd_ioctl_map_memory_to_gpu_args map{};
  map.handle = handle;
  map.device_ids_array_ptr = reinterpret_cast<uint64_t>(&gpuId);
  map.n_devices = 1;
  return process.ioctl(AMDKFD_IOC_MAP_MEMORY_TO_GPU, &map, "MAP_MEMORY_TO_GPU");
}

void Gpu::mapAllTo(Gpu &peer) {
  for (auto [from, to] : {std::pair{this, &peer}, std::pair{&peer, this}}) {
    std::lock_guard<std::mutex> lock(from->mutex);
    for (auto &[address, allocation] : from->allocations)
      if (!isContained(allocation.peers, to->node.gpuId)) {
        if (Error e = from->mapToPeer(allocation.handle, *to))
          consumeError(std::move(e));
        else
          allocation.peers.push_back(to->node.gpuId);
      }
  }
}

Expected<Gpu::Allocation> Gpu::allocateUnrecorded(uint64_t bytes,
                                                  Placement placement) {
  uint64_t size = alignTo(std::max<uint64_t>(bytes, 1), PAGE_BYTES);
  if (size < bytes)
    return runtimeError(name + ": cannot allocate " + std::to_string(bytes) +
                        " bytes");
  // Reserve the address range, then have KFD back it and map the backing
  // at the same address through the render node, so GPU VA = CPU VA
  // [docs/amd-facts.md#kfd-memory; tinygrad KFDIface.alloc].
  void *reserved = ::mmap(nullptr, size, PROT_NONE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (reserved == MAP_FAILED)
    return runtimeError(name + ": cannot reserve " + std::to_string(size) +
                        " bytes of address space: " + errnoText(errno));
  auto address = reinterpret_cast<uint64_t>(reserved);
  kfd_ioctl_alloc_memory_of_gpu_args alloc{};
  alloc.va_addr = address;
  alloc.size = size;
  alloc.gpu_id = node.gpuId;
  alloc.flags = KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
                KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE |
                KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE;
  // GTT: system memory the GPU reaches over PCIe; coherent and uncached,
  // so host writes need no flush before the GPU reads them. VRAM: the
  // GPU's own; PUBLIC asks for a CPU mapping through the BAR
  // [kfd_ioctl.h KFD_IOC_ALLOC_MEM_FLAGS_*; amdgpu_amdkfd_gpuvm.c: without
  // PUBLIC a VRAM BO is not CPU_ACCESS_REQUIRED, and NO_CPU_ACCESS on older
  // kernels; docs/amd-facts.md#kfd-memory]. Host writes to it pass the
  // HDP, which each run's first compute submit flushes (hcq.barrier).
  bool hostMapped = placement != Placement::Device;
  if (placement == Placement::Host)
    alloc.flags |= KFD_IOC_ALLOC_MEM_FLAGS_GTT |
                   KFD_IOC_ALLOC_MEM_FLAGS_COHERENT |
                   KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED;
  else
    alloc.flags |= KFD_IOC_ALLOC_MEM_FLAGS_VRAM |
                   (hostMapped ? KFD_IOC_ALLOC_MEM_FLAGS_PUBLIC : 0);
  if (Error e = process.ioctl(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &alloc,
                              "ALLOC_MEMORY_OF_GPU")) {
    ::munmap(reserved, size);
    return runtimeError(name + ": " + toString(std::move(e)) + " for " +
                        std::to_string(size) + " bytes");
  }
  auto undo = [&](Error e) -> Error {
    kfd_ioctl_free_memory_of_gpu_args free{};
    free.handle = alloc.handle;
    consumeError(process.ioctl(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &free, "FREE"));
    ::munmap(reserved, size);
    return runtimeError(name + ": " + toString(std::move(e)));
  };
  if (hostMapped) {
    void *mapped =
        ::mmap(reserved, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
               renderFd, off_t(alloc.mmap_offset));
    if (mapped != reserved)
      return undo(runtimeError("cannot map GPU memory at 0x" +
                               toHex(address, /*upper=*/true) + ": " +
                               errnoText(errno)));
  }
  if (Error e = mapToGpu(alloc.handle))
    return undo(std::move(e));
  if (hostMapped)
    std::memset(reserved, 0, size);
  return Allocation{address, alloc.handle, size, /*hostPages=*/false, {}};
}

Error Gpu::mapToGpu(uint64_t handle) { return mapToPeer(handle, *this); }

Error Gpu::registerHostPages(uint64_t address, uint64_t bytes) {
  // A user pointer: KFD pins the process's own pages behind a buffer at
  // GPU address `va_addr`; the user address goes in mmap_offset
  // [kfd_chardev.c kfd_ioctl_alloc_memory_of_gpu; amdgpu_amdkfd_gpuvm.c
  // amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu: USERPTR takes *offset as the
  // user address, 0 is EINVAL; libhsakmt fmm.c registers host memory with
  // va_addr = mmap_offset = its address]. Coherent and uncached as GTT
  // memory is here, so the host polls the signals the GPU stores there
  // [amdgpu_amdkfd_gpuvm.c get_pte_flags].
  kfd_ioctl_alloc_memory_of_gpu_args alloc{};
  alloc.va_addr = address;
  alloc.size = bytes;
  alloc.gpu_id = node.gpuId;
  alloc.mmap_offset = address;
  alloc.flags =
      KFD_IOC_ALLOC_MEM_FLAGS_USERPTR | KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
      KFD_IOC_ALLOC_MEM_FLAGS_NO_SUBSTITUTE | KFD_IOC_ALLOC_MEM_FLAGS_COHERENT |
      KFD_IOC_ALLOC_MEM_FLAGS_UNCACHED;
  if (Error e = process.ioctl(AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, &alloc,
                              "ALLOC_MEMORY_OF_GPU (user pointer)"))
    return prependContext(name + ": registering host memory at 0x" +
                              toHex(address, /*upper=*/true) + " (" +
                              std::to_string(bytes) + " bytes): ",
                          std::move(e));
  Allocation allocation{address, alloc.handle, bytes, /*hostPages=*/true, {}};
  if (Error e = mapToGpu(alloc.handle)) {
    kfd_ioctl_free_memory_of_gpu_args free{};
    free.handle = alloc.handle;
    consumeError(process.ioctl(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &free, "FREE"));
    return prependContext(name + ": ", std::move(e));
  }
  for (Gpu *peer : openPeers()) {
    if (Error e = mapToPeer(allocation.handle, *peer))
      consumeError(std::move(e));
    else
      allocation.peers.push_back(peer->node.gpuId);
  }
  std::lock_guard<std::mutex> lock(mutex);
  allocations[address] = allocation;
  return Error::success();
}

//===----------------------------------------------------------------------===//
// HostPages
//===----------------------------------------------------------------------===//

namespace {
uint64_t firstPage(uint64_t address) { return address & ~(PAGE_BYTES - 1); }
} // namespace

HostPages &HostPages::get() {
  static HostPages *pages = new HostPages;
  return *pages;
}

Error HostPages::add(uint64_t address, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  if (owner)
    if (Error e = cover(*owner, firstPage(address),
                        alignTo(address + bytes, PAGE_BYTES)))
      return e;
  ranges[address] = bytes;
  return Error::success();
}

void HostPages::remove(uint64_t address) {
  std::lock_guard<std::mutex> lock(mutex);
  auto it = ranges.find(address);
  if (it == ranges.end())
    return;
  if (owner)
    uncover(firstPage(address), alignTo(address + it->second, PAGE_BYTES));
  ranges.erase(it);
}

Error HostPages::gpuOpened(Gpu &gpu) {
  std::lock_guard<std::mutex> lock(mutex);
  if (owner)
    return Error::success(); // the owner's registrations map on it
  for (auto it = ranges.begin(); it != ranges.end(); ++it)
    if (Error e = cover(gpu, firstPage(it->first),
                        alignTo(it->first + it->second, PAGE_BYTES))) {
      // Nothing half done: what was covered is uncovered again.
      for (auto done = ranges.begin(); done != it; ++done)
        uncover(firstPage(done->first),
                alignTo(done->first + done->second, PAGE_BYTES));
      return e;
    }
  owner = &gpu;
  return Error::success();
}

bool HostPages::covers(uint64_t address, uint64_t bytes) {
  std::lock_guard<std::mutex> lock(mutex);
  if (!owner)
    return true;
  auto it = ranges.upper_bound(address);
  if (it == ranges.begin())
    return false;
  --it;
  return address - it->first <= it->second &&
         bytes <= it->second - (address - it->first);
}

Error HostPages::cover(Gpu &gpu, uint64_t begin, uint64_t end) {
  // The registrations overlapping [begin, end) gain a user; the gaps
  // between them get registrations of their own. Registrations never
  // overlap: a GPU VM maps one buffer per address.
  std::vector<uint64_t> counted;
  auto undo = [&](Error e) {
    for (uint64_t first : counted)
      if (--registered[first].users == 0) {
        gpu.free(first);
        registered.erase(first);
      }
    return e;
  };
  uint64_t at = begin;
  auto it = registered.upper_bound(at);
  if (it != registered.begin() && std::prev(it)->second.end > at)
    --it;
  while (at < end) {
    if (it != registered.end() && it->first <= at) {
      ++it->second.users;
      counted.push_back(it->first);
      at = it->second.end;
      ++it;
      continue;
    }
    uint64_t gapEnd = it == registered.end() ? end : std::min(end, it->first);
    if (Error e = gpu.registerHostPages(at, gapEnd - at))
      return undo(std::move(e));
    registered[at] = Registration{gapEnd, 1};
    counted.push_back(at);
    at = gapEnd;
  }
  return Error::success();
}

void HostPages::uncover(uint64_t begin, uint64_t end) {
  auto it = registered.upper_bound(begin);
  if (it != registered.begin() && std::prev(it)->second.end > begin)
    --it;
  while (it != registered.end() && it->first < end) {
    if (--it->second.users == 0) {
      owner->free(it->first);
      it = registered.erase(it);
    } else {
      ++it;
    }
  }
}

void Gpu::free(uint64_t address) {
  Allocation allocation;
  {
    std::lock_guard<std::mutex> lock(mutex);
    auto it = allocations.find(address);
    if (it == allocations.end())
      return;
    allocation = it->second;
    allocations.erase(it);
  }
  // Unmapped from every GPU it is mapped on before it is freed
  // [kfd_chardev.c kfd_ioctl_free_memory_of_gpu refuses mapped memory].
  std::vector<uint32_t> gpuIds = allocation.peers;
  gpuIds.insert(gpuIds.begin(), node.gpuId);
  kfd_ioctl_unmap_memory_from_gpu_args unmap{};
  unmap.handle = allocation.handle;
  unmap.device_ids_array_ptr = reinterpret_cast<uint64_t>(gpuIds.data());
  unmap.n_devices = uint32_t(gpuIds.size());
  consumeError(process.ioctl(AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, &unmap,
                             "UNMAP_MEMORY_FROM_GPU"));
  kfd_ioctl_free_memory_of_gpu_args args{};
  args.handle = allocation.handle;
  consumeError(
      process.ioctl(AMDKFD_IOC_FREE_MEMORY_OF_GPU, &args, "FREE_MEMORY"));
  if (!allocation.hostPages)
    ::munmap(reinterpret_cast<void *>(address), allocation.bytes);
}

Expected<uint64_t> Gpu::doorbellPage(uint64_t doorbellOffset) {
  // The process's doorbells on this GPU: two pages of /dev/kfd at the
  // doorbell offset's page [docs/amd-facts.md#doorbells; tinygrad
  // KFDIface].
  std::lock_guard<std::mutex> lock(mutex);
  uint64_t base = doorbellOffset & ~uint64_t(DOORBELL_PAGE_BYTES - 1);
  if (!doorbells) {
    void *page = ::mmap(nullptr, DOORBELL_PAGE_BYTES, PROT_READ | PROT_WRITE,
                        MAP_SHARED, process.fd, off_t(base));
    if (page == MAP_FAILED)
      return runtimeError(name +
                          ": cannot map the doorbells: " + errnoText(errno));
    doorbells = reinterpret_cast<uint64_t>(page);
    doorbellBase = base;
  }
  if (base != doorbellBase)
    return runtimeError(name + ": KFD gave a doorbell outside the process's "
                               "doorbell page");
  return doorbells + (doorbellOffset - base);
}

Error Gpu::destroyQueue(uint32_t queueId) {
  kfd_ioctl_destroy_queue_args args{};
  args.queue_id = queueId;
  return process.ioctl(AMDKFD_IOC_DESTROY_QUEUE, &args, "DESTROY_QUEUE");
}

/// A KFD user-mode queue: the host side is AMDRing's; the GPU executes it.
class KFDQueue : public AMDRing {
public:
  KFDQueue(Gpu &gpu, std::string name, bool pm4, const RingMemory &memory,
           std::chrono::milliseconds timeout, std::shared_ptr<QueueFlags> flags)
      : AMDRing(std::move(name), pm4, memory, timeout, std::move(flags),
                /*reservedUnits=*/pm4 ? 1 : 0),
        gpu(gpu) {}
  ~KFDQueue() override {
    {
      std::lock_guard<std::mutex> lock(gpu.mutex);
      gpu.queues.erase(std::find(gpu.queues.begin(), gpu.queues.end(), this));
      // The GPU outlives its devices: once a faulted device's queues are
      // gone, the next device on it reports its own faults.
      if (gpu.queues.empty())
        gpu.faulted = false;
    }
    halt();
    for (uint64_t address : owned)
      gpu.free(address);
  }

  void halt() override {
    // A fault seen by one host thread and a hang seen by another may both
    // halt the queue: it is destroyed once.
    uint32_t id = queueId.exchange(NO_QUEUE);
    if (id != NO_QUEUE)
      consumeError(gpu.destroyQueue(id));
  }
  bool isHalted() const override { return queueId.load() == NO_QUEUE; }

  /// Nothing on the host knows what the GPU is doing: anything that stops
  /// it is a hang.
  std::string describeRunning() const override {
    if (idle())
      return {};
    return "the work at read pointer " + std::to_string(readPointer()) +
           " (write pointer " +
           std::to_string(wptr.load(std::memory_order_acquire)) +
           "; the raw read-pointer word 0x" + toHex(rawReadPointer()) + ")";
  }

  /// A PM4 compute queue's CP reports its read pointer as a 32-bit dword
  /// offset into the ring, wrapping at the ring's size, and only when it
  /// crosses an RPTR_BLOCK_SIZE block [kfd_mqd_manager_v9.c/_v11.c
  /// update_mqd: cp_hqd_pq_control, cp_hqd_pq_rptr_report_addr; amdgpu
  /// gfx_v9_0_ring_get_rptr_compute: "gfx9 hardware is 32bit rptr"]; when
  /// the CP writes the last block's report is not documented. So neither
  /// idleness nor ring room depends on it: both come from the completion
  /// store closing every push (AMDRing::readPointer, RingMemory::done).
  /// Nor is the report used as a lower bound: a wrapped offset is placed
  /// only relative to a position it is known to be within a lap of, and a
  /// report that is late (or never written) can be more than a lap behind
  /// once the completion word let the host refill the ring. The raw word is
  /// printed in hang reports. SDMA's read pointer is a 64-bit byte count
  /// the engine writes back [sdma_v4_0.c, sdma_v6_0.c ring_get_rptr] and is
  /// read as it is.
  uint64_t rawReadPointer() const {
    return rptr.load(std::memory_order_acquire);
  }

  static constexpr uint32_t NO_QUEUE = ~0u;
  std::atomic<uint32_t> queueId{NO_QUEUE};
  std::vector<uint64_t> owned; // EOP and context-save areas

private:
  void drain() override {} // the GPU drains it; no thread runs this
  Gpu &gpu;
};

Expected<std::unique_ptr<Queue>>
Gpu::createQueue(std::string queueName, bool pm4, RingMemory memory,
                 std::chrono::milliseconds timeout,
                 std::shared_ptr<QueueFlags> flags) {
  kfd_ioctl_create_queue_args args{};
  args.ring_base_address = reinterpret_cast<uint64_t>(memory.ring);
  args.ring_size = uint32_t(memory.ringBytes);
  args.write_pointer_address = memory.wptr;
  args.read_pointer_address = memory.rptr;
  args.gpu_id = node.gpuId;
  args.queue_type = pm4 ? KFD_IOC_QUEUE_TYPE_COMPUTE : KFD_IOC_QUEUE_TYPE_SDMA;
  args.queue_percentage = KFD_MAX_QUEUE_PERCENTAGE;
  // Normal priority: 7 of 0..KFD_MAX_QUEUE_PRIORITY (15), what libhsakmt
  // gives HSA_QUEUE_PRIORITY_NORMAL.
  args.queue_priority = 7;
  std::vector<uint64_t> owned;
  auto release = [&] {
    for (uint64_t address : owned)
      free(address);
  };
  if (pm4) {
    // A compute queue needs an end-of-pipe buffer and a context save area
    // for wave save/restore, of the sizes the kernel checks
    // [kfd_queue.c kfd_queue_acquire_buffers]: the save area one mapping of
    // (ctx_save_restore_size + debugger bytes), page-aligned.
    GpuNode::SaveAreaSizes sizes = node.saveAreaSizes();
    uint64_t cwsrBytes = alignTo(sizes.cwsr + sizes.debugMemory, PAGE_BYTES);
    Expected<uint64_t> eop = allocate(EOP_BYTES);
    if (!eop)
      return eop.takeError();
    owned.push_back(*eop);
    Expected<uint64_t> cwsr = allocate(cwsrBytes);
    if (!cwsr) {
      release();
      return cwsr.takeError();
    }
    owned.push_back(*cwsr);
    args.eop_buffer_address = *eop;
    args.eop_buffer_size = EOP_BYTES;
    args.ctx_save_restore_address = *cwsr;
    args.ctx_save_restore_size = uint32_t(sizes.cwsr);
    args.ctl_stack_size = uint32_t(sizes.ctlStack);
  }
  if (Error e = process.ioctl(AMDKFD_IOC_CREATE_QUEUE, &args, "CREATE_QUEUE")) {
    release();
    return runtimeError(queueName + ": " + toString(std::move(e)));
  }
  Expected<uint64_t> doorbell = doorbellPage(args.doorbell_offset);
  if (!doorbell) {
    consumeError(destroyQueue(args.queue_id));
    release();
    return doorbell.takeError();
  }
  memory.doorbell = *doorbell;
  auto queue = std::make_unique<KFDQueue>(*this, std::move(queueName), pm4,
                                          memory, timeout, std::move(flags));
  queue->queueId = args.queue_id;
  queue->owned = std::move(owned);
  {
    std::lock_guard<std::mutex> lock(mutex);
    queues.push_back(queue.get());
  }
  return std::move(queue);
}

Expected<Gpu::ClockSample> Gpu::sampleClock() {
  // GPU ticks with CLOCK_MONOTONIC_RAW at one moment [Linux amdkfd
  // kfd_chardev.c kfd_ioctl_get_clock_counters]; the host's CLOCK_MONOTONIC
  // (what CPU timestamps count) is read around it.
  kfd_ioctl_get_clock_counters_args args{};
  args.gpu_id = node.gpuId;
  uint64_t before = monotonicNs(CLOCK_MONOTONIC),
           beforeRaw = monotonicNs(CLOCK_MONOTONIC_RAW);
  if (Error e = process.ioctl(AMDKFD_IOC_GET_CLOCK_COUNTERS, &args,
                              "GET_CLOCK_COUNTERS"))
    return runtimeError(name + ": " + toString(std::move(e)));
  int64_t rawToMonotonic = int64_t(before) - int64_t(beforeRaw);
  return ClockSample{
      args.gpu_clock_counter,
      uint64_t(int64_t(args.cpu_clock_counter) + rawToMonotonic)};
}

uint64_t Gpu::toHostNs(uint64_t ticks) {
  // From the latest clock sample, at the driver's counter rate; samples are
  // taken again every 100 ms, so the two clocks' drift does not add up.
  std::lock_guard<std::mutex> lock(mutex);
  if (monotonicNs(CLOCK_MONOTONIC) - lastClock.hostNs > 100000000) {
    if (Expected<ClockSample> sample = sampleClock())
      lastClock = *sample;
    else
      consumeError(sample.takeError());
  }
  return uint64_t(int64_t(lastClock.hostNs) +
                  int64_t(double(int64_t(ticks - lastClock.gpu)) * nsPerTick));
}

} // namespace hcq::runtime::kfd
