//===- hcq-amd-check.cpp - Bring-up check of one AMD GPU through KFD ------===//
//
// For the first person to run hcq on an AMD GPU: checks the hardware AMD
// device (the amd-kfd driver, lib/Runtime/Drivers/AMDKFD) step by step,
// printing for each step its name, PASS or FAIL and what it saw, and stops
// at the first failure saying which step failed and why:
//
//   1 topology  the KFD topology's GPU nodes and the chosen one's facts
//   2 open      /dev/kfd, the render node, ACQUIRE_VM, the interrupt event
//   3 memory    one allocation of each placement, written and read back
//   4 queues    a compute and an SDMA queue, made as the runtime makes them
//   5 submit    an empty indirect buffer, then a RELEASE_MEM; the raw
//               read-pointer word the command processor wrote
//   6 kernel    the builtin copy kernel, through the Runtime
//   7 copy      an SDMA copy, through the Runtime
//   8 submits   many submits on the compute queue (several laps of its
//               ring), then as many runs of the kernel through the Runtime
//   9 fault     an SDMA copy from an address no GPU mapping covers: the
//               runtime must report a device fault naming the page (a
//               hang after the timeout fails)
//
// The fault runs last: at a GPU page fault KFD evicts every queue of the
// process on that GPU [Linux amdkfd kfd_int_process_v9.c
// event_interrupt_wq_v9: kfd_dqm_evict_pasid]. LLVM-free: the executables
// steps 6 to 9 run are compiled at build time
// (tools/hcq-amd-check/CMakeLists.txt). Nothing here has run on an AMD GPU
// yet; CI runs it against the simulated kernel driver (test/KFDSim).
//
//===----------------------------------------------------------------------===//

#include "KFD.h"

#include "HCQ/Base/Strings.h"
#include "HCQ/Runtime/Executable.h"
#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/PacketSink.h"
#include "HCQ/Target/AMD/Target.h"

#include <linux/kfd_ioctl.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <time.h>
#include <type_traits>
#include <unistd.h>

using namespace hcq;
using namespace hcq::runtime;

namespace {

#ifndef HCQ_AMD_CHECK_EXECUTABLES
#define HCQ_AMD_CHECK_EXECUTABLES "."
#endif
#ifndef HCQ_AMD_CHECK_GPUS
#define HCQ_AMD_CHECK_GPUS 8
#endif

constexpr const char *STEP_NAMES[] = {"topology", "open",    "memory",
                                      "queues",   "submit",  "kernel",
                                      "copy",     "submits", "fault"};
constexpr unsigned NUM_STEPS = sizeof(STEP_NAMES) / sizeof(STEP_NAMES[0]);

struct Options {
  unsigned gpu = 0;
  std::chrono::milliseconds timeout{3000};
  uint64_t submits = 100000;
  bool steps[NUM_STEPS] = {};
  std::string executables = HCQ_AMD_CHECK_EXECUTABLES;
};

/// What a step saw: lines to print, and why it failed, if it did.
struct Report {
  std::vector<std::string> lines;
  std::string failure;

  template <typename... Parts> void say(const Parts &...parts) {
    lines.push_back(concat(parts...));
  }
  template <typename... Parts> bool fail(const Parts &...parts) {
    failure = concat(parts...);
    return false;
  }
  template <typename... Parts> static std::string concat(const Parts &...p) {
    std::string s;
    (append(s, p), ...);
    return s;
  }
  template <typename T> static void append(std::string &s, const T &value) {
    if constexpr (std::is_convertible_v<const T &, std::string_view>)
      s += std::string_view(value);
    else
      s += std::to_string(value);
  }
};

std::string hex(uint64_t value) { return "0x" + toHex(value); }

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// The line of /proc/self/maps whose mapping holds `address`: its
/// permissions and what is mapped ("rw-s /dev/dri/renderD128"), or "no
/// mapping".
std::string hostMapping(uint64_t address) {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    auto [range, rest] = splitOnce(line, ' ');
    auto [from, to] = splitOnce(range, '-');
    std::optional<uint64_t> begin = parseUnsigned(from, 16),
                            end = parseUnsigned(to, 16);
    if (!begin || !end || address < *begin || address >= *end)
      continue;
    std::vector<std::string_view> fields;
    for (std::string_view f : splitAll(rest, ' '))
      if (!f.empty())
        fields.push_back(f);
    std::string what(fields.empty() ? "?" : fields[0]);
    if (fields.size() > 4)
      what += " " + std::string(fields[4]);
    else
      what += " (anonymous)";
    return what;
  }
  return "no mapping";
}

/// Waits until `done()` or until `watched()` has not changed for `timeout`.
template <typename Done, typename Watched>
bool waitFor(Done done, Watched watched, std::chrono::milliseconds timeout) {
  uint64_t last = watched(), since = nowNs();
  uint64_t limit = uint64_t(timeout.count()) * 1000000;
  while (!done()) {
    uint64_t value = watched(), now = nowNs();
    if (value != last) {
      last = value;
      since = now;
    } else if (now - since > limit) {
      return false;
    }
    std::this_thread::yield();
  }
  return true;
}

class Check {
public:
  explicit Check(Options options) : opts(std::move(options)) {}
  ~Check();

  /// Runs the chosen steps; the exit status.
  int run();

private:
  using Step = bool (Check::*)(Report &);
  bool topology(Report &r);
  bool open(Report &r);
  bool memory(Report &r);
  bool queues(Report &r);
  bool submit(Report &r);
  bool kernel(Report &r);
  bool copy(Report &r);
  bool submits(Report &r);
  bool fault(Report &r);

  /// What later steps need from earlier ones, made quietly when the earlier
  /// step was not chosen; false with `r`'s failure set otherwise.
  bool needGpu(Report &r);
  bool needQueues(Report &r);
  bool needRuntime(Report &r);
  /// The executable of `variant` ("kernel", "sdma") for this GPU, loaded.
  LoadedExecutable *needExecutable(Report &r, const std::string &variant);

  /// Memory on the GPU, freed when the check ends.
  Expected<uint64_t> allocate(uint64_t bytes, Placement placement);
  /// Pushes an INDIRECT_BUFFER of the empty buffer, then (if `signalAt`) a
  /// RELEASE_MEM writing `value` there, onto the compute queue.
  Error pushSubmit(uint64_t signalAt, uint64_t value);
  /// Runs `exe`, a 4 KiB copy between two fresh buffers, and checks them.
  bool runCopy(Report &r, LoadedExecutable &exe, const char *what);
  /// The whole 64-bit word at a read pointer's address, in hex.
  std::string rptrWord(uint64_t address);

  Options opts;
  std::vector<kfd::GpuNode> nodes;
  kfd::Gpu *gpu = nullptr;
  std::shared_ptr<QueueFlags> flags = std::make_shared<QueueFlags>();
  std::unique_ptr<Queue> computeQueue, sdmaQueue;
  uint64_t computeRptr = 0, computeWptr = 0, sdmaRptr = 0;
  uint64_t emptyBuffer = 0, signal = 0;
  std::vector<uint64_t> owned;
  std::shared_ptr<Runtime> runtime;
  std::map<std::string, std::unique_ptr<LoadedExecutable>> loaded;
  /// The queues' ring size: the runtime's default.
  const uint64_t ringBytes = 1 << 20;
};

Check::~Check() {
  loaded.clear();
  runtime.reset();
  // The queues go before the memory they read, as a device's do.
  computeQueue.reset();
  sdmaQueue.reset();
  if (gpu)
    for (uint64_t address : owned)
      gpu->free(address);
}

int Check::run() {
  static constexpr Step steps[NUM_STEPS] = {
      &Check::topology, &Check::open,    &Check::memory,
      &Check::queues,   &Check::submit,  &Check::kernel,
      &Check::copy,     &Check::submits, &Check::fault};
  std::printf("hcq-amd-check: AMD:%u, wait timeout %lld ms, %llu submits "
              "(nothing in hcq has been checked on an AMD GPU before: please "
              "send this whole output back)\n",
              opts.gpu, (long long)opts.timeout.count(),
              (unsigned long long)opts.submits);
  unsigned ran = 0;
  for (unsigned i = 0; i < NUM_STEPS; ++i) {
    if (!opts.steps[i])
      continue;
    Report r;
    uint64_t start = nowNs();
    bool pass = (this->*steps[i])(r);
    double ms = double(nowNs() - start) / 1e6;
    std::printf("step %u %s: %s (%.1f ms)\n", i + 1, STEP_NAMES[i],
                pass ? "PASS" : "FAIL", ms);
    for (const std::string &line : r.lines)
      std::printf("  %s\n", line.c_str());
    if (!pass) {
      std::printf("  why: %s\n", r.failure.c_str());
      std::printf("hcq-amd-check: FAILED at step %u (%s): %s\n", i + 1,
                  STEP_NAMES[i], r.failure.c_str());
      std::fflush(stdout);
      return 1;
    }
    std::fflush(stdout);
    ++ran;
  }
  std::printf("hcq-amd-check: every step run passed (%u of %u)\n", ran,
              NUM_STEPS);
  return 0;
}

//===----------------------------------------------------------------------===//
// 1. topology
//===----------------------------------------------------------------------===//

bool Check::topology(Report &r) {
  Expected<std::vector<kfd::GpuNode>> read = kfd::readTopology();
  if (!read)
    return r.fail(toString(read.takeError()));
  nodes = std::move(*read);
  r.say("KFD topology ", kfd::TOPOLOGY_NODES, ": ", nodes.size(),
        nodes.size() == 1 ? " GPU" : " GPUs",
        " this process may see (hidden ones skipped)");
  for (unsigned i = 0; i < nodes.size(); ++i) {
    const kfd::GpuNode &n = nodes[i];
    std::string target = n.targetName();
    bool known = amd::lookupTarget(target).has_value();
    r.say("AMD:", i, ": node ", n.node, ", gpu_id ", hex(n.gpuId), ", ", target,
          " (gfx_target_version ", n.gfxTargetVersion,
          known ? "" : ", which hcq does not encode for", "), ",
          n.computeUnits(), " CUs, ", n.shaderEngines(), " shader engines, ",
          n.numXcc, " XCC", n.numXcc == 1 ? "" : "s",
          ", render node /dev/dri/renderD", n.drmRenderMinor);
  }
  if (opts.gpu >= nodes.size())
    return r.fail("no AMD:", opts.gpu, ": the topology has ", nodes.size(),
                  nodes.size() == 1 ? " GPU" : " GPUs",
                  " this process may see (render group? a container given "
                  "another render node?)");
  const kfd::GpuNode &n = nodes[opts.gpu];
  kfd::GpuNode::SaveAreaSizes formula = n.computeSaveAreaSizes(),
                              used = n.saveAreaSizes();
  auto compare = [&](const char *what, uint32_t published, uint64_t computed) {
    if (!published)
      r.say(what, ": not published by this kernel; the runtime's formula ",
            "gives ", hex(computed), " and is used");
    else if (published == computed)
      r.say(what, ": published ", hex(published),
            ", the runtime's formula agrees");
    else
      r.say(what, ": published ", hex(published),
            ", the runtime's formula gives ", hex(computed),
            " (MISMATCH: the runtime uses the published value; please "
            "report this line)");
  };
  compare("cwsr_size", n.cwsrSize, formula.cwsr);
  compare("ctl_stack_size", n.ctlStackSize, formula.ctlStack);
  r.say("a compute queue's context save area: ", hex(used.cwsr), " + ",
        hex(used.debugMemory), " debugger bytes, control stack ",
        hex(used.ctlStack));
  std::string target = n.targetName();
  if (!amd::lookupTarget(target))
    return r.fail("AMD:", opts.gpu, " is a ", target,
                  ", which hcq does not encode for (it does ",
                  amd::listTargetNames(), "); pick another with --gpu");
  if (n.numXcc != 1)
    return r.fail("AMD:", opts.gpu, " has ", n.numXcc,
                  " XCCs, which hcq does not drive yet: partition it into one "
                  "device per XCC (CPX mode)");
  return true;
}

//===----------------------------------------------------------------------===//
// 2. open
//===----------------------------------------------------------------------===//

bool Check::open(Report &r) {
  // The version on a file of our own: the runtime's stays inside it.
  int fd = ::open("/dev/kfd", O_RDWR | O_CLOEXEC);
  if (fd < 0)
    return r.fail("cannot open /dev/kfd: ", std::strerror(errno),
                  " (is the amdgpu driver loaded, and is this user in the "
                  "render group?)");
  kfd_ioctl_get_version_args version{};
  int rc = ::ioctl(fd, AMDKFD_IOC_GET_VERSION, &version);
  int error = errno;
  ::close(fd);
  if (rc != 0)
    return r.fail("/dev/kfd: GET_VERSION failed: ", std::strerror(error));
  r.say("/dev/kfd: KFD ioctl version ", version.major_version, ".",
        version.minor_version, " (hcq was built against ",
        KFD_IOCTL_MAJOR_VERSION, ".", KFD_IOCTL_MINOR_VERSION, ")");
  if (!needGpu(r))
    return false;
  const kfd::GpuNode &n = gpu->getNode();
  r.say(gpu->getName(), " (", gpu->getTargetName(), "): /dev/dri/renderD",
        n.drmRenderMinor,
        " opened, AMDGPU_INFO read, ACQUIRE_VM done, clock sampled");
  r.say("interrupt event: id ", gpu->getEventId(), ", mailbox ",
        hex(gpu->getEventMailbox()));
  // The counter rate the driver gave, as toHostNs applies it.
  uint64_t base = uint64_t(1) << 40;
  int64_t ns = int64_t(gpu->toHostNs(base + 1000000) - gpu->toHostNs(base));
  if (ns > 0)
    r.say("GPU timestamp counter: ", uint64_t(1e9 / double(ns) + 0.5),
          " MHz (AMDGPU_INFO's gpu_counter_freq, as the runtime applies it)");
  return true;
}

bool Check::needGpu(Report &r) {
  if (gpu)
    return true;
  Expected<kfd::Gpu *> got = kfd::Gpu::get(opts.gpu);
  if (!got)
    return r.fail(toString(got.takeError()));
  gpu = *got;
  return true;
}

//===----------------------------------------------------------------------===//
// 3. memory
//===----------------------------------------------------------------------===//

Expected<uint64_t> Check::allocate(uint64_t bytes, Placement placement) {
  Expected<uint64_t> address = gpu->allocate(bytes, placement);
  if (address)
    owned.push_back(*address);
  return address;
}

bool Check::memory(Report &r) {
  if (!needGpu(r))
    return false;
  constexpr uint64_t BYTES = 64 << 10;
  struct Kind {
    Placement placement;
    const char *name;
  } kinds[] = {{Placement::Host, "Host (GTT, coherent, uncached)"},
               {Placement::Device, "Device (VRAM the host cannot map)"},
               {Placement::DeviceHostWritten, "DeviceHostWritten (VRAM "
                                              "through the BAR)"}};
  for (const Kind &kind : kinds) {
    Expected<uint64_t> address = gpu->allocate(BYTES, kind.placement);
    if (!address)
      return r.fail(kind.name, ": ", toString(address.takeError()));
    std::string mapping = hostMapping(*address);
    bool hostMapped = mapping.size() > 1 && mapping[0] == 'r';
    std::string seen = kind.name + std::string(": 64 KiB at ") + hex(*address) +
                       ", host view " + mapping;
    if (kind.placement == Placement::Device) {
      // The runtime maps it for the host only where the driver gave GTT
      // instead; VRAM stays the reserved range (---p). A simulated driver's
      // GPU memory is the host's, so it shows mapped there.
      r.say(seen, " (not mapped by the runtime; ---p: VRAM, a render-node ",
            "mapping: the GTT fallback)");
    } else if (!hostMapped) {
      gpu->free(*address);
      return r.fail(seen, ": the host cannot read it");
    } else {
      auto *words = reinterpret_cast<volatile uint32_t *>(*address);
      uint64_t count = BYTES / 4, bad = count;
      for (uint64_t i = 0; i < count; ++i)
        words[i] = uint32_t(i * 2654435761u) ^ 0xA5A5A5A5;
      for (uint64_t i = 0; i < count && bad == count; ++i)
        if (words[i] != (uint32_t(i * 2654435761u) ^ 0xA5A5A5A5))
          bad = i;
      if (bad != count) {
        gpu->free(*address);
        return r.fail(seen, ": word ", bad, " read back ", hex(words[bad]),
                      " after it was written");
      }
      r.say(seen, ", written and read back");
    }
    gpu->free(*address);
  }
  return true;
}

//===----------------------------------------------------------------------===//
// 4. queues
//===----------------------------------------------------------------------===//

bool Check::queues(Report &r) {
  if (!needQueues(r))
    return false;
  const kfd::GpuNode &n = gpu->getNode();
  kfd::GpuNode::SaveAreaSizes sizes = n.saveAreaSizes();
  r.say(computeQueue->getName(), ": PM4, ", ringBytes, "-byte ring, read ",
        "pointer at ", hex(computeRptr), " (raw word ", rptrWord(computeRptr),
        "), write pointer at ", hex(computeWptr), ", EOP ", kfd::EOP_BYTES,
        " bytes, save area ", hex(sizes.cwsr), " (control stack ",
        hex(sizes.ctlStack), ")");
  r.say(sdmaQueue->getName(), ": SDMA, ", ringBytes, "-byte ring, read ",
        "pointer at ", hex(sdmaRptr), " (raw word ", rptrWord(sdmaRptr), ")");
  return true;
}

bool Check::needQueues(Report &r) {
  if (computeQueue)
    return true;
  if (!needGpu(r))
    return false;
  // As the amd-kfd driver lays them out (KFDDriver.cpp): the ring the start
  // of an allocation of exactly its size, the read and write pointers each
  // the start of a page of their own, all system memory.
  auto make = [&](bool pm4, uint64_t &rptrAt, uint64_t *wptrAt,
                  std::unique_ptr<Queue> &queue) -> bool {
    std::string name = gpu->getName() + (pm4 ? " COMPUTE:0" : " SDMA:0") +
                       " (hcq-amd-check's)";
    uint64_t addresses[3];
    uint64_t sizes[3] = {ringBytes, kfd::PAGE_BYTES, kfd::PAGE_BYTES};
    for (unsigned i = 0; i < 3; ++i) {
      Expected<uint64_t> address = allocate(sizes[i], Placement::Host);
      if (!address)
        return r.fail(name, ": ", toString(address.takeError()));
      addresses[i] = *address;
    }
    uint64_t *ring = &addresses[0], *writePage = &addresses[1],
             *readPage = &addresses[2];
    RingMemory memory;
    memory.ring = reinterpret_cast<uint8_t *>(*ring);
    memory.ringBytes = ringBytes;
    memory.wptr = *writePage;
    memory.put = *writePage + 8;
    memory.rptr = *readPage;
    if (pm4)
      memory.done = *readPage + kfd::COMPLETION_WORD_OFFSET;
    Expected<std::unique_ptr<Queue>> made =
        gpu->createQueue(name, pm4, memory, opts.timeout, flags);
    if (!made)
      return r.fail(toString(made.takeError()));
    queue = std::move(*made);
    rptrAt = memory.rptr;
    if (wptrAt)
      *wptrAt = memory.wptr;
    return true;
  };
  if (!make(true, computeRptr, &computeWptr, computeQueue))
    return false;
  if (!make(false, sdmaRptr, nullptr, sdmaQueue)) {
    computeQueue.reset();
    return false;
  }
  return true;
}

std::string Check::rptrWord(uint64_t address) {
  return hex(word(address).load(std::memory_order_acquire));
}

//===----------------------------------------------------------------------===//
// 5. submit
//===----------------------------------------------------------------------===//

Error Check::pushSubmit(uint64_t signalAt, uint64_t value) {
  std::vector<uint32_t> dwords;
  amd::DwordSink sink{dwords};
  // What the runtime pushes: an INDIRECT_BUFFER (here of NOPs only).
  amd::pm4::emitIndirectBuffer(sink, emptyBuffer, 16);
  if (signalAt) {
    bool gfx9 = amd::lookupTarget(gpu->getTargetName())->isGfx9();
    // At end of pipe, caches written back, as the encoder's signal stores
    // are (EncodeAMD.cpp releaseMem).
    uint32_t event =
        amd::pm4::releaseEvent(amd::pm4::CACHE_FLUSH_AND_INV_TS_EVENT,
                               amd::pm4::EVENT_INDEX_END_OF_PIPE);
    event |=
        gfx9
            ? amd::pm4::EOP_TC_WB_ACTION_EN | amd::pm4::EOP_TC_NC_ACTION_EN
            : amd::pm4::RELEASE_GCR_GLV_INV | amd::pm4::RELEASE_GCR_GL1_INV |
                  amd::pm4::RELEASE_GCR_GL2_INV | amd::pm4::RELEASE_GCR_GLM_WB |
                  amd::pm4::RELEASE_GCR_GLM_INV | amd::pm4::RELEASE_GCR_GL2_WB |
                  amd::pm4::RELEASE_GCR_SEQ;
    amd::pm4::emitReleaseMem(
        sink, event,
        amd::pm4::releaseSelect(amd::pm4::DATA_SEL_64, amd::pm4::INT_SEL_NONE),
        signalAt, value, uint64_t(0));
  }
  return computeQueue->push(reinterpret_cast<const uint8_t *>(dwords.data()),
                            dwords.size() * 4);
}

bool Check::submit(Report &r) {
  if (!needQueues(r))
    return false;
  if (!emptyBuffer) {
    Expected<uint64_t> ib = allocate(kfd::PAGE_BYTES, Placement::Host);
    if (!ib)
      return r.fail(toString(ib.takeError()));
    Expected<uint64_t> sig = allocate(kfd::PAGE_BYTES, Placement::Host);
    if (!sig)
      return r.fail(toString(sig.takeError()));
    std::vector<uint32_t> nops;
    amd::DwordSink sink{nops};
    amd::pm4::emitNop(sink, 16);
    std::memcpy(reinterpret_cast<void *>(*ib), nops.data(), nops.size() * 4);
    emptyBuffer = *ib;
    signal = *sig;
  }
  Queue &q = *computeQueue;
  auto wptr = [&] { return word(computeWptr).load(); };
  // An empty submit: the queue must finish it (its completion store, which
  // the runtime counts as done; the raw read-pointer word is printed).
  if (Error e = pushSubmit(0, 0))
    return r.fail(toString(std::move(e)));
  r.say("pushed INDIRECT_BUFFER of 16 NOP dwords at ", hex(emptyBuffer),
        " (and the runtime's completion store)");
  bool idle = q.waitIdle();
  r.say("read-pointer word ", rptrWord(computeRptr),
        " (the raw 64 bits the CP wrote), write pointer ", wptr(),
        ", done as the runtime counts it (its completion word) ",
        q.readPointer());
  if (!idle)
    return r.fail("the command processor did not read the empty submit in ",
                  opts.timeout.count(), " ms: ", q.describeRunning());
  // A RELEASE_MEM writing a value: the CP executed what it read.
  constexpr uint64_t VALUE = 0x1234567876543210;
  word(signal).store(0);
  if (Error e = pushSubmit(signal, VALUE))
    return r.fail(toString(std::move(e)));
  auto value = [&] { return word(signal).load(std::memory_order_acquire); };
  bool written =
      waitFor([&] { return value() == VALUE; },
              [&] { return value() ^ q.readPointer(); }, opts.timeout);
  r.say("pushed INDIRECT_BUFFER + RELEASE_MEM of ", hex(VALUE), " to ",
        hex(signal), ": the signal reads ", hex(value()));
  r.say("read-pointer word ", rptrWord(computeRptr), ", write pointer ", wptr(),
        ", done as the runtime counts it (its completion word) ",
        q.readPointer());
  if (!written)
    return r.fail("RELEASE_MEM's value did not arrive in ",
                  opts.timeout.count(), " ms (the signal reads ", hex(value()),
                  ")");
  return true;
}

//===----------------------------------------------------------------------===//
// 6, 7. kernel, copy (through the Runtime)
//===----------------------------------------------------------------------===//

bool Check::needRuntime(Report &r) {
  if (runtime)
    return true;
  if (!needGpu(r))
    return false;
  RuntimeOptions options;
  options.amd = AMDDevice::Hardware;
  options.waitTimeout = opts.timeout;
  runtime = Runtime::create(options);
  return true;
}

LoadedExecutable *Check::needExecutable(Report &r, const std::string &variant) {
  auto it = loaded.find(variant);
  if (it != loaded.end())
    return it->second.get();
  if (!needRuntime(r))
    return nullptr;
  if (opts.gpu >= HCQ_AMD_CHECK_GPUS) {
    r.fail("the executables were built for AMD:0 to AMD:",
           HCQ_AMD_CHECK_GPUS - 1, " only");
    return nullptr;
  }
  std::string path = opts.executables + "/" + gpu->getTargetName() + "/" +
                     variant + "/copy_gpu" + std::to_string(opts.gpu) + ".hcqx";
  Expected<Executable> exe = readExecutableFile(path);
  if (!exe) {
    r.fail(toString(exe.takeError()), " (build it: scripts/amd-check.sh)");
    return nullptr;
  }
  std::string kernels;
  for (const Kernel &k : exe->kernels)
    kernels += (kernels.empty() ? "" : ", ") + k.name;
  r.say("executable ", path, kernels.empty() ? "" : ", kernel " + kernels);
  Expected<std::unique_ptr<LoadedExecutable>> made = runtime->load(*exe);
  if (!made) {
    r.fail("loading ", path, ": ", toString(made.takeError()));
    return nullptr;
  }
  return (loaded[variant] = std::move(*made)).get();
}

bool Check::runCopy(Report &r, LoadedExecutable &exe, const char *what) {
  DeviceId device{DeviceKind::AMD, opts.gpu};
  Expected<Buffer> dst = runtime->allocate(device, 4096);
  if (!dst)
    return r.fail(toString(dst.takeError()));
  Expected<Buffer> src = runtime->allocate(device, 4096);
  if (!src)
    return r.fail(toString(src.takeError()));
  for (int i = 0; i < 1024; ++i) {
    src->data<int32_t>()[i] = i * 7 + 1;
    dst->data<int32_t>()[i] = -1;
  }
  uint64_t start = nowNs();
  Error e = exe.run({bufferArgument({&*dst}), bufferArgument({&*src})});
  if (!e)
    e = exe.synchronize();
  double us = double(nowNs() - start) / 1e3;
  if (e)
    return r.fail(what, " of 4 KiB from ", hex(src->deviceAddress()), " to ",
                  hex(dst->deviceAddress()), ": ", toString(std::move(e)));
  for (int i = 0; i < 1024; ++i)
    if (dst->data<int32_t>()[i] != i * 7 + 1)
      return r.fail(what, " finished, but element ", i, " reads ",
                    dst->data<int32_t>()[i], ", not ", i * 7 + 1);
  r.say(what, " of 4 KiB from ", hex(src->deviceAddress()), " to ",
        hex(dst->deviceAddress()), ": run and synchronized in ", uint64_t(us),
        " us, all 1024 elements right");
  return true;
}

bool Check::kernel(Report &r) {
  LoadedExecutable *exe = needExecutable(r, "kernel");
  return exe && runCopy(r, *exe, "the builtin copy kernel");
}

bool Check::copy(Report &r) {
  LoadedExecutable *exe = needExecutable(r, "sdma");
  return exe && runCopy(r, *exe, "an SDMA copy");
}

//===----------------------------------------------------------------------===//
// 8. submits
//===----------------------------------------------------------------------===//

bool Check::submits(Report &r) {
  if (!emptyBuffer) {
    Report quiet;
    if (!submit(quiet))
      return r.fail(quiet.failure);
  }
  Queue &q = *computeQueue;
  uint64_t firstWptr = word(computeWptr).load();
  word(signal).store(0);
  auto value = [&] { return word(signal).load(std::memory_order_acquire); };
  uint64_t start = nowNs();
  for (uint64_t i = 1; i <= opts.submits; ++i)
    if (Error e = pushSubmit(signal, i))
      return r.fail("submit ", i, ": ", toString(std::move(e)),
                    " (the signal reads ", value(), ", read-pointer word ",
                    rptrWord(computeRptr), ")");
  bool done =
      waitFor([&] { return value() == opts.submits; }, value, opts.timeout);
  double us = double(nowNs() - start) / 1e3;
  uint64_t lastWptr = word(computeWptr).load();
  uint64_t tenthsOfLaps = (lastWptr - firstWptr) * 4 * 10 / ringBytes;
  r.say(opts.submits, " submits (INDIRECT_BUFFER + RELEASE_MEM of the ",
        "submit's number) on ", q.getName(), ": ", tenthsOfLaps / 10, ".",
        tenthsOfLaps % 10, " laps of its ", ringBytes, "-byte ring, ",
        uint64_t(us / double(opts.submits) * 1000), " ns per submit");
  r.say("the signal reads ", value(), ", read-pointer word ",
        rptrWord(computeRptr), ", write pointer ", lastWptr,
        ", done as the runtime counts it (its completion word) ",
        q.readPointer());
  if (!done)
    return r.fail("the last submit's value ", opts.submits,
                  " did not arrive (the signal stopped at ", value(), " for ",
                  opts.timeout.count(), " ms)");
  if (!q.waitIdle())
    return r.fail("the ring did not drain: ", q.describeRunning());

  // The same through the Runtime: runs of the kernel, then the device's
  // timeline waited for.
  LoadedExecutable *exe = needExecutable(r, "kernel");
  if (!exe)
    return false;
  DeviceId device{DeviceKind::AMD, opts.gpu};
  Expected<Buffer> dst = runtime->allocate(device, 4096);
  if (!dst)
    return r.fail(toString(dst.takeError()));
  Expected<Buffer> src = runtime->allocate(device, 4096);
  if (!src)
    return r.fail(toString(src.takeError()));
  for (int i = 0; i < 1024; ++i)
    src->data<int32_t>()[i] = 1000 - i;
  start = nowNs();
  for (uint64_t i = 0; i < opts.submits; ++i)
    if (Error e = exe->run({bufferArgument({&*dst}), bufferArgument({&*src})}))
      return r.fail("Runtime run ", i,
                    " of the kernel: ", toString(std::move(e)));
  Error e = runtime->synchronize();
  us = double(nowNs() - start) / 1e3;
  if (e)
    return r.fail("Runtime::synchronize after ", opts.submits,
                  " runs of the kernel: ", toString(std::move(e)));
  for (int i = 0; i < 1024; ++i)
    if (dst->data<int32_t>()[i] != 1000 - i)
      return r.fail("after ", opts.submits, " runs element ", i, " reads ",
                    dst->data<int32_t>()[i]);
  r.say(opts.submits, " runs of the kernel through the Runtime, then ",
        "synchronize (the device's timeline reached): ",
        uint64_t(us / double(opts.submits) * 1000),
        " ns per run, result "
        "right");
  return true;
}

//===----------------------------------------------------------------------===//
// 9. fault
//===----------------------------------------------------------------------===//

bool Check::fault(Report &r) {
  LoadedExecutable *exe = needExecutable(r, "sdma");
  if (!exe)
    return false;
  // Address space nothing maps, on the host or on the GPU; kept reserved
  // (never unmapped) so nothing else lands there while the GPU may still
  // try it.
  void *hole = ::mmap(nullptr, 1 << 16, PROT_NONE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (hole == MAP_FAILED)
    return r.fail("cannot reserve address space: ", std::strerror(errno));
  DeviceId device{DeviceKind::AMD, opts.gpu};
  Expected<Buffer> dst = runtime->allocate(device, 4096);
  if (!dst)
    return r.fail(toString(dst.takeError()));
  uint64_t bad = reinterpret_cast<uint64_t>(hole);
  r.say("an SDMA copy of 4 KiB from ", hex(bad),
        " (reserved, mapped on neither the host nor the GPU) to ",
        hex(dst->deviceAddress()));
  uint64_t start = nowNs();
  Error e = exe->run({bufferArgument({&*dst}), Argument::buffer(hole)});
  if (!e)
    e = exe->synchronize();
  uint64_t ms = (nowNs() - start) / 1000000;
  if (!e)
    return r.fail("the copy finished in ", ms,
                  " ms and nothing reported a "
                  "fault: the GPU read unmapped memory silently");
  // A page fault, reported as one (KFD's memory-exception event, with the
  // address), not a hang after the wait timeout: a hang here would mean
  // the fault went unseen.
  ErrorCode code = e.code();
  std::string message = toString(std::move(e));
  std::string page = "GPU page fault at " + hex(bad);
  bool named = message.find(page) != std::string::npos ||
               message.find("GPU page fault at 0x" +
                            toHex(bad, /*upper=*/true)) != std::string::npos;
  if (code != ErrorCode::DeviceFault || !named)
    return r.fail("the runtime did not report the GPU page fault at ", hex(bad),
                  " (", ms, " ms): ", message);
  r.say("the runtime reported after ", ms, " ms: ", message);
  start = nowNs();
  dst->reset();
  r.say("then freeing the copy's destination took ",
        (nowNs() - start) / 1000000, " ms");
  return true;
}

//===----------------------------------------------------------------------===//
// Command line
//===----------------------------------------------------------------------===//

void usage(std::FILE *to) {
  std::fprintf(
      to,
      "usage: hcq-amd-check [--gpu=N] [--timeout-ms=N] [--submits=N]\n"
      "                     [--steps=LIST] [--executables=DIR]\n"
      "Checks the hardware AMD device on AMD:N step by step and stops at the "
      "first\nfailure. Steps (LIST: names or numbers, comma-separated, "
      "ranges as 1-5):\n");
  for (unsigned i = 0; i < NUM_STEPS; ++i)
    std::fprintf(to, "  %u %s\n", i + 1, STEP_NAMES[i]);
  std::fprintf(to, "--gpu=N          the GPU (AMD:N), default 0\n"
                   "--timeout-ms=N   how long a wait may see no progress, "
                   "default 3000\n"
                   "--submits=N      submits of step 8, default 100000\n"
                   "--executables=D  the pre-built executables (default: the "
                   "build's)\n");
}

bool parseSteps(std::string_view list, bool (&steps)[NUM_STEPS]) {
  for (std::string_view item : splitAll(list, ',')) {
    item = trim(item);
    auto index = [](std::string_view s) -> std::optional<unsigned> {
      for (unsigned i = 0; i < NUM_STEPS; ++i)
        if (s == STEP_NAMES[i])
          return i;
      std::optional<uint64_t> n = parseUnsigned(s);
      if (n && *n >= 1 && *n <= NUM_STEPS)
        return unsigned(*n - 1);
      return std::nullopt;
    };
    auto [from, to] = splitOnce(item, '-');
    std::optional<unsigned> a = index(from), b = to.empty() ? a : index(to);
    if (!a || !b || *a > *b)
      return false;
    for (unsigned i = *a; i <= *b; ++i)
      steps[i] = true;
  }
  return true;
}

} // namespace

int main(int argc, char **argv) {
  Options opts;
  bool stepsGiven = false;
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    auto [flag, value] = splitOnce(arg, '=');
    std::optional<uint64_t> number = parseUnsigned(value);
    if (arg == "--help" || arg == "-h") {
      usage(stdout);
      return 0;
    } else if (flag == "--gpu" && number && *number <= UINT32_MAX) {
      opts.gpu = unsigned(*number);
    } else if (flag == "--timeout-ms" && number && *number > 0) {
      opts.timeout = std::chrono::milliseconds(*number);
    } else if (flag == "--submits" && number && *number > 0) {
      opts.submits = *number;
    } else if (flag == "--steps" && parseSteps(value, opts.steps)) {
      stepsGiven = true;
    } else if (flag == "--executables" && !value.empty()) {
      opts.executables = std::string(value);
    } else {
      std::fprintf(stderr, "hcq-amd-check: bad argument '%s'\n", argv[i]);
      usage(stderr);
      return 2;
    }
  }
  if (!stepsGiven)
    for (bool &step : opts.steps)
      step = true;
  return Check(opts).run();
}
