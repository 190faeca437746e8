//===- RuntimeTest.cpp - Schedules compiled and run on the CPU device -----===//
//
// End to end: an MLIR schedule through --hcq-pipeline, into the runtime's
// executable, linked into this process and run; every result is compared
// with calling the kernels directly.
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "gtest/gtest.h"

#include "llvm/Support/JSON.h"

#include <atomic>
#include <chrono>
#include <cstring>
#include <dlfcn.h>
#include <random>
#include <thread>

using namespace hcq::runtime;
using hcq::test::compileAndLoad;

namespace {

const char *const vaddScale = R"mlir(
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "@LIB@"
hcq.kernel @scale cpu (readwrite f32) vars 1 symbol "hcq_scale" library "@LIB@"
hcq.schedule @vs(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @scale(%c : !hcq.buffer<64xf32, CPU:0>) vars(%s : i32) global [64, 1, 1] local [1, 1, 1]
  hcq.copy %out[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}
)mlir";

} // namespace

TEST(Runtime, ThousandReplaysWithFreshInputsAreAllCorrect) {
  hcq::PipelineOptions options;
  auto exe = compileAndLoad(vaddScale, options);
  ASSERT_TRUE(exe);
  std::mt19937 rng(3);
  std::uniform_real_distribution<float> dist(-4, 4);
  for (int run = 0; run < 1000; ++run) {
    // New buffers every run: only the run-time patches can make this work.
    std::vector<float> a(64), b(64), out(64, -1);
    for (int i = 0; i < 64; ++i) {
      a[i] = dist(rng);
      b[i] = dist(rng);
    }
    int s = run % 7 - 3;
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::buffer(b.data()),
                  Argument::buffer(out.data()), Argument::variable(s)})));
    ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
    for (int i = 0; i < 64; ++i)
      ASSERT_EQ(out[i], (a[i] + b[i]) * float(s))
          << "run " << run << " i " << i;
  }
}

TEST(Runtime, RingWrapsAroundOverManyRuns) {
  // A 256-byte ring holds 4 entries; every run pushes more than that over
  // its queues, so the rings wrap again and again.
  hcq::PipelineOptions options;
  options.batchSize = 1;
  RuntimeOptions runtime;
  runtime.ringBytes = 256;
  auto exe = compileAndLoad(vaddScale, options, runtime);
  ASSERT_TRUE(exe);
  std::vector<float> a(64, 1), b(64, 2), out(64);
  for (int run = 0; run < 300; ++run) {
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::buffer(b.data()),
                  Argument::buffer(out.data()), Argument::variable(run % 5)})));
    ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
    ASSERT_EQ(out[63], 3.0f * (run % 5)) << run;
  }
}

TEST(Runtime, MatmulAndReductionMatchDirectCalls) {
  const char *source = R"mlir(
hcq.kernel @matmul cpu (write f32, read f32, read f32) symbol "hcq_matmul" library "@LIB@"
hcq.kernel @reduce cpu (write f32, read f32) vars 1 symbol "hcq_reduce" library "@LIB@"
hcq.schedule @mr(%x: !hcq.buffer<64xf32, CPU:0>, %w: !hcq.buffer<64xf32, CPU:0>, %sum: !hcq.buffer<1xf32, CPU:0>, %n: i32) {
  %y = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @matmul(%y, %x, %w : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [8, 8, 1] local [1, 1, 1]
  hcq.launch @reduce(%sum, %y : !hcq.buffer<1xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) vars(%n : i32) global [1, 1, 1] local [1, 1, 1]
}
)mlir";
  hcq::PipelineOptions options;
  auto exe = compileAndLoad(source, options);
  ASSERT_TRUE(exe);
  std::vector<float> x(64), w(64), sum(1);
  for (int i = 0; i < 64; ++i) {
    x[i] = i % 5;
    w[i] = (i % 3) - 1;
  }
  ASSERT_FALSE(static_cast<bool>(
      exe->run({Argument::buffer(x.data()), Argument::buffer(w.data()),
                Argument::buffer(sum.data()), Argument::variable(64)})));
  ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
  float expected = 0;
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 8; ++c)
      for (int k = 0; k < 8; ++k)
        expected += x[r * 8 + k] * w[k * 8 + c];
  EXPECT_EQ(sum[0], expected);
}

TEST(Runtime, StuckWaitIsReportedAndTheProcessRunsAgain) {
  // A submit waiting for a signal nothing stores: hang detection must name
  // the queue and the signal within its timeout, and the executable must
  // run again afterwards.
  const char *source = R"mlir(
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "@LIB@"
hcq.schedule @stuck(%a: !hcq.buffer<4xf32, CPU:0>) {
  %s = hcq.placeholder signal slot 9 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.wait %s >= 5 : !hcq.buffer<1xi64, CPU:0>
    hcq.launch @vadd(%a, %a, %a : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, CPU:0>) global [4, 1, 1] local [1, 1, 1]
  }
}
)mlir";
  hcq::PipelineOptions options;
  RuntimeOptions runtime;
  runtime.waitTimeout = std::chrono::milliseconds(200);
  auto exe = compileAndLoad(source, options, runtime);
  ASSERT_TRUE(exe);
  std::vector<float> a(4, 1);
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto start = std::chrono::steady_clock::now();
    ASSERT_FALSE(static_cast<bool>(exe->run({Argument::buffer(a.data())})));
    hcq::Error error = exe->synchronize();
    ASSERT_TRUE(static_cast<bool>(error));
    std::string message = hcq::toString(std::move(error));
    EXPECT_NE(message.find("hang detected: CPU:0 COMPUTE:0: wait on signal"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("for value 5 timed out after 200 ms"),
              std::string::npos)
        << message;
    EXPECT_NE(message.find("(signal slot 9 of @stuck on CPU:0)"),
              std::string::npos)
        << message;
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(5));
  }
}

TEST(Runtime, AMissingKernelLibrarySaysWhereItLookedAndHowToAddAFolder) {
  // A bare library name the dynamic loader cannot find: Unavailable, naming
  // the kernel, the search folders, LD_LIBRARY_PATH and the option that adds
  // a folder, as the program embedding the runtime names it; with the
  // library's folder among the search folders, it loads.
  auto source = [](const std::string &library) {
    return R"mlir(
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library ")mlir" +
           library + R"mlir("
hcq.schedule @s(%a: !hcq.buffer<4xf32, CPU:0>) {
  hcq.launch @vadd(%a, %a, %a : !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, CPU:0>, !hcq.buffer<4xf32, CPU:0>) global [4, 1, 1] local [1, 1, 1]
}
)mlir";
  };
  hcq::PipelineOptions options;
  // A name no library has (the test library may be loaded in this process
  // already, where dlopen finds it by its soname).
  std::optional<Executable> exe =
      hcq::test::compileExecutable(source("libhcqnosuchkernels.so"), options);
  ASSERT_TRUE(exe);
  RuntimeOptions runtimeOptions;
  runtimeOptions.librarySearchPaths = {"/nonexistent-hcq-folder"};
  runtimeOptions.optionNames = {{"librarySearchPaths", "--library-path"}};
  auto missing = Runtime::create(runtimeOptions)->load(*exe);
  ASSERT_FALSE(static_cast<bool>(missing));
  hcq::Error error = missing.takeError();
  EXPECT_EQ(error.code(), hcq::ErrorCode::Unavailable);
  std::string message = hcq::toString(std::move(error));
  EXPECT_EQ(message.rfind("kernel @vadd's library: cannot load "
                          "libhcqnosuchkernels.so: ",
                          0),
            0u)
      << message;
  EXPECT_NE(message.find("(looked for in the library search folders "
                         "/nonexistent-hcq-folder, then where the dynamic "
                         "loader looks: LD_LIBRARY_PATH "),
            std::string::npos)
      << message;
  EXPECT_NE(message.find("add the library's folder with --library-path or "
                         "to LD_LIBRARY_PATH)"),
            std::string::npos)
      << message;

  std::string library = hcq::test::kernelLibrary;
  runtimeOptions.librarySearchPaths.push_back(
      library.substr(0, library.rfind('/')));
  exe = hcq::test::compileExecutable(source("libhcqtestkernels.so"), options);
  ASSERT_TRUE(exe);
  auto found = Runtime::create(runtimeOptions)->load(*exe);
  EXPECT_TRUE(static_cast<bool>(found)) << hcq::toString(found.takeError());
}

namespace {

/// A schedule @stuck whose one CPU kernel @spin, `symbol` of the test
/// kernels' library, spins until the test stores 1 to its flag
/// `<symbol>_release`, loaded on a runtime whose waits give up after 200 ms.
struct SpinningKernel {
  std::shared_ptr<Runtime> runtime;
  std::unique_ptr<LoadedExecutable> exe;
  void *library = nullptr;
  volatile int *release = nullptr;

  /// Loads it; the test's assertions say what failed.
  void load(const std::string &symbol) {
    std::string source =
        "hcq.kernel @spin cpu (readwrite f32) symbol \"" + symbol +
        "\" library \"@LIB@\"\n"
        R"mlir(hcq.schedule @stuck(%a: !hcq.buffer<4xf32, CPU:0>) {
  hcq.launch @spin(%a : !hcq.buffer<4xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}
)mlir";
    hcq::PipelineOptions options;
    RuntimeOptions runtimeOptions;
    runtimeOptions.waitTimeout = std::chrono::milliseconds(200);
    runtime = Runtime::create(runtimeOptions);
    exe = compileAndLoad(source, options, *runtime);
    ASSERT_TRUE(exe);
    library = dlopen(hcq::test::kernelLibrary.c_str(), RTLD_NOW | RTLD_NOLOAD);
    ASSERT_TRUE(library);
    release = flag(symbol + "_release");
    ASSERT_TRUE(release);
  }

  volatile int *flag(const std::string &name) const {
    return static_cast<volatile int *>(dlsym(library, name.c_str()));
  }
};

} // namespace

TEST(Runtime, AKernelThatNeverReturnsIsAHangAndUnloadDoesNotBlock) {
  // A kernel that never returns cannot be waited for: synchronize must name
  // the device, queue and kernel within the wait timeout (every time it is
  // asked), and destroying the executable and the runtime must not wait for
  // it. The kernel is let go at the end, in its leaked queue.
  SpinningKernel spinning;
  ASSERT_NO_FATAL_FAILURE(spinning.load("hcq_spin"));
  auto &[runtime, exe, library, release] = spinning;

  std::vector<float> a(4);
  ASSERT_FALSE(static_cast<bool>(exe->run({Argument::buffer(a.data())})));
  for (int attempt = 0; attempt < 2; ++attempt) {
    auto start = std::chrono::steady_clock::now();
    hcq::Error error = exe->synchronize();
    ASSERT_TRUE(static_cast<bool>(error));
    EXPECT_EQ(hcq::toString(std::move(error)),
              "hang detected: CPU:0 COMPUTE:0: kernel @spin (hcq_spin) has "
              "not finished after 200 ms");
    EXPECT_LT(std::chrono::steady_clock::now() - start,
              std::chrono::seconds(5));
  }
  auto start = std::chrono::steady_clock::now();
  exe.reset();
  runtime.reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  __atomic_store_n(release, 1, __ATOMIC_RELEASE);
  dlclose(library);
}

TEST(Runtime, ABufferReleasedUnderAKernelThatNeverReturnsIsNotFreed) {
  // The policy of unloading, for buffers: releasing one while work using it
  // cannot finish stops the queues (a fault from then on) and, where a
  // queue cannot stop (a kernel that never returns), leaves the memory
  // allocated: the kernel writes it after the release, which ASan reports
  // as a use after free if it was freed.
  SpinningKernel spinning;
  ASSERT_NO_FATAL_FAILURE(spinning.load("hcq_spin_then_write"));
  auto &[runtime, exe, library, release] = spinning;
  volatile int *done = spinning.flag("hcq_spin_then_write_done");
  ASSERT_TRUE(done);

  hcq::Expected<Buffer> buffer =
      runtime->allocate(DeviceId{hcq::DeviceKind::CPU, 0}, 16);
  ASSERT_TRUE(static_cast<bool>(buffer)) << hcq::toString(buffer.takeError());
  ASSERT_FALSE(
      static_cast<bool>(exe->run({Argument::buffer(buffer->hostView())})));
  auto start = std::chrono::steady_clock::now();
  buffer->reset();
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
  // The runtime's queues were stopped: its next run says why.
  std::vector<float> a(4);
  hcq::Error error = exe->run({Argument::buffer(a.data())});
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(error.code(), hcq::ErrorCode::DeviceFault);
  std::string message = hcq::toString(std::move(error));
  EXPECT_NE(message.find("a buffer of CPU:0 released while work using it "
                         "could not finish: CPU:0 COMPUTE:0: kernel @spin "
                         "(hcq_spin_then_write) has not finished after 200 "
                         "ms"),
            std::string::npos)
      << message;
  // Let the kernel write the buffer it was given.
  __atomic_store_n(release, 1, __ATOMIC_RELEASE);
  auto end = std::chrono::steady_clock::now() + std::chrono::seconds(5);
  while (!__atomic_load_n(done, __ATOMIC_ACQUIRE) &&
         std::chrono::steady_clock::now() < end)
    std::this_thread::yield();
  EXPECT_TRUE(*done);
  exe.reset();
  runtime.reset();
  dlclose(library);
}

TEST(Runtime, HostCallSeesEarlierWorkAndLaterWorkSeesIt) {
  // c = a + a; the host call negates c and adds the bound variable; then
  // out = c + a. The host call must run after the first launch finished and
  // before the second started, with the internal buffer and the variable.
  const char *source = R"mlir(
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "@LIB@"
hcq.schedule @hc(%a: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%c, %a, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.host_call "negate_add"(%c, %s : !hcq.buffer<64xf32, CPU:0>, i32)
  hcq.launch @vadd(%out, %c, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
}
)mlir";
  hcq::PipelineOptions options;
  RuntimeOptions runtime;
  int calls = 0;
  runtime.hostCalls["negate_add"] =
      [&](hcq::Span<const Argument> operands) -> hcq::Error {
    ++calls;
    EXPECT_EQ(operands.size(), 2u);
    EXPECT_EQ(operands[0].lanes.size(), 1u);
    auto *c = static_cast<float *>(operands[0].lanes[0]);
    for (int i = 0; i < 64; ++i)
      c[i] = -c[i] + operands[1].value;
    return hcq::Error::success();
  };
  auto exe = compileAndLoad(source, options, runtime);
  ASSERT_TRUE(exe);
  std::vector<float> a(64), out(64);
  for (int run = 0; run < 20; ++run) {
    for (int i = 0; i < 64; ++i)
      a[i] = i + run;
    ASSERT_FALSE(static_cast<bool>(
        exe->run({Argument::buffer(a.data()), Argument::buffer(out.data()),
                  Argument::variable(run)})));
    ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
    // out = (-(2a) + run) + a = run - a
    for (int i = 0; i < 64; ++i)
      ASSERT_EQ(out[i], run - a[i]) << "run " << run << " element " << i;
  }
  EXPECT_EQ(calls, 20);
}

TEST(Runtime, AFailingHostCallFailsItsRunAndTheNextRunWorks) {
  // The host call fails on odd runs: that run reports it (naming the call)
  // and stops there; the next run completes with the right numbers.
  const char *source = R"mlir(
hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "hcq_vadd" library "@LIB@"
hcq.schedule @hc(%a: !hcq.buffer<64xf32, CPU:0>, %out: !hcq.buffer<64xf32, CPU:0>, %s: i32) {
  %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
  hcq.launch @vadd(%c, %a, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
  hcq.host_call "flaky"(%s : i32)
  hcq.launch @vadd(%out, %c, %a : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [64, 1, 1] local [1, 1, 1]
}
)mlir";
  hcq::PipelineOptions options;
  RuntimeOptions runtime;
  runtime.hostCalls["flaky"] =
      [](hcq::Span<const Argument> operands) -> hcq::Error {
    if (operands[0].value % 2)
      return hcq::makeError("odd run");
    return hcq::Error::success();
  };
  auto exe = compileAndLoad(source, options, runtime);
  ASSERT_TRUE(exe);
  std::vector<float> a(64), out(64);
  for (int run = 0; run < 10; ++run) {
    for (int i = 0; i < 64; ++i)
      a[i] = i + run;
    std::fill(out.begin(), out.end(), -1);
    hcq::Error error =
        exe->run({Argument::buffer(a.data()), Argument::buffer(out.data()),
                  Argument::variable(run)});
    if (run % 2) {
      ASSERT_TRUE(static_cast<bool>(error)) << run;
      EXPECT_EQ(hcq::toString(std::move(error)),
                "host call 'flaky' failed: odd run");
      ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
      continue;
    }
    ASSERT_FALSE(static_cast<bool>(error)) << hcq::toString(std::move(error));
    ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
    for (int i = 0; i < 64; ++i)
      ASSERT_EQ(out[i], 3 * a[i]) << "run " << run << " element " << i;
  }
}

TEST(Runtime, MissingHostCallIsNamed) {
  const char *source = R"mlir(
hcq.schedule @hc(%a: !hcq.buffer<4xf32, CPU:0>) {
  hcq.host_call "nowhere"(%a : !hcq.buffer<4xf32, CPU:0>)
}
)mlir";
  hcq::PipelineOptions options;
  auto exe = compileAndLoad(source, options);
  ASSERT_TRUE(exe);
  std::vector<float> a(4);
  hcq::Error error = exe->run({Argument::buffer(a.data())});
  ASSERT_TRUE(static_cast<bool>(error));
  EXPECT_EQ(hcq::toString(std::move(error)),
            "host call 'nowhere' has no implementation "
            "(RuntimeOptions::hostCalls)");
}

TEST(Runtime, ProfileReadsEveryCallsTimestamps) {
  hcq::PipelineOptions options;
  options.profile = true;
  auto exe = compileAndLoad(vaddScale, options);
  ASSERT_TRUE(exe);
  std::vector<float> a(64, 1), b(64, 2), out(64);
  ASSERT_FALSE(static_cast<bool>(
      exe->run({Argument::buffer(a.data()), Argument::buffer(b.data()),
                Argument::buffer(out.data()), Argument::variable(2)})));
  ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
  EXPECT_EQ(out[0], 6.0f);
  std::vector<ProfileEvent> events = exe->profile();
  ASSERT_EQ(events.size(), 3u);
  const char *names[] = {"vadd#0", "scale#0", "copy#0"};
  const char *queues[] = {"COMPUTE:0", "COMPUTE:0", "COPY:0"};
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(events[i].name, names[i]);
    EXPECT_EQ(events[i].queue, queues[i]);
    EXPECT_EQ(events[i].device.kind, hcq::DeviceKind::CPU);
    EXPECT_GT(events[i].startNs, 0u);
    EXPECT_GE(events[i].endNs, events[i].startNs);
    if (i)
      EXPECT_GE(events[i].startNs, events[i - 1].endNs);
  }
  // Without profiling there is nothing to read.
  hcq::PipelineOptions plain;
  auto unprofiled = compileAndLoad(vaddScale, plain);
  ASSERT_TRUE(unprofiled);
  EXPECT_TRUE(unprofiled->profile().empty());
}

TEST(Runtime, ChromeTraceNamesDevicesQueuesAndCalls) {
  std::vector<ProfileEvent> events = {
      {"vadd", {hcq::DeviceKind::AMD, 1}, "COMPUTE:0", 5000, 7500, 0},
      {"copy", {hcq::DeviceKind::CPU, 0}, "COPY:0", 8000, 8250, 1},
      // A name JSON must escape (the trace is written without LLVM).
      {"say \"hi\"\\\n", {hcq::DeviceKind::CPU, 0}, "COPY:0", 9000, 9001, 2},
  };
  std::string text = chromeTrace(events);
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(text);
  ASSERT_TRUE(static_cast<bool>(parsed)) << llvm::toString(parsed.takeError());
  const llvm::json::Array *trace =
      parsed->getAsObject()->getArray("traceEvents");
  ASSERT_NE(trace, nullptr);
  std::vector<std::string> seen;
  for (const llvm::json::Value &v : *trace) {
    const llvm::json::Object &e = *v.getAsObject();
    std::string line = e.getString("ph")->str() + " " +
                       e.getString("name")->str() + " pid " +
                       std::to_string(*e.getInteger("pid"));
    if (e.getString("ph") == "X")
      line += " ts " + std::to_string(*e.getNumber("ts")) + " dur " +
              std::to_string(*e.getNumber("dur"));
    else
      line += " " + e.getObject("args")->getString("name")->str();
    seen.push_back(line);
  }
  EXPECT_EQ(seen, (std::vector<std::string>{
                      "M process_name pid 0 AMD:1",
                      "M thread_name pid 0 COMPUTE:0",
                      "X vadd pid 0 ts 0.000000 dur 2.500000",
                      "M process_name pid 1 CPU:0",
                      "M thread_name pid 1 COPY:0",
                      "X copy pid 1 ts 3.000000 dur 0.250000",
                      "X say \"hi\"\\\n pid 1 ts 4.000000 dur 0.001000",
                  }));
}

TEST(Runtime, CorruptPlansFailTheLoadNotTheMemory) {
  // Files whose structure is sound but whose contents would make the
  // runtime write outside a value: each is refused at load, by name.
  hcq::PipelineOptions options;
  std::optional<Executable> good =
      hcq::test::compileExecutable(vaddScale, options);
  ASSERT_TRUE(good);
  auto loadError = [](const Executable &exe) {
    auto loaded = Runtime::create()->load(exe);
    if (loaded)
      return std::string();
    hcq::Error error = loaded.takeError();
    EXPECT_EQ(error.code(), hcq::ErrorCode::InvalidFile);
    return hcq::toString(std::move(error));
  };
  ASSERT_EQ(loadError(*good), "");

  // An offset table entry pointing past its blob.
  Executable exe = *good;
  bool patched = false;
  for (Blob &blob : exe.blobs)
    if (exe.values[blob.target].isPlaceholder(PlaceholderTag::offtbl) &&
        !patched) {
      uint32_t far = 1 << 20;
      std::memcpy(blob.data.data(), &far, 4);
      patched = true;
    }
  ASSERT_TRUE(patched);
  EXPECT_NE(loadError(exe).find("invalid hcq executable: plan step 0 (a call "
                                "of submitter 0): its step "),
            std::string::npos)
      << loadError(exe);
  EXPECT_NE(loadError(exe).find("(hcq.patch_group): entry 0 patches byte "
                                "1048576 of a "),
            std::string::npos)
      << loadError(exe);

  // A fence whose timeline is a schedule argument (no linked memory).
  exe = *good;
  uint32_t input = 0;
  while (exe.values[input].kind != ValueKind::Input)
    ++input;
  const Submitter &sub = exe.submitters[exe.plan[0].callee];
  for (const Step &step : sub.steps)
    if (step.kind == StepKind::Fence) {
      exe.plan[0].operands[step.operands[0]] = input;
      break;
    }
  EXPECT_NE(loadError(exe).find("(hcq.fence): it reads value " +
                                std::to_string(input) + " (buffer argument " +
                                std::to_string(exe.values[input].index) +
                                "), which is no linked "
                                "memory"),
            std::string::npos)
      << loadError(exe);
}

TEST(Runtime, ArgumentsMustBeWhatTheScheduleDeclares) {
  hcq::PipelineOptions options;
  auto exe = compileAndLoad(vaddScale, options);
  ASSERT_TRUE(exe);
  std::vector<float> a(64), b(64), out(64);
  hcq::Error swapped =
      exe->run({Argument::buffer(a.data()), Argument::variable(1),
                Argument::buffer(out.data()), Argument::variable(2)});
  ASSERT_TRUE(static_cast<bool>(swapped));
  EXPECT_EQ(hcq::toString(std::move(swapped)),
            "argument 1 is a buffer of 1 lane; the run passes a variable");
  hcq::Error variable =
      exe->run({Argument::buffer(a.data()), Argument::buffer(b.data()),
                Argument::buffer(out.data()), Argument::buffer(b.data())});
  ASSERT_TRUE(static_cast<bool>(variable));
  EXPECT_EQ(hcq::toString(std::move(variable)),
            "argument 3 is a variable; the run passes a buffer");
  // Nothing was submitted: a correct run still works.
  ASSERT_FALSE(static_cast<bool>(
      exe->run({Argument::buffer(a.data()), Argument::buffer(b.data()),
                Argument::buffer(out.data()), Argument::variable(2)})));
  ASSERT_FALSE(static_cast<bool>(exe->synchronize()));
}

namespace {
std::atomic<bool> slowWriteDone{false};
/// Writes its buffer after a pause, then says it finished.
void slowWrite(const uint64_t *args, uint32_t, uint32_t, uint32_t) {
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  reinterpret_cast<float *>(args[0])[0] = 1;
  slowWriteDone.store(true);
}
} // namespace

TEST(Runtime, ABufferOfAnotherDeviceIsFreedOnlyOnceRunsUsingItFinished) {
  // Host memory of one CPU device may be given as another's lane: CPU:1's
  // buffer to a kernel on CPU:0. Releasing it must wait for that kernel
  // (found by hcq-fuzz-capi: releasing synchronized only the buffer's own
  // device, and the kernel then wrote freed memory).
  RuntimeOptions options;
  options.cpuKernels["slow_write"] = slowWrite;
  auto runtime = Runtime::create(options);
  hcq::PipelineOptions pipeline;
  auto exe = compileAndLoad(R"mlir(
hcq.kernel @slow cpu (write f32) symbol "slow_write" library "none.so"
hcq.schedule @s(%x: !hcq.buffer<16xf32, CPU:0>) {
  hcq.launch @slow(%x : !hcq.buffer<16xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
}
)mlir",
                            pipeline, *runtime);
  ASSERT_TRUE(exe);
  hcq::Expected<Buffer> buffer =
      runtime->allocate({hcq::DeviceKind::CPU, 1}, 64);
  ASSERT_TRUE(static_cast<bool>(buffer)) << hcq::toString(buffer.takeError());
  slowWriteDone.store(false);
  ASSERT_FALSE(static_cast<bool>(exe->run({bufferArgument({&*buffer})})));
  buffer->reset();
  EXPECT_TRUE(slowWriteDone.load());
}
