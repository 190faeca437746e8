//===- SimulatedKFDTest.cpp - The amd-kfd driver on the simulated KFD -----===//
//
// The amd-kfd driver (AMDDevice::Hardware, lib/Runtime/Drivers/AMDKFD)
// driven through the C++ API against the simulated kernel driver, never a
// GPU: the tests are named for what they ran on. CTest runs this binary under
// the simulated kernel driver (test/KFDSim): LD_PRELOAD=libhcq-kfd-sim.so and
// HCQ_KFD_SIM_GPUS naming three GPUs of one target, once for gfx1100 and once
// for gfx942. Every buffer is GPU memory (Runtime::allocate), and every result
// is compared with the arithmetic done directly.
//
//===----------------------------------------------------------------------===//

#include "KFD.h"
#include "KFDSim.h"
#include "SharedSchedules.h"

#include "HCQ/Target/AMD/PM4.h"

#include "gtest/gtest.h"

#include <atomic>
#include <cstdlib>
#include <dlfcn.h>
#include <fstream>
#include <functional>
#include <random>
#include <thread>
#include <time.h>

using namespace hcq::runtime;

namespace {

/// The simulated GPUs' target: the first of HCQ_KFD_SIM_GPUS.
std::string target() {
  const char *gpus = std::getenv("HCQ_KFD_SIM_GPUS");
  std::string list = gpus ? gpus : "";
  return list.substr(0, list.find(','));
}

RuntimeOptions hardware() {
  RuntimeOptions options;
  options.amd = AMDDevice::Hardware;
  options.waitTimeout = std::chrono::seconds(20);
  return options;
}

std::unique_ptr<LoadedExecutable>
load(Runtime &runtime, const std::string &source, bool profile = false) {
  hcq::PipelineOptions opts;
  opts.target = target();
  opts.profile = profile;
  return hcq::test::compileAndLoad(source, opts, runtime);
}

Buffer allocate(Runtime &runtime, unsigned gpu, uint64_t bytes) {
  hcq::Expected<Buffer> buffer =
      runtime.allocate({hcq::DeviceKind::AMD, gpu}, bytes);
  if (!buffer) {
    ADD_FAILURE() << hcq::toString(buffer.takeError());
    return {};
  }
  return std::move(*buffer);
}

int32_t floatBits(float f) {
  int32_t bits;
  std::memcpy(&bits, &f, 4);
  return bits;
}

uint64_t monotonicNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// This thread's CPU time.
uint64_t threadCpuNs() {
  timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

/// The simulated driver's counts.
hcq_kfd_sim_counts simCounts() {
  auto get = reinterpret_cast<hcq_kfd_sim_get_counts_fn>(
      dlsym(RTLD_DEFAULT, HCQ_KFD_SIM_GET_COUNTS));
  hcq_kfd_sim_counts counts{};
  if (get)
    get(&counts);
  return counts;
}

/// Lines of /proc/self/maps: every GPU allocation is a mapping.
long mappings() {
  std::ifstream maps("/proc/self/maps");
  std::string line;
  long count = 0;
  while (std::getline(maps, line))
    ++count;
  return count;
}

/// Runs `producer` then `consumer` `runs` times without waiting in between,
/// each run with buffers of its own (a on AMD:1, out on AMD:2; x on AMD:0
/// shared), a[i] = input(run, i) and the producer's scale scale(run); then
/// checks every run's out = 8 * a * scale, as SharedDevice's interleave.
void checkProducerConsumer(Runtime &runtime, LoadedExecutable &producer,
                           LoadedExecutable &consumer, int runs,
                           const std::function<float(int, int)> &input,
                           const std::function<int(int)> &scale) {
  Buffer x = allocate(runtime, 0, 4096);
  ASSERT_TRUE(x);
  std::vector<Buffer> a, out;
  for (int run = 0; run < runs; ++run) {
    a.push_back(allocate(runtime, 1, 4096));
    out.push_back(allocate(runtime, 2, 4096));
    ASSERT_TRUE(a.back() && out.back());
    for (int i = 0; i < 1024; ++i)
      a.back().data<float>()[i] = input(run, i);
    ASSERT_FALSE(static_cast<bool>(producer.run(
        {bufferArgument({&a.back()}), bufferArgument({&x}),
         Argument::variable(1024), Argument::variable(floatBits(scale(run)))})))
        << run;
    ASSERT_FALSE(static_cast<bool>(
        consumer.run({bufferArgument({&x}), bufferArgument({&out.back()}),
                      Argument::variable(1024)})))
        << run;
  }
  hcq::Error e = runtime.synchronize();
  ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
  for (int run = 0; run < runs; ++run)
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(out[run].data<float>()[i],
                8 * input(run, i) * float(scale(run)))
          << "run " << run << " i " << i;
}

} // namespace

TEST(SimulatedKFD, ProducerAndConsumerShareGpuMemoryAcrossThreeGpus) {
  // As SharedDevice's interleave, with every argument in GPU memory: the
  // producer (AMD:1 then AMD:0) writes x = 4 * a * s into AMD:0, the
  // consumer copies it to AMD:2 and doubles it, 300 times with no wait in
  // between; each run has buffers of its own.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  hcq::test::Schedules s = hcq::test::amdSchedules(target());
  auto producer = load(*runtime, s.producer);
  auto consumer = load(*runtime, s.consumer);
  ASSERT_TRUE(producer && consumer);
  constexpr int RUNS = 300;
  std::mt19937 rng(5);
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<std::vector<float>> inputs(RUNS, std::vector<float>(1024));
  for (std::vector<float> &run : inputs)
    for (float &v : run)
      v = float(dist(rng));
  checkProducerConsumer(
      *runtime, *producer, *consumer, RUNS,
      [&](int run, int i) { return inputs[run][i]; },
      [](int run) { return run % 7 - 3; });
}

TEST(SimulatedKFD, TwoRuntimesShareTheProcessGpusAcrossThreads) {
  // As SharedDevice's test of the same name, on the simulated driver: the
  // producer is loaded on one Runtime, the consumer on another, and two
  // threads take turns submitting (a turn is handed over without waiting
  // for the GPUs). The consumer's reads of x follow the producer's writes
  // only because both Runtimes use the process's one device per GPU (one
  // render-node file, one acquired VM, one timeline); the kernel refuses a
  // second file's ACQUIRE_VM with EBUSY (kfd_ioctl_acquire_vm).
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto producerRuntime = Runtime::create(hardware());
  auto consumerRuntime = Runtime::create(hardware());
  hcq::test::Schedules s = hcq::test::amdSchedules(target());
  auto producer = load(*producerRuntime, s.producer);
  auto consumer = load(*consumerRuntime, s.consumer);
  ASSERT_TRUE(producer && consumer);
  constexpr int RUNS = 200;
  Buffer x = allocate(*producerRuntime, 0, 4096);
  ASSERT_TRUE(x);
  std::mt19937 rng(7);
  std::uniform_int_distribution<int> dist(-50, 50);
  std::vector<Buffer> a, out;
  for (int run = 0; run < RUNS; ++run) {
    a.push_back(allocate(*producerRuntime, 1, 4096));
    out.push_back(allocate(*consumerRuntime, 2, 4096));
    ASSERT_TRUE(a.back() && out.back());
    for (int i = 0; i < 1024; ++i) {
      a.back().data<float>()[i] = float(dist(rng));
      out.back().data<float>()[i] = -1;
    }
  }
  int failures = hcq::test::submitTakingTurns(
      RUNS,
      [&](int run) {
        return producer->run(
            {bufferArgument({&a[run]}), bufferArgument({&x}),
             Argument::variable(1024),
             Argument::variable(floatBits(float(run % 7 - 3)))});
      },
      [&](int run) {
        return consumer->run({bufferArgument({&x}), bufferArgument({&out[run]}),
                              Argument::variable(1024)});
      });
  ASSERT_EQ(failures, 0);
  for (Runtime *runtime : {producerRuntime.get(), consumerRuntime.get()}) {
    hcq::Error e = runtime->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
  }
  int wrong = 0;
  for (int run = 0; run < RUNS; ++run)
    for (int i = 0; i < 1024; ++i)
      wrong += out[run].data<float>()[i] !=
               8 * a[run].data<float>()[i] * float(run % 7 - 3);
  EXPECT_EQ(wrong, 0);
}

TEST(SimulatedKFD, CommandBuffersSplitOverIndirectBuffersRunWhole) {
  // The producer and consumer with indirect buffers of 64 dwords: each
  // compute submit is padded with NOPs at multiples of 64 and pushed as
  // several INDIRECT_BUFFER packets through the kernel driver's queues.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  hcq::test::Schedules s = hcq::test::amdSchedules(target());
  auto withSmallBuffers = [](std::string source) {
    size_t schedule = source.find("hcq.schedule @");
    size_t body = source.find(") {\n", schedule);
    source.insert(body + 1, " targets [#hcq.amd_target<chip = \"" + target() +
                                "\", indirect_buffer_dwords = 64>, "
                                "#hcq.cpu_target]");
    return source;
  };
  auto producer = load(*runtime, withSmallBuffers(s.producer));
  auto consumer = load(*runtime, withSmallBuffers(s.consumer));
  ASSERT_TRUE(producer && consumer);
  checkProducerConsumer(
      *runtime, *producer, *consumer, 50,
      [](int run, int i) { return float(i % 13 - run); },
      [](int) { return 3; });
}

TEST(SimulatedKFD, AHungGpuQueueIsStoppedAndLaterCallsFailAtOnce) {
  // The reader's DISPATCH_DIRECT turned into opcode 0xEE: the simulated
  // GPU's compute queue stops, as a hung queue does. The first synchronize
  // reports it after the wait timeout; from then on the queue is dead, so
  // the next run, synchronize and the frees of 50 buffers do not wait
  // again, and the runtime goes away.
  namespace pm4 = hcq::amd::pm4;
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  hcq::PipelineOptions opts;
  opts.target = target();
  std::optional<Executable> exe = hcq::test::compileExecutable(
      hcq::test::amdSchedules(target()).reader, opts);
  ASSERT_TRUE(exe);
  bool corrupted = false;
  for (Blob &blob : exe->blobs) {
    auto *words = reinterpret_cast<uint32_t *>(blob.data.data());
    if (blob.data.size() < 4 ||
        words[0] !=
            pm4::packet3(pm4::WAIT_REG_MEM, pm4::wait_reg_mem::BODY_DWORDS))
      continue;
    for (size_t at = 0; at * 4 < blob.data.size() && !corrupted;
         at += pm4::packetCount(words[at]) + 2)
      if (pm4::packetOpcode(words[at]) == pm4::DISPATCH_DIRECT) {
        words[at] = pm4::packet3(0xEE, pm4::dispatch_direct::BODY_DWORDS);
        corrupted = true;
      }
  }
  ASSERT_TRUE(corrupted);

  RuntimeOptions options = hardware();
  options.waitTimeout = std::chrono::milliseconds(300);
  auto runtime = Runtime::create(options);
  hcq::Expected<std::unique_ptr<LoadedExecutable>> reader = runtime->load(*exe);
  ASSERT_TRUE(static_cast<bool>(reader));
  std::vector<Buffer> buffers;
  for (int i = 0; i < 50; ++i) {
    buffers.push_back(allocate(*runtime, 0, 4096));
    ASSERT_TRUE(buffers.back());
  }
  auto args = [&] {
    return std::vector<Argument>{bufferArgument({&buffers[0]}),
                                 bufferArgument({&buffers[1]}),
                                 Argument::variable(1024)};
  };
  ASSERT_FALSE(static_cast<bool>((*reader)->run(args())));
  hcq::Error first = runtime->synchronize();
  ASSERT_TRUE(static_cast<bool>(first));
  std::string message = hcq::toString(std::move(first));
  EXPECT_NE(message.find("AMD:0 COMPUTE:0"), std::string::npos) << message;
  EXPECT_NE(message.find("has not finished after 300 ms"), std::string::npos)
      << message;

  auto start = std::chrono::steady_clock::now();
  hcq::Error again = (*reader)->run(args());
  ASSERT_TRUE(static_cast<bool>(again));
  message = hcq::toString(std::move(again));
  EXPECT_NE(message.find("hang detected: AMD:0 COMPUTE:0: the work at read "
                         "pointer"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("(the GPU's queues are stopped)"), std::string::npos)
      << message;
  EXPECT_TRUE(static_cast<bool>(runtime->synchronize()));
  buffers.clear();
  reader->reset();
  // Waiting out the 300 ms timeout per free would take 15 s.
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(SimulatedKFD, HostWaitsSleepOnTheGpuInterrupt) {
  // A kernel runs for 100 ms: synchronize spins briefly, then sleeps in
  // WAIT_EVENTS on the GPU's event, which the interrupt after the timeline
  // store wakes (the driver finds the event by the interrupt's context id,
  // whose mailbox slot was written first). Polling instead would spend the
  // 100 ms on the CPU; a missing or misdirected interrupt would leave every
  // wait to time out.
  ASSERT_TRUE(dlsym(RTLD_DEFAULT, HCQ_KFD_SIM_GET_COUNTS))
      << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  std::string path =
      std::string(HCQ_TEST_INPUTS) + "/hardware-" + target() + ".co";
  auto pause =
      load(*runtime, hcq::test::amdKernel(path, "pause", "(write i64)", 1) +
                         R"mlir(
hcq.schedule @run_pause(%out: !hcq.buffer<1xi64, AMD:0>, %us: i32) {
  hcq.launch @pause(%out : !hcq.buffer<1xi64, AMD:0>) vars(%us : i32) global [1, 1, 1] local [64, 1, 1]
}
)mlir");
  ASSERT_TRUE(pause);
  Buffer out = allocate(*runtime, 0, 8);
  ASSERT_TRUE(out);
  constexpr int RUNS = 5;
  constexpr uint32_t US = 100000;
  hcq_kfd_sim_counts before = simCounts();
  for (int run = 0; run < RUNS; ++run) {
    out.data<uint64_t>()[0] = 0;
    uint64_t wall = monotonicNs(), cpu = threadCpuNs();
    ASSERT_FALSE(static_cast<bool>(
        pause->run({bufferArgument({&out}), Argument::variable(int32_t(US))})));
    hcq::Error e = runtime->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    wall = monotonicNs() - wall;
    cpu = threadCpuNs() - cpu;
    EXPECT_GE(out.data<uint64_t>()[0], uint64_t(US) * 100) << run;
    EXPECT_GE(wall, uint64_t(US) * 1000) << run;
    EXPECT_LT(cpu, wall / 4)
        << "synchronize polled instead of sleeping, run " << run;
  }
  hcq_kfd_sim_counts after = simCounts();
  uint64_t interrupts = after.interrupts - before.interrupts;
  EXPECT_GE(interrupts, uint64_t(RUNS));
  EXPECT_EQ(after.byId - before.byId, interrupts);
  EXPECT_EQ(after.searches, before.searches);
  EXPECT_EQ(after.signaledNothing, before.signaledNothing);
  // Each run's last sleep is ended by the interrupt, but for one race: a
  // 10 ms slice (INTERRUPT_SLICE) that times out after the timeline store
  // and before the interrupt sees the run done without a wake. On a loaded
  // machine, where the driver's thread can be preempted between the two, it
  // happens: the ASan suite with a second suite beside it saw 4 wakes in 5
  // runs. A broken interrupt path wakes none.
  EXPECT_GE(after.woken - before.woken, uint64_t(RUNS - 1));
}

TEST(SimulatedKFD, MemoryIsPlacedByWhoTouchesIt) {
  // hcq.alloc buffers only kernels and copies touch go to VRAM the host
  // cannot map (the simulated driver refuses to map it), programs to VRAM
  // the host maps, signals, rings and Runtime buffers to GTT; the results
  // are those of the arithmetic, and unloading gives the VRAM back.
  ASSERT_TRUE(dlsym(RTLD_DEFAULT, HCQ_KFD_SIM_GET_COUNTS))
      << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  hcq::test::Schedules s = hcq::test::amdSchedules(target());
  Buffer a = allocate(*runtime, 1, 4096), x = allocate(*runtime, 0, 4096),
         out = allocate(*runtime, 2, 4096);
  ASSERT_TRUE(a && x && out);
  hcq_kfd_sim_counts before = simCounts();
  {
    auto producer = load(*runtime, s.producer);
    auto consumer = load(*runtime, s.consumer);
    ASSERT_TRUE(producer && consumer);
    hcq_kfd_sim_counts loaded = simCounts();
    // %t on AMD:1 and %u on AMD:2, a page each.
    EXPECT_EQ(loaded.privateVramBytes - before.privateVramBytes, 2u * 4096);
    EXPECT_GT(loaded.publicVramBytes, before.publicVramBytes);
    for (int i = 0; i < 1024; ++i)
      a.data<float>()[i] = float(i % 13);
    ASSERT_FALSE(static_cast<bool>(producer->run(
        {bufferArgument({&a}), bufferArgument({&x}), Argument::variable(1024),
         Argument::variable(floatBits(3))})));
    ASSERT_FALSE(static_cast<bool>(
        consumer->run({bufferArgument({&x}), bufferArgument({&out}),
                       Argument::variable(1024)})));
    hcq::Error e = runtime->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    for (int i = 0; i < 1024; ++i)
      ASSERT_EQ(out.data<float>()[i], 8 * float(i % 13) * 3) << i;
  }
  EXPECT_EQ(simCounts().privateVramBytes, before.privateVramBytes);
}

TEST(SimulatedKFD, ProfilesAreInHostNanoseconds) {
  // GPU timestamps are ticks of the GPU clock; profile() gives them as
  // CLOCK_MONOTONIC nanoseconds, so each call lies within the host's time
  // around the run, in order.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  hcq::test::Schedules s = hcq::test::amdSchedules(target());
  auto reader = load(*runtime, s.reader, /*profile=*/true);
  ASSERT_TRUE(reader);
  Buffer x = allocate(*runtime, 0, 4096), out = allocate(*runtime, 0, 4096);
  ASSERT_TRUE(x && out);
  for (int i = 0; i < 1024; ++i)
    x.data<float>()[i] = float(i);
  for (int run = 0; run < 20; ++run) {
    uint64_t before = monotonicNs();
    ASSERT_FALSE(static_cast<bool>(
        reader->run({bufferArgument({&x}), bufferArgument({&out}),
                     Argument::variable(1024)})));
    hcq::Error e = reader->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    uint64_t after = monotonicNs();
    std::vector<ProfileEvent> events = reader->profile();
    ASSERT_EQ(events.size(), 1u);
    // The tick rate is measured from two clock samples: allow 1 ms.
    EXPECT_GE(events[0].startNs + 1000000, before) << run;
    EXPECT_LE(events[0].endNs, after + 1000000) << run;
    EXPECT_LE(events[0].startNs, events[0].endNs) << run;
    ASSERT_EQ(out.data<float>()[1023], 2046.0f);
  }
}

TEST(SimulatedKFD, LoadUnloadCyclesGiveBackGpuMemory) {
  // Each load allocates GPU memory (blobs, kernel arguments, tables): 100
  // load, run, unload cycles leave the mappings as they were after the
  // first (the devices' queues and programs stay; the rest goes).
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  hcq::test::Schedules s = hcq::test::amdSchedules(target());
  Buffer x = allocate(*runtime, 0, 4096), out = allocate(*runtime, 0, 4096);
  ASSERT_TRUE(x && out);
  long first = 0;
  for (int cycle = 0; cycle < 100; ++cycle) {
    auto reader = load(*runtime, s.reader);
    ASSERT_TRUE(reader);
    ASSERT_FALSE(static_cast<bool>(
        reader->run({bufferArgument({&x}), bufferArgument({&out}),
                     Argument::variable(1024)})));
    ASSERT_FALSE(static_cast<bool>(reader->synchronize()));
    reader.reset();
    if (cycle == 0)
      first = mappings();
  }
  EXPECT_LE(mappings(), first + 2);
}

TEST(SimulatedKFD, SaveAreaSizesAreTheOnesTheKernelPublishes) {
  // The kernel publishes a compute queue's context-save sizes in the
  // topology and refuses a CREATE_QUEUE that disagrees; the runtime's
  // fallback formula (for kernels that do not publish them) must give the
  // same numbers as the kernel's kfd_queue_ctx_save_restore_size.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  hcq::Expected<std::vector<kfd::GpuNode>> nodes = kfd::readTopology();
  ASSERT_TRUE(static_cast<bool>(nodes)) << hcq::toString(nodes.takeError());
  ASSERT_FALSE(nodes->empty());
  for (const kfd::GpuNode &node : *nodes) {
    ASSERT_NE(node.cwsrSize, 0u) << node.targetName();
    kfd::GpuNode::SaveAreaSizes computed = node.computeSaveAreaSizes();
    EXPECT_EQ(computed.cwsr, node.cwsrSize) << node.targetName();
    EXPECT_EQ(computed.ctlStack, node.ctlStackSize) << node.targetName();
  }
}

TEST(SimulatedKFD, AGpuPageFaultIsReportedAtOnceWithItsAddress) {
  // An SDMA copy whose source is host memory the GPU has no mapping of: the
  // GPU faults, KFD sets the process's memory-exception events with the
  // page, and the runtime reports a device fault naming the GPU and the
  // page within milliseconds (not a hang after the 20 s wait timeout); its
  // queues are stopped, so the next run fails at once too.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  auto pull = load(*runtime, R"mlir(
hcq.schedule @pull(%src: !hcq.buffer<1024xf32, AMD:0>, %dst: !hcq.buffer<1024xf32, AMD:0>) {
  hcq.copy %dst[0, 4096], %src[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>
}
)mlir");
  ASSERT_TRUE(pull);
  Buffer dst = allocate(*runtime, 0, 4096);
  ASSERT_TRUE(dst);
  std::vector<float> host(2048, 1.0f);
  auto *source = reinterpret_cast<float *>(
      (reinterpret_cast<uintptr_t>(host.data()) + 4095) & ~uintptr_t(4095));
  auto start = std::chrono::steady_clock::now();
  ASSERT_FALSE(static_cast<bool>(
      pull->run({Argument::buffer(source), bufferArgument({&dst})})));
  hcq::Error error = runtime->synchronize();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(error.code(), hcq::ErrorCode::DeviceFault) << error.message();
  std::string page = "0x" + hcq::toHex(reinterpret_cast<uint64_t>(source),
                                       /*upper=*/true);
  // A read: the kernel's handlers mark a write in ReadOnly (prot_write).
  EXPECT_NE(error.message().find("AMD:0: GPU page fault at " + page +
                                 ": a read, no page mapped there"),
            std::string::npos)
      << error.message();
  hcq::Error again =
      pull->run({Argument::buffer(source), bufferArgument({&dst})});
  ASSERT_TRUE(static_cast<bool>(again));
  EXPECT_EQ(again.code(), hcq::ErrorCode::DeviceFault);
}

TEST(SimulatedKFD, AKernelGivenMemoryOutsideTheGpuFaultsNamingReadOrWrite) {
  // vadd on AMD:0 with one buffer in host memory the GPU has no mapping
  // of: the simulated GPU checks each buffer argument of the kernel (from
  // its code object's metadata) against its page tables before running
  // it, faults, and the runtime reports the page and the access as the
  // kernel's interrupt handlers mark it (ReadOnly for a write). Before,
  // only SDMA copies and scratch were checked: the kernel ran on host
  // memory a GPU could not reach.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  std::string kernels =
      std::string(HCQ_TEST_INPUTS) + "/kernels-" + target() + ".co";
  std::string source =
      hcq::test::amdKernel(kernels, "vadd", "(write f32, read f32, read f32)",
                           1) +
      R"mlir(
hcq.schedule @add(%c: !hcq.buffer<1024xf32, AMD:0>, %a: !hcq.buffer<1024xf32, AMD:0>, %n: i32) {
  hcq.launch @vadd(%c, %a, %a : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
}
)mlir";
  std::vector<float> host(2048, 1.0f);
  auto *outside = reinterpret_cast<float *>(
      (reinterpret_cast<uintptr_t>(host.data()) + 4095) & ~uintptr_t(4095));
  for (bool write : {false, true}) {
    SCOPED_TRACE(write ? "write" : "read");
    auto runtime = Runtime::create(hardware());
    auto add = load(*runtime, source);
    ASSERT_TRUE(add);
    Buffer gpu = allocate(*runtime, 0, 4096);
    ASSERT_TRUE(gpu);
    Argument bad = Argument::buffer(outside);
    std::vector<Argument> args =
        write ? std::vector<Argument>{bad, bufferArgument({&gpu}),
                                      Argument::variable(1024)}
              : std::vector<Argument>{bufferArgument({&gpu}), bad,
                                      Argument::variable(1024)};
    auto start = std::chrono::steady_clock::now();
    ASSERT_FALSE(static_cast<bool>(add->run(args)));
    hcq::Error error = runtime->synchronize();
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(5));
    ASSERT_TRUE(static_cast<bool>(error));
    EXPECT_EQ(error.code(), hcq::ErrorCode::DeviceFault) << error.message();
    std::string page = "0x" + hcq::toHex(reinterpret_cast<uint64_t>(outside),
                                         /*upper=*/true);
    EXPECT_NE(error.message().find("AMD:0: GPU page fault at " + page +
                                   (write ? ": a write" : ": a read") +
                                   ", no page mapped there"),
              std::string::npos)
        << error.message();
  }
}

namespace {
/// Copies CPU:0 memory to AMD:0 and back: the GPU's copy queue reads `in`
/// and writes `out`, both host memory.
const char *HOST_ROUND_TRIP = R"mlir(
hcq.schedule @round_trip(%in: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %gpu: !hcq.buffer<64xf32, AMD:0>) {
  hcq.copy %gpu[0, 256], %in[0, 256] : !hcq.buffer<64xf32, AMD:0>, !hcq.buffer<64xf32, CPU:0>
  hcq.copy %out[0, 256], %gpu[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, AMD:0>
}
)mlir";

Buffer allocateHost(Runtime &runtime, uint64_t bytes) {
  hcq::Expected<Buffer> buffer =
      runtime.allocate({hcq::DeviceKind::CPU, 0}, bytes);
  if (!buffer) {
    ADD_FAILURE() << hcq::toString(buffer.takeError());
    return {};
  }
  return std::move(*buffer);
}
} // namespace

TEST(SimulatedKFD, HostMemoryFromTheRuntimeIsRegisteredWithTheGpus) {
  // CPU:0 memory the runtime allocates is registered with the GPUs as user
  // pointers, so the GPU's copies reach it (the simulated driver faults on
  // copies outside the GPU's VM: HCQ_KFD_SIM_STRICT_COPIES). Small buffers
  // share pages: freeing one must keep the page registered for the other.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  auto roundTrip = load(*runtime, HOST_ROUND_TRIP);
  ASSERT_TRUE(roundTrip);
  Buffer gpu = allocate(*runtime, 0, 256);
  std::vector<Buffer> in, out;
  for (int i = 0; i < 4; ++i) {
    in.push_back(allocateHost(*runtime, 256));
    out.push_back(allocateHost(*runtime, 256));
    ASSERT_TRUE(in.back() && out.back());
  }
  auto check = [&](int i, float base) {
    for (int j = 0; j < 64; ++j)
      in[i].data<float>()[j] = base + float(j);
    hcq::Error e =
        roundTrip->run({bufferArgument({&in[i]}), bufferArgument({&out[i]}),
                        bufferArgument({&gpu})});
    if (!e)
      e = runtime->synchronize();
    ASSERT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    for (int j = 0; j < 64; ++j)
      ASSERT_EQ(out[i].data<float>()[j], base + float(j)) << i << " " << j;
  };
  for (int i = 0; i < 4; ++i)
    check(i, float(100 * i));
  // Neighbours in the same pages go; the rest still reach the GPU.
  in[0].reset();
  out[0].reset();
  in[2].reset();
  for (int i : {1, 3})
    check(i, float(1000 + i));
}

TEST(SimulatedKFD, HostMemoryNotFromTheRuntimeIsRefusedByName) {
  // A GPU reaches only host memory registered with it: a CPU:0 argument
  // that the caller allocated itself is refused before anything runs,
  // naming the argument, rather than faulting the GPU.
  ASSERT_FALSE(target().empty()) << "run under the simulated kernel driver";
  auto runtime = Runtime::create(hardware());
  auto roundTrip = load(*runtime, HOST_ROUND_TRIP);
  ASSERT_TRUE(roundTrip);
  Buffer gpu = allocate(*runtime, 0, 256);
  Buffer out = allocateHost(*runtime, 256);
  std::vector<float> mine(64, 1.0f);
  hcq::Error e =
      roundTrip->run({Argument::buffer(mine.data()), bufferArgument({&out}),
                      bufferArgument({&gpu})});
  ASSERT_TRUE(static_cast<bool>(e));
  EXPECT_EQ(e.code(), hcq::ErrorCode::InvalidArgument);
  EXPECT_NE(e.message().find("argument 0 lane 0 (CPU:0): host memory at 0x"),
            std::string::npos)
      << e.message();
  EXPECT_NE(e.message().find("must come from Runtime::allocate"),
            std::string::npos)
      << e.message();
}
