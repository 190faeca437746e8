//===- WorkgroupPool.cpp - A launch's workgroups over the cores -----------===//
//
// A launch starts on its caller's thread alone, in batches that double in
// size, and times them: once the rest of the launch is estimated to take
// longer than SHARE_ABOVE_NS, it is published to the helpers, and every
// thread then claims what is left in shares that shrink as it runs out (a
// slow workgroup near the end leaves the others little to wait for).
//
//===----------------------------------------------------------------------===//

#include "WorkgroupPool.h"
#include "Queues.h"

#include "HCQ/Runtime/Workgroups.h"

#include <algorithm>
#include <cstdlib>
#include <sched.h>

namespace hcq::runtime {

namespace {

/// HCQ_WORKGROUP_THREADS when it is a positive integer (a larger one is
/// MAX_WORKGROUP_THREADS), else the CPUs the process may run on: its affinity
/// mask, which taskset and cpuset cgroups narrow, rather than every CPU online.
unsigned defaultThreads() {
  if (const char *env = std::getenv("HCQ_WORKGROUP_THREADS")) {
    char *end = nullptr;
    unsigned long n = std::strtoul(env, &end, 10);
    if (*env >= '0' && *env <= '9' && end != env && !*end && n)
      return unsigned(std::min<unsigned long>(n, MAX_WORKGROUP_THREADS));
  }
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 0)
    return std::min<unsigned>(CPU_COUNT(&set), MAX_WORKGROUP_THREADS);
  return std::clamp(std::thread::hardware_concurrency(), 1u,
                    MAX_WORKGROUP_THREADS);
}

} // namespace

struct WorkgroupPool::Job {
  WorkgroupRange range;
  void *context;
  uint64_t count;
  /// Threads this launch may use, its caller's included.
  unsigned threads;
  /// The first workgroup no thread has claimed yet; past `count` once all
  /// are.
  std::atomic<uint64_t> next{0};
  /// Helpers inside the job, and whether it is in `jobs`: under the mutex.
  unsigned helping = 0;
  bool listed = false;

  /// Claims the next range to run: a share of what is left, so each thread
  /// takes several and none is left with a large one at the end.
  bool claim(uint64_t &begin, uint64_t &end) {
    uint64_t left =
        count - std::min(next.load(std::memory_order_relaxed), count);
    uint64_t size = std::max<uint64_t>(1, left / (2 * uint64_t(threads)));
    begin = next.fetch_add(size, std::memory_order_relaxed);
    if (begin >= count)
      return false;
    end = std::min(begin + size, count);
    return true;
  }
  /// Whether helper `index` may take part in it (only useful while some
  /// workgroup is unclaimed).
  bool wants(unsigned index) const {
    return index + 1 < threads && helping + 1 < threads &&
           next.load(std::memory_order_relaxed) < count;
  }
};

WorkgroupPool::WorkgroupPool(unsigned n)
    : threads(n ? std::min(n, MAX_WORKGROUP_THREADS) : defaultThreads()) {}

WorkgroupPool::~WorkgroupPool() {
  {
    std::lock_guard<std::mutex> lock(mutex);
    stopping = true;
  }
  wake.notify_all();
  for (std::thread &helper : helpers)
    helper.join();
}

WorkgroupPool &WorkgroupPool::process() {
  // Leaked on purpose (see the header); its helpers sleep at exit.
  static WorkgroupPool *pool = new WorkgroupPool(0);
  return *pool;
}

void WorkgroupPool::setThreads(unsigned n) {
  threads.store(n ? std::min(n, MAX_WORKGROUP_THREADS) : defaultThreads(),
                std::memory_order_relaxed);
}

void WorkgroupPool::run(uint64_t count, WorkgroupRange range, void *context) {
  unsigned n = getThreads();
  if (count <= 1 || n <= 1) {
    if (count)
      range(context, 0, count);
    return;
  }
  Job job{range, context, count, n};
  // Alone, in batches that double up to a quarter of each thread's share,
  // the clock read after each: log2 reads for a short launch, and at most
  // one batch run alone after the launch proved long.
  uint64_t start = nowNs(), batch = 1;
  uint64_t maxBatch = std::max<uint64_t>(1, count / (4 * uint64_t(n)));
  bool shared = false;
  for (uint64_t done = 0; done < count;) {
    uint64_t end = std::min(done + batch, count);
    // Nobody else claims before the job is shared.
    job.next.store(end, std::memory_order_relaxed);
    range(context, done, end);
    done = end;
    if (done == count)
      break;
    // The rest takes about as long per workgroup as the done part did.
    double rest = double(nowNs() - start) * double(count - done) / double(done);
    if (rest >= double(SHARE_ABOVE_NS)) {
      share(job);
      shared = true;
      break;
    }
    batch = std::min(batch * 2, maxBatch);
  }
  if (!shared)
    return;
  for (uint64_t begin, end; job.claim(begin, end);)
    range(context, begin, end);
  finish(job);
}

void WorkgroupPool::share(Job &job) {
  {
    std::lock_guard<std::mutex> lock(mutex);
    // Helpers start when a launch first needs them: a process whose
    // launches are all short never has any.
    while (helpers.size() + 1 < job.threads) {
      unsigned index = unsigned(helpers.size());
      helpers.emplace_back([this, index] { help(index); });
    }
    jobs.push_back(&job);
    job.listed = true;
  }
  sharedLaunches.fetch_add(1, std::memory_order_relaxed);
  wake.notify_all();
}

void WorkgroupPool::finish(Job &job) {
  // Every workgroup is claimed; wait for the helpers still running theirs.
  // Their writes are visible once they leave, through the mutex.
  std::unique_lock<std::mutex> lock(mutex);
  jobs.erase(std::find(jobs.begin(), jobs.end(), &job));
  job.listed = false;
  left.wait(lock, [&] { return job.helping == 0; });
}

void WorkgroupPool::help(unsigned index) {
  std::unique_lock<std::mutex> lock(mutex);
  for (;;) {
    Job *job = nullptr;
    wake.wait(lock, [&] {
      for (Job *candidate : jobs)
        if (candidate->wants(index)) {
          job = candidate;
          return true;
        }
      return stopping;
    });
    if (!job)
      return;
    ++job->helping;
    lock.unlock();
    for (uint64_t begin, end; job->claim(begin, end);)
      job->range(job->context, begin, end);
    lock.lock();
    if (--job->helping == 0 && !job->listed)
      left.notify_all();
  }
}

unsigned getWorkgroupThreads() { return WorkgroupPool::process().getThreads(); }

void setWorkgroupThreads(unsigned threads) {
  WorkgroupPool::process().setThreads(threads);
}

} // namespace hcq::runtime
