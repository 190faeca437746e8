//===- Queue.cpp - A ring and the thread that drains it -------------------===//

#include "Queues.h"

#include <linux/futex.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace hcq::runtime {

InterruptWait::~InterruptWait() = default;

uint64_t nowNs() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000 + ts.tv_nsec;
}

namespace {
/// The queue running on this thread.
thread_local Queue *currentQueue = nullptr;

void futexWait(std::atomic<uint32_t> &word, uint32_t value) {
  syscall(SYS_futex, &word, FUTEX_WAIT_PRIVATE, value, nullptr, nullptr, 0);
}
void futexWake(std::atomic<uint32_t> &word) {
  syscall(SYS_futex, &word, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}
} // namespace

Queue::Queue(std::string name, const RingMemory &memory,
             std::chrono::milliseconds timeout,
             std::shared_ptr<QueueFlags> flags)
    : ring(memory.ring), ringBytes(memory.ringBytes),
      putPointer(word(memory.put)), wptr(word(memory.wptr)),
      rptr(word(memory.rptr)), name(std::move(name)), timeout(timeout),
      sharedFlags(std::move(flags)), flags(*sharedFlags) {}

Queue::~Queue() { assert(!thread.joinable() && "a derived queue must stop()"); }

Queue *Queue::current() { return currentQueue; }

void Queue::start(std::atomic<uint32_t> &flag) {
  sleepFlag = &flag;
  thread = std::thread([this] { loop(); });
}

namespace {
/// What a wait watches for progress: the queue's read pointer as the queue
/// reads it (a GPU compute queue's completion word, not the raw report).
struct Progress {
  const Queue &queue;
  uint64_t load(std::memory_order) const { return queue.readPointer(); }
};
} // namespace

bool Queue::waitWhileMoving(std::function<bool()> done) {
  // A stretch without progress ends either in the queue's own wait timing
  // out (it then moves on) or in something that never will.
  while (!waitUntil(done, Progress{*this}, timeout))
    if (!describeRunning().empty())
      return false;
  return true;
}

bool Queue::waitIdle() {
  // A queue that no host thread drains (a GPU's) and that was destroyed
  // touches nothing any more; a dead one never moves again.
  if (!thread.joinable() && isHalted())
    return true;
  if (isDead() && !thread.joinable())
    return idle();
  return waitWhileMoving([&] { return idle(); });
}

bool Queue::stop() {
  if (!thread.joinable())
    return true;
  stopping.store(true);
  sleepFlag->store(0);
  wakeCount.fetch_add(1, std::memory_order_relaxed);
  futexWake(*sleepFlag);
  if (!waitWhileMoving([&] { return exited.load(); })) {
    // Joining would block for as long as the work runs, maybe forever.
    thread.detach();
    return false;
  }
  thread.join();
  return true;
}

std::string Queue::nameOf(uint64_t address, std::string otherwise) const {
  return flags.names.lookup(address, std::move(otherwise));
}

Error Queue::waitForRoom(uint64_t put, uint64_t units, uint64_t capacity,
                         const char *reader) {
  if (waitUntil([&] { return put + units - readPointer() <= capacity; },
                Progress{*this}, timeout))
    return Error::success();
  return makeError(ErrorCode::DeadlineExceeded, name, ": ", reader,
                   " left no room in its ring for ", int64_t(timeout.count()),
                   " ms");
}

void Queue::publish(uint64_t put, std::atomic<uint64_t> *doorbell) {
  putPointer.store(put, std::memory_order_relaxed);
  wptr.store(put, std::memory_order_release);
  // The write pointer is visible before the doorbell rings and before a
  // sleeping thread is looked for (it looks at the write pointer after
  // announcing its sleep). A fence, not a seq_cst store: on x86 that is an
  // xchg, a locked read-modify-write, which on uncached memory (the GTT
  // write pointer, the MMIO doorbell) is a bus lock, fatal under
  // split_lock_detect=fatal. The doorbell is then a plain store, as the
  // kernel rings it after a barrier [kfd_kernel_queue.c kq_submit_packet:
  // the wptr write, then write_kernel_doorbell64].
  std::atomic_thread_fence(std::memory_order_seq_cst);
  if (doorbell)
    doorbell->store(put, std::memory_order_release);
  wakeIfSleeping();
}

bool Queue::dropIfFaulted() {
  if (!flags.fault.load(std::memory_order_acquire))
    return false;
  rptr.store(wptr.load(std::memory_order_acquire), std::memory_order_release);
  return true;
}

void Queue::wakeIfSleeping() {
  // A queue without a thread (the GPU's) has nothing to wake.
  if (sleepFlag && sleepFlag->exchange(0, std::memory_order_seq_cst) == 1) {
    wakeCount.fetch_add(1, std::memory_order_relaxed);
    futexWake(*sleepFlag);
  }
}

bool Queue::workArrivesSoon() {
  uint64_t start = nowNs();
  do {
    if (!idle() || stopping.load(std::memory_order_relaxed))
      return true;
    std::this_thread::yield();
  } while (nowNs() - start < SPIN_BEFORE_QUEUE_SLEEP_NS);
  return false;
}

void Queue::loop() {
  currentQueue = this;
  while (true) {
    // Everything ready runs before the thread sleeps.
    drain();
    if (stopping.load()) {
      exited.store(true);
      return;
    }
    if (workArrivesSoon())
      continue;
    sleepFlag->store(1, std::memory_order_seq_cst);
    if (!idle() || stopping.load()) {
      sleepFlag->store(0);
      continue;
    }
    futexWait(*sleepFlag, 1);
    sleepFlag->store(0);
  }
}

void Queue::report(const std::string &what) {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (error.empty())
    error = name + ": " + what;
  flags.error.store(true, std::memory_order_release);
}

void Queue::reportFault(const std::string &what) {
  report(what);
  dead.store(true, std::memory_order_release);
  flags.fault.store(true, std::memory_order_release);
}

void Queue::reportStopped(const std::string &what) {
  stopped.store(true, std::memory_order_release);
  reportFault(what);
}

void Queue::reportHang(uint64_t signal, uint64_t value, uint64_t current) {
  std::string name = flags.names.describe(signal);
  report("wait on signal 0x" + toHex(signal) + name + " for value " +
         std::to_string(value) + " timed out after " +
         std::to_string(timeout.count()) + " ms (it holds " +
         std::to_string(current) + ")");
}

std::string Queue::takeError() {
  std::lock_guard<std::mutex> lock(errorMutex);
  if (dead.load())
    return error;
  return std::exchange(error, std::string());
}

} // namespace hcq::runtime
