//===- WorkgroupsTest.cpp - A launch's workgroups over the cores ----------===//
//
// The workgroup pool (lib/Runtime/WorkgroupPool.h) on its own, then through
// the CPU device's launch entry and the emulated AMD device's dispatch:
// every workgroup runs exactly once, with its own coordinates, before the
// launch completes; a long launch runs on more than one thread when more
// are allowed, and on the queue's thread alone when one is.
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"
#include "WorkgroupPool.h"

#include "HCQ/Runtime/Workgroups.h"

#include "gtest/gtest.h"

#include <atomic>
#include <chrono>
#include <pthread.h>
#include <set>
#include <thread>
#include <vector>

using namespace hcq::runtime;
using hcq::test::amdKernel;
using hcq::test::compileAndLoad;

namespace {

uint64_t self() { return uint64_t(pthread_self()); }

/// Per workgroup of a launch: how often it ran and on which thread.
struct Record {
  explicit Record(size_t count) : runs(count), threads(count) {}
  void ran(uint64_t i) {
    runs[i].fetch_add(1, std::memory_order_relaxed);
    threads[i].store(self(), std::memory_order_relaxed);
    uint64_t first = 0;
    if (!firstThread.compare_exchange_strong(first, self()) && first != self())
      secondThread.store(true);
  }
  /// Waits until a second thread has run a workgroup, or `limit` passed.
  void awaitSecondThread(std::chrono::milliseconds limit) const {
    auto deadline = std::chrono::steady_clock::now() + limit;
    while (!secondThread.load() && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  /// Checks that each ran once; the distinct threads they ran on.
  std::set<uint64_t> check() const {
    std::set<uint64_t> seen;
    for (size_t i = 0; i < runs.size(); ++i) {
      EXPECT_EQ(runs[i].load(), 1) << "workgroup " << i;
      seen.insert(threads[i].load());
    }
    return seen;
  }
  std::vector<std::atomic<int>> runs;
  std::vector<std::atomic<uint64_t>> threads;
  std::atomic<uint64_t> firstThread{0};
  std::atomic<bool> secondThread{false};
};

/// Long enough per workgroup that a launch of a few dozen is shared, and
/// that the helpers, once woken, find work left.
constexpr auto SLOW_WORKGROUP = std::chrono::milliseconds(2);

} // namespace

TEST(WorkgroupPool, EveryWorkgroupRunsOnceWhateverTheThreadsAndSize) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    WorkgroupPool pool(threads);
    for (uint64_t count : {0, 1, 2, 3, 63, 1000, 200003}) {
      Record record(count);
      auto body = [&](uint64_t begin, uint64_t end) {
        ASSERT_LE(begin, end);
        ASSERT_LE(end, count);
        for (uint64_t i = begin; i < end; ++i)
          record.ran(i);
      };
      pool.run(count, body);
      SCOPED_TRACE("threads " + std::to_string(threads) + ", count " +
                   std::to_string(count));
      record.check();
    }
  }
}

TEST(WorkgroupPool, ALongLaunchRunsOnSeveralThreadsAndEndsAfterAll) {
  WorkgroupPool pool(4);
  Record record(32);
  std::vector<int> written(32, 0); // plain memory: visible once run returns
  auto body = [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      std::this_thread::sleep_for(SLOW_WORKGROUP);
      written[i] = int(i) + 1;
      record.ran(i);
    }
  };
  pool.run(32, body);
  std::set<uint64_t> threads = record.check();
  for (int i = 0; i < 32; ++i)
    EXPECT_EQ(written[i], i + 1);
  EXPECT_GT(threads.size(), 1u);
  EXPECT_LE(threads.size(), 4u);
  // The caller always takes part: a launch progresses however busy the
  // helpers are.
  EXPECT_TRUE(threads.count(self()));
  EXPECT_EQ(pool.getSharedLaunches(), 1u);
}

TEST(WorkgroupPool, OneThreadRunsEveryWorkgroupOnTheCaller) {
  WorkgroupPool pool(1);
  Record record(16);
  auto body = [&](uint64_t begin, uint64_t end) {
    for (uint64_t i = begin; i < end; ++i) {
      std::this_thread::sleep_for(std::chrono::microseconds(500));
      record.ran(i);
    }
  };
  pool.run(16, body);
  EXPECT_EQ(record.check(), std::set<uint64_t>{self()});
  EXPECT_EQ(pool.getSharedLaunches(), 0u);
}

TEST(WorkgroupPool, LaunchesFromSeveralThreadsShareTheHelpers) {
  // Two queues launching at once: each launch completes, whole, on its
  // caller and whatever helpers it got.
  WorkgroupPool pool(3);
  Record first(24), second(24);
  auto launch = [&](Record &record) {
    auto body = [&](uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        record.ran(i);
      }
    };
    pool.run(24, body);
  };
  std::thread a([&] { launch(first); }), b([&] { launch(second); });
  a.join();
  b.join();
  first.check();
  second.check();
}

TEST(WorkgroupPool, FewerThreadsAfterwardsLeaveTheExtraHelpersOut) {
  WorkgroupPool pool(4);
  auto longLaunch = [&](Record &record) {
    auto body = [&](uint64_t begin, uint64_t end) {
      for (uint64_t i = begin; i < end; ++i) {
        std::this_thread::sleep_for(SLOW_WORKGROUP);
        record.ran(i);
      }
    };
    pool.run(24, body);
  };
  Record four(24);
  longLaunch(four); // starts three helpers
  EXPECT_LE(four.check().size(), 4u);
  pool.setThreads(2);
  EXPECT_EQ(pool.getThreads(), 2u);
  Record two(24);
  longLaunch(two);
  EXPECT_LE(two.check().size(), 2u);
}

namespace {

/// The grid the device tests launch, and what each workgroup saw.
constexpr uint32_t GX = 4, GY = 3, GZ = 2, GROUPS = GX * GY * GZ;
Record *deviceRecord = nullptr;
/// Whether a workgroup after the first waits for a second thread to have run
/// one: on a loaded machine the launch's own thread could otherwise finish
/// every workgroup before a woken helper is scheduled. The first runs alone
/// (the pool shares a launch only once its first workgroup proved it long).
bool awaitHelpers = false;

/// A CPU kernel (the CPU kernel ABI): out[i] = i + 1 for its workgroup's
/// linear index i, slowly.
void recordCPU(const uint64_t *args, uint32_t x, uint32_t y, uint32_t z) {
  ASSERT_LT(x, GX);
  ASSERT_LT(y, GY);
  ASSERT_LT(z, GZ);
  uint32_t i = (z * GY + y) * GX + x;
  std::this_thread::sleep_for(SLOW_WORKGROUP);
  reinterpret_cast<float *>(args[0])[i] = float(i + 1);
  deviceRecord->ran(i);
  if (awaitHelpers && i != 0)
    deviceRecord->awaitSecondThread(std::chrono::seconds(5));
}

/// The CPU twin of the AMD vadd kernel, standing in as recordCPU does.
void recordTwin(const hcq_amd_workgroup *wg) {
  EXPECT_EQ(wg->num_groups[0], GX);
  EXPECT_EQ(wg->num_groups[1], GY);
  EXPECT_EQ(wg->num_groups[2], GZ);
  EXPECT_EQ(wg->local_size[0], 64u);
  recordCPU(static_cast<const uint64_t *>(wg->kernargs), wg->group_id[0],
            wg->group_id[1], wg->group_id[2]);
}

/// Runs `exe` once with a buffer of GROUPS floats under `threads` workgroup
/// threads and checks the exact result; the threads its workgroups ran on.
std::set<uint64_t> runRecorded(LoadedExecutable &exe, unsigned threads,
                               bool amd) {
  setWorkgroupThreads(threads);
  EXPECT_EQ(getWorkgroupThreads(), threads);
  Record record(GROUPS);
  deviceRecord = &record;
  awaitHelpers = threads > 1;
  std::vector<float> out(GROUPS, 0);
  std::vector<Argument> args = {Argument::buffer(out.data())};
  if (amd)
    args.push_back(Argument::variable(0));
  EXPECT_FALSE(static_cast<bool>(exe.run(args)));
  EXPECT_FALSE(static_cast<bool>(exe.synchronize()));
  deviceRecord = nullptr;
  awaitHelpers = false;
  setWorkgroupThreads(0);
  for (uint32_t i = 0; i < GROUPS; ++i)
    EXPECT_EQ(out[i], float(i + 1)) << "workgroup " << i;
  return record.check();
}

} // namespace

TEST(Workgroups, ACPULaunchRunsEachWorkgroupOnceOverSeveralThreads) {
  RuntimeOptions options;
  options.cpuKernels["record"] = recordCPU;
  auto runtime = Runtime::create(options);
  hcq::PipelineOptions pipeline;
  auto exe = compileAndLoad(R"mlir(
hcq.kernel @record cpu (write f32) symbol "record" library "none.so"
hcq.schedule @s(%x: !hcq.buffer<24xf32, CPU:0>) {
  hcq.launch @record(%x : !hcq.buffer<24xf32, CPU:0>) global [4, 3, 2] local [1, 1, 1]
}
)mlir",
                            pipeline, *runtime);
  ASSERT_TRUE(exe);
  EXPECT_GT(runRecorded(*exe, 4, /*amd=*/false).size(), 1u);
  EXPECT_EQ(runRecorded(*exe, 1, /*amd=*/false).size(), 1u);
}

TEST(Workgroups, AnEmulatedDispatchRunsEachWorkgroupOnceOverSeveralThreads) {
  RuntimeOptions options;
  options.amd = AMDDevice::Emulated;
  options.amdTwins["vadd"] = recordTwin;
  auto runtime = Runtime::create(options);
  hcq::PipelineOptions pipeline;
  auto exe =
      compileAndLoad(amdKernel(HCQ_TEST_INPUTS "/kernels-gfx1100.co", "vadd",
                               "(write f32, read f32, read f32)", 1) +
                         R"mlir(
hcq.schedule @s(%x: !hcq.buffer<24xf32, AMD:0>, %n: i32) {
  hcq.launch @vadd(%x, %x, %x : !hcq.buffer<24xf32, AMD:0>, !hcq.buffer<24xf32, AMD:0>, !hcq.buffer<24xf32, AMD:0>) vars(%n : i32) global [4, 3, 2] local [64, 1, 1]
}
)mlir",
                     pipeline, *runtime);
  ASSERT_TRUE(exe);
  EXPECT_GT(runRecorded(*exe, 4, /*amd=*/true).size(), 1u);
  EXPECT_EQ(runRecorded(*exe, 1, /*amd=*/true).size(), 1u);
}
