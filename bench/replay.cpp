//===- replay.cpp - Host time to replay a compiled schedule ---------------===//
//
// Google Benchmark: host time of LoadedExecutable::run for schedules of 1,
// 10, 100 and 1000 no-op kernels, against launching the same kernels one at
// a time (a one-kernel executable run once per kernel, on the same device),
// on the CPU device and on the emulated AMD device (where the host pushes
// one INDIRECT_BUFFER packet per submit). Only run() is timed (manual time);
// the device drains between iterations, outside the timed region. `direct`
// launches the CPU kernel one at a time with no pipeline at all: entries
// pushed by hand into the runtime's CPU queue. `pingPong` loads two such
// executables onto one runtime (one device, shared queues and timeline) and
// runs them alternately: host time per run. `replayCAPI` is `replay` on the
// CPU device through the C API (libhcq-runtime.so). `readMLP` and `loadMLP`
// read the MLP example's executable file and load it. Results:
// bench/README.md.
//
//   build/bin/hcq-bench-replay --benchmark_repetitions=20 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "hcq-c/runtime.h"

#include "HCQ/Base/File.h"
#include "HCQ/Target/CPU/Entry.h"
#include "TestRing.h"

#include "../lib/Runtime/Drivers/CPU/CPUDriver.h"

#include <dlfcn.h>
#include <thread>

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace hcq::runtime;

namespace {

enum Device { CPU, EmulatedAMD };

/// The runtime of `device`'s benchmarks.
std::shared_ptr<Runtime> makeRuntime(Device device) {
  RuntimeOptions options;
  if (device == EmulatedAMD) {
    options.amd = AMDDevice::Emulated;
    options.twinLibraries = {hcq::test::kernelLibrary};
  }
  return Runtime::create(std::move(options));
}

/// A schedule of `kernels` no-op launches in one submit, loaded onto
/// `runtime`: the CPU test kernel `hcq_noop`, or on the emulated AMD device
/// the gfx1100 `vadd` test kernel with n = 0 (its twin then does nothing).
std::unique_ptr<LoadedExecutable> compile(Runtime &runtime, Device device,
                                          int kernels) {
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
  text += "}\n";
  hcq::PipelineOptions options;
  options.batchSize = 0; // one submit for the whole schedule
  auto loaded = hcq::test::compileAndLoad(text, options, runtime);
  if (!loaded)
    std::abort();
  return loaded;
}

std::unique_ptr<LoadedExecutable> compile(Device device, int kernels) {
  return compile(*makeRuntime(device), device, kernels);
}

void replay(benchmark::State &state, Device device) {
  int kernels = state.range(0);
  auto exe = compile(device, kernels);
  std::vector<float> a(16);
  std::vector<Argument> args = {Argument::buffer(a.data()),
                                Argument::variable(0)};
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    if (exe->run(args))
      std::abort();
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    if (exe->synchronize())
      std::abort();
  }
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
}

/// Two executables of `kernels` launches each on one runtime, run
/// alternately: what a run costs the host when another executable's runs
/// interleave with it on the same device (its queues, ring and timeline are
/// shared). Reported per run, to compare with `replay`.
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
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
}

void oneAtATime(benchmark::State &state, Device device) {
  int kernels = state.range(0);
  auto exe = compile(device, 1);
  std::vector<float> a(16);
  std::vector<Argument> args = {Argument::buffer(a.data()),
                                Argument::variable(0)};
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
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
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
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < kernels; ++k) {
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
    }
    state.SetIterationTime(
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
            .count());
  }
  dlclose(library);
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
}

/// `replay` on the CPU device through the C API (libhcq-runtime.so): the
/// same executable, loaded from its file's bytes, run with
/// hcq_executable_run.
void replayCAPI(benchmark::State &state) {
  int kernels = state.range(0);
  std::string text =
      "hcq.kernel @noop cpu (readwrite f32) symbol \"hcq_noop\" "
      "library \"" +
      hcq::test::kernelLibrary +
      "\"\n"
      "hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>, %n: i32) {\n";
  for (int i = 0; i < kernels; ++i)
    text += "  hcq.launch @noop(%a : !hcq.buffer<16xf32, CPU:0>) "
            "global [1, 1, 1] local [1, 1, 1]\n";
  text += "}\n";
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
  for (auto _ : state) {
    auto start = std::chrono::steady_clock::now();
    if (hcq_executable_run(loaded, args, 2))
      std::abort();
    auto end = std::chrono::steady_clock::now();
    state.SetIterationTime(std::chrono::duration<double>(end - start).count());
    if (hcq_executable_synchronize(loaded))
      std::abort();
  }
  hcq_executable_release(loaded);
  hcq_runtime_release(runtime);
  state.counters["ns_per_kernel"] = benchmark::Counter(
      kernels, benchmark::Counter::kIsIterationInvariantRate |
                   benchmark::Counter::kInvert);
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

// Both benchmarks run at the same kernel counts, in manual time, and report
// the minimum over repetitions beside Google Benchmark's mean and median.
void configure(benchmark::internal::Benchmark *b) {
  b->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime()->ComputeStatistics(
      "min", [](const std::vector<double> &v) {
        return *std::min_element(v.begin(), v.end());
      });
}

} // namespace

BENCHMARK_CAPTURE(replay, cpu, CPU)->Apply(configure);
BENCHMARK(replayCAPI)->Apply(configure);
BENCHMARK_CAPTURE(pingPong, cpu, CPU)->Apply(configure);
BENCHMARK_CAPTURE(oneAtATime, cpu, CPU)->Apply(configure);
BENCHMARK(direct)->Apply(configure);
// The emulated command processor takes far longer to drain a run than the
// host takes to submit it, and only the submit is timed: a shorter minimum
// keeps 20 repetitions to a minute or so.
BENCHMARK_CAPTURE(replay, amd_emulated, EmulatedAMD)
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK_CAPTURE(pingPong, amd_emulated, EmulatedAMD)
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK_CAPTURE(oneAtATime, amd_emulated, EmulatedAMD)
    ->Apply(configure)
    ->MinTime(0.02);
BENCHMARK(readMLP);
BENCHMARK(loadMLP);
BENCHMARK_MAIN();
