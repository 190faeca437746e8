//===- SharedDeviceTest.cpp - Executables sharing one runtime's devices ---===//
//
// Several executables loaded onto one Runtime: a producer and a consumer
// sharing a buffer on one device, each also on a device of its own, run
// interleaved without waiting in between; a third executable loaded later;
// load/unload cycles; destruction with work in flight; runs from two
// threads. On the CPU device and on the emulated AMD device (gfx1100,
// gfx942); every result is compared with the arithmetic done directly.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Workgroups.h"
#include "SharedSchedules.h"
#include "TestCompile.h"

#include "gtest/gtest.h"

#include <dirent.h>
#include <fstream>
#include <random>
#include <thread>

using namespace hcq::runtime;
using hcq::test::amdKernel;
using hcq::test::amdSchedules;
using hcq::test::compileExecutable;
using hcq::test::Schedules;

namespace hcq::runtime {
void PrintTo(const DeviceId &id, std::ostream *os) { *os << id.str(); }
} // namespace hcq::runtime

namespace {

Schedules cpuSchedules() {
  const char *kernels = R"mlir(
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "@LIB@"
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "@LIB@"
)mlir";
  std::string k = kernels;
  return {k + R"mlir(
hcq.schedule @producer(%a: !hcq.buffer<1024xf32, CPU:1>, %x: !hcq.buffer<1024xf32, CPU:0>, %s: i32) {
  %t = hcq.alloc : !hcq.buffer<1024xf32, CPU:1>
  hcq.launch @vadd(%t, %a, %a : !hcq.buffer<1024xf32, CPU:1>, !hcq.buffer<1024xf32, CPU:1>, !hcq.buffer<1024xf32, CPU:1>) global [1024, 1, 1] local [1, 1, 1]
  hcq.copy %x[0, 4096], %t[0, 4096] : !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, CPU:1>
  hcq.launch @vadd(%x, %x, %x : !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, CPU:0>) global [1024, 1, 1] local [1, 1, 1]
  hcq.launch @scale(%x : !hcq.buffer<1024xf32, CPU:0>) vars(%s : i32) global [1024, 1, 1] local [1, 1, 1]
}
)mlir",
          k + R"mlir(
hcq.schedule @consumer(%x: !hcq.buffer<1024xf32, CPU:0>, %out: !hcq.buffer<1024xf32, CPU:2>) {
  %u = hcq.alloc : !hcq.buffer<1024xf32, CPU:2>
  hcq.copy %u[0, 4096], %x[0, 4096] : !hcq.buffer<1024xf32, CPU:2>, !hcq.buffer<1024xf32, CPU:0>
  hcq.launch @vadd(%out, %u, %u : !hcq.buffer<1024xf32, CPU:2>, !hcq.buffer<1024xf32, CPU:2>, !hcq.buffer<1024xf32, CPU:2>) global [1024, 1, 1] local [1, 1, 1]
}
)mlir",
          k + R"mlir(
hcq.schedule @reader(%x: !hcq.buffer<1024xf32, CPU:0>, %out: !hcq.buffer<1024xf32, CPU:0>) {
  hcq.launch @vadd(%out, %x, %x : !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, CPU:0>, !hcq.buffer<1024xf32, CPU:0>) global [1024, 1, 1] local [1, 1, 1]
}
)mlir",
          {hcq::DeviceKind::CPU, 0}};
}

/// Whether `e` is an error (consumed).
bool failed(hcq::Error e) {
  if (!e)
    return false;
  hcq::consumeError(std::move(e));
  return true;
}

int32_t floatBits(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

std::vector<DeviceId> devicesOfKind(const std::vector<DeviceId> &devices,
                                    hcq::DeviceKind kind) {
  std::vector<DeviceId> result;
  for (const DeviceId &d : devices)
    if (d.kind == kind)
      result.push_back(d);
  return result;
}

/// Whether resident memory says anything about leaks here: AddressSanitizer
/// keeps freed memory in quarantine and grows its own bookkeeping (its
/// LeakSanitizer checks leaks instead).
#if defined(__SANITIZE_ADDRESS__)
constexpr bool RSS_IS_MEANINGFUL = false;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
constexpr bool RSS_IS_MEANINGFUL = false;
#else
constexpr bool RSS_IS_MEANINGFUL = true;
#endif
#else
constexpr bool RSS_IS_MEANINGFUL = true;
#endif

/// Reads a number from /proc/self/status ("Threads:", "VmRSS:").
long statusField(const char *field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.rfind(field, 0) == 0)
      return std::stol(line.substr(std::strlen(field)));
  return -1;
}

long openFds() {
  long count = 0;
  if (DIR *dir = opendir("/proc/self/fd")) {
    while (readdir(dir))
      ++count;
    closedir(dir);
  }
  return count;
}

class SharedDevice : public testing::TestWithParam<const char *> {
protected:
  bool isCPU() const { return std::string(GetParam()) == "cpu"; }

  Schedules schedules() const {
    return isCPU() ? cpuSchedules() : amdSchedules(GetParam());
  }

  RuntimeOptions options(std::chrono::milliseconds timeout =
                             std::chrono::milliseconds(30000)) const {
    RuntimeOptions options;
    options.waitTimeout = timeout;
    if (!isCPU()) {
      options.amd = AMDDevice::Emulated;
      options.twinLibraries = {hcq::test::kernelLibrary};
    }
    return options;
  }

  std::unique_ptr<LoadedExecutable> load(Runtime &runtime,
                                         const std::string &source) {
    hcq::PipelineOptions opts;
    if (!isCPU())
      opts.target = GetParam();
    return hcq::test::compileAndLoad(source, opts, runtime);
  }

  /// The producer's arguments: the CPU scale takes an integer, the AMD
  /// twin a float's bits.
  std::vector<Argument> producerArgs(std::vector<float> &a, const Buffer &x,
                                     int s) const {
    if (isCPU())
      return {Argument::buffer(a.data()), bufferArgument({&x}),
              Argument::variable(s)};
    return {Argument::buffer(a.data()), bufferArgument({&x}),
            Argument::variable(1024), Argument::variable(floatBits(float(s)))};
  }
  std::vector<Argument> consumerArgs(const Buffer &x,
                                     std::vector<float> &out) const {
    std::vector<Argument> args = {bufferArgument({&x}),
                                  Argument::buffer(out.data())};
    if (!isCPU())
      args.push_back(Argument::variable(1024));
    return args;
  }
};

TEST_P(SharedDevice, ProducerAndConsumerInterleaveAThousandTimes) {
  // Nothing waits between the runs: the consumer's reads of x and the
  // producer's next writes are ordered by the shared device's timeline
  // alone, as in the seed. The host memory the runs use is declared first:
  // a failed assertion returns with runs in flight, and the executables'
  // destructors wait for them before it goes.
  constexpr int RUNS = 1000;
  std::vector<std::vector<float>> a(RUNS, std::vector<float>(1024)),
      out(RUNS, std::vector<float>(1024, -1));
  auto runtime = Runtime::create(options());
  Schedules s = schedules();
  hcq::Expected<Buffer> x = runtime->allocate(s.shared, 4096);
  ASSERT_TRUE(static_cast<bool>(x)) << hcq::toString(x.takeError());
  auto producer = load(*runtime, s.producer);
  auto consumer = load(*runtime, s.consumer);
  ASSERT_TRUE(producer && consumer);
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<int> scale(RUNS);
  for (int run = 0; run < RUNS; ++run) {
    for (float &v : a[run])
      v = float(dist(rng));
    scale[run] = run % 7 - 3;
    hcq::Error e = producer->run(producerArgs(a[run], *x, scale[run]));
    ASSERT_FALSE(static_cast<bool>(e))
        << "producer run " << run << ": " << hcq::toString(std::move(e));
    e = consumer->run(consumerArgs(*x, out[run]));
    ASSERT_FALSE(static_cast<bool>(e))
        << "consumer run " << run << ": " << hcq::toString(std::move(e));
  }
  hcq::Error e = runtime->synchronize();
  ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
  for (int run = 0; run < RUNS; ++run)
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(out[run][i], 8 * a[run][i] * scale[run])
          << "run " << run << " i " << i;
  // Both executables are on the shared device and one device of their own
  // (AMD executables also use CPU:0, for host memory such as their tables).
  EXPECT_EQ(devicesOfKind(producer->devices(), s.shared.kind),
            (std::vector<DeviceId>{{s.shared.kind, 0}, {s.shared.kind, 1}}));
  EXPECT_EQ(devicesOfKind(consumer->devices(), s.shared.kind),
            (std::vector<DeviceId>{{s.shared.kind, 0}, {s.shared.kind, 2}}));
  EXPECT_EQ(devicesOfKind(runtime->openDevices(), s.shared.kind).size(), 3u);
}

TEST_P(SharedDevice, AnExecutableLoadedLaterJoinsTheTimeline) {
  // The reader is loaded while the producer's work may still run; its
  // first run must see the producer's x, and later interleavings stay
  // ordered. Memory the runs use outlives the executables (see above).
  constexpr int RUNS = 200;
  std::vector<float> a(1024);
  std::vector<std::vector<float>> out(RUNS + 1, std::vector<float>(1024, -1));
  auto runtime = Runtime::create(options());
  Schedules s = schedules();
  hcq::Expected<Buffer> x = runtime->allocate(s.shared, 4096);
  ASSERT_TRUE(static_cast<bool>(x));
  auto producer = load(*runtime, s.producer);
  ASSERT_TRUE(producer);
  for (int i = 0; i < 1024; ++i)
    a[i] = float(i % 13);
  for (int run = 0; run < 20; ++run)
    ASSERT_FALSE(
        static_cast<bool>(producer->run(producerArgs(a, *x, run % 5 - 2))));
  auto reader = load(*runtime, s.reader);
  ASSERT_TRUE(reader);
  ASSERT_FALSE(static_cast<bool>(reader->run(consumerArgs(*x, out[0]))));
  for (int run = 1; run <= RUNS; ++run) {
    ASSERT_FALSE(
        static_cast<bool>(producer->run(producerArgs(a, *x, run % 5 - 2))));
    ASSERT_FALSE(static_cast<bool>(reader->run(consumerArgs(*x, out[run]))));
  }
  hcq::Error e = runtime->synchronize();
  ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
  // x = 4 * a * s; the reader doubles it. Its first run follows the
  // producer's 20th (s = 19 % 5 - 2 = 2).
  for (int run = 0; run <= RUNS; ++run) {
    int scale = run == 0 ? 2 : run % 5 - 2;
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(out[run][i], 8 * a[i] * scale) << "run " << run << " i " << i;
  }
  EXPECT_EQ(devicesOfKind(runtime->openDevices(), s.shared.kind).size(), 2u);
}

TEST_P(SharedDevice, LoadUnloadCyclesLeaveThreadsFdsAndMemoryFlat) {
  // Launches on the queue's thread alone: the process's workgroup helpers
  // start once, the first time a launch runs long (on a loaded machine, any
  // cycle's), which is no thread per load.
  hcq::runtime::setWorkgroupThreads(1);
  struct RestoreThreads {
    ~RestoreThreads() { hcq::runtime::setWorkgroupThreads(0); }
  } restore;
  auto runtime = Runtime::create(options());
  Schedules s = schedules();
  hcq::PipelineOptions opts;
  if (!isCPU())
    opts.target = GetParam();
  std::optional<Executable> consumer = compileExecutable(s.consumer, opts);
  ASSERT_TRUE(consumer);
  hcq::Expected<Buffer> x = runtime->allocate(s.shared, 4096);
  ASSERT_TRUE(static_cast<bool>(x));
  std::vector<float> out(1024);
  auto cycle = [&] {
    auto loaded = runtime->load(*consumer);
    ASSERT_TRUE(static_cast<bool>(loaded)) << hcq::toString(loaded.takeError());
    ASSERT_FALSE(static_cast<bool>((*loaded)->run(consumerArgs(*x, out))));
    // Destroyed with its run possibly in flight: the destructor waits.
  };
  for (int i = 0; i < 20; ++i)
    cycle();
  long threads = statusField("Threads:"), fds = openFds(),
       rss = statusField("VmRSS:");
  for (int i = 0; i < 1000; ++i)
    cycle();
  EXPECT_EQ(statusField("Threads:"), threads);
  EXPECT_EQ(openFds(), fds);
  // Each executable has well over 8 KiB of its own memory (command
  // buffers, tables; the copy's 4 KiB buffer): a leak of it would grow RSS
  // by 8 MiB or more over 1000 cycles.
  if (RSS_IS_MEANINGFUL)
    EXPECT_LT(statusField("VmRSS:") - rss, 4096) << "KiB";
  hcq::Error e = runtime->synchronize();
  ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
}

TEST_P(SharedDevice, DestroyingAnExecutableWaitsForItsWork) {
  // 50 runs in flight, then the producer goes: its memory (y, t, command
  // buffers) must outlive the work, and x holds the last run's result.
  auto runtime = Runtime::create(options());
  Schedules s = schedules();
  hcq::Expected<Buffer> x = runtime->allocate(s.shared, 4096);
  ASSERT_TRUE(static_cast<bool>(x));
  std::vector<float> a(1024, 3);
  {
    auto producer = load(*runtime, s.producer);
    ASSERT_TRUE(producer);
    for (int run = 0; run < 50; ++run)
      ASSERT_FALSE(static_cast<bool>(producer->run(producerArgs(a, *x, 2))));
  }
  for (int i = 0; i < 1024; ++i)
    ASSERT_EQ(x->data<float>()[i], 24.0f) << i;
  EXPECT_FALSE(static_cast<bool>(runtime->synchronize()));
}

TEST_P(SharedDevice, DestroyingAnExecutableWhoseWorkHangsStopsTheRuntime) {
  // A wait nothing satisfies: the destructor gives up after the timeout,
  // stops every queue so the memory can go, and the runtime reports it.
  std::string queue = isCPU() ? "CPU:0" : "AMD:0";
  std::string source = R"mlir(
hcq.schedule @stuck(%a: !hcq.buffer<64xf32, DEV>) {
  %s = hcq.placeholder signal slot 9 volatile : !hcq.buffer<1xi64, DEV>
  hcq.submit on DEV queue COMPUTE:0 {
    hcq.wait %s >= 5 : !hcq.buffer<1xi64, DEV>
  }
}
)mlir";
  for (size_t at; (at = source.find("DEV")) != std::string::npos;)
    source.replace(at, 3, queue);
  auto runtime = Runtime::create(options(std::chrono::milliseconds(200)));
  auto stuck = load(*runtime, source);
  ASSERT_TRUE(stuck);
  std::vector<float> a(64);
  ASSERT_FALSE(static_cast<bool>(stuck->run({Argument::buffer(a.data())})));
  auto start = std::chrono::steady_clock::now();
  stuck.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  hcq::Error error = runtime->synchronize();
  ASSERT_TRUE(static_cast<bool>(error));
  std::string message = hcq::toString(std::move(error));
  EXPECT_NE(message.find("device fault: "), std::string::npos) << message;
  EXPECT_NE(message.find("executable @stuck destroyed while its work could "
                         "not finish: hang detected: " +
                         queue + " COMPUTE:0: wait on signal 0x"),
            std::string::npos)
      << message;
}

TEST_P(SharedDevice, RunsFromTwoThreadsAreCorrect) {
  // Two threads run the producer and the reader (each its own x and
  // output) 300 times each on one runtime; run() serializes on the
  // runtime, and every result is right.
  auto runtime = Runtime::create(options());
  Schedules s = schedules();
  auto producer = load(*runtime, s.producer);
  auto reader = load(*runtime, s.reader);
  ASSERT_TRUE(producer && reader);
  hcq::Expected<Buffer> x1 = runtime->allocate(s.shared, 4096);
  hcq::Expected<Buffer> x2 = runtime->allocate(s.shared, 4096);
  ASSERT_TRUE(x1 && x2);
  for (int i = 0; i < 1024; ++i)
    x2->data<float>()[i] = float(i);
  std::vector<float> a(1024, 1);
  std::atomic<int> failures{0};
  std::thread first([&] {
    for (int run = 0; run < 300; ++run) {
      if (failed(producer->run(producerArgs(a, *x1, run % 4))) ||
          failed(producer->synchronize()))
        ++failures;
      else if (x1->data<float>()[5] != 4.0f * (run % 4))
        ++failures;
    }
  });
  std::thread second([&] {
    std::vector<float> out(1024);
    for (int run = 0; run < 300; ++run) {
      std::fill(out.begin(), out.end(), -1);
      if (failed(reader->run(consumerArgs(*x2, out))) ||
          failed(reader->synchronize()))
        ++failures;
      else if (out[7] != 14.0f)
        ++failures;
    }
  });
  first.join();
  second.join();
  EXPECT_EQ(failures.load(), 0);
}

TEST_P(SharedDevice, TwoRuntimesShareTheProcessDevicesAcrossThreads) {
  // The producer is loaded on one Runtime, the consumer on another, and two
  // threads take turns submitting (a turn is handed over without waiting
  // for the device): the consumer's reads of x follow the producer's writes
  // only because both Runtimes use the process's one device and its
  // timeline. Separate devices per Runtime raced here. Memory the runs use
  // outlives the executables.
  constexpr int RUNS = 500;
  std::vector<std::vector<float>> a(RUNS, std::vector<float>(1024)),
      out(RUNS, std::vector<float>(1024, -1));
  auto producerRuntime = Runtime::create(options());
  auto consumerRuntime = Runtime::create(options());
  Schedules s = schedules();
  hcq::Expected<Buffer> x = producerRuntime->allocate(s.shared, 4096);
  ASSERT_TRUE(static_cast<bool>(x)) << hcq::toString(x.takeError());
  auto producer = load(*producerRuntime, s.producer);
  auto consumer = load(*consumerRuntime, s.consumer);
  ASSERT_TRUE(producer && consumer);
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-50, 50);
  for (auto &values : a)
    for (float &v : values)
      v = float(dist(rng));
  int failures = hcq::test::submitTakingTurns(
      RUNS,
      [&](int run) {
        return producer->run(producerArgs(a[run], *x, run % 7 - 3));
      },
      [&](int run) { return consumer->run(consumerArgs(*x, out[run])); });
  ASSERT_EQ(failures, 0);
  hcq::Error e = consumerRuntime->synchronize();
  ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
  int wrong = 0;
  for (int run = 0; run < RUNS; ++run)
    for (int i = 0; i < 1024; ++i)
      wrong += out[run][i] != 8 * a[run][i] * (run % 7 - 3);
  EXPECT_EQ(wrong, 0);
}

INSTANTIATE_TEST_SUITE_P(Devices, SharedDevice,
                         testing::Values("cpu", "gfx1100", "gfx942"));

} // namespace

TEST(RuntimeBuffers, AreDeviceMemoryFreedWhenTheyGo) {
  auto runtime = Runtime::create();
  // Devices the runtime cannot open are refused by name.
  hcq::Expected<Buffer> amd = runtime->allocate({hcq::DeviceKind::AMD, 0}, 64);
  ASSERT_FALSE(static_cast<bool>(amd));
  hcq::Error amdError = amd.takeError();
  EXPECT_EQ(amdError.code(), hcq::ErrorCode::Unavailable);
  EXPECT_EQ(hcq::toString(std::move(amdError)),
            "the executable uses AMD:0, and no AMD device was chosen "
            "(RuntimeOptions::amd; hcq-run --amd=emulated or "
            "--amd=hardware)");
  hcq::Expected<Buffer> disk =
      runtime->allocate({hcq::DeviceKind::DISK, 0}, 64);
  ASSERT_FALSE(static_cast<bool>(disk));
  hcq::Error diskError = disk.takeError();
  EXPECT_EQ(diskError.code(), hcq::ErrorCode::Unavailable);
  EXPECT_EQ(hcq::toString(std::move(diskError)),
            "this runtime has no DISK:0 device");
  // A buffer is zeroed, aligned, its host view its device address here.
  hcq::Expected<Buffer> b = runtime->allocate({hcq::DeviceKind::CPU, 0}, 100);
  ASSERT_TRUE(static_cast<bool>(b));
  EXPECT_EQ(b->size(), 100u);
  EXPECT_EQ(b->deviceAddress() % 256, 0u);
  EXPECT_EQ(b->hostView(), reinterpret_cast<void *>(b->deviceAddress()));
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(b->data<uint8_t>()[i], 0) << i;
  EXPECT_EQ(b->device(), (DeviceId{hcq::DeviceKind::CPU, 0}));
  // Moved, then reset: freed once.
  Buffer moved = std::move(*b);
  EXPECT_FALSE(static_cast<bool>(*b));
  moved.reset();
  EXPECT_FALSE(static_cast<bool>(moved));
  // 1,000 buffers of 1 MiB, each written and dropped: memory stays flat
  // (a leak would be 1 GiB; malloc may keep a few freed MiB cached).
  long rss = statusField("VmRSS:");
  for (int i = 0; i < 1000; ++i) {
    hcq::Expected<Buffer> big =
        runtime->allocate({hcq::DeviceKind::CPU, 0}, 1 << 20);
    ASSERT_TRUE(static_cast<bool>(big));
    std::memset(big->hostView(), 1, 1 << 20);
  }
  if (RSS_IS_MEANINGFUL)
    EXPECT_LT(statusField("VmRSS:") - rss, 64 * 1024) << "KiB";
}

TEST(RuntimeBuffers, KeepTheirRuntimeAlive) {
  Buffer b;
  {
    auto runtime = Runtime::create();
    hcq::Expected<Buffer> made =
        runtime->allocate({hcq::DeviceKind::CPU, 0}, 8);
    ASSERT_TRUE(static_cast<bool>(made));
    b = std::move(*made);
  }
  // The runtime is gone from here but lives on in the buffer.
  b.data<uint64_t>()[0] = 42;
  EXPECT_EQ(b.data<uint64_t>()[0], 42u);
}

TEST(RuntimeBuffers, AllocationsBeyondTheLimitAreRefusedByName) {
  RuntimeOptions options;
  options.maxAllocationBytes = 1 << 20;
  auto runtime = Runtime::create(options);
  hcq::Expected<Buffer> big =
      runtime->allocate({hcq::DeviceKind::CPU, 0}, (1 << 20) + 1);
  ASSERT_FALSE(static_cast<bool>(big));
  hcq::Error bigError = big.takeError();
  EXPECT_EQ(bigError.code(), hcq::ErrorCode::OutOfMemory);
  EXPECT_EQ(hcq::toString(std::move(bigError)),
            "CPU:0: an allocation of 1048577 bytes is more than "
            "RuntimeOptions::maxAllocationBytes (1048576)");
  EXPECT_TRUE(
      static_cast<bool>(runtime->allocate({hcq::DeviceKind::CPU, 0}, 1 << 20)));
}

TEST(ProcessDevices, AreSharedByRuntimesThatAgreeOnTheirOptions) {
  // One CPU:0 for the process: memory one Runtime allocates is the memory
  // another's kernels see, and a Runtime asking for CPU:0 with another ring
  // size is refused, naming the option, while the device is open.
  auto first = Runtime::create();
  hcq::Expected<Buffer> b = first->allocate({hcq::DeviceKind::CPU, 0}, 64);
  ASSERT_TRUE(static_cast<bool>(b));
  auto same = Runtime::create();
  EXPECT_TRUE(static_cast<bool>(same->allocate({hcq::DeviceKind::CPU, 0}, 64)));
  RuntimeOptions other;
  other.ringBytes = 4096;
  auto differing = Runtime::create(other);
  hcq::Expected<Buffer> refused =
      differing->allocate({hcq::DeviceKind::CPU, 0}, 64);
  ASSERT_FALSE(static_cast<bool>(refused));
  hcq::Error error = refused.takeError();
  EXPECT_EQ(error.code(), hcq::ErrorCode::FailedPrecondition);
  EXPECT_NE(error.message().find("CPU:0 (cpu) is open in this process with "
                                 "another RuntimeOptions::ringBytes (1048576, "
                                 "asked for 4096)"),
            std::string::npos)
      << error.message();
  // A device of another index is another device.
  EXPECT_TRUE(
      static_cast<bool>(differing->allocate({hcq::DeviceKind::CPU, 7}, 64)));
  // Once no Runtime uses CPU:0, it closes, and opens again as asked.
  b->reset();
  first.reset();
  same.reset();
  EXPECT_TRUE(
      static_cast<bool>(differing->allocate({hcq::DeviceKind::CPU, 0}, 64)));
}

TEST(ProcessDevices, RingSizesAreCheckedByEachDriver) {
  // CPU rings hold whole 64-byte entries; AMD rings are powers of two of at
  // least 1024 bytes, as KFD takes them (a smaller one it would silently
  // run as 1024).
  RuntimeOptions options;
  options.ringBytes = 192;
  options.amd = AMDDevice::Emulated;
  auto runtime = Runtime::create(options);
  EXPECT_TRUE(
      static_cast<bool>(runtime->allocate({hcq::DeviceKind::CPU, 3}, 8)));
  hcq::Expected<Buffer> amd = runtime->allocate({hcq::DeviceKind::AMD, 3}, 8);
  ASSERT_FALSE(static_cast<bool>(amd));
  hcq::Error error = amd.takeError();
  EXPECT_EQ(error.code(), hcq::ErrorCode::InvalidArgument);
  EXPECT_EQ(error.message(),
            "RuntimeOptions::ringBytes must be a power of two from 1024 to "
            "2^31 for AMD queues, got 192");
  options.ringBytes = 100;
  hcq::Expected<Buffer> cpu =
      Runtime::create(options)->allocate({hcq::DeviceKind::CPU, 4}, 8);
  ASSERT_FALSE(static_cast<bool>(cpu));
  EXPECT_EQ(cpu.takeError().code(), hcq::ErrorCode::InvalidArgument);
}
