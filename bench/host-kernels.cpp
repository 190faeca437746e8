//===- host-kernels.cpp - Generated host kernels and hand-written twins ---===//
//
// Google Benchmark: the kernels of bench/host-kernels.mlir run to completion
// (LoadedExecutable::run, then synchronize; wall time), with the launch's
// workgroups spread over 1 or 2 threads (setWorkgroupThreads, the argument):
//
//   amd_generated      the gfx1100 kernel on the emulated AMD device, its
//                      CPU twin the one #hcq.host_target compiled
//                      (hcq_twin_<kernel> in the executable's host object)
//   amd_hand_written   the same code object and packets, with the
//                      hand-written twin of test/Runtime/Inputs/kernels.c
//   cpu_generated      the host object's kernel on CPU:0
//
// and `noop/N`: a CPU launch of N workgroups of a kernel that does nothing
// (hcq_noop), where the cost is all in how the workgroups are handed out:
// what must not get slower for small launches. Every result is checked
// against the same computation done here. Results: bench/HISTORY.md.
//
//   build/bin/hcq-bench-host-kernels --benchmark_repetitions=10 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Runtime/Workgroups.h"

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

using namespace hcq::runtime;

namespace {

enum Variant { AMDGenerated, AMDHandWritten, CPUGenerated };

[[noreturn]] void fail(const std::string &what) {
  std::fprintf(stderr, "hcq-bench-host-kernels: %s\n", what.c_str());
  std::abort();
}

void check(hcq::Error error) {
  if (error)
    fail(hcq::toString(std::move(error)));
}

/// The runtime and executable of `schedule` (a func of host-kernels.mlir)
/// compiled as `variant`, on a runtime of its own: the next benchmark's
/// devices are opened afresh, so a program loaded with one kind of twin is
/// never found with the other.
std::pair<std::shared_ptr<Runtime>, std::unique_ptr<LoadedExecutable>>
load(Variant variant, const std::string &schedule) {
  RuntimeOptions options;
  const char *folder = "cpu-generated";
  if (variant != CPUGenerated) {
    options.amd = AMDDevice::Emulated;
    folder = "amd-generated";
  }
  if (variant == AMDHandWritten) {
    options.twinLibraries = {hcq::test::kernelLibrary};
    folder = "amd-hand-written";
  }
  std::string path =
      std::string(HCQ_BENCH_KERNELS) + "/" + folder + "/" + schedule + ".hcqx";
  hcq::Expected<Executable> exe = readExecutableFile(path);
  if (!exe)
    fail(path + ": " + hcq::toString(exe.takeError()));
  if (variant == AMDHandWritten && !exe->hostObjects.empty())
    fail(path + " carries a host object: its twins would not be the "
                "hand-written ones");
  std::shared_ptr<Runtime> runtime = Runtime::create(std::move(options));
  auto loaded = runtime->load(*exe);
  if (!loaded)
    fail(path + ": " + hcq::toString(loaded.takeError()));
  return {std::move(runtime), std::move(*loaded)};
}

/// Runs `exe` for the benchmark's iterations with `args`.
void time(benchmark::State &state, LoadedExecutable &exe,
          const std::vector<Argument> &args) {
  setWorkgroupThreads(unsigned(state.range(0)));
  for (auto _ : state) {
    check(exe.run(args));
    check(exe.synchronize());
  }
  setWorkgroupThreads(0);
}

constexpr int VADD_N = 1 << 20, ROWS = 1024;

void vadd(benchmark::State &state, Variant variant, bool small) {
  auto [runtime, exe] = load(variant, small ? "run_vadd_small" : "run_vadd");
  std::vector<float> out(VADD_N, -1), a(VADD_N), b(VADD_N);
  for (int i = 0; i < VADD_N; ++i) {
    a[i] = float(i % 1000);
    b[i] = float(i % 7) * 0.5f;
  }
  // The bounds check: the last block stops at n.
  int n = small ? 4 * 64 - 3 : VADD_N - 3;
  time(state, *exe,
       {Argument::buffer(out.data()), Argument::buffer(a.data()),
        Argument::buffer(b.data()), Argument::variable(n)});
  for (int i = 0; i < (small ? 4 * 64 : VADD_N); ++i)
    if (out[i] != (i < n ? a[i] + b[i] : -1.0f))
      fail("vadd: element " + std::to_string(i) + " is wrong");
}

void matmul(benchmark::State &state, Variant variant) {
  auto [runtime, exe] = load(variant, "run_matmul");
  std::vector<float> out(ROWS * 64, -1), x(ROWS * 64), w(64 * 64);
  for (int i = 0; i < ROWS * 64; ++i)
    x[i] = float(i % 13) - 6;
  for (int i = 0; i < 64 * 64; ++i)
    w[i] = float(i % 5) * 0.25f;
  time(state, *exe,
       {Argument::buffer(out.data()), Argument::buffer(x.data()),
        Argument::buffer(w.data())});
  for (int r = 0; r < ROWS; ++r)
    for (int c = 0; c < 64; ++c) {
      float sum = 0;
      for (int k = 0; k < 64; ++k)
        sum += x[r * 64 + k] * w[k * 64 + c];
      if (out[r * 64 + c] != sum)
        fail("matmul: element " + std::to_string(r * 64 + c) + " is wrong");
    }
}

/// A CPU launch of range(1) workgroups of a no-op kernel.
void noop(benchmark::State &state) {
  std::string global = std::to_string(state.range(1));
  std::string source = "hcq.kernel @noop cpu (readwrite f32) symbol "
                       "\"hcq_noop\" library \"@LIB@\"\n"
                       "hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>) {\n"
                       "  hcq.launch @noop(%a : !hcq.buffer<16xf32, CPU:0>) "
                       "global [" +
                       global + ", 1, 1] local [1, 1, 1]\n}\n";
  hcq::PipelineOptions options;
  auto runtime = Runtime::create();
  auto exe = hcq::test::compileAndLoad(source, options, *runtime);
  if (!exe)
    fail("cannot compile the no-op schedule");
  std::vector<float> a(16);
  time(state, *exe, {Argument::buffer(a.data())});
}

void threads(benchmark::internal::Benchmark *b) {
  b->ArgName("threads")->Arg(1)->Arg(2)->UseRealTime()->MeasureProcessCPUTime();
}

} // namespace

BENCHMARK_CAPTURE(vadd, amd_generated, AMDGenerated, false)
    ->Apply(threads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(vadd, amd_hand_written, AMDHandWritten, false)
    ->Apply(threads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(vadd, cpu_generated, CPUGenerated, false)
    ->Apply(threads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(matmul, amd_generated, AMDGenerated)
    ->Apply(threads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(matmul, amd_hand_written, AMDHandWritten)
    ->Apply(threads)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(matmul, cpu_generated, CPUGenerated)
    ->Apply(threads)
    ->Unit(benchmark::kMillisecond);
// Small launches: four workgroups of 64 work-items.
BENCHMARK_CAPTURE(vadd, small_amd_generated, AMDGenerated, true)
    ->Apply(threads)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK_CAPTURE(vadd, small_cpu_generated, CPUGenerated, true)
    ->Apply(threads)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(noop)
    ->ArgNames({"threads", "workgroups"})
    ->ArgsProduct({{1, 2}, {1, 100, 10000, 1000000}})
    ->UseRealTime()
    ->MeasureProcessCPUTime()
    ->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
