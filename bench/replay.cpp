//===- replay.cpp - Host time to replay a compiled schedule ---------------===//
//
// Google Benchmark: host time of LoadedExecutable::run for schedules of 1,
// 10, 100 and 1000 no-op CPU kernels, against launching the same kernels one
// at a time (a one-kernel executable run once per kernel, on the same CPU
// device). Only run() is timed (manual time); the device drains between
// iterations, outside the timed region. Results: bench/README.md.
//
//   build/bin/hcq-bench-replay --benchmark_repetitions=20 \
//       --benchmark_report_aggregates_only=true
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Runtime.h"
#include "HCQ/Transforms/CompileCache.h"
#include "HCQ/Transforms/ExecutableConversion.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdlib>
#include <string>

using namespace hcq::runtime;

namespace {

std::unique_ptr<LoadedExecutable> compile(int kernels) {
  std::string text =
      "hcq.kernel @noop cpu (readwrite f32) symbol \"hcq_noop\" library \"" +
      std::string(HCQ_TEST_INPUTS) +
      "/libhcqtestkernels.so\"\n"
      "hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>) {\n";
  for (int i = 0; i < kernels; ++i)
    text += "  hcq.launch @noop(%a : !hcq.buffer<16xf32, CPU:0>) "
            "global [1, 1, 1] local [1, 1, 1]\n";
  text += "}\n";
  mlir::MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  auto module = mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  hcq::CompileCache cache;
  hcq::PipelineOptions options;
  options.batchSize = 0; // one submit for the whole schedule
  auto compiled = cache.compile(*module, options);
  if (mlir::failed(compiled))
    std::abort();
  mlir::SymbolTableCollection symbols;
  auto exe = hcq::convertExecutable(
      *(*compiled).getOps<hcq::ExecutableOp>().begin(), symbols);
  auto loaded = loadExecutable(*exe);
  if (!loaded)
    std::abort();
  return std::move(*loaded);
}

void replay(benchmark::State &state) {
  int kernels = state.range(0);
  auto exe = compile(kernels);
  std::vector<float> a(16);
  std::vector<Argument> args = {Argument::buffer(a.data())};
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

void oneAtATime(benchmark::State &state) {
  int kernels = state.range(0);
  auto exe = compile(1);
  std::vector<float> a(16);
  std::vector<Argument> args = {Argument::buffer(a.data())};
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

// Both benchmarks run at the same kernel counts, in manual time, and report
// the minimum over repetitions beside Google Benchmark's mean and median.
void configure(benchmark::internal::Benchmark *b) {
  b->Arg(1)->Arg(10)->Arg(100)->Arg(1000)->UseManualTime()->ComputeStatistics(
      "min", [](const std::vector<double> &v) {
        return *std::min_element(v.begin(), v.end());
      });
}

} // namespace

BENCHMARK(replay)->Apply(configure);
BENCHMARK(oneAtATime)->Apply(configure);
BENCHMARK_MAIN();
