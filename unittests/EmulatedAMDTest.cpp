//===- EmulatedAMDTest.cpp - Schedules run on the emulated AMD device -----===//
//
// End to end on the emulated AMD device: real gfx1100 and gfx942 code
// objects (test/Target/Inputs/kernels.cl), their PM4 and SDMA words executed
// by the software command processor, the kernels' CPU twins standing in for
// the shaders. Every result is compared with calling the twins directly.
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "gtest/gtest.h"

#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/SDMA.h"

#include <cstring>
#include <dlfcn.h>
#include <random>
#include <thread>

using namespace hcq::runtime;
using hcq::test::amdKernel;
using hcq::test::compileAndLoad;
using hcq::test::compileExecutable;

namespace {

/// The twins, called directly: the reference every run is compared with.
class DirectTwins {
public:
  DirectTwins() {
    handle = dlopen(hcq::test::kernelLibrary.c_str(), RTLD_NOW | RTLD_LOCAL);
    EXPECT_NE(handle, nullptr) << dlerror();
  }
  ~DirectTwins() {
    if (handle)
      dlclose(handle);
  }

  /// Runs twin `symbol` over `groups` workgroups of `local` work-items with
  /// `kernargs`, as a dispatch would.
  void run(const char *symbol, const std::vector<uint8_t> &kernargs,
           std::array<uint32_t, 3> groups, std::array<uint32_t, 3> local) {
    auto twin = reinterpret_cast<hcq_amd_twin>(
        dlsym(handle, ("hcq_twin_" + std::string(symbol)).c_str()));
    ASSERT_NE(twin, nullptr) << symbol;
    // The dispatch packet's workgroup size, for the kernels that read it.
    uint16_t packet[32] = {};
    packet[2] = local[0];
    packet[3] = local[1];
    packet[4] = local[2];
    hcq_amd_workgroup wg;
    wg.kernargs = kernargs.data();
    wg.dispatch_packet = packet;
    for (int d = 0; d < 3; ++d) {
      wg.num_groups[d] = groups[d];
      wg.local_size[d] = local[d];
    }
    hcq_amd_run_grid(twin, &wg);
  }

private:
  void *handle = nullptr;
};

/// Kernel arguments in the AMD layout: 8-byte pointers, 4-byte scalars.
struct Kernargs {
  std::vector<uint8_t> bytes;
  Kernargs &ptr(const void *p) { return add(&p, 8); }
  template <typename T> Kernargs &scalar(T v) { return add(&v, 4); }
  Kernargs &add(const void *p, size_t n) {
    bytes.resize(llvm::alignTo(bytes.size(), n));
    bytes.insert(bytes.end(), static_cast<const uint8_t *>(p),
                 static_cast<const uint8_t *>(p) + n);
    return *this;
  }
};

int32_t floatBits(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

RuntimeOptions
emulated(std::chrono::milliseconds timeout = std::chrono::milliseconds(30000)) {
  RuntimeOptions options;
  options.amd = AMDDevice::Emulated;
  options.twinLibraries = {hcq::test::kernelLibrary};
  options.waitTimeout = timeout;
  return options;
}

class EmulatedAMD : public testing::TestWithParam<const char *> {
protected:
  /// Compiles the test kernels and `schedule` for this target with `opts`
  /// (its target set here) and loads it on the emulated device.
  std::unique_ptr<LoadedExecutable>
  load(const std::string &schedule, hcq::PipelineOptions &opts,
       const RuntimeOptions &runtime = emulated()) {
    opts.target = GetParam();
    return compileAndLoad(kernels() + schedule, opts, runtime);
  }

  std::string kernels() {
    std::string path =
        std::string(HCQ_TEST_INPUTS) + "/kernels-" + GetParam() + ".co";
    return amdKernel(path, "vadd", "(write f32, read f32, read f32)", 1) +
           amdKernel(path, "scale", "(readwrite f32)", 1) +
           amdKernel(path, "reduce", "(write f32, read f32)", 0);
  }
};

// out = (a + b) * s over the first n elements (c keeps its old values past
// n), sum = the sum of c; a, b, out, sum on the host, c on AMD:0.
const char *const vaddScaleReduce = R"mlir(
hcq.schedule @vsr(%a: !hcq.buffer<1024xf32, CPU:0>, %b: !hcq.buffer<1024xf32, CPU:0>, %out: !hcq.buffer<1024xf32, CPU:0>, %sum: !hcq.buffer<1xf32, CPU:0>, %n: i32, %s: i32) {
  %da = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %db = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %dc = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %ds = hcq.alloc : !hcq.buffer<1xf32, AMD:0>
  hcq.copy %da[0, 4096], %a[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, CPU:0>
  hcq.copy %db[0, 4096], %b[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, CPU:0>
  hcq.launch @vadd(%dc, %da, %db : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.launch @scale(%dc : !hcq.buffer<1024xf32, AMD:0>) vars(%s : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.launch @reduce(%ds, %dc : !hcq.buffer<1xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) global [1, 1, 1] local [1024, 1, 1]
  hcq.copy %out[0, 4096], %dc[0, 4096] : !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, AMD:0>
  hcq.copy %sum[0, 4], %ds[0, 4] : !hcq.buffer<1xf32, CPU:0>, !hcq.buffer<1xf32, AMD:0>
}
)mlir";

/// Runs `exe` `runs` times with fresh inputs and checks every result
/// against the twins called directly on the host's own copy of c.
void checkVaddScaleReduce(LoadedExecutable &exe, int runs) {
  DirectTwins direct;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-2, 2);
  std::vector<float> c(1024, 0), sum(1);
  for (int run = 0; run < runs; ++run) {
    std::vector<float> a(1024), b(1024), out(1024, -1), deviceSum(1, -1);
    for (int i = 0; i < 1024; ++i) {
      a[i] = dist(rng);
      b[i] = dist(rng);
    }
    int n = 1024 - run % 100;
    float s = float(run % 5) - 2.5f;
    ASSERT_FALSE(static_cast<bool>(exe.run(
        {Argument::buffer(a.data()), Argument::buffer(b.data()),
         Argument::buffer(out.data()), Argument::buffer(deviceSum.data()),
         Argument::variable(n), Argument::variable(floatBits(s))})))
        << run;
    hcq::Error e = exe.synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));

    direct.run(
        "vadd",
        Kernargs().ptr(c.data()).ptr(a.data()).ptr(b.data()).scalar(n).bytes,
        {16, 1, 1}, {64, 1, 1});
    direct.run("scale", Kernargs().ptr(c.data()).scalar(s).bytes, {16, 1, 1},
               {64, 1, 1});
    direct.run("reduce", Kernargs().ptr(sum.data()).ptr(c.data()).bytes,
               {1, 1, 1}, {1024, 1, 1});
    ASSERT_EQ(out, c) << "run " << run;
    ASSERT_EQ(deviceSum[0], sum[0]) << "run " << run;
  }
}

} // namespace

TEST_P(EmulatedAMD, ThousandReplaysMatchDirectCalls) {
  hcq::PipelineOptions opts;
  auto exe = load(vaddScaleReduce, opts);
  ASSERT_TRUE(exe);
  checkVaddScaleReduce(*exe, 1000);
}

TEST_P(EmulatedAMD, RingsWrapAroundOverManyRuns) {
  // 1024-byte rings (the smallest KFD runs as asked): the PM4 ring holds 64
  // INDIRECT_BUFFER packets and the SDMA ring a handful of command buffers,
  // so both wrap (SDMA with a zeroed tail) many times over 300 runs of one
  // submit per call.
  hcq::PipelineOptions opts;
  opts.batchSize = 1;
  RuntimeOptions runtime = emulated();
  runtime.ringBytes = 1024; // the smallest AMD ring
  auto exe = load(vaddScaleReduce, opts, runtime);
  ASSERT_TRUE(exe);
  checkVaddScaleReduce(*exe, 300);
}

TEST_P(EmulatedAMD, CommandBuffersSplitOverIndirectBuffersRunWhole) {
  // Indirect buffers of 64 dwords: the compute submit's three dispatches
  // (about 200 dwords) are padded with NOPs at each multiple of 64 and
  // pushed as four INDIRECT_BUFFER packets, which the command processor
  // runs one after the other.
  std::string schedule = vaddScaleReduce;
  size_t body = schedule.find(") {\n");
  ASSERT_NE(body, std::string::npos);
  schedule.insert(body + 1,
                  std::string(" targets [#hcq.amd_target<chip = \"") +
                      GetParam() +
                      "\", indirect_buffer_dwords = 64>, #hcq.cpu_target]");
  hcq::PipelineOptions opts;
  auto exe = load(schedule, opts);
  ASSERT_TRUE(exe);
  checkVaddScaleReduce(*exe, 100);
}

TEST_P(EmulatedAMD, ProfileOnKeepsTheResultsAndTimesEveryCall) {
  hcq::PipelineOptions opts;
  opts.profile = true;
  auto exe = load(vaddScaleReduce, opts);
  ASSERT_TRUE(exe);
  checkVaddScaleReduce(*exe, 50);
  // The last run's calls in schedule order, each timed on its queue: the
  // copies in on COPY:0, the kernels on COMPUTE:0 after them and in order,
  // the copies out after the kernels.
  std::vector<ProfileEvent> events = exe->profile();
  std::vector<std::string> names, queues;
  for (const ProfileEvent &e : events) {
    names.push_back(e.name);
    queues.push_back(e.queue);
    EXPECT_EQ(e.device.kind, hcq::DeviceKind::AMD);
    EXPECT_GT(e.startNs, 0u) << e.name;
    EXPECT_GE(e.endNs, e.startNs) << e.name;
  }
  EXPECT_EQ(names,
            (std::vector<std::string>{"copy#0", "copy#1", "vadd#0", "scale#0",
                                      "reduce#0", "copy#2", "copy#3"}));
  EXPECT_EQ(queues, (std::vector<std::string>{"COPY:0", "COPY:0", "COMPUTE:0",
                                              "COMPUTE:0", "COMPUTE:0",
                                              "COPY:0", "COPY:0"}));
  ASSERT_EQ(events.size(), 7u);
  // What waits for what: vadd for both copies in; the kernels in order; the
  // copy of c for scale (it may overlap reduce, which only reads c); the
  // copy of the sum for reduce and for the copy before it on its queue.
  std::pair<int, int> after[] = {{2, 0}, {2, 1}, {3, 2}, {4, 3},
                                 {5, 3}, {6, 4}, {6, 5}};
  for (auto [later, earlier] : after)
    EXPECT_GE(events[later].startNs, events[earlier].endNs)
        << events[later].name << " #" << later << " before "
        << events[earlier].name << " #" << earlier << " ended";
}

TEST_P(EmulatedAMD, TwoDevicesWithCopiesBetweenThem) {
  // c0 = a + a on AMD:0, copied to AMD:1 (SDMA, AMD:0's copy queue), where
  // c1 = c0 + b; c1 comes back to the host.
  const char *schedule = R"mlir(
hcq.schedule @two(%a: !hcq.buffer<1024xf32, CPU:0>, %b: !hcq.buffer<1024xf32, AMD:1>, %out: !hcq.buffer<1024xf32, CPU:0>, %n: i32) {
  %a0 = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %c0 = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %c1 = hcq.alloc : !hcq.buffer<1024xf32, AMD:1>
  %d1 = hcq.alloc : !hcq.buffer<1024xf32, AMD:1>
  hcq.copy %a0[0, 4096], %a[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, CPU:0>
  hcq.launch @vadd(%c0, %a0, %a0 : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.copy %c1[0, 4096], %c0[0, 4096] : !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:0>
  hcq.launch @vadd(%d1, %c1, %b : !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:1>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.copy %out[0, 4096], %d1[0, 4096] : !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, AMD:1>
}
)mlir";
  hcq::PipelineOptions opts;
  auto exe = load(schedule, opts);
  ASSERT_TRUE(exe);
  for (int run = 0; run < 100; ++run) {
    std::vector<float> a(1024), b(1024), out(1024);
    for (int i = 0; i < 1024; ++i) {
      a[i] = float(i % 17) + run;
      b[i] = float(i % 5) - run;
    }
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::buffer(b.data()),
                  Argument::buffer(out.data()), Argument::variable(1024)})));
    hcq::Error e = exe->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(out[i], a[i] + a[i] + b[i]) << "run " << run << " i " << i;
  }
}

TEST_P(EmulatedAMD, KernelCopiesWithoutCopyQueues) {
  // With no AMD copy queue, every copy on AMD is the builtin copy kernel
  // (its code object for this target, its twin the runtime's): host to
  // AMD:0, AMD:0 to AMD:1, AMD:1 to the host, and 6 bytes (not whole
  // elements: a byte copy) within AMD:1.
  const char *schedule = R"mlir(
hcq.schedule @kcopy(%a: !hcq.buffer<1024xf32, CPU:0>, %out: !hcq.buffer<1024xf32, CPU:0>, %n: i32) {
  %d0 = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %e0 = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %d1 = hcq.alloc : !hcq.buffer<1024xf32, AMD:1>
  hcq.copy %d0[0, 4096], %a[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, CPU:0>
  hcq.launch @vadd(%e0, %d0, %d0 : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.copy %d1[0, 4096], %e0[0, 4096] : !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:0>
  hcq.copy %d1[2050, 6], %d1[0, 6] : !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:1>
  hcq.copy %out[0, 4096], %d1[0, 4096] : !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, AMD:1>
}
)mlir";
  hcq::PipelineOptions opts;
  opts.copyQueues = "CPU";
  auto exe = load(schedule, opts);
  ASSERT_TRUE(exe);
  for (int run = 0; run < 20; ++run) {
    std::vector<float> a(1024), out(1024);
    for (int i = 0; i < 1024; ++i)
      a[i] = float(i + run);
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::buffer(out.data()),
                  Argument::variable(1024)})));
    hcq::Error e = exe->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    std::vector<float> expected(1024);
    for (int i = 0; i < 1024; ++i)
      expected[i] = 2 * a[i];
    std::memcpy(reinterpret_cast<char *>(expected.data()) + 2050,
                expected.data(), 6);
    ASSERT_EQ(std::memcmp(out.data(), expected.data(), 4096), 0)
        << "run " << run;
  }
}

TEST_P(EmulatedAMD, StagingCopiesThroughTheHost) {
  // DISK:0 is outside the HCQ devices: its copies to and from AMD:0 go
  // through the CPU staging buffer, 256-byte chunks in two slots; the
  // DISK-side copies run on the host between the AMD batches.
  const char *schedule = R"mlir(
hcq.schedule @staged(%a: !hcq.buffer<1024xf32, DISK:0>, %out: !hcq.buffer<1024xf32, DISK:0>, %n: i32) {
  %d = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  %e = hcq.alloc : !hcq.buffer<1024xf32, AMD:0>
  hcq.copy %d[0, 4096], %a[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, DISK:0>
  hcq.launch @vadd(%e, %d, %d : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.copy %out[0, 4096], %e[0, 4096] : !hcq.buffer<1024xf32, DISK:0>, !hcq.buffer<1024xf32, AMD:0>
}
)mlir";
  hcq::PipelineOptions opts;
  opts.stagingSize = 512;
  auto exe = load(schedule, opts);
  ASSERT_TRUE(exe);
  for (int run = 0; run < 20; ++run) {
    std::vector<float> a(1024), out(1024);
    for (int i = 0; i < 1024; ++i)
      a[i] = float(i * 3 + run);
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::buffer(out.data()),
                  Argument::variable(1024)})));
    hcq::Error e = exe->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(out[i], 2 * a[i]) << "run " << run << " i " << i;
  }
}

TEST_P(EmulatedAMD, StuckWaitsAreReportedAndTheProcessRunsAgain) {
  // WAIT_REG_MEM (compute) and POLL_REGMEM (copy) on a signal nothing
  // stores: each queue's hang is reported within the timeout, naming the
  // queue and the signal, and the executable runs again.
  const char *schedule = R"mlir(
hcq.schedule @stuck(%a: !hcq.buffer<64xf32, AMD:0>, %b: !hcq.buffer<64xf32, AMD:0>) {
  %s = hcq.placeholder signal slot 9 volatile : !hcq.buffer<1xi64, AMD:0>
  hcq.submit on AMD:0 queue QUEUE {
    hcq.wait %s >= 5 : !hcq.buffer<1xi64, AMD:0>
  }
}
)mlir";
  for (const char *queue : {"COMPUTE:0", "COPY:0"}) {
    std::string source = schedule;
    source.replace(source.find("QUEUE"), 5, queue);
    hcq::PipelineOptions opts;
    auto exe = load(source, opts, emulated(std::chrono::milliseconds(200)));
    ASSERT_TRUE(exe);
    std::vector<float> a(64), b(64);
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto start = std::chrono::steady_clock::now();
      ASSERT_FALSE(static_cast<bool>(
          exe->run({Argument::buffer(a.data()), Argument::buffer(b.data())})));
      hcq::Error error = exe->synchronize();
      ASSERT_TRUE(static_cast<bool>(error));
      std::string message = hcq::toString(std::move(error));
      EXPECT_NE(message.find("hang detected: AMD:0 " + std::string(queue) +
                             ": wait on signal 0x"),
                std::string::npos)
          << message;
      EXPECT_NE(message.find("for value 5 timed out after 200 ms (it holds 0)"),
                std::string::npos)
          << message;
      // The signal is named, not only given by its address.
      EXPECT_NE(message.find(" (signal slot 9 of @stuck on AMD:0) for value"),
                std::string::npos)
          << message;
      EXPECT_LT(std::chrono::steady_clock::now() - start,
                std::chrono::seconds(5));
    }
  }
}

TEST_P(EmulatedAMD, EachDeviceMayHaveItsOwnWaitTimeout) {
  // The same stuck wait on AMD:1, its timeout set to 100 ms while every
  // other device keeps 30 s: reported within it, naming AMD:1.
  const char *schedule = R"mlir(
hcq.schedule @stuck(%a: !hcq.buffer<64xf32, AMD:1>) {
  %s = hcq.placeholder signal slot 9 volatile : !hcq.buffer<1xi64, AMD:1>
  hcq.submit on AMD:1 queue COMPUTE:0 {
    hcq.wait %s >= 3 : !hcq.buffer<1xi64, AMD:1>
  }
}
)mlir";
  hcq::PipelineOptions opts;
  RuntimeOptions runtime = emulated();
  runtime.deviceWaitTimeouts["AMD:1"] = std::chrono::milliseconds(100);
  auto exe = load(schedule, opts, runtime);
  ASSERT_TRUE(exe);
  std::vector<float> a(64);
  auto start = std::chrono::steady_clock::now();
  ASSERT_FALSE(static_cast<bool>(exe->run({Argument::buffer(a.data())})));
  hcq::Error error = exe->synchronize();
  ASSERT_TRUE(static_cast<bool>(error));
  std::string message = hcq::toString(std::move(error));
  EXPECT_NE(message.find("hang detected: AMD:1 COMPUTE:0: wait on signal 0x"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("for value 3 timed out after 100 ms"),
            std::string::npos)
      << message;
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

namespace {
/// The blob whose first dword is `first`, as dwords.
uint32_t *blobStartingWith(Executable &exe, uint32_t first) {
  for (Blob &blob : exe.blobs) {
    uint32_t w0;
    if (blob.data.size() >= 4 &&
        (std::memcpy(&w0, blob.data.data(), 4), w0 == first))
      return reinterpret_cast<uint32_t *>(blob.data.data());
  }
  return nullptr;
}
} // namespace

TEST_P(EmulatedAMD, UnknownPacketsAreErrorsNamingWhereTheyAre) {
  // A DISPATCH_DIRECT turned into opcode 0xEE, and a COPY_LINEAR turned into
  // SDMA opcode 0x7F: each run reports the packet and where it is, quickly,
  // and never runs past it.
  namespace pm4 = hcq::amd::pm4;
  namespace sdma = hcq::amd::sdma;
  // The compute command buffer starts with the barrier's WAIT_REG_MEM; the
  // copy command buffer with the timeline POLL_REGMEM (6 dwords), then the
  // first COPY_LINEAR.
  enum Corruption { FirstDispatch, FirstCopy };
  struct Case {
    Corruption what;
    const char *expected;
  } cases[] = {
      {FirstDispatch, "device fault: AMD:0 COMPUTE:0: unknown PM4 opcode "
                      "0xee at indirect buffer 0x"},
      {FirstCopy, "device fault: AMD:0 COPY:0: unknown SDMA opcode 127 at "
                  "ring offset 0x"},
  };
  for (const Case &c : cases) {
    hcq::PipelineOptions opts;
    opts.target = GetParam();
    std::optional<Executable> exe =
        compileExecutable(kernels() + vaddScaleReduce, opts);
    ASSERT_TRUE(exe);
    if (c.what == FirstDispatch) {
      uint32_t *pm4Words =
          blobStartingWith(*exe, pm4::packet3(pm4::WAIT_REG_MEM, 6));
      ASSERT_NE(pm4Words, nullptr);
      size_t at = 0;
      while (pm4::packetOpcode(pm4Words[at]) != pm4::DISPATCH_DIRECT)
        at += pm4::packetCount(pm4Words[at]) + 2;
      pm4Words[at] = pm4::packet3(0xEE, 4);
    } else {
      uint32_t *sdmaWords = blobStartingWith(
          *exe, sdma::header(sdma::OP_POLL_REGMEM, 0) | sdma::POLL_MEM |
                    sdma::pollFunction(pm4::WAIT_FUNCTION_GEQ));
      ASSERT_NE(sdmaWords, nullptr);
      // The first copy follows the submit's waits (6-dword POLL_REGMEMs).
      size_t at = 0;
      while (sdmaWords[at] == sdmaWords[0])
        at += 6;
      ASSERT_EQ(sdmaWords[at],
                sdma::header(sdma::OP_COPY, sdma::SUBOP_COPY_LINEAR));
      sdmaWords[at] = 0x7F;
    }
    auto loaded = Runtime::create(emulated())->load(*exe);
    ASSERT_TRUE(static_cast<bool>(loaded));
    std::vector<float> a(1024, 1), b(1024, 2), out(1024), sum(1);
    for (int attempt = 0; attempt < 2; ++attempt) {
      auto start = std::chrono::steady_clock::now();
      hcq::Error error = (*loaded)->run(
          {Argument::buffer(a.data()), Argument::buffer(b.data()),
           Argument::buffer(out.data()), Argument::buffer(sum.data()),
           Argument::variable(1024), Argument::variable(floatBits(1))});
      if (!error)
        error = (*loaded)->synchronize();
      ASSERT_TRUE(static_cast<bool>(error));
      std::string message = hcq::toString(std::move(error));
      EXPECT_NE(message.find(c.expected), std::string::npos) << message;
      EXPECT_LT(std::chrono::steady_clock::now() - start,
                std::chrono::seconds(5));
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Targets, EmulatedAMD,
                         testing::Values("gfx1100", "gfx942"));

/// One launch of the gfx1100 vadd kernel on AMD:0, compiled.
std::optional<Executable> oneVaddLaunch() {
  std::string source = amdKernel(HCQ_TEST_INPUTS "/kernels-gfx1100.co", "vadd",
                                 "(write f32, read f32, read f32)", 1) +
                       R"mlir(
hcq.schedule @one(%a: !hcq.buffer<64xf32, AMD:0>, %n: i32) {
  hcq.launch @vadd(%a, %a, %a : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, AMD:0>) vars(%n : i32) global [1, 1, 1] local [64, 1, 1]
}
)mlir";
  hcq::PipelineOptions opts;
  return compileExecutable(source, opts);
}

TEST(EmulatedAMDLoad, AMDExecutablesNeedAnAMDDeviceAndTwins) {
  std::optional<Executable> exe = oneVaddLaunch();
  ASSERT_TRUE(exe);

  auto none = Runtime::create()->load(*exe);
  ASSERT_FALSE(static_cast<bool>(none));
  EXPECT_EQ(hcq::toString(none.takeError()),
            "the executable uses AMD:0, and no AMD device was chosen "
            "(RuntimeOptions::amd; hcq-run --amd=emulated or "
            "--amd=hardware)");

  RuntimeOptions noTwins;
  noTwins.amd = AMDDevice::Emulated;
  auto missing = Runtime::create(noTwins)->load(*exe);
  ASSERT_FALSE(static_cast<bool>(missing));
  hcq::Error missingError = missing.takeError();
  EXPECT_EQ(missingError.code(), hcq::ErrorCode::Unavailable);
  EXPECT_EQ(hcq::toString(std::move(missingError)),
            "AMD kernel vadd has no CPU twin for the emulated device: "
            "register 'vadd' with RuntimeOptions::amdTwins, define "
            "hcq_twin_vadd in a twin library given with "
            "RuntimeOptions::twinLibraries, or compile the kernel with a "
            "host object");
  // A program that sets the options under its own names has the error name
  // them so, and leaves out what its users cannot set (hcq-run has no way
  // to register a twin function).
  noTwins.optionNames = {{"twinLibraries", "--twins"}, {"amdTwins", ""}};
  auto named = Runtime::create(noTwins)->load(*exe);
  ASSERT_FALSE(static_cast<bool>(named));
  EXPECT_EQ(hcq::toString(named.takeError()),
            "AMD kernel vadd has no CPU twin for the emulated device: define "
            "hcq_twin_vadd in a twin library given with --twins, or compile "
            "the kernel with a host object");

  // A twin registered by symbol wins over the libraries.
  static std::atomic<int> calls{0};
  RuntimeOptions registered = emulated();
  registered.amdTwins["vadd"] = [](const hcq_amd_workgroup *) { ++calls; };
  auto loaded = Runtime::create(registered)->load(*exe);
  ASSERT_TRUE(static_cast<bool>(loaded));
  std::vector<float> a(64);
  ASSERT_FALSE(static_cast<bool>(
      (*loaded)->run({Argument::buffer(a.data()), Argument::variable(64)})));
  ASSERT_FALSE(static_cast<bool>((*loaded)->synchronize()));
  EXPECT_EQ(calls.load(), 1);
}

TEST(EmulatedAMDLoad, ATwinThatNeverReturnsIsAHangAndUnloadDoesNotBlock) {
  // As a CPU kernel that never returns (RuntimeTest): the emulated command
  // processor's dispatch is named, and unloading does not wait for it.
  std::optional<Executable> exe = oneVaddLaunch();
  ASSERT_TRUE(exe);
  static std::atomic<bool> release{false};
  RuntimeOptions options = emulated();
  options.waitTimeout = std::chrono::milliseconds(200);
  options.amdTwins["vadd"] = [](const hcq_amd_workgroup *) {
    while (!release.load())
      std::this_thread::yield();
  };
  auto loaded = Runtime::create(options)->load(*exe);
  ASSERT_TRUE(static_cast<bool>(loaded));
  std::vector<float> a(64);
  ASSERT_FALSE(static_cast<bool>(
      (*loaded)->run({Argument::buffer(a.data()), Argument::variable(64)})));
  auto start = std::chrono::steady_clock::now();
  hcq::Error error = (*loaded)->synchronize();
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(hcq::toString(std::move(error)),
            "hang detected: AMD:0 COMPUTE:0: kernel @vadd (its CPU twin) has "
            "not finished after 200 ms");
  loaded->reset(); // the executable and, with it, the runtime
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  release.store(true);
}

TEST_P(EmulatedAMD, FloatScalarsReachTheKernelAsTheirBits) {
  // The scale kernel takes a float: bound (an f32 schedule argument, passed
  // with Argument::f32) and constant (folded into the kernel arguments).
  const char *schedule = R"mlir(
hcq.schedule @float_scale(%a: !hcq.buffer<1024xf32, AMD:0>, %s: f32) {
  %quarter = arith.constant 0.25 : f32
  hcq.launch @scale(%a : !hcq.buffer<1024xf32, AMD:0>) vars(%s : f32) global [16, 1, 1] local [64, 1, 1]
  hcq.launch @scale(%a : !hcq.buffer<1024xf32, AMD:0>) vars(%quarter : f32) global [16, 1, 1] local [64, 1, 1]
}
)mlir";
  hcq::PipelineOptions opts;
  auto exe = load(schedule, opts);
  ASSERT_TRUE(exe);
  DirectTwins direct;
  for (float s : {3.0f, -1.5f, 0.125f}) {
    std::vector<float> a(1024), expected(1024);
    for (int i = 0; i < 1024; ++i)
      a[i] = expected[i] = float(i) - 100;
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::f32(s)})));
    hcq::Error e = exe->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    direct.run("scale", Kernargs().ptr(expected.data()).scalar(s).bytes,
               {16, 1, 1}, {64, 1, 1});
    direct.run("scale", Kernargs().ptr(expected.data()).scalar(0.25f).bytes,
               {16, 1, 1}, {64, 1, 1});
    ASSERT_EQ(a, expected) << "s = " << s;
  }
}
