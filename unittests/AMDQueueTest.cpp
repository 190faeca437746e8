//===- AMDQueueTest.cpp - The emulated command processor, packet by packet ===//
//
// Hand-written PM4 and SDMA packets pushed into an emulated AMD queue: what
// each packet does to memory, every compare function, fillers and NOPs, the
// SDMA ring's zeroed tail, a dispatch reaching its twin with the registers'
// values, and every packet the emulator must refuse. Then the packet
// builders (emit*) of PM4.h and SDMA.h, run by the same command processor:
// one definition of each layout, checked against its reader. The end-to-end
// tests (EmulatedAMDTest.cpp) run what the pipeline emits; these run what it
// does not emit but a command processor must still handle or reject.
//
//===----------------------------------------------------------------------===//

#include "TestRing.h"

#include "../lib/Runtime/Drivers/AMDEmulated/EmulatedAMD.h"
#include "../lib/Runtime/Drivers/CPU/CPUDriver.h"

#include "HCQ/Target/AMD/PM4.h"
#include "HCQ/Target/AMD/PacketSink.h"
#include "HCQ/Target/AMD/SDMA.h"

#include "gtest/gtest.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <mutex>
#include <thread>
#include <tuple>

using namespace hcq::runtime;
namespace pm4 = hcq::amd::pm4;
namespace sdma = hcq::amd::sdma;

namespace {

/// Waits until `queue` has executed everything pushed: false after 10 s, so
/// a lost wake-up fails the test instead of hanging it.
bool waitIdle(const Queue &queue) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!queue.idle())
    if (std::chrono::steady_clock::now() > deadline)
      return false;
    else
      std::this_thread::yield();
  return true;
}

/// A ring in host memory (filled with garbage) and the queue draining it.
class EmulatedRing {
public:
  EmulatedRing(bool isPM4, uint64_t ringBytes = 4096,
               std::chrono::milliseconds timeout = std::chrono::seconds(5))
      : ring(ringBytes, /*fill=*/0xDE) {
    queue = makeEmulatedAMDQueue(isPM4 ? "AMD:0 COMPUTE:0" : "AMD:0 COPY:0",
                                 isPM4, ring.memory(), twins, timeout, shared);
  }

  /// Pushes `words` and waits until the queue has executed them; returns
  /// the queue's error, if any.
  std::string run(const std::vector<uint32_t> &words) {
    hcq::Error e = queue->push(reinterpret_cast<const uint8_t *>(words.data()),
                               words.size() * 4);
    EXPECT_FALSE(static_cast<bool>(e)) << hcq::toString(std::move(e));
    if (!waitIdle(*queue))
      return "the queue did not drain";
    return queue->takeError();
  }

  /// Pushes an INDIRECT_BUFFER packet for `ib` (PM4 rings).
  std::string runIndirect(const std::vector<uint32_t> &ib) {
    auto address = reinterpret_cast<uint64_t>(ib.data());
    return run({pm4::packet3(pm4::INDIRECT_BUFFER, 3), uint32_t(address),
                uint32_t(address >> 32), uint32_t(ib.size()) | pm4::IB_VALID});
  }

  uint64_t readPointer() const { return ring.readPointer(); }

  /// Pushes `words` without waiting; the push's error, if any.
  std::string push(const std::vector<uint32_t> &words) {
    hcq::Error e = queue->push(reinterpret_cast<const uint8_t *>(words.data()),
                               words.size() * 4);
    return e ? hcq::toString(std::move(e)) : "";
  }
  Queue &get() { return *queue; }

  std::shared_ptr<TwinMap> twins = std::make_shared<TwinMap>();
  std::shared_ptr<QueueFlags> shared = std::make_shared<QueueFlags>();
  QueueFlags &flags = *shared;

private:
  hcq::test::HostRing ring;
  std::unique_ptr<Queue> queue;
};

uint32_t lo(const void *p) { return uint32_t(reinterpret_cast<uint64_t>(p)); }
uint32_t hi(const void *p) {
  return uint32_t(reinterpret_cast<uint64_t>(p) >> 32);
}

// RELEASE_MEM body dword 1 with DATA_SEL `sel` (no interrupt).
uint32_t dataSel(uint32_t sel) { return pm4::releaseSelect(sel, 0); }

} // namespace

TEST(EmulatedAMDQueue, ReleaseMemWritesEachDataSelect) {
  EmulatedRing q(/*isPM4=*/true);
  uint64_t words[3] = {~0ull, ~0ull, 0};
  std::vector<uint32_t> ib = {
      // DATA_SEL 1: the low 32 bits only.
      pm4::packet3(pm4::RELEASE_MEM, 7), 0, dataSel(pm4::DATA_SEL_LOW32),
      lo(&words[0]), hi(&words[0]), 0x11223344, 0x55667788, 0,
      // DATA_SEL 2: all 64.
      pm4::packet3(pm4::RELEASE_MEM, 7), 0, dataSel(pm4::DATA_SEL_64),
      lo(&words[1]), hi(&words[1]), 0x11223344, 0x55667788, 0,
      // DATA_SEL 3: the clock.
      pm4::packet3(pm4::RELEASE_MEM, 7), 0, dataSel(pm4::DATA_SEL_GPU_CLOCK),
      lo(&words[2]), hi(&words[2]), 0, 0, 0};
  uint64_t before = nowNs();
  EXPECT_EQ(q.runIndirect(ib), "");
  EXPECT_EQ(words[0], 0xFFFFFFFF11223344ull);
  EXPECT_EQ(words[1], 0x5566778811223344ull);
  EXPECT_GE(words[2], before);
  EXPECT_LE(words[2], nowNs());
}

TEST(EmulatedAMDQueue, FillersAndNopsAreSkipped) {
  EmulatedRing q(/*isPM4=*/true);
  uint32_t value = 0;
  std::vector<uint32_t> ib = {0x80000000, // type-2 filler
                              0xFFFF1000, // header-only NOP
                              pm4::packet3(pm4::NOP, 3),
                              0xAAAAAAAA,
                              0xBBBBBBBB,
                              0xCCCCCCCC,
                              pm4::packet3(pm4::RELEASE_MEM, 7),
                              0,
                              dataSel(pm4::DATA_SEL_LOW32),
                              lo(&value),
                              hi(&value),
                              7,
                              0,
                              0};
  EXPECT_EQ(q.runIndirect(ib), "");
  EXPECT_EQ(value, 7u);
}

TEST(EmulatedAMDQueue, PushesUpToTheirRoomFitAndLargerOnesAreRefusedAtOnce) {
  // PM4: the ring less its reserved dwords, one NOP packet of it.
  EmulatedRing pm4Ring(/*isPM4=*/true, /*ringBytes=*/1024);
  uint64_t maxDwords = pm4Ring.get().maxPushBytes() / 4;
  ASSERT_GE(maxDwords, 2u);
  ASSERT_LE(maxDwords, 256u);
  std::vector<uint32_t> nops(maxDwords, 0);
  nops[0] = pm4::packet3(pm4::NOP, uint32_t(maxDwords - 1));
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(pm4Ring.run(nops), "") << "push " << i;
  nops.push_back(0);
  nops[0] = pm4::packet3(pm4::NOP, uint32_t(maxDwords));
  EXPECT_NE(pm4Ring.push(nops).find("cannot push " +
                                    std::to_string(4 * (maxDwords + 1)) +
                                    " bytes into a 1024-byte ring"),
            std::string::npos);

  // SDMA: a push that would wrap starts at offset 0, skipping the tail, so
  // half the ring is the most that fits wherever the put pointer is. Zero
  // dwords are SDMA NOPs. After 768 bytes the tail is 256: the largest push
  // skips it and fits; a larger one is refused at once, where it used to
  // wait out the timeout for room that could never come.
  EmulatedRing sdmaRing(/*isPM4=*/false, /*ringBytes=*/1024,
                        std::chrono::seconds(30));
  uint64_t maxBytes = sdmaRing.get().maxPushBytes();
  EXPECT_LE(maxBytes, 512u);
  EXPECT_GE(maxBytes, 256u);
  EXPECT_EQ(sdmaRing.run(std::vector<uint32_t>(128, 0)), "");
  EXPECT_EQ(sdmaRing.run(std::vector<uint32_t>(64, 0)), "");
  EXPECT_EQ(sdmaRing.run(std::vector<uint32_t>(maxBytes / 4, 0)), "");
  auto start = std::chrono::steady_clock::now();
  EXPECT_NE(sdmaRing.push(std::vector<uint32_t>(maxBytes / 4 + 1, 0))
                .find("cannot push"),
            std::string::npos);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
}

TEST(EmulatedAMDQueue, WaitRegMemComparesWithEveryFunction) {
  // value = 5: each function either passes at once, or waits until the test
  // thread stores what satisfies it. The IB stores `reached` = 1 just before
  // the WAIT_REG_MEM and `done` = 1 just after it.
  struct Case {
    uint32_t function, ref, satisfying;
  } cases[] = {{0, 99, 5}, {1, 5, 4}, {2, 4, 4}, {3, 6, 6},
               {4, 5, 9},  {5, 6, 6}, {6, 5, 6}};
  auto waitThenDone = [](uint32_t function, uint32_t ref,
                         std::atomic<uint32_t> &value, uint32_t &reached,
                         uint32_t &done) {
    return std::vector<uint32_t>{pm4::packet3(pm4::RELEASE_MEM, 7),
                                 0,
                                 dataSel(pm4::DATA_SEL_LOW32),
                                 lo(&reached),
                                 hi(&reached),
                                 1,
                                 0,
                                 0,
                                 pm4::packet3(pm4::WAIT_REG_MEM, 6),
                                 pm4::waitFunction(function) |
                                     pm4::waitMemSpace(1),
                                 lo(&value),
                                 hi(&value),
                                 ref,
                                 0xFFFFFFFF,
                                 pm4::WAIT_POLL_INTERVAL,
                                 pm4::packet3(pm4::RELEASE_MEM, 7),
                                 0,
                                 dataSel(pm4::DATA_SEL_LOW32),
                                 lo(&done),
                                 hi(&done),
                                 1,
                                 0,
                                 0};
  };
  for (const Case &c : cases) {
    // Nobody stores: 5 satisfies no function but 0 (always), so each other
    // function must wait until the queue's wait timeout (50 ms) reports it.
    {
      EmulatedRing q(/*isPM4=*/true, 4096, std::chrono::milliseconds(50));
      std::atomic<uint32_t> value{5};
      uint32_t reached = 0, done = 0;
      std::string error =
          q.runIndirect(waitThenDone(c.function, c.ref, value, reached, done));
      if (c.function == 0)
        EXPECT_EQ(error, "");
      else
        EXPECT_NE(error.find("timed out after 50 ms (it holds 5)"),
                  std::string::npos)
            << "function " << c.function << " did not wait: " << error;
      EXPECT_EQ(done, 1u) << "function " << c.function;
    }
    // The test thread stores the satisfying value once the command
    // processor has reached the wait (it stored `reached`): the wait must
    // see the store and go on, well within the default 5 s timeout.
    EmulatedRing q(/*isPM4=*/true);
    std::atomic<uint32_t> value{5};
    uint32_t reached = 0, done = 0;
    std::thread setter([&] {
      auto &reachedWord = reinterpret_cast<std::atomic<uint32_t> &>(reached);
      auto deadline =
          std::chrono::steady_clock::now() + std::chrono::seconds(10);
      while (reachedWord.load() == 0 &&
             std::chrono::steady_clock::now() < deadline)
        std::this_thread::yield();
      EXPECT_EQ(reachedWord.load(), 1u)
          << "function " << c.function << ": the wait was not reached in 10 s";
      value.store(c.satisfying);
    });
    EXPECT_EQ(
        q.runIndirect(waitThenDone(c.function, c.ref, value, reached, done)),
        "")
        << "function " << c.function;
    setter.join();
    EXPECT_EQ(done, 1u) << "function " << c.function;
  }
}

TEST(EmulatedAMDQueue, DispatchRunsTheTwinWithTheRegisters) {
  EmulatedRing q(/*isPM4=*/true);
  // Workgroups may run on several threads at once (the workgroup pool).
  static std::mutex seenMutex;
  static std::vector<std::array<uint32_t, 9>> seen;
  static const void *kernargsSeen, *packetSeen;
  seen.clear();
  alignas(256) static uint8_t program[512];
  uint64_t entry = reinterpret_cast<uint64_t>(program) + 256;
  TwinProgram twin;
  twin.twin = [](const hcq_amd_workgroup *wg) {
    std::lock_guard<std::mutex> lock(seenMutex);
    kernargsSeen = wg->kernargs;
    packetSeen = wg->dispatch_packet;
    seen.push_back({wg->group_id[0], wg->group_id[1], wg->group_id[2],
                    wg->num_groups[0], wg->num_groups[1], wg->num_groups[2],
                    wg->local_size[0], wg->local_size[1], wg->local_size[2]});
  };
  twin.kernargUserData = 2; // after the dispatch pointer
  twin.dispatchUserData = 0;
  q.twins->add(entry, twin);
  uint64_t kernargs[4] = {}, packet[8] = {};
  namespace reg = pm4::reg;
  std::vector<uint32_t> ib = {pm4::packet3(pm4::SET_SH_REG, 3),
                              reg::COMPUTE_PGM_LO,
                              uint32_t(entry >> 8),
                              uint32_t(entry >> 40),
                              pm4::packet3(pm4::SET_SH_REG, 5),
                              reg::COMPUTE_USER_DATA_0,
                              lo(packet),
                              hi(packet),
                              lo(kernargs),
                              hi(kernargs),
                              pm4::packet3(pm4::SET_SH_REG, 4),
                              reg::COMPUTE_NUM_THREAD_X,
                              64,
                              2,
                              1,
                              pm4::packet3(pm4::DISPATCH_DIRECT, 4),
                              3,
                              2,
                              1,
                              0x8005,
                              pm4::packet3(pm4::EVENT_WRITE, 1),
                              pm4::CS_PARTIAL_FLUSH | (4 << 8)};
  EXPECT_EQ(q.runIndirect(ib), "");
  EXPECT_EQ(kernargsSeen, kernargs);
  EXPECT_EQ(packetSeen, packet);
  ASSERT_EQ(seen.size(), 6u);
  // Every workgroup once, in any order: sorted with x fastest, then y.
  std::sort(seen.begin(), seen.end(), [](const auto &a, const auto &b) {
    return std::tie(a[2], a[1], a[0]) < std::tie(b[2], b[1], b[0]);
  });
  EXPECT_EQ(seen[0], (std::array<uint32_t, 9>{0, 0, 0, 3, 2, 1, 64, 2, 1}));
  EXPECT_EQ(seen[1], (std::array<uint32_t, 9>{1, 0, 0, 3, 2, 1, 64, 2, 1}));
  EXPECT_EQ(seen[5], (std::array<uint32_t, 9>{2, 1, 0, 3, 2, 1, 64, 2, 1}));
}

TEST(EmulatedAMDQueue, SDMACopiesFencesAndStampsAcrossTheRingsEnd) {
  // A 256-byte ring: 72-byte pushes (NOP, COPY_LINEAR, FENCE, TIMESTAMP,
  // TRAP) fit three times a lap; the fourth skips a zeroed 40-byte tail and
  // starts again at offset 0 (6 times in 20 pushes).
  EmulatedRing q(/*isPM4=*/false, /*ringBytes=*/256);
  for (uint32_t round = 0; round < 20; ++round) {
    uint32_t src[5] = {round, round + 1, round + 2, round + 3, round + 4};
    uint32_t dst[5] = {};
    uint32_t fence = 0;
    uint64_t stamp = 0;
    std::vector<uint32_t> words = {
        sdma::header(sdma::OP_NOP, 0) | (1u << 16),
        0xFFFFFFFF, // NOP + 1
        sdma::header(sdma::OP_COPY, sdma::SUBOP_COPY_LINEAR),
        20 - 1,
        0,
        lo(src),
        hi(src),
        lo(dst),
        hi(dst),
        sdma::header(sdma::OP_FENCE, 0) | sdma::fenceMType(3),
        lo(&fence),
        hi(&fence),
        round + 100,
        sdma::header(sdma::OP_TIMESTAMP, sdma::SUBOP_TIMESTAMP_GET_GLOBAL),
        lo(&stamp),
        hi(&stamp),
        sdma::header(sdma::OP_TRAP, 0),
        0};
    EXPECT_EQ(q.run(words), "") << round;
    EXPECT_EQ(std::memcmp(src, dst, sizeof src), 0) << round;
    EXPECT_EQ(fence, round + 100);
    EXPECT_GT(stamp, 0u);
  }
  // The read pointer counts bytes, the skipped tails included: 72 a push
  // and the tails skipped, 40 bytes each lap (at 216, 472, ...).
  uint64_t expected = 0;
  for (int push = 0; push < 20; ++push)
    expected += (256 - expected % 256 < 72 ? 256 - expected % 256 : 0) + 72;
  EXPECT_EQ(expected, 1680u);
  EXPECT_EQ(q.readPointer(), expected);
}

TEST(PacketBuilders, PM4PacketsRunAsTheyAreDescribed) {
  EmulatedRing q(/*isPM4=*/true);
  uint64_t signal = 5, data = 0, clock = 0;
  std::vector<uint32_t> ib;
  hcq::amd::DwordSink s{ib};
  pm4::emitWaitRegisters(s, pm4::WAIT_FUNCTION_GEQ, 1, pm4::HDP_FLUSH_REQ,
                         pm4::HDP_FLUSH_DONE, 0xFFFFFFFF, 0xFFFFFFFF);
  pm4::emitAcquireMemGfx10(s, pm4::GCR_GL2_INV);
  pm4::emitAcquireMemGfx9(s, pm4::COHER_TC);
  pm4::emitWaitMemory(s, pm4::WAIT_FUNCTION_GEQ,
                      reinterpret_cast<uint64_t>(&signal), 5, 0xFFFFFFFF);
  pm4::emitEventWrite(s, pm4::CS_PARTIAL_FLUSH, pm4::EVENT_INDEX_PARTIAL_FLUSH);
  pm4::emitReleaseMem(s,
                      pm4::releaseEvent(pm4::CACHE_FLUSH_AND_INV_TS_EVENT,
                                        pm4::EVENT_INDEX_END_OF_PIPE),
                      pm4::releaseSelect(pm4::DATA_SEL_64, pm4::INT_SEL_NONE),
                      reinterpret_cast<uint64_t>(&data), 0x1122334455667788ull,
                      0u);
  pm4::emitReleaseMem(
      s, 0, pm4::releaseSelect(pm4::DATA_SEL_GPU_CLOCK, pm4::INT_SEL_NONE),
      reinterpret_cast<uint64_t>(&clock), 0u, 0u);
  EXPECT_EQ(q.runIndirect(ib), "");
  EXPECT_EQ(data, 0x1122334455667788ull);
  EXPECT_GT(clock, 0u);

  // The same dwords through an INDIRECT_BUFFER the builder made.
  data = 0;
  std::vector<uint32_t> ring;
  hcq::amd::DwordSink r{ring};
  pm4::emitIndirectBuffer(r, reinterpret_cast<uint64_t>(ib.data()),
                          uint32_t(ib.size()));
  EXPECT_EQ(ring.size(), 1 + pm4::indirect_buffer::BODY_DWORDS);
  EXPECT_EQ(q.run(ring), "");
  EXPECT_EQ(data, 0x1122334455667788ull);
}

TEST(PacketBuilders, NopsFillExactlyWhatTheyAreAskedAndAreSkipped) {
  // Every length, around the largest NOP too: the command processor skips
  // them all and then runs the store after them.
  EmulatedRing q(/*isPM4=*/true);
  for (uint32_t dwords :
       {1u, 2u, 3u, 7u, pm4::NOP_MAX_BODY_DWORDS, pm4::NOP_MAX_BODY_DWORDS + 1,
        pm4::NOP_MAX_BODY_DWORDS + 2, pm4::NOP_MAX_BODY_DWORDS + 3,
        2 * pm4::NOP_MAX_BODY_DWORDS + 2}) {
    std::vector<uint32_t> ib;
    hcq::amd::DwordSink s{ib};
    pm4::emitNop(s, dwords);
    ASSERT_EQ(ib.size(), dwords);
    uint32_t value = 0;
    pm4::emitReleaseMem(
        s, 0, pm4::releaseSelect(pm4::DATA_SEL_LOW32, pm4::INT_SEL_NONE),
        reinterpret_cast<uint64_t>(&value), dwords, 0u);
    EXPECT_EQ(q.runIndirect(ib), "") << dwords;
    EXPECT_EQ(value, dwords);
  }
}

TEST(PacketBuilders, SDMAPacketsRunAsTheyAreDescribed) {
  EmulatedRing q(/*isPM4=*/false);
  uint32_t src[7] = {1, 2, 3, 4, 5, 6, 7}, dst[7] = {};
  uint64_t signal = 9, fence = 0, stamp = 0;
  std::vector<uint32_t> words;
  hcq::amd::DwordSink s{words};
  sdma::emitPollMemory(s, pm4::WAIT_FUNCTION_GEQ,
                       reinterpret_cast<uint64_t>(&signal), 9, 0xFFFFFFFF, 4,
                       0xFFF);
  sdma::emitCopyLinear(s, sizeof src, reinterpret_cast<uint64_t>(src),
                       reinterpret_cast<uint64_t>(dst));
  sdma::emitFence(s, reinterpret_cast<uint64_t>(&fence), 0xABCD,
                  sdma::FENCE_MTYPE_UC);
  sdma::emitTimestamp(s, reinterpret_cast<uint64_t>(&stamp));
  sdma::emitTrap(s, 3u);
  EXPECT_EQ(words.size(), sdma::POLL_REGMEM_DWORDS + sdma::COPY_LINEAR_DWORDS +
                              sdma::FENCE_DWORDS + sdma::TIMESTAMP_DWORDS +
                              sdma::TRAP_DWORDS);
  EXPECT_EQ(q.run(words), "");
  EXPECT_EQ(std::memcmp(src, dst, sizeof src), 0);
  EXPECT_EQ(fence, 0xABCDu);
  EXPECT_GT(stamp, 0u);
}

TEST(EmulatedAMDQueue, StuckWaitIsReportedAndTheQueueGoesOn) {
  EmulatedRing q(/*isPM4=*/false, 4096, std::chrono::milliseconds(50));
  uint32_t never = 0, after = 0;
  std::vector<uint32_t> words = {sdma::header(sdma::OP_POLL_REGMEM, 0) |
                                     sdma::POLL_MEM | sdma::pollFunction(3),
                                 lo(&never),
                                 hi(&never),
                                 1,
                                 0xFFFFFFFF,
                                 sdma::pollIntervalRetry(4, 0xFFF),
                                 sdma::header(sdma::OP_FENCE, 0),
                                 lo(&after),
                                 hi(&after),
                                 9};
  std::string error = q.run(words);
  EXPECT_NE(error.find("AMD:0 COPY:0: wait on signal 0x"), std::string::npos)
      << error;
  EXPECT_NE(error.find("for value 1 timed out after 50 ms (it holds 0)"),
            std::string::npos)
      << error;
  EXPECT_EQ(after, 9u);
  EXPECT_FALSE(q.flags.fault.load());
}

TEST(EmulatedAMDQueue, PacketsItCannotExecuteAreFaultsNamingWhereTheyAre) {
  uint32_t word = 0;
  std::vector<uint32_t> nested = {pm4::packet3(pm4::NOP, 1), 0};
  struct Case {
    const char *what;
    std::vector<uint32_t> ib;
    const char *expected;
  } cases[] = {
      {"unknown opcode", {pm4::packet3(0xEE, 1), 0}, "unknown PM4 opcode 0xee"},
      {"type 0", {0x00001234}, "PM4 packet of type 0 (header 0x1234)"},
      {"nested indirect buffer",
       {pm4::packet3(pm4::INDIRECT_BUFFER, 3), lo(nested.data()),
        hi(nested.data()), 2 | pm4::IB_VALID},
       "INDIRECT_BUFFER at indirect buffer 0x"},
      {"past the window",
       {pm4::packet3(pm4::SET_SH_REG, 3), 0x3FF, 1, 2},
       "SET_SH_REG at indirect buffer 0x"},
      {"data select 5",
       {pm4::packet3(pm4::RELEASE_MEM, 7), 0, dataSel(5), lo(&word), hi(&word),
        0, 0, 0},
       "RELEASE_MEM at indirect buffer 0x"},
      {"another event",
       {pm4::packet3(pm4::EVENT_WRITE, 1), 0x14},
       "EVENT_WRITE of event 0x14"},
      {"a register wait",
       {pm4::packet3(pm4::WAIT_REG_MEM, 6), pm4::waitFunction(5), 0x1234, 0, 1,
        0xFFFFFFFF, 4},
       "WAIT_REG_MEM on registers 0x1234/0x0 at indirect buffer 0x"},
      {"a short body",
       {pm4::packet3(pm4::DISPATCH_DIRECT, 2), 1, 1},
       "DISPATCH_DIRECT at indirect buffer 0x"},
      {"no twin",
       {pm4::packet3(pm4::DISPATCH_DIRECT, 4), 1, 1, 1, 0},
       "of program 0x0, which is no loaded kernel with a CPU twin"},
      {"past the end",
       {pm4::packet3(pm4::SET_SH_REG, 8), 0x204, 1},
       "runs past the end of what was pushed"},
  };
  for (const Case &c : cases) {
    EmulatedRing q(/*isPM4=*/true);
    std::string error = q.runIndirect(c.ib);
    EXPECT_NE(error.find(c.expected), std::string::npos)
        << c.what << ": " << error;
    EXPECT_EQ(error.rfind("AMD:0 COMPUTE:0: ", 0), 0u) << error;
    EXPECT_TRUE(q.flags.fault.load()) << c.what;
    // The queue is dead: what is pushed next is dropped, the fault stays.
    uint32_t value = 0;
    EXPECT_EQ(q.runIndirect({pm4::packet3(pm4::RELEASE_MEM, 7), 0,
                             dataSel(pm4::DATA_SEL_LOW32), lo(&value),
                             hi(&value), 1, 0, 0}),
              error);
    EXPECT_EQ(value, 0u) << c.what;
  }
  // An INDIRECT_BUFFER without VALID, in the ring itself.
  EmulatedRing q(/*isPM4=*/true);
  EXPECT_NE(q.run({pm4::packet3(pm4::INDIRECT_BUFFER, 3), 0, 0, 4})
                .find("INDIRECT_BUFFER at ring offset 0x0 without its VALID "
                      "bit"),
            std::string::npos);
  // SDMA: an unknown opcode, a sub-op not emulated.
  EmulatedRing copy(/*isPM4=*/false);
  EXPECT_NE(copy.run({0x7F}).find("unknown SDMA opcode 127 at ring offset 0x0"),
            std::string::npos);
  EmulatedRing stamp(/*isPM4=*/false);
  EXPECT_NE(stamp.run({sdma::header(sdma::OP_TIMESTAMP, 0), 0, 0})
                .find("TIMESTAMP sub-op 0 at ring offset 0x0 (not emulated)"),
            std::string::npos);
}

TEST(QueueWakes, AtMostOneWakePerPushAndNoneLost) {
  // A CPU queue: 500 single-entry pushes, each storing its index; then one
  // push of 16 entries. Every entry runs (no lost wake-up), and the thread
  // is woken at most once per push, never once per entry.
  hcq::test::HostRing ring(64 * 64);
  std::unique_ptr<Queue> queue =
      makeCPUQueue("CPU:0 COMPUTE:0", ring.memory(), std::chrono::seconds(5),
                   std::make_shared<QueueFlags>());
  std::atomic<uint64_t> last{0};
  uint64_t signal = cpuEntryFunction(2); // cpu::HostFunction::Signal
  auto entry = [&](uint64_t value) {
    std::array<uint64_t, 8> words = {signal, reinterpret_cast<uint64_t>(&last),
                                     value};
    return words;
  };
  for (uint64_t i = 1; i <= 500; ++i) {
    auto words = entry(i);
    ASSERT_FALSE(static_cast<bool>(
        queue->push(reinterpret_cast<const uint8_t *>(words.data()), 64)));
  }
  ASSERT_TRUE(waitIdle(*queue));
  EXPECT_EQ(last.load(), 500u);
  uint64_t wakes = queue->wakes();
  EXPECT_LE(wakes, 500u);

  std::vector<std::array<uint64_t, 8>> burst;
  for (uint64_t i = 0; i < 16; ++i)
    burst.push_back(entry(1000 + i));
  ASSERT_FALSE(static_cast<bool>(
      queue->push(reinterpret_cast<const uint8_t *>(burst.data()), 16 * 64)));
  ASSERT_TRUE(waitIdle(*queue));
  EXPECT_EQ(last.load(), 1015u);
  EXPECT_LE(queue->wakes() - wakes, 1u);
}
