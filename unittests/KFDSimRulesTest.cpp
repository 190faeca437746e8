//===- KFDSimRulesTest.cpp - The simulated driver refuses what KFD does ---===//
//
// Raw ioctls from <linux/kfd_ioctl.h> against the simulated kernel driver
// (test/KFDSim), not through the runtime: each rule the simulator models
// from the amdkfd/amdgpu sources (docs/kfd-sim.md) is checked both ways,
// the call the kernel refuses failing with the kernel's errno and the one
// it accepts passing. CTest runs it preloaded with the simulator on
// HCQ_KFD_SIM_GPUS=gfx1100,gfx942,gfx1100,gfx1100 with node 4 hidden
// (HCQ_KFD_SIM_HIDDEN=4), and again with the targets swapped
// (gfx942,gfx1100,gfx942,gfx942), so every test of the first GPU runs on
// both; without the simulator every test skips. A test of
// GPU copies under HCQ_KFD_SIM_STRICT_COPIES=1 runs itself again in a child
// process with that set (the simulator reads it when it starts).
//
//===----------------------------------------------------------------------===//

#include <linux/kfd_ioctl.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <optional>
#include <string>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

constexpr uint64_t PAGE = 4096;
constexpr const char *NODES = "/sys/devices/virtual/kfd/kfd/topology/nodes/";

bool underSimulator() {
  const char *gpus = std::getenv("HCQ_KFD_SIM_GPUS");
  return gpus && *gpus;
}

#define REQUIRE_SIMULATOR()                                                    \
  if (!underSimulator())                                                       \
  GTEST_SKIP() << "not running under the simulated kernel driver"

/// The text of `path`, read with open() and read() (which the simulator
/// answers), or the errno of the failing call as a negative number.
struct ReadResult {
  std::string text;
  int error = 0; // 0, or the errno of open (openError) or read
  bool openFailed = false;
};
ReadResult readFile(const std::string &path) {
  ReadResult r;
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    r.error = errno;
    r.openFailed = true;
    return r;
  }
  char buffer[4096];
  for (;;) {
    ssize_t n = ::read(fd, buffer, sizeof(buffer));
    if (n < 0) {
      r.error = errno;
      break;
    }
    if (n == 0)
      break;
    r.text.append(buffer, size_t(n));
  }
  ::close(fd);
  return r;
}

std::map<std::string, uint64_t> properties(unsigned node) {
  std::map<std::string, uint64_t> props;
  std::string text =
      readFile(NODES + std::to_string(node) + "/properties").text;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(at, end - at);
    size_t space = line.find(' ');
    if (space != std::string::npos)
      props[line.substr(0, space)] =
          std::strtoull(line.c_str() + space + 1, nullptr, 10);
    at = end + 1;
  }
  return props;
}

/// The first topology node whose GPU is `target` (gfx1100 or gfx942): CTest
/// runs this file once with gfx1100 first and once with gfx942 first, so
/// every test of "the first GPU" (node 1) runs on both targets.
unsigned nodeOf(const std::string &target) {
  uint64_t version = target == "gfx942" ? 90402 : 110000;
  for (unsigned node = 1; node < 8; ++node)
    if (properties(node)["gfx_target_version"] == version)
      return node;
  ADD_FAILURE() << "no " << target << " in HCQ_KFD_SIM_GPUS";
  return 1;
}

int kfd() {
  static int fd = ::open("/dev/kfd", O_RDWR | O_CLOEXEC);
  return fd;
}

/// An ioctl's result: 0, or the errno it failed with.
template <typename T> int call(int fd, unsigned long request, T &args) {
  return ::ioctl(fd, request, &args) == 0 ? 0 : errno;
}

/// Waits up to `ms` for event `id`: the data the driver reports with it
/// once it is signaled, or none.
std::optional<kfd_event_data> waitEvent(uint32_t id, uint32_t ms) {
  kfd_event_data data{};
  data.event_id = id;
  kfd_ioctl_wait_events_args args{};
  args.events_ptr = reinterpret_cast<uint64_t>(&data);
  args.num_events = 1;
  args.wait_for_all = 1;
  args.timeout = ms;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_WAIT_EVENTS, args), 0);
  if (args.wait_result != KFD_IOC_WAIT_RESULT_COMPLETE)
    return std::nullopt;
  return data;
}

/// GPU virtual addresses: a reserved range handed out in order.
uint64_t takeVa(uint64_t bytes) {
  static uint64_t next = [] {
    void *p = ::mmap(nullptr, uint64_t(8) << 30, PROT_NONE,
                     MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    return (reinterpret_cast<uint64_t>(p) + (1 << 21) - 1) &
           ~uint64_t((1 << 21) - 1);
  }();
  uint64_t va = next;
  next += (bytes + 2 * PAGE - 1) / PAGE * PAGE + PAGE; // a guard page
  return va;
}

/// A GPU of the simulated topology, its VM acquired through `render`.
struct Gpu {
  unsigned node = 0;
  uint32_t id = 0;
  int render = -1;
  std::map<std::string, uint64_t> props;
};

Gpu openGpu(unsigned node) {
  Gpu g;
  g.node = node;
  g.props = properties(node);
  g.id = uint32_t(std::strtoul(
      readFile(NODES + std::to_string(node) + "/gpu_id").text.c_str(), nullptr,
      10));
  g.render =
      ::open(("/dev/dri/renderD" + std::to_string(g.props["drm_render_minor"]))
                 .c_str(),
             O_RDWR | O_CLOEXEC);
  return g;
}

/// Node `node`'s GPU with its VM acquired, once per process.
Gpu &gpu(unsigned node) {
  static std::map<unsigned, Gpu> gpus;
  auto it = gpus.find(node);
  if (it != gpus.end())
    return it->second;
  Gpu g = openGpu(node);
  kfd_ioctl_acquire_vm_args acquire{};
  acquire.drm_fd = uint32_t(g.render);
  acquire.gpu_id = g.id;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_ACQUIRE_VM, acquire), 0);
  return gpus[node] = g;
}

struct Buffer {
  uint64_t va = 0, size = 0, handle = 0, mmapOffset = 0;
  template <typename T = uint8_t> T *at(uint64_t offset = 0) const {
    return reinterpret_cast<T *>(va + offset);
  }
};

/// Allocates `size` bytes of GTT (or VRAM) on `g`, maps them on the GPU and,
/// for GTT, on the host through the render node.
Buffer alloc(const Gpu &g, uint64_t size, bool gtt = true) {
  Buffer b;
  b.size = size;
  b.va = takeVa(size);
  kfd_ioctl_alloc_memory_of_gpu_args args{};
  args.va_addr = b.va;
  args.size = size;
  args.gpu_id = g.id;
  args.flags =
      (gtt ? KFD_IOC_ALLOC_MEM_FLAGS_GTT : KFD_IOC_ALLOC_MEM_FLAGS_VRAM) |
      KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE | KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, args), 0);
  b.handle = args.handle;
  b.mmapOffset = args.mmap_offset;
  uint32_t id = g.id;
  kfd_ioctl_map_memory_to_gpu_args map{};
  map.handle = b.handle;
  map.device_ids_array_ptr = reinterpret_cast<uint64_t>(&id);
  map.n_devices = 1;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_MAP_MEMORY_TO_GPU, map), 0);
  if (gtt)
    EXPECT_NE(::mmap(b.at(), size, PROT_READ | PROT_WRITE,
                     MAP_SHARED | MAP_FIXED, g.render, off_t(b.mmapOffset)),
              MAP_FAILED);
  return b;
}

//===----------------------------------------------------------------------===//
// The node's queue sizes (kfd_queue_ctx_save_restore_size) and the buffers
// a queue takes (kfd_queue_acquire_buffers)
//===----------------------------------------------------------------------===//

/// The debugger's bytes per XCC the kernel adds to the CWSR buffer
/// (kfd_queue_ctx_save_restore_size: 32 per wave; not in the topology).
uint64_t debugBytes(const Gpu &g) {
  uint64_t cus = g.props.at("simd_count") / g.props.at("simd_per_cu") /
                 g.props.at("num_xcc");
  uint64_t waves =
      g.props.at("gfx_target_version") < 100100
          ? std::min(cus * 40, g.props.at("array_count") /
                                   g.props.at("simd_arrays_per_engine") * 512)
          : cus * 32;
  return (waves * 32 + 63) / 64 * 64;
}

/// The buffers of a compute or SDMA queue, sized as the kernel wants them.
struct QueueBuffers {
  Buffer ring, wptr, rptr, eop, cwsr;
  kfd_ioctl_create_queue_args args{};
};

QueueBuffers queueBuffers(const Gpu &g, bool pm4, uint32_t ringSize = 4096,
                          uint64_t ringBuffer = 4096) {
  QueueBuffers q;
  q.ring = alloc(g, ringBuffer);
  q.wptr = alloc(g, PAGE);
  q.rptr = alloc(g, PAGE);
  auto &a = q.args;
  a.gpu_id = g.id;
  a.queue_type = pm4 ? KFD_IOC_QUEUE_TYPE_COMPUTE : KFD_IOC_QUEUE_TYPE_SDMA;
  a.queue_percentage = 100;
  a.queue_priority = 7;
  a.ring_base_address = q.ring.va;
  a.ring_size = ringSize;
  a.write_pointer_address = q.wptr.va;
  a.read_pointer_address = q.rptr.va;
  if (pm4) {
    q.eop = alloc(g, 4096, /*gtt=*/false);
    uint64_t cwsr = g.props.at("cwsr_size");
    uint64_t total = (cwsr + debugBytes(g)) * g.props.at("num_xcc");
    q.cwsr = alloc(g, (total + PAGE - 1) / PAGE * PAGE, /*gtt=*/false);
    a.eop_buffer_address = q.eop.va;
    a.eop_buffer_size = 4096;
    a.ctx_save_restore_address = q.cwsr.va;
    a.ctx_save_restore_size = uint32_t(cwsr);
    a.ctl_stack_size = uint32_t(g.props.at("ctl_stack_size"));
  }
  return q;
}

int createQueue(kfd_ioctl_create_queue_args args,
                kfd_ioctl_create_queue_args *out = nullptr) {
  int error = call(kfd(), AMDKFD_IOC_CREATE_QUEUE, args);
  if (out)
    *out = args;
  if (!error) {
    kfd_ioctl_destroy_queue_args destroy{};
    destroy.queue_id = args.queue_id;
    EXPECT_EQ(call(kfd(), AMDKFD_IOC_DESTROY_QUEUE, destroy), 0);
  }
  return error;
}

TEST(KFDSimRules, TopologyPublishesTheKernelsQueueSizes) {
  REQUIRE_SIMULATOR();
  // kfd_queue_ctx_save_restore_size for a 96-CU gfx1100: 3072 waves of 12
  // bytes of control stack (+8, +40 header) in pages; 96 CUs of 0x75000
  // bytes of state. For one gfx942 XCC of 38 CUs: min(38 x 40, 4 x 512)
  // waves of 8 bytes; 38 CUs of 0x95000.
  auto gfx1100 = properties(nodeOf("gfx1100")),
       gfx942 = properties(nodeOf("gfx942"));
  EXPECT_EQ(gfx1100["ctl_stack_size"], 0xA000u);
  EXPECT_EQ(gfx1100["cwsr_size"], 0xA000u + 96 * 0x75000u);
  EXPECT_EQ(gfx942["ctl_stack_size"], 0x3000u);
  EXPECT_EQ(gfx942["cwsr_size"], 0x3000u + 38 * 0x95000u);
}

TEST(KFDSimRules, QueueBuffersAreWholeAllocations) {
  REQUIRE_SIMULATOR();
  for (unsigned node : {1u, 2u}) {
    SCOPED_TRACE("node " + std::to_string(node));
    Gpu &g = gpu(node);
    QueueBuffers q = queueBuffers(g, /*pm4=*/true);
    EXPECT_EQ(createQueue(q.args), 0);
    // The pointers may sit anywhere in the first page of their buffer.
    auto a = q.args;
    a.write_pointer_address += 8;
    a.read_pointer_address += 16;
    EXPECT_EQ(createQueue(a), 0);
    // The ring must start a buffer of exactly ring_size ...
    Buffer big = alloc(g, 2 * PAGE);
    a = q.args;
    a.ring_base_address = big.va;
    EXPECT_EQ(createQueue(a), EINVAL);
    a.ring_base_address = big.va + PAGE;
    EXPECT_EQ(createQueue(a), EINVAL);
    // ... and each pointer a buffer of exactly one page.
    a = q.args;
    a.read_pointer_address = big.va;
    EXPECT_EQ(createQueue(a), EINVAL);
    a = q.args;
    a.write_pointer_address = big.va + PAGE;
    EXPECT_EQ(createQueue(a), EINVAL);
    // Memory not mapped on the GPU is no buffer of the queue.
    a = q.args;
    a.read_pointer_address = takeVa(PAGE);
    EXPECT_EQ(createQueue(a), EINVAL);
    // The EOP buffer: the node's size, a whole buffer.
    a = q.args;
    a.eop_buffer_size = 2 * PAGE;
    EXPECT_EQ(createQueue(a), EINVAL);
    a = q.args;
    a.eop_buffer_address = big.va;
    EXPECT_EQ(createQueue(a), EINVAL);
    a = q.args;
    a.eop_buffer_address = 0; // optional
    EXPECT_EQ(createQueue(a), 0);
    // The control stack exactly the node's; the save area at least its
    // cwsr_size, in a buffer of exactly (size + debugger's) per XCC.
    a = q.args;
    a.ctl_stack_size += PAGE;
    EXPECT_EQ(createQueue(a), EINVAL);
    a = q.args;
    a.ctx_save_restore_size -= PAGE;
    EXPECT_EQ(createQueue(a), EINVAL);
    a = q.args;
    a.ctx_save_restore_size += PAGE; // larger, but the buffer is not
    EXPECT_EQ(createQueue(a), EINVAL);
    // An SDMA queue has no EOP buffer or save area.
    QueueBuffers sdma = queueBuffers(g, /*pm4=*/false);
    EXPECT_EQ(createQueue(sdma.args), 0);
    a = sdma.args;
    a.ring_base_address = big.va;
    EXPECT_EQ(createQueue(a), EINVAL);
  }
}

//===----------------------------------------------------------------------===//
// set_queue_properties_from_user
//===----------------------------------------------------------------------===//

TEST(KFDSimRules, QueuePropertiesFromUser) {
  REQUIRE_SIMULATOR();
  Gpu &g = gpu(1);
  QueueBuffers q = queueBuffers(g, /*pm4=*/true);
  auto a = q.args;
  a.ring_size = 3000;
  EXPECT_EQ(createQueue(a), EINVAL);
  a = q.args;
  a.queue_percentage = 101;
  EXPECT_EQ(createQueue(a), EINVAL);
  // Only bits 0-7 are the percentage; bits 8-15 are the PM4 target XCC
  // (set_queue_properties_from_user: queue_percentage & 0xFF, and
  // pm4_target_xcc = (queue_percentage >> 8) & 0xFF).
  a.queue_percentage = (1u << 8) | 100;
  EXPECT_EQ(createQueue(a), 0);
  a.queue_percentage = (1u << 8) | 101;
  EXPECT_EQ(createQueue(a), EINVAL);
  a = q.args;
  a.queue_priority = 16;
  EXPECT_EQ(createQueue(a), EINVAL);
  a = q.args;
  a.queue_type = 7;
  EXPECT_EQ(createQueue(a), 524); // the kernel's ENOTSUPP
  // Under 1024 bytes the ring runs as 1024, told back in ring_size.
  a = q.args;
  a.ring_size = 256;
  kfd_ioctl_create_queue_args out{};
  EXPECT_EQ(createQueue(a, &out), 0);
  EXPECT_EQ(out.ring_size, 1024u);
}

//===----------------------------------------------------------------------===//
// kfd_ioctl_acquire_vm, the render node's mmap, the event page
//===----------------------------------------------------------------------===//

TEST(KFDSimRules, AcquireVmKeepsTheFirstFile) {
  REQUIRE_SIMULATOR();
  Gpu first = openGpu(3);
  kfd_ioctl_acquire_vm_args acquire{};
  acquire.drm_fd = uint32_t(first.render);
  acquire.gpu_id = first.id;
  ASSERT_EQ(call(kfd(), AMDKFD_IOC_ACQUIRE_VM, acquire), 0);
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_ACQUIRE_VM, acquire), 0); // same file
  int other = ::open(
      ("/dev/dri/renderD" + std::to_string(first.props["drm_render_minor"]))
          .c_str(),
      O_RDWR | O_CLOEXEC);
  ASSERT_GE(other, 0);
  acquire.drm_fd = uint32_t(other);
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_ACQUIRE_VM, acquire), EBUSY);

  // The memory's mmap offset works only through the acquiring file.
  Gpu viaOther = first;
  viaOther.render = other;
  Buffer b = alloc(first, PAGE);
  void *p = ::mmap(nullptr, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, other,
                   off_t(b.mmapOffset));
  EXPECT_EQ(p, MAP_FAILED);
  EXPECT_EQ(errno, EACCES);

  // Closing the acquiring fd releases nothing: the kernel holds the file.
  ::close(first.render);
  ::close(other);
  int again = ::open(
      ("/dev/dri/renderD" + std::to_string(first.props["drm_render_minor"]))
          .c_str(),
      O_RDWR | O_CLOEXEC);
  ASSERT_GE(again, 0);
  acquire.drm_fd = uint32_t(again);
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_ACQUIRE_VM, acquire), EBUSY);
  ::close(again);
}

/// The process's event page, once a test set it.
Buffer &processEventPage() {
  static Buffer page;
  return page;
}

TEST(KFDSimRules, EventPageIsSetOnceAndLargeEnough) {
  REQUIRE_SIMULATOR();
  Gpu &g = gpu(1);
  kfd_ioctl_create_event_args args{};
  args.event_type = KFD_IOC_EVENT_SIGNAL;
  args.auto_reset = 1;
  // kfd_event_page_set: under KFD_SIGNAL_EVENT_LIMIT slots is EINVAL.
  Buffer small = alloc(g, PAGE);
  args.event_page_offset = small.handle;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), EINVAL);
  Buffer page = alloc(g, KFD_SIGNAL_EVENT_LIMIT * 8);
  std::memset(page.at(), 0, page.size);
  args.event_page_offset = page.handle;
  ASSERT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), 0);
  processEventPage() = page;
  // Every slot was set to UNSIGNALED_EVENT_SLOT, except the new event's
  // (also unsignaled).
  for (unsigned i = 0; i < KFD_SIGNAL_EVENT_LIMIT; ++i)
    ASSERT_EQ(page.at<uint64_t>()[i], ~uint64_t(0)) << "slot " << i;
  // kfd_kmap_event_page: a second page is EINVAL.
  Buffer second = alloc(g, KFD_SIGNAL_EVENT_LIMIT * 8);
  args.event_page_offset = second.handle;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), EINVAL);
  // Events without a page are fine now.
  args.event_page_offset = 0;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), 0);
}

//===----------------------------------------------------------------------===//
// The PM4 queue's read pointer report
//===----------------------------------------------------------------------===//

/// A PM4 type-3 NOP of `dwords` dwords.
uint32_t nop(uint32_t dwords) {
  return (3u << 30) | ((dwords - 2) << 16) | (0x10u << 8);
}

/// A live compute queue whose packets the test writes.
struct LiveQueue {
  QueueBuffers q;
  uint32_t id = 0, ringDwords = 0;
  uint64_t wptr = 0;
  volatile uint64_t *doorbell = nullptr;

  LiveQueue(const Gpu &g, uint32_t ringSize, uint64_t ringBuffer) {
    q = queueBuffers(g, /*pm4=*/true, ringSize, ringBuffer);
    // The CP writes 32 bits: the upper half must stay as it was.
    q.rptr.at<uint32_t>()[0] = 0;
    q.rptr.at<uint32_t>()[1] = 0xDEADBEEF;
    EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_QUEUE, q.args), 0);
    id = q.args.queue_id;
    ringDwords = q.args.ring_size / 4;
    uint64_t offset = q.args.doorbell_offset;
    void *page = ::mmap(nullptr, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED,
                        kfd(), off_t(offset & ~uint64_t(0x1FFF)));
    EXPECT_NE(page, MAP_FAILED);
    doorbell = reinterpret_cast<volatile uint64_t *>(
        static_cast<uint8_t *>(page) + (offset & 0x1FFF));
  }
  ~LiveQueue() {
    kfd_ioctl_destroy_queue_args destroy{};
    destroy.queue_id = id;
    EXPECT_EQ(call(kfd(), AMDKFD_IOC_DESTROY_QUEUE, destroy), 0);
  }
  /// Writes NOPs of the given sizes at the write pointer and rings.
  void push(std::initializer_list<uint32_t> sizes) {
    uint32_t *ring = q.ring.at<uint32_t>();
    for (uint32_t n : sizes) {
      ring[wptr % ringDwords] = nop(n);
      for (uint32_t i = 1; i < n; ++i)
        ring[(wptr + i) % ringDwords] = 0xC0FFEE00 + i;
      wptr += n;
    }
    __atomic_store_n(q.wptr.at<uint64_t>(), wptr, __ATOMIC_RELEASE);
    __atomic_store_n(doorbell, wptr, __ATOMIC_RELEASE);
  }
  uint32_t rptr() const {
    return __atomic_load_n(q.rptr.at<uint32_t>(), __ATOMIC_ACQUIRE);
  }
  /// Waits up to 5 s for the report to read `value`.
  bool waitFor(uint32_t value) const {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (rptr() != value) {
      if (std::chrono::steady_clock::now() > end)
        return false;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return true;
  }
};

bool everyPacket() {
  const char *mode = std::getenv("HCQ_KFD_SIM_RPTR");
  return mode && std::strcmp(mode, "packet") == 0;
}

TEST(KFDSimRules, ComputeReadPointerWrapsInBlocks) {
  REQUIRE_SIMULATOR();
  LiveQueue queue(gpu(1), 4096, 4096); // 1024 dwords
  // Five laps of 64-dword steps: each lands on a block boundary, so the
  // report reaches the write pointer, as a dword offset into the ring.
  for (unsigned step = 0; step < 5 * 1024 / 64; ++step) {
    queue.push({16, 16, 16, 16});
    ASSERT_TRUE(queue.waitFor(uint32_t(queue.wptr % 1024)))
        << "step " << step << ": rptr " << queue.rptr() << ", wptr "
        << queue.wptr;
    ASSERT_LT(queue.rptr(), 1024u);
  }
  EXPECT_EQ(queue.q.rptr.at<uint32_t>()[1], 0xDEADBEEFu);
  // Part of a block: the report stays at the last boundary (or, with
  // HCQ_KFD_SIM_RPTR=packet, follows each packet) ...
  uint32_t boundary = uint32_t(queue.wptr % 1024);
  queue.push({16, 16, 8});
  if (everyPacket()) {
    EXPECT_TRUE(queue.waitFor(boundary + 40));
  } else {
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(queue.rptr(), boundary);
  }
  // ... until the block is done.
  queue.push({24});
  EXPECT_TRUE(queue.waitFor((boundary + 64) % 1024));
}

TEST(KFDSimRules, SmallRingRunsAs1024Bytes) {
  REQUIRE_SIMULATOR();
  // ring_size 256 runs as 1024 bytes: the report wraps at 256 dwords.
  LiveQueue queue(gpu(1), 256, 4096);
  ASSERT_EQ(queue.ringDwords, 256u);
  for (unsigned step = 0; step < 3 * 256 / 64; ++step) {
    queue.push({32, 32});
    ASSERT_TRUE(queue.waitFor(uint32_t(queue.wptr % 256)))
        << "step " << step << ": rptr " << queue.rptr();
  }
}

//===----------------------------------------------------------------------===//
// End-of-pipe interrupts and their context id
//===----------------------------------------------------------------------===//

/// The process's event page, set here with a signal event if no test did.
Buffer &ensureEventPage() {
  Buffer &page = processEventPage();
  if (!page.va) {
    Buffer made = alloc(gpu(1), KFD_SIGNAL_EVENT_LIMIT * 8);
    kfd_ioctl_create_event_args args{};
    args.event_type = KFD_IOC_EVENT_SIGNAL;
    args.auto_reset = 1;
    args.event_page_offset = made.handle;
    EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), 0);
    page = made;
  }
  return page;
}

TEST(KFDSimRules, EndOfPipeInterruptWithContextIdZero) {
  REQUIRE_SIMULATOR();
  // A RELEASE_MEM writing a signal event's mailbox and interrupting with
  // context id `context`: event_interrupt_isr_v9 drops it on GC 9.4.1 and
  // later (gfx942) when the id is 0 (context_id_expected); gfx11's handler
  // takes it, and kfd_signal_event_interrupt finds the event by its
  // written slot. With the event's id, both find it.
  Buffer &page = ensureEventPage();
  kfd_ioctl_create_event_args args{};
  args.event_type = KFD_IOC_EVENT_SIGNAL;
  args.auto_reset = 1;
  ASSERT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), 0);
  uint32_t id = args.event_id;
  uint64_t mailbox = page.va + uint64_t(args.event_slot_index) * 8;
  bool dropsZero = properties(1)["gfx_target_version"] == 90402;
  LiveQueue queue(gpu(1), 4096, 4096);
  auto signal = [&](uint32_t context) {
    // PACKET3_RELEASE_MEM, 7 body dwords [nvd/s15]: CACHE_FLUSH_AND_INV_TS
    // (0x14) at end of pipe (index 5); DATA_SEL 1 (32 bits) [31:29],
    // INT_SEL 2 [26:24]; address; data; context id.
    uint32_t packet[8] = {(3u << 30) | (6u << 16) | (0x49u << 8),
                          0x14u | (5u << 8),
                          (1u << 29) | (2u << 24),
                          uint32_t(mailbox),
                          uint32_t(mailbox >> 32),
                          id,
                          0,
                          context};
    uint32_t *ring = queue.q.ring.at<uint32_t>();
    for (uint32_t word : packet)
      ring[queue.wptr++ % queue.ringDwords] = word;
    queue.push({56});
  };
  auto signaled = [&](uint32_t ms) { return waitEvent(id, ms).has_value(); };
  signal(0);
  ASSERT_TRUE(queue.waitFor(64));
  EXPECT_EQ(signaled(200), !dropsZero);
  signal(id);
  ASSERT_TRUE(queue.waitFor(128));
  EXPECT_TRUE(signaled(5000));
}

//===----------------------------------------------------------------------===//
// The HDP flush registers the simulated CP accepts
//===----------------------------------------------------------------------===//

bool passesWith(const std::string &variable, const std::string &value);

/// WAIT_REG_MEM with OPERATION 1 (write `request`, then poll `done` until
/// it is all ones), 7 dwords [nvd/s15 PACKET3_WAIT_REG_MEM: FUNCTION [2:0]
/// 3 is '==', MEM_SPACE [5:4] 0 registers, OPERATION [7:6]], as
/// gfx_v11_0_ring_emit_hdp_flush writes it; then NOPs to the next
/// 64-dword block, so the read pointer reports the barrier done.
void pushHdpFlush(LiveQueue &queue, uint32_t request, uint32_t done) {
  uint32_t *ring = queue.q.ring.at<uint32_t>();
  uint32_t packet[7] = {(3u << 30) | (5u << 16) | (0x3Cu << 8),
                        3u | (0u << 4) | (1u << 6),
                        request,
                        done,
                        ~0u,
                        ~0u,
                        4};
  for (uint32_t word : packet)
    ring[queue.wptr++ % queue.ringDwords] = word;
  queue.push({57});
}

TEST(KFDSimRules, HdpFlushIsOnTheRegistersIpDiscoveryPublishes) {
  REQUIRE_SIMULATOR();
  // The CP flushes HDP on the registers the GPU's NBIO has them at
  // (nbio_v4_3/nbio_v7_9 get_hdp_flush_req_offset/_done_offset: segment 2
  // of NBIF's base_addr + 0x106/0x107), not on hcq's encoder constants: in
  // a child whose NBIF publishes segment 2 at 0xD00 (HCQ_KFD_SIM_NBIF),
  // the flush runs on 0xE06/0xE07 and stops the queue on 0xE26/0xE27.
  const char *nbif = std::getenv("HCQ_KFD_SIM_NBIF");
  if (!nbif) {
    EXPECT_TRUE(passesWith("HCQ_KFD_SIM_NBIF",
                           properties(1)["gfx_target_version"] == 90402
                               ? "7.9.0@D00"
                               : "4.3.0@D00"));
    // Here, with the parts' own base (0xD20): 0xE26/0xE27.
    LiveQueue queue(gpu(1), 4096, 4096);
    pushHdpFlush(queue, 0xE26, 0xE27);
    EXPECT_TRUE(queue.waitFor(64));
    return;
  }
  LiveQueue queue(gpu(1), 4096, 4096);
  pushHdpFlush(queue, 0xE06, 0xE07);
  EXPECT_TRUE(queue.waitFor(64));
  pushHdpFlush(queue, 0xE26, 0xE27);
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  EXPECT_EQ(queue.rptr(), 64u); // stopped at the barrier
}

//===----------------------------------------------------------------------===//
// USERPTR: the process's own pages, registered with its GPUs
//===----------------------------------------------------------------------===//

/// `pages` pages of the process's own memory (shared anonymous memory, as
/// tinygrad maps its host buffers), with protection `prot`.
uint8_t *hostPages(uint64_t pages, int prot = PROT_READ | PROT_WRITE) {
  void *p =
      ::mmap(nullptr, pages * PAGE, prot, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  EXPECT_NE(p, MAP_FAILED);
  return static_cast<uint8_t *>(p);
}

uint64_t address(const void *p) { return reinterpret_cast<uint64_t>(p); }

/// ALLOC_MEMORY_OF_GPU of USERPTR memory on `g`: the user address in
/// mmap_offset, `va` the GPU address (~0: the user address, as user space
/// usually passes). 0, with the buffer in `out`, or the errno.
int registerUserptr(const Gpu &g, uint64_t user, uint64_t size,
                    Buffer *out = nullptr, uint64_t va = ~uint64_t(0)) {
  kfd_ioctl_alloc_memory_of_gpu_args args{};
  args.va_addr = va == ~uint64_t(0) ? user : va;
  args.size = size;
  args.gpu_id = g.id;
  args.mmap_offset = user;
  args.flags = KFD_IOC_ALLOC_MEM_FLAGS_USERPTR |
               KFD_IOC_ALLOC_MEM_FLAGS_WRITABLE |
               KFD_IOC_ALLOC_MEM_FLAGS_EXECUTABLE;
  int error = call(kfd(), AMDKFD_IOC_ALLOC_MEMORY_OF_GPU, args);
  if (out && !error) {
    out->va = args.va_addr;
    out->size = size;
    out->handle = args.handle;
    out->mmapOffset = args.mmap_offset;
  }
  return error;
}

/// MAP_MEMORY_TO_GPU of `handle` on the GPUs `ids`: 0 or the errno.
int mapOn(uint64_t handle, std::vector<uint32_t> ids) {
  kfd_ioctl_map_memory_to_gpu_args args{};
  args.handle = handle;
  args.device_ids_array_ptr = reinterpret_cast<uint64_t>(ids.data());
  args.n_devices = uint32_t(ids.size());
  return call(kfd(), AMDKFD_IOC_MAP_MEMORY_TO_GPU, args);
}

/// UNMAP_MEMORY_FROM_GPU of `handle` from the GPUs `ids`: 0 or the errno.
int unmapFrom(uint64_t handle, std::vector<uint32_t> ids) {
  kfd_ioctl_unmap_memory_from_gpu_args args{};
  args.handle = handle;
  args.device_ids_array_ptr = reinterpret_cast<uint64_t>(ids.data());
  args.n_devices = uint32_t(ids.size());
  return call(kfd(), AMDKFD_IOC_UNMAP_MEMORY_FROM_GPU, args);
}

int freeMemory(uint64_t handle) {
  kfd_ioctl_free_memory_of_gpu_args args{};
  args.handle = handle;
  return call(kfd(), AMDKFD_IOC_FREE_MEMORY_OF_GPU, args);
}

uint8_t pattern(uint64_t i) { return uint8_t(i * 7 + 3); }

TEST(KFDSimRules, UserptrRegistersTheProcessesOwnPages) {
  REQUIRE_SIMULATOR();
  Gpu &g = gpu(1), &peer = gpu(2);
  uint8_t *host = hostPages(4);
  for (uint64_t i = 0; i < 4 * PAGE; ++i)
    host[i] = pattern(i);
  // amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu: the user address comes in
  // mmap_offset; what comes back there is the buffer's render-node offset,
  // as for any buffer.
  Buffer b;
  ASSERT_EQ(registerUserptr(g, address(host), 4 * PAGE, &b), 0);
  EXPECT_NE(b.handle, 0u);
  EXPECT_NE(b.mmapOffset, 0u);
  EXPECT_NE(b.mmapOffset, address(host));
  // Mapped on its GPU and on another GPU of the process (kfd_mem_attach:
  // KFD_MEM_ATT_USERPTR): the very same pages, which stay the process's.
  EXPECT_EQ(mapOn(b.handle, {g.id, peer.id}), 0);
  for (uint64_t i = 0; i < 4 * PAGE; ++i)
    ASSERT_EQ(host[i], pattern(i)) << "byte " << i << " after MAP";
  EXPECT_EQ(unmapFrom(b.handle, {g.id, peer.id}), 0);
  EXPECT_EQ(freeMemory(b.handle), 0);
  for (uint64_t i = 0; i < 4 * PAGE; ++i)
    ASSERT_EQ(host[i], pattern(i)) << "byte " << i << " after FREE";
  // Memory from the C heap too, its size rounded up to whole pages.
  void *heap = std::aligned_alloc(PAGE, 3 * PAGE);
  ASSERT_NE(heap, nullptr);
  std::memset(heap, 0x5A, 3 * PAGE);
  ASSERT_EQ(registerUserptr(g, address(heap), 2 * PAGE + 100, &b), 0);
  EXPECT_EQ(mapOn(b.handle, {g.id}), 0);
  EXPECT_EQ(static_cast<uint8_t *>(heap)[2 * PAGE + 200], 0x5A);
  EXPECT_EQ(unmapFrom(b.handle, {g.id}), 0);
  EXPECT_EQ(freeMemory(b.handle), 0);
  std::free(heap);
  ::munmap(host, 4 * PAGE);
}

TEST(KFDSimRules, UserptrIsFreedOnlyOnceUnmapped) {
  REQUIRE_SIMULATOR();
  Gpu &g = gpu(1), &peer = gpu(2);
  uint8_t *host = hostPages(1);
  Buffer b;
  ASSERT_EQ(registerUserptr(g, address(host), PAGE, &b), 0);
  ASSERT_EQ(mapOn(b.handle, {g.id, peer.id}), 0);
  // amdgpu_amdkfd_gpuvm_free_memory_of_gpu: still mapped is EBUSY, on any
  // GPU.
  EXPECT_EQ(freeMemory(b.handle), EBUSY);
  EXPECT_EQ(unmapFrom(b.handle, {g.id}), 0);
  EXPECT_EQ(freeMemory(b.handle), EBUSY);
  EXPECT_EQ(unmapFrom(b.handle, {peer.id}), 0);
  EXPECT_EQ(freeMemory(b.handle), 0);
  ::munmap(host, PAGE);
}

TEST(KFDSimRules, UserptrIsNotMappedThroughTheRenderNode) {
  REQUIRE_SIMULATOR();
  Gpu &g = gpu(1);
  uint8_t *host = hostPages(1);
  std::memset(host, 0x3C, PAGE);
  Buffer b;
  ASSERT_EQ(registerUserptr(g, address(host), PAGE, &b), 0);
  ASSERT_EQ(mapOn(b.handle, {g.id}), 0);
  // amdgpu_gem_object_mmap: a userptr BO has no render-node mapping
  // (EPERM), not even over its own pages, which stay as they were.
  errno = 0;
  EXPECT_EQ(::mmap(host, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_FIXED,
                   g.render, off_t(b.mmapOffset)),
            MAP_FAILED);
  EXPECT_EQ(errno, EPERM);
  errno = 0;
  EXPECT_EQ(::mmap(nullptr, PAGE, PROT_READ | PROT_WRITE, MAP_SHARED, g.render,
                   off_t(b.mmapOffset)),
            MAP_FAILED);
  EXPECT_EQ(errno, EPERM);
  for (uint64_t i = 0; i < PAGE; ++i)
    ASSERT_EQ(host[i], 0x3C) << "byte " << i;
  EXPECT_EQ(unmapFrom(b.handle, {g.id}), 0);
  EXPECT_EQ(freeMemory(b.handle), 0);
  ::munmap(host, PAGE);
}

/// A live SDMA queue whose COPY_LINEAR packets the test writes.
struct SdmaQueue {
  QueueBuffers q;
  uint32_t id = 0, ringDwords = 0;
  uint64_t wptr = 0; // bytes, as the SDMA engine counts
  volatile uint64_t *doorbell = nullptr;
  void *doorbellPages = nullptr; // /dev/kfd's mapping of the two pages

  explicit SdmaQueue(const Gpu &g) {
    q = queueBuffers(g, /*pm4=*/false);
    EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_QUEUE, q.args), 0);
    id = q.args.queue_id;
    ringDwords = q.args.ring_size / 4;
    uint64_t offset = q.args.doorbell_offset;
    doorbellPages = ::mmap(nullptr, 0x2000, PROT_READ | PROT_WRITE, MAP_SHARED,
                           kfd(), off_t(offset & ~uint64_t(0x1FFF)));
    EXPECT_NE(doorbellPages, MAP_FAILED);
    doorbell = reinterpret_cast<volatile uint64_t *>(
        static_cast<uint8_t *>(doorbellPages) + (offset & 0x1FFF));
  }
  ~SdmaQueue() {
    kfd_ioctl_destroy_queue_args destroy{};
    destroy.queue_id = id;
    EXPECT_EQ(call(kfd(), AMDKFD_IOC_DESTROY_QUEUE, destroy), 0);
  }
  /// A COPY_LINEAR of `bytes` from `src` to `dst` (SDMA_OP_COPY, sub-op
  /// COPY_LINEAR; COUNT is bytes - 1), rung.
  void copy(uint64_t dst, uint64_t src, uint32_t bytes) {
    uint32_t packet[7] = {1,
                          bytes - 1,
                          0,
                          uint32_t(src),
                          uint32_t(src >> 32),
                          uint32_t(dst),
                          uint32_t(dst >> 32)};
    uint32_t *ring = q.ring.at<uint32_t>();
    for (uint32_t word : packet) {
      ring[(wptr / 4) % ringDwords] = word;
      wptr += 4;
    }
    __atomic_store_n(q.wptr.at<uint64_t>(), wptr, __ATOMIC_RELEASE);
    __atomic_store_n(doorbell, wptr, __ATOMIC_RELEASE);
  }
  /// Waits up to 5 s for the engine to have read everything rung.
  bool drained() const {
    auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (__atomic_load_n(q.rptr.at<uint64_t>(), __ATOMIC_ACQUIRE) != wptr) {
      if (std::chrono::steady_clock::now() > end)
        return false;
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
    return true;
  }
};

TEST(KFDSimRules, UserptrPagesMustBeTheProcessesMemory) {
  REQUIRE_SIMULATOR();
  Gpu &g = gpu(1);
  uint8_t *host = hostPages(2);
  // amdgpu_amdkfd_gpuvm_alloc_memory_of_gpu: no user address is EINVAL.
  EXPECT_EQ(registerUserptr(g, 0, PAGE, nullptr, address(host)), EINVAL);
  // kfd_ioctl_alloc_memory_of_gpu: 0 bytes are EINVAL; ROCm's driver
  // refuses an address inside a page ("Unaligned userptr address").
  EXPECT_EQ(registerUserptr(g, address(host), 0), EINVAL);
  EXPECT_EQ(registerUserptr(g, address(host) + 64, PAGE), EINVAL);
  // amdgpu_ttm_tt_get_user_pages: no mapping at the address (vma_lookup) is
  // EFAULT, and so is a hole in the range (hmm_range_fault) ...
  uint8_t *gone = hostPages(1);
  ::munmap(gone, PAGE);
  EXPECT_EQ(registerUserptr(g, address(gone), PAGE), EFAULT);
  uint8_t *holed = hostPages(3);
  ::munmap(holed + PAGE, PAGE);
  EXPECT_EQ(registerUserptr(g, address(holed), 3 * PAGE), EFAULT);
  EXPECT_EQ(registerUserptr(g, address(holed), 2 * PAGE), EFAULT);
  // ... and pages that cannot be read; pages that cannot be written are
  // EPERM: they are faulted in for writing, whatever WRITABLE says.
  uint8_t *none = hostPages(1, PROT_NONE), *readOnly = hostPages(1, PROT_READ);
  EXPECT_EQ(registerUserptr(g, address(none), PAGE), EFAULT);
  EXPECT_EQ(registerUserptr(g, address(readOnly), PAGE), EPERM);
  // A GPU buffer's host range is a render-node mapping and the doorbells
  // are /dev/kfd's (VM_IO | VM_PFNMAP): no memory hmm_range_fault takes,
  // EFAULT.
  Buffer gtt = alloc(g, PAGE);
  EXPECT_EQ(registerUserptr(g, gtt.va, PAGE), EFAULT);
  {
    SdmaQueue queue(g);
    EXPECT_EQ(registerUserptr(g, address(queue.doorbellPages), 0x2000), EFAULT);
  }
  // The simulator's own limit: the GPU address is the user address.
  EXPECT_EQ(registerUserptr(g, address(host), PAGE, nullptr, takeVa(PAGE)),
            EINVAL);
  // The same pages at their own address are fine.
  Buffer b;
  ASSERT_EQ(registerUserptr(g, address(host), 2 * PAGE, &b), 0);
  EXPECT_EQ(freeMemory(b.handle), 0);
  ::munmap(holed, PAGE);
  ::munmap(holed + 2 * PAGE, PAGE);
  ::munmap(none, PAGE);
  ::munmap(readOnly, PAGE);
  ::munmap(host, 2 * PAGE);
}

/// A memory-exception event (no event page needed).
uint32_t memoryEvent() {
  kfd_ioctl_create_event_args args{};
  args.event_type = KFD_IOC_EVENT_MEMORY;
  args.auto_reset = 1;
  EXPECT_EQ(call(kfd(), AMDKFD_IOC_CREATE_EVENT, args), 0);
  return args.event_id;
}

/// Waits up to `ms` for memory event `id`: the GPU page fault it reports,
/// or none.
std::optional<kfd_hsa_memory_exception_data> fault(uint32_t id,
                                                   uint32_t ms = 5000) {
  std::optional<kfd_event_data> data = waitEvent(id, ms);
  if (!data)
    return std::nullopt;
  return data->memory_exception_data;
}

bool strictCopies() {
  const char *strict = std::getenv("HCQ_KFD_SIM_STRICT_COPIES");
  return strict && std::strcmp(strict, "1") == 0;
}

/// Runs the current test again in a child process of this binary with
/// `variable`=`value`, which the simulator reads when it starts: whether it
/// passed.
bool passesWith(const std::string &variable, const std::string &value) {
  const testing::TestInfo *test =
      testing::UnitTest::GetInstance()->current_test_info();
  std::string filter = std::string("--gtest_filter=") +
                       test->test_suite_name() + "." + test->name();
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e)
    if (std::strncmp(*e, (variable + "=").c_str(), variable.size() + 1) != 0)
      env.push_back(*e);
  env.push_back(variable + "=" + value);
  std::vector<char *> envp;
  for (std::string &e : env)
    envp.push_back(e.data());
  envp.push_back(nullptr);
  char self[] = "/proc/self/exe";
  char *argv[] = {self, filter.data(), nullptr};
  std::fflush(stdout);
  std::fflush(stderr);
  pid_t child = ::fork();
  if (child == 0) {
    ::execve(self, argv, envp.data());
    ::_exit(127);
  }
  int status = 0;
  if (child < 0 || ::waitpid(child, &status, 0) != child)
    return false;
  return WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

bool passesWithStrictCopies() {
  return passesWith("HCQ_KFD_SIM_STRICT_COPIES", "1");
}

TEST(KFDSimRules, UserptrPagesAreWhatTheGpuCopies) {
  REQUIRE_SIMULATOR();
  if (!strictCopies()) {
    EXPECT_TRUE(passesWithStrictCopies());
    return;
  }
  Gpu &g = gpu(1), &peer = gpu(2);
  uint32_t faults = memoryEvent();
  constexpr uint64_t bytes = 2 * PAGE;
  uint8_t *src = hostPages(2), *dst = hostPages(2);
  for (uint64_t i = 0; i < bytes; ++i)
    src[i] = pattern(i);
  std::memset(dst, 0, bytes);
  Buffer s, d;
  ASSERT_EQ(registerUserptr(g, address(src), bytes, &s), 0);
  ASSERT_EQ(registerUserptr(g, address(dst), bytes, &d), 0);
  ASSERT_EQ(mapOn(s.handle, {g.id}), 0);
  ASSERT_EQ(mapOn(d.handle, {g.id, peer.id}), 0);
  {
    // An SDMA copy reads the host's writes and the host sees its writes:
    // both buffers are the process's own pages, mapped on the GPU.
    SdmaQueue queue(g);
    queue.copy(address(dst), address(src), bytes);
    ASSERT_TRUE(queue.drained());
    EXPECT_FALSE(fault(faults, 0));
    for (uint64_t i = 0; i < bytes; ++i)
      ASSERT_EQ(dst[i], pattern(i)) << "byte " << i;
    std::memset(src, 0xC3, PAGE);
    queue.copy(address(dst), address(src), PAGE);
    ASSERT_TRUE(queue.drained());
    EXPECT_EQ(dst[PAGE - 1], 0xC3);
  }
  {
    // Another GPU reaches only what is mapped on it: d, not s.
    SdmaQueue queue(peer);
    queue.copy(address(dst) + PAGE, address(dst), PAGE);
    ASSERT_TRUE(queue.drained());
    EXPECT_EQ(dst[2 * PAGE - 1], 0xC3);
    queue.copy(address(dst), address(src), PAGE);
    auto f = fault(faults);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->va, address(src));
    EXPECT_EQ(f->gpu_id, peer.id);
  }
  {
    // Memory the process never registered is in no GPU's VM: a page fault
    // at its first page.
    uint8_t *plain = hostPages(1);
    SdmaQueue queue(g);
    queue.copy(address(dst), address(plain), PAGE);
    auto f = fault(faults);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->va, address(plain));
    EXPECT_EQ(f->gpu_id, g.id);
    // event_interrupt_wq_v9/_v11: NotPresent from prot_valid, ReadOnly
    // from prot_write, the access's direction: a read here ...
    EXPECT_EQ(f->failure.NotPresent, 1u);
    EXPECT_EQ(f->failure.ReadOnly, 0u);
    EXPECT_EQ(f->failure.NoExecute, 0u);
    EXPECT_EQ(f->failure.imprecise, 0u);
    // ... and a write into the same page.
    SdmaQueue writer(g);
    writer.copy(address(plain), address(dst), PAGE);
    f = fault(faults);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->va, address(plain));
    EXPECT_EQ(f->failure.NotPresent, 1u);
    EXPECT_EQ(f->failure.ReadOnly, 1u);
    ::munmap(plain, PAGE);
  }
  {
    // The process unmaps registered pages: the MMU notifier evicts the
    // buffer and the restore worker, finding no pages, clears the GPU's
    // page-table entries: the GPU faults on the first page gone.
    ::munmap(src + PAGE, PAGE);
    SdmaQueue queue(g);
    queue.copy(address(dst), address(src), bytes);
    auto f = fault(faults);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->va, address(src) + PAGE);
    EXPECT_EQ(f->gpu_id, g.id);
  }
  {
    // New pages at the address are what the restore worker gives the GPU.
    void *again = ::mmap(src + PAGE, PAGE, PROT_READ | PROT_WRITE,
                         MAP_SHARED | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
    ASSERT_EQ(again, src + PAGE);
    std::memset(src + PAGE, 0x77, PAGE);
    SdmaQueue queue(g);
    queue.copy(address(dst), address(src), bytes);
    ASSERT_TRUE(queue.drained());
    EXPECT_EQ(dst[0], 0xC3);
    EXPECT_EQ(dst[PAGE], 0x77);
  }
  EXPECT_EQ(unmapFrom(s.handle, {g.id}), 0);
  EXPECT_EQ(unmapFrom(d.handle, {g.id, peer.id}), 0);
  EXPECT_EQ(freeMemory(s.handle), 0);
  EXPECT_EQ(freeMemory(d.handle), 0);
  ::munmap(src, bytes);
  ::munmap(dst, bytes);
}

TEST(KFDSimRules, ACopyMaySpanBuffersMappedEndToEnd) {
  REQUIRE_SIMULATOR();
  if (!strictCopies()) {
    EXPECT_TRUE(passesWithStrictCopies());
    return;
  }
  // The GPU's VM translates page by page (amdgpu_vm_update_range), not
  // buffer by buffer: a copy over two buffers that lie end to end reaches
  // both, as a runtime registering host memory a page at a time needs.
  Gpu &g = gpu(1);
  uint32_t faults = memoryEvent();
  uint8_t *src = hostPages(3), *dst = hostPages(2);
  for (uint64_t i = 0; i < 2 * PAGE; ++i)
    src[i] = pattern(i);
  std::memset(dst, 0, 2 * PAGE);
  Buffer first, second, d;
  ASSERT_EQ(registerUserptr(g, address(src), PAGE, &first), 0);
  ASSERT_EQ(registerUserptr(g, address(src) + PAGE, PAGE, &second), 0);
  ASSERT_EQ(registerUserptr(g, address(dst), 2 * PAGE, &d), 0);
  for (const Buffer *b : {&first, &second, &d})
    ASSERT_EQ(mapOn(b->handle, {g.id}), 0);
  {
    SdmaQueue queue(g);
    queue.copy(address(dst) + 256, address(src) + 256, PAGE);
    ASSERT_TRUE(queue.drained());
    EXPECT_FALSE(fault(faults, 0));
    for (uint64_t i = 256; i < PAGE + 256; ++i)
      ASSERT_EQ(dst[i], pattern(i)) << "byte " << i;
  }
  {
    // Past the second buffer is the third page, never registered: the
    // fault is there, not at the copy's start.
    SdmaQueue queue(g);
    queue.copy(address(dst), address(src) + PAGE + 256, PAGE);
    auto f = fault(faults);
    ASSERT_TRUE(f);
    EXPECT_EQ(f->va, address(src) + 2 * PAGE);
  }
  for (const Buffer *b : {&first, &second, &d}) {
    EXPECT_EQ(unmapFrom(b->handle, {g.id}), 0);
    EXPECT_EQ(freeMemory(b->handle), 0);
  }
  ::munmap(src, 3 * PAGE);
  ::munmap(dst, 2 * PAGE);
}

//===----------------------------------------------------------------------===//
// A GPU hidden by a device cgroup; the IP-discovery versions
//===----------------------------------------------------------------------===//

TEST(KFDSimRules, HiddenNodeAnswersEperm) {
  REQUIRE_SIMULATOR();
  const char *hidden = std::getenv("HCQ_KFD_SIM_HIDDEN");
  if (!hidden || std::strcmp(hidden, "4") != 0)
    GTEST_SKIP() << "run with HCQ_KFD_SIM_HIDDEN=4";
  for (const char *attribute : {"gpu_id", "properties"}) {
    ReadResult r = readFile(std::string(NODES) + "4/" + attribute);
    EXPECT_FALSE(r.openFailed) << attribute; // sysfs opens, then refuses
    EXPECT_EQ(r.error, EPERM) << attribute;
    ReadResult visible = readFile(std::string(NODES) + "1/" + attribute);
    EXPECT_EQ(visible.error, 0) << attribute;
    EXPECT_FALSE(visible.text.empty()) << attribute;
  }
  // The device cgroup refuses the render node too (renderD131: node 4).
  errno = 0;
  EXPECT_EQ(::open("/dev/dri/renderD131", O_RDWR | O_CLOEXEC), -1);
  EXPECT_EQ(errno, EPERM);
}

std::string ipVersion(unsigned minor, const std::string &ip) {
  std::string base = "/sys/class/drm/renderD" + std::to_string(minor) +
                     "/device/ip_discovery/die/0/" + ip + "/0/";
  auto value = [&](const char *name) {
    std::string text = readFile(base + name).text;
    return text.empty() ? std::string("?") : text.substr(0, text.find('\n'));
  };
  return value("major") + "." + value("minor") + "." + value("revision");
}

TEST(KFDSimRules, IpDiscoveryVersions) {
  REQUIRE_SIMULATOR();
  // By hw id folder and by the name the driver links to it.
  unsigned gfx1100 = 127 + nodeOf("gfx1100"), gfx942 = 127 + nodeOf("gfx942");
  EXPECT_EQ(ipVersion(gfx1100, "108"), "4.3.0");
  EXPECT_EQ(ipVersion(gfx1100, "NBIF"), "4.3.0");
  EXPECT_EQ(ipVersion(gfx1100, "GC"), "11.0.0");
  EXPECT_EQ(ipVersion(gfx942, "NBIF"), "7.9.0");
  EXPECT_EQ(ipVersion(gfx942, "11"), "9.4.3");
  EXPECT_EQ(ipVersion(gfx942, "SDMA0"), "4.4.2");
}

} // namespace
