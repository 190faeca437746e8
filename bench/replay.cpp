//===- replay.cpp - Host time to replay a compiled schedule ---------------===//
//
// Google Benchmark: host time of LoadedExecutable::run for schedules of 1,
// 10, 100 and 1000 no-op kernels in one submit, on the CPU device and on
// the emulated AMD device (a CPU emulation: the host pushes one
// INDIRECT_BUFFER packet per submit, a command processor thread executes
// it). Every case says in its name and label what its timed region holds:
//
//   replay_submit/DEV/N       run() alone: fill the inputs table, patch,
//                             push. The device drained before it (outside
//                             the timed region), so the queue's thread is
//                             usually asleep and the push pays its futex
//                             wake; the `wakes_per_run` counter says how
//                             often it did.
//                             On a 2-CPU machine the woken thread often
//                             takes the timed thread's CPU at once, and the
//                             timed region then holds its work too.
//   replay_submit_apart/DEV/N the same with the device's queue threads
//                             pinned to another CPU than the timed thread:
//                             the host's own cost, the wake included.
//   replay_submit_wait/DEV/N  run() then synchronize(): until the device
//                             has executed the run (the wake, the queue
//                             thread's work, the host seeing it done).
//   DEV capi_cpu              the CPU device through the C API
//                             (libhcq-runtime.so, hcq_executable_run).
//   pingpong_submit/DEV/N     two executables on one runtime run
//                             alternately, the two run()s timed, per run.
//   one_at_a_time/DEV/N       a one-kernel executable run N times; each
//                             run fences on the previous one, so this is a
//                             round trip per kernel.
//   direct_push_wait/N        no pipeline: N no-op launches pushed by hand
//                             on a CPU queue, each waited for.
//   machine/futex_wake        no hcq code: what waking a thread asleep on
//                             a futex on another CPU costs the waker on
//                             this machine (what a push pays for a wake).
//   machine/futex_wake_any_cpu the same, the threads on any CPU; its
//                             `wakee_took_cpu` counter is the share of
//                             wakes where the woken thread ran on the
//                             waker's CPU before FUTEX_WAKE returned.
//   readMLP, loadMLP          read and load the MLP example's executable.
//
// Every replay case runs its executable 10 times (run and synchronize)
// before timing, so first-touch page faults, the first wake of a new queue
// thread and lazy symbol binding stay out of the figures. Results and the
// command that runs them: bench/README.md (scripts/bench.sh).
//
//   build/bin/hcq-bench-replay --benchmark_repetitions=10 \
//       --benchmark_display_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "hcq-c/runtime.h"

#include "HCQ/Base/File.h"
#include "HCQ/Target/CPU/Entry.h"
#include "TestRing.h"

#include "../lib/Runtime/Device.h"
#include "../lib/Runtime/Drivers/CPU/CPUDriver.h"

#include <dlfcn.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <sys/syscall.h>
#include <thread>
#include <unistd.h>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace hcq::runtime;

namespace {

enum Device { CPU, EmulatedAMD };

/// What a replay case times.
enum Timed {
  /// run() alone; the device drains outside the timed region.
  Submit,
  /// run() alone, the device's queue threads kept on another CPU than the
  /// timed thread, so a woken queue thread cannot take the timed thread's
  /// CPU in the middle of its run.
  SubmitApart,
  /// run() and synchronize(): until the device has executed the run.
  SubmitWait,
};

/// Untimed runs (each run and synchronized) before a case's timed loop.
constexpr int WARM_UP_RUNS = 10;

const char *label(Timed timed) {
  switch (timed) {
  case Submit:
    return "run() only; device drained before (its thread asleep)";
  case SubmitApart:
    return "run() only; queue threads pinned to another CPU";
  case SubmitWait:
    break;
  }
  return "run() + synchronize(): until the device executed it";
}

/// The calling thread's CPUs, and the first two of them (SubmitApart);
/// false when it has fewer than two.
bool twoCPUs(cpu_set_t &mask, int &first, int &second) {
  if (pthread_getaffinity_np(pthread_self(), sizeof mask, &mask))
    return false;
  first = second = -1;
  for (int cpu = 0; cpu < CPU_SETSIZE && second < 0; ++cpu)
    if (CPU_ISSET(cpu, &mask))
      (first < 0 ? first : second) = cpu;
  return second >= 0;
}

/// Keeps the calling thread on `cpu` alone.
void pinTo(int cpu) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  if (pthread_setaffinity_np(pthread_self(), sizeof set, &set))
    std::abort();
}

/// The runtime of `device`'s benchmarks.
std::shared_ptr<Runtime> makeRuntime(Device device) {
  RuntimeOptions options;
  if (device == EmulatedAMD) {
    options.amd = AMDDevice::Emulated;
    options.twinLibraries = {hcq::test::kernelLibrary};
  }
  return Runtime::create(std::move(options));
}

/// How many times the host has woken a sleeping queue thread of
/// `runtime`'s open devices (Queue::wakes; the devices are the process's,
/// so this counts every runtime's pushes to them).
uint64_t queueWakes(Runtime &runtime) {
  auto &impl = static_cast<RuntimeImpl &>(runtime);
  uint64_t wakes = 0;
  for (const DeviceId &id : runtime.openDevices()) {
    hcq::Expected<hcq::runtime::Device *> device = impl.getDevice(id);
    if (!device)
      std::abort();
    (*device)->forEachQueue([&](Queue &queue) { wakes += queue.wakes(); });
  }
  return wakes;
}

/// Reports the wakes of `runtime`'s queues since `since` per iteration, and
/// the time per kernel.
void reportCounters(benchmark::State &state, Runtime &runtime, uint64_t since,
                    int kernels) {
  state.counters["wakes_per_run"] = benchmark::Counter(
      double(queueWakes(runtime) - since), benchmark::Counter::kAvgIterations);
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
}

/// The text of a schedule of `kernels` no-op launches: the CPU test kernel
/// `hcq_noop`, or on the emulated AMD device the gfx1100 `vadd` test kernel
/// with n = 0 (its twin then does nothing).
std::string scheduleText(Device device, int kernels) {
  std::string text, launch;
  if (device == CPU) {
    text = "hcq.kernel @noop cpu (readwrite f32) symbol \"hcq_noop\" "
           "library \"@LIB@\"\n"
           "hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>, %n: i32) {\n";
    launch = "  hcq.launch @noop(%a : !hcq.buffer<16xf32, CPU:0>) "
             "global [1, 1, 1] local [1, 1, 1]\n";
  } else {
    text = hcq::test::amdKernel(HCQ_TEST_INPUTS "/kernels-gfx1100.co", "vadd",
                                "(write f32, read f32, read f32)", 1) +
           "hcq.schedule @s(%a: !hcq.buffer<16xf32, AMD:0>, %n: i32) {\n";
    launch = "  hcq.launch @vadd(%a, %a, %a : !hcq.buffer<16xf32, AMD:0>, "
             "!hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, AMD:0>) "
             "vars(%n : i32) global [1, 1, 1] local [1, 1, 1]\n";
  }
  for (int i = 0; i < kernels; ++i)
    text += launch;
  return text + "}\n";
}

/// The schedule of `kernels` no-op launches in one submit, loaded onto
/// `runtime`.
std::unique_ptr<LoadedExecutable> compile(Runtime &runtime, Device device,
                                          int kernels) {
  hcq::PipelineOptions options;
  options.batchSize = 0; // one submit for the whole schedule
  auto loaded = hcq::test::compileAndLoad(scheduleText(device, kernels),
                                          options, runtime);
  if (!loaded)
    std::abort();
  return loaded;
}

void warmUp(LoadedExecutable &exe, const std::vector<Argument> &args) {
  for (int i = 0; i < WARM_UP_RUNS; ++i)
    if (exe.run(args) || exe.synchronize())
      std::abort();
}

void replay(benchmark::State &state, Device device, Timed timed) {
  int kernels = state.range(0);
  // SubmitApart: the runtime's queue threads start on the second CPU and
  // keep that affinity (each call of this function opens the device
  // afresh: the previous call's runtime closed it); the timed thread then
  // moves to the first.
  cpu_set_t original;
  int first, second;
  if (timed == SubmitApart) {
    if (!twoCPUs(original, first, second)) {
      state.SkipWithError("needs two CPUs");
      return;
    }
    pinTo(second);
  }
  std::shared_ptr<Runtime> runtime = makeRuntime(device);
  auto exe = compile(*runtime, device, kernels);
  if (timed == SubmitApart)
    pinTo(first);
  std::vector<float> a(16);
  std::vector<Argument> args = {Argument::buffer(a.data()),
                                Argument::variable(0)};
  warmUp(*exe, args);
  uint64_t wakes = queueWakes(*runtime);
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    if (exe->run(args) || (timed == SubmitWait && exe->synchronize()))
      std::abort();
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    if (timed != SubmitWait && exe->synchronize())
      std::abort();
  }
  reportCounters(state, *runtime, wakes, kernels);
  state.SetLabel(label(timed));
  exe.reset();
  runtime.reset();
  if (timed == SubmitApart &&
      pthread_setaffinity_np(pthread_self(), sizeof original, &original))
    std::abort();
}

/// Two executables of `kernels` launches each on one runtime, run
/// alternately: what a run costs the host when another executable's runs
/// interleave with it on the same device (its queues, ring and timeline are
/// shared). Reported per run, to compare with `replay_submit`.
void pingPong(benchmark::State &state, Device device) {
  int kernels = state.range(0);
  auto runtime = makeRuntime(device);
  auto ping = compile(*runtime, device, kernels);
  auto pong = compile(*runtime, device, kernels);
  std::vector<float> a(16), b(16);
  std::vector<Argument> pingArgs = {Argument::buffer(a.data()),
                                    Argument::variable(0)};
  std::vector<Argument> pongArgs = {Argument::buffer(b.data()),
                                    Argument::variable(0)};
  warmUp(*ping, pingArgs);
  warmUp(*pong, pongArgs);
  uint64_t wakes = queueWakes(*runtime);
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    if (ping->run(pingArgs) || pong->run(pongArgs))
      std::abort();
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count() /
                           2);
    if (runtime->synchronize())
      std::abort();
  }
  // Per run, as the time is.
  reportCounters(state, *runtime, wakes, kernels);
  state.counters["wakes_per_run"] = benchmark::Counter(
      state.counters["wakes_per_run"].value / 2,
      benchmark::Counter::kAvgIterations);
  state.SetLabel("two executables' run()s, per run; drained before");
}

/// A one-kernel executable run `kernels` times, the runs' host time summed:
/// every run after the first fences on the previous one (its blob and
/// signals are reused), so each pays a round trip to the queue's thread.
void oneAtATime(benchmark::State &state, Device device) {
  int kernels = state.range(0);
  auto runtime = makeRuntime(device);
  auto exe = compile(*runtime, device, 1);
  std::vector<float> a(16);
  std::vector<Argument> args = {Argument::buffer(a.data()),
                                Argument::variable(0)};
  warmUp(*exe, args);
  uint64_t wakes = queueWakes(*runtime);
  for (auto _ : state) {
    double seconds = 0;
    for (int k = 0; k < kernels; ++k) {
      auto start = std::chrono::steady_clock::now();
      if (exe->run(args))
        std::abort();
      seconds += std::chrono::duration<double>(
                     std::chrono::steady_clock::now() - start)
                     .count();
    }
    state.SetIterationTime(seconds);
    if (exe->synchronize())
      std::abort();
  }
  reportCounters(state, *runtime, wakes, kernels);
  state.SetLabel("N run()s of 1 kernel, each fencing on the previous");
}

/// The baseline without the pipeline: each kernel launched by hand on a CPU
/// queue of the runtime (a launch entry and a signal entry pushed, then the
/// host waits for the signal), one at a time. No executable, no link, no
/// patching: the cost of the queue round trip alone.
void direct(benchmark::State &state) {
  int kernels = state.range(0);
  void *library = dlopen(hcq::test::kernelLibrary.c_str(), RTLD_NOW);
  void *noop = library ? dlsym(library, "hcq_noop") : nullptr;
  if (!noop)
    std::abort();
  hcq::test::HostRing ring(1 << 16);
  std::unique_ptr<Queue> queue =
      makeCPUQueue("CPU:0 COMPUTE:0", ring.memory(), std::chrono::seconds(30),
                   std::make_shared<QueueFlags>());
  std::vector<float> a(16);
  uint64_t kernargs[1] = {reinterpret_cast<uint64_t>(a.data())};
  std::atomic<uint64_t> signal{0};
  uint64_t value = 0;
  using hcq::cpu::HostFunction;
  auto launch = [&] {
    ++value;
    uint64_t entries[16] = {cpuEntryFunction(uint32_t(HostFunction::Launch)),
                            reinterpret_cast<uint64_t>(noop),
                            reinterpret_cast<uint64_t>(kernargs),
                            1,
                            1,
                            1,
                            0,
                            0,
                            cpuEntryFunction(uint32_t(HostFunction::Signal)),
                            reinterpret_cast<uint64_t>(&signal),
                            value};
    if (queue->push(reinterpret_cast<const uint8_t *>(entries), 128))
      std::abort();
    while (signal.load(std::memory_order_acquire) < value)
      std::this_thread::yield();
  };
  for (int i = 0; i < WARM_UP_RUNS; ++i)
    launch();
  uint64_t wakes = queue->wakes();
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < kernels; ++k)
      launch();
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  state.counters["wakes_per_run"] = benchmark::Counter(
      double(queue->wakes() - wakes) / kernels,
      benchmark::Counter::kAvgIterations);
  queue.reset();
  dlclose(library);
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
  state.SetLabel("push by hand + wait, per kernel; no pipeline");
}

/// `replay` on the CPU device through the C API (libhcq-runtime.so): the
/// same executable, loaded from its file's bytes, run with
/// hcq_executable_run.
void replayCAPI(benchmark::State &state, Timed timed) {
  int kernels = state.range(0);
  std::string text = hcq::test::withLibrary(scheduleText(CPU, kernels));
  hcq::PipelineOptions options;
  options.batchSize = 0;
  std::optional<Executable> exe = hcq::test::compileExecutable(text, options);
  if (!exe)
    std::abort();
  std::vector<uint8_t> bytes = writeExecutable(*exe);
  hcq_runtime_t runtime;
  hcq_executable_t loaded;
  if (hcq_runtime_create(nullptr, &runtime) ||
      hcq_executable_load_memory(runtime, bytes.data(), bytes.size(), &loaded))
    std::abort();
  std::vector<float> a(16);
  void *lane = a.data();
  hcq_argument_t args[2] = {{&lane, 1, 0}, {nullptr, 0, 0}};
  for (int i = 0; i < WARM_UP_RUNS; ++i)
    if (hcq_executable_run(loaded, args, 2) ||
        hcq_executable_synchronize(loaded))
      std::abort();
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    if (hcq_executable_run(loaded, args, 2) ||
        (timed == SubmitWait && hcq_executable_synchronize(loaded)))
      std::abort();
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    if (timed == Submit && hcq_executable_synchronize(loaded))
      std::abort();
  }
  // No wakes_per_run: libhcq-runtime.so has its own copy of the runtime,
  // and of the process's devices, which this program cannot look into.
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
  state.SetLabel(label(timed));
  hcq_executable_release(loaded);
  hcq_runtime_release(runtime);
}

/// What the waker pays to wake a thread asleep on a futex, the way a push
/// wakes a queue's thread (Queue::wakeIfSleeping): a store and FUTEX_WAKE.
/// The sleeper announces its sleep, and the waker spins 20 us more, long
/// enough for it to be in the kernel (and its CPU idle, if nothing else
/// runs there). `apart`: the sleeper is pinned to another CPU than the
/// waker (as in replay_submit_apart); otherwise both may run anywhere (as
/// in replay_submit), and `wakee_took_cpu` counts the share of wakes where
/// the woken thread ran on the waker's CPU before FUTEX_WAKE returned. No
/// hcq code: figures of the machine.
void futexWake(benchmark::State &state, bool apart) {
  cpu_set_t original;
  int first, second;
  if (!twoCPUs(original, first, second)) {
    state.SkipWithError("needs two CPUs");
    return;
  }
  std::atomic<uint32_t> flag{0};
  std::atomic<bool> stop{false}, exited{false};
  std::atomic<uint64_t> woken{0};
  std::atomic<int> wokenOn{-1};
  std::atomic<int64_t> wokenAt{0};
  std::thread sleeper([&] {
    if (apart)
      pinTo(second);
    while (!stop.load()) {
      flag.store(1);
      while (flag.load() == 1)
        syscall(SYS_futex, &flag, FUTEX_WAIT_PRIVATE, 1, nullptr, nullptr, 0);
      wokenOn.store(sched_getcpu());
      wokenAt.store(
          std::chrono::steady_clock::now().time_since_epoch().count());
      woken.fetch_add(1);
    }
    exited.store(true);
  });
  if (apart)
    pinTo(first);
  auto spin = [](std::chrono::microseconds span) {
    auto until = std::chrono::steady_clock::now() + span;
    while (std::chrono::steady_clock::now() < until) {
    }
  };
  uint64_t took = 0;
  for (auto _ : state) {
    uint64_t before = woken.load();
    while (flag.load() != 1) {
    }
    spin(std::chrono::microseconds(20));
    int cpu = sched_getcpu();
    auto start = std::chrono::steady_clock::now();
    flag.store(0);
    syscall(SYS_futex, &flag, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    while (woken.load() == before) {
    }
    took += wokenOn.load() == cpu &&
            wokenAt.load() < end.time_since_epoch().count();
  }
  stop.store(true);
  while (!exited.load()) {
    flag.store(0);
    syscall(SYS_futex, &flag, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
  }
  sleeper.join();
  if (apart &&
      pthread_setaffinity_np(pthread_self(), sizeof original, &original))
    std::abort();
  state.counters["wakee_took_cpu"] =
      benchmark::Counter(double(took), benchmark::Counter::kAvgIterations);
  state.SetLabel(apart ? "FUTEX_WAKE, sleeper on another CPU; no hcq"
                       : "FUTEX_WAKE, threads on any CPU; no hcq");
}

/// The MLP example's executable file (22 KB: two AMD kernels in one image,
/// two devices), from the executable fuzz corpus.
std::vector<uint8_t> mlpFile() {
  hcq::Expected<std::vector<uint8_t>> bytes = hcq::readRegularFile(
      HCQ_FUZZ_CORPUS "/executable/mlp.hcqx", uint64_t(1) << 20);
  if (!bytes)
    std::abort();
  return std::move(*bytes);
}

/// readExecutable of the MLP file: header, checksum, every record read and
/// checked.
void readMLP(benchmark::State &state) {
  std::vector<uint8_t> bytes = mlpFile();
  for (auto _ : state) {
    hcq::Expected<Executable> exe = readExecutable(bytes);
    if (!exe)
      std::abort();
    benchmark::DoNotOptimize(exe->kernels.data());
  }
}

/// Runtime::load of the read MLP executable on the emulated AMD devices
/// (linked, programs and blobs in device memory, ready to run), where the
/// devices are open already: what reading is part of.
void loadMLP(benchmark::State &state) {
  hcq::Expected<Executable> exe = readExecutable(mlpFile());
  if (!exe)
    std::abort();
  std::shared_ptr<Runtime> runtime = makeRuntime(EmulatedAMD);
  for (auto _ : state) {
    auto loaded = runtime->load(*exe);
    if (!loaded)
      std::abort();
    benchmark::DoNotOptimize(loaded->get());
  }
}

/// The minimum over repetitions, beside Google Benchmark's mean and median.
double minimum(const std::vector<double> &v) {
  return *std::min_element(v.begin(), v.end());
}

// The replay benchmarks run at the same kernel counts, in manual time.
void configure(benchmark::internal::Benchmark *b) {
  b->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime()->ComputeStatistics(
      "min", minimum);
}

} // namespace

BENCHMARK_CAPTURE(replay, cpu, CPU, Submit)
    ->Name("replay_submit/cpu")
    ->Apply(configure);
BENCHMARK_CAPTURE(replay, cpu, CPU, SubmitApart)
    ->Name("replay_submit_apart/cpu")
    ->Apply(configure);
BENCHMARK_CAPTURE(replay, cpu, CPU, SubmitWait)
    ->Name("replay_submit_wait/cpu")
    ->Apply(configure);
BENCHMARK_CAPTURE(replayCAPI, capi_cpu, Submit)
    ->Name("replay_submit/capi_cpu")
    ->Apply(configure);
BENCHMARK_CAPTURE(replayCAPI, capi_cpu, SubmitWait)
    ->Name("replay_submit_wait/capi_cpu")
    ->Apply(configure);
BENCHMARK_CAPTURE(pingPong, cpu, CPU)
    ->Name("pingpong_submit/cpu")
    ->Apply(configure);
BENCHMARK_CAPTURE(oneAtATime, cpu, CPU)
    ->Name("one_at_a_time/cpu")
    ->Apply(configure);
BENCHMARK(direct)->Name("direct_push_wait")->Apply(configure);
// The emulated command processor takes far longer to drain a run than the
// host takes to submit it, and only the submit is timed: a shorter minimum
// keeps 20 repetitions to a minute or so.
BENCHMARK_CAPTURE(replay, amd_emulated, EmulatedAMD, Submit)
    ->Name("replay_submit/amd_emulated")
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK_CAPTURE(replay, amd_emulated, EmulatedAMD, SubmitApart)
    ->Name("replay_submit_apart/amd_emulated")
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK_CAPTURE(replay, amd_emulated, EmulatedAMD, SubmitWait)
    ->Name("replay_submit_wait/amd_emulated")
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK_CAPTURE(pingPong, amd_emulated, EmulatedAMD)
    ->Name("pingpong_submit/amd_emulated")
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK_CAPTURE(oneAtATime, amd_emulated, EmulatedAMD)
    ->Name("one_at_a_time/amd_emulated")
    ->Apply(configure)
    ->MinTime(0.02);
// Each iteration spins 20 us untimed for a few us timed: a short minimum.
BENCHMARK_CAPTURE(futexWake, apart, true)
    ->Name("machine/futex_wake")
    ->UseManualTime()
    ->MinTime(0.05)
    ->ComputeStatistics("min", minimum);
BENCHMARK_CAPTURE(futexWake, any, false)
    ->Name("machine/futex_wake_any_cpu")
    ->UseManualTime()
    ->MinTime(0.05)
    ->ComputeStatistics("min", minimum);
BENCHMARK(readMLP)->ComputeStatistics("min", minimum);
BENCHMARK(loadMLP)->ComputeStatistics("min", minimum);
BENCHMARK_MAIN();
