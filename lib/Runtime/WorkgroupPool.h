//===- WorkgroupPool.h - A launch's workgroups over the cores ---*- C++ -*-===//
//
// The CPU device's launch entry and the emulated AMD command processor's
// DISPATCH_DIRECT run a kernel once per workgroup. A workgroup runs on one
// thread from start to end (the host target's workgroup memory is
// thread_local: docs/embedding.md), but workgroups may run on different
// threads at once, as on a GPU. The calling (queue) thread always runs its
// own launch, so a launch makes progress however busy the helpers are, and
// it wakes the helpers only once the launch has shown it will last long
// enough to pay for the wake-up: a launch of a few microseconds runs as
// before, on its queue's thread alone. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_WORKGROUPPOOL_H
#define HCQ_LIB_RUNTIME_WORKGROUPPOOL_H

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

namespace hcq::runtime {

/// Runs workgroups [begin, end) of a launch (linear indices, x fastest).
using WorkgroupRange = void (*)(void *context, uint64_t begin, uint64_t end);

/// Helper threads shared by every launch of the process (or of a test's
/// own pool). Thread-safe: launches from several queues at once share the
/// helpers, each launch also running on its caller's thread.
class WorkgroupPool {
public:
  /// A pool running each launch on at most `threads` threads, counting the
  /// caller's; 0 means the default (getWorkgroupThreads).
  explicit WorkgroupPool(unsigned threads);
  /// Joins the helpers; no launch may be running.
  ~WorkgroupPool();
  WorkgroupPool(const WorkgroupPool &) = delete;
  WorkgroupPool &operator=(const WorkgroupPool &) = delete;

  /// The process's pool, which the CPU and emulated AMD devices use. Made
  /// on first use and never destroyed: a queue thread may be left running a
  /// kernel that never returns when the process exits.
  static WorkgroupPool &process();

  /// Runs `range` over disjoint ranges covering [0, count), on the calling
  /// thread and on up to getThreads() - 1 helpers; returns once every range
  /// has returned, with the workgroups' writes visible to the caller.
  void run(uint64_t count, WorkgroupRange range, void *context);

  /// Calls `body(begin, end)` as run() calls its range.
  template <typename Body> void run(uint64_t count, Body &body) {
    run(
        count,
        [](void *context, uint64_t begin, uint64_t end) {
          (*static_cast<Body *>(context))(begin, end);
        },
        &body);
  }

  /// Threads per launch, counting the caller's; at least 1.
  unsigned getThreads() const {
    return threads.load(std::memory_order_relaxed);
  }
  /// Sets it for launches that start afterwards (0: the default). Helpers
  /// are started when a launch first needs them; fewer threads leave the
  /// extra helpers asleep.
  void setThreads(unsigned threads);

  /// Launches so far that woke helpers: for tests.
  uint64_t getSharedLaunches() const {
    return sharedLaunches.load(std::memory_order_relaxed);
  }

  /// How long the rest of a launch must be estimated to take, from how
  /// long its first workgroups took, before helpers are woken: a wake-up and
  /// the helper's start cost tens of microseconds on a busy machine.
  static constexpr uint64_t SHARE_ABOVE_NS = 50000;

private:
  struct Job;
  void help(unsigned index);
  void share(Job &job);
  void finish(Job &job);

  std::atomic<unsigned> threads;
  std::atomic<uint64_t> sharedLaunches{0};
  std::mutex mutex;
  /// Helpers sleep on it until a job is published or the pool goes.
  std::condition_variable wake;
  /// A launch's caller sleeps on it until its last helper left.
  std::condition_variable left;
  /// Launches whose workgroups helpers may take, oldest first.
  std::vector<Job *> jobs;
  std::vector<std::thread> helpers;
  bool stopping = false;
};

/// Calls `workgroup(x, y, z)` once for every workgroup of the grid
/// `sizeX` x `sizeY` x `sizeZ` through `pool`. A grid of more than 2^64
/// workgroups, which would never finish anyway, runs in order on the
/// caller's thread.
template <typename Workgroup>
void runGrid(WorkgroupPool &pool, uint64_t sizeX, uint64_t sizeY,
             uint64_t sizeZ, Workgroup &workgroup) {
  uint64_t count;
  if (__builtin_mul_overflow(sizeX, sizeY, &count) ||
      __builtin_mul_overflow(count, sizeZ, &count)) {
    for (uint64_t z = 0; z < sizeZ; ++z)
      for (uint64_t y = 0; y < sizeY; ++y)
        for (uint64_t x = 0; x < sizeX; ++x)
          workgroup(x, y, z);
    return;
  }
  auto range = [&](uint64_t begin, uint64_t end) {
    // One division per range, then x fastest as the GPU numbers them.
    uint64_t x = begin % sizeX, rest = begin / sizeX;
    uint64_t y = rest % sizeY, z = rest / sizeY;
    for (uint64_t i = begin; i < end; ++i) {
      workgroup(x, y, z);
      if (++x == sizeX) {
        x = 0;
        if (++y == sizeY) {
          y = 0;
          ++z;
        }
      }
    }
  };
  pool.run(count, range);
}

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_WORKGROUPPOOL_H
