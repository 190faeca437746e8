//===- SharedSchedules.h - What the shared-device tests run -----*- C++ -*-===//
//
// The schedules the shared-device tests run (SharedDeviceTest.cpp on the CPU
// and emulated AMD devices, SimulatedKFDTest.cpp on the hardware AMD device).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_UNITTESTS_SHAREDSCHEDULES_H
#define HCQ_UNITTESTS_SHAREDSCHEDULES_H

#include "TestCompile.h"

#include "gtest/gtest.h"

#include <atomic>
#include <thread>

namespace hcq::test {

/// The schedules of one device kind. Producer: x = 4 * a * s, through a
/// buffer of its own on a second device (t = a + a there, copied into x by
/// that device's copy queue; then x += x and x *= s on x's device).
/// Consumer: out = x + x, on a third device (x copied there first by x's
/// device). x is the shared buffer: the producer's next copy into it, from
/// another device's queue, must wait for the consumer's read of it, which
/// only x's device timeline orders (batch-deps' rule for a queue touching
/// another device's memory).
struct Schedules {
  std::string producer, consumer, reader;
  runtime::DeviceId shared;
};

/// The AMD schedules for `target`, on the test kernels' code objects: the
/// producer on AMD:1 and AMD:0, the consumer on AMD:0 and AMD:2, the reader
/// on AMD:0, all in workgroups of 64 with the element count bound.
inline Schedules amdSchedules(const std::string &target) {
  std::string path =
      std::string(HCQ_TEST_INPUTS) + "/kernels-" + target + ".co";
  std::string k =
      amdKernel(path, "vadd", "(write f32, read f32, read f32)", 1) +
      amdKernel(path, "scale", "(readwrite f32)", 1);
  return {k + R"mlir(
hcq.schedule @producer(%a: !hcq.buffer<1024xf32, AMD:1>, %x: !hcq.buffer<1024xf32, AMD:0>, %n: i32, %s: i32) {
  %t = hcq.alloc : !hcq.buffer<1024xf32, AMD:1>
  hcq.launch @vadd(%t, %a, %a : !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:1>, !hcq.buffer<1024xf32, AMD:1>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.copy %x[0, 4096], %t[0, 4096] : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:1>
  hcq.launch @vadd(%x, %x, %x : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
  hcq.launch @scale(%x : !hcq.buffer<1024xf32, AMD:0>) vars(%s : i32) global [16, 1, 1] local [64, 1, 1]
}
)mlir",
          k + R"mlir(
hcq.schedule @consumer(%x: !hcq.buffer<1024xf32, AMD:0>, %out: !hcq.buffer<1024xf32, AMD:2>, %n: i32) {
  %u = hcq.alloc : !hcq.buffer<1024xf32, AMD:2>
  hcq.copy %u[0, 4096], %x[0, 4096] : !hcq.buffer<1024xf32, AMD:2>, !hcq.buffer<1024xf32, AMD:0>
  hcq.launch @vadd(%out, %u, %u : !hcq.buffer<1024xf32, AMD:2>, !hcq.buffer<1024xf32, AMD:2>, !hcq.buffer<1024xf32, AMD:2>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
}
)mlir",
          k + R"mlir(
hcq.schedule @reader(%x: !hcq.buffer<1024xf32, AMD:0>, %out: !hcq.buffer<1024xf32, AMD:0>, %n: i32) {
  hcq.launch @vadd(%out, %x, %x : !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>, !hcq.buffer<1024xf32, AMD:0>) vars(%n : i32) global [16, 1, 1] local [64, 1, 1]
}
)mlir",
          {hcq::DeviceKind::AMD, 0}};
}

/// Submits `produce(run)` and `consume(run)` for every run from two threads
/// taking strict turns (the producer's run r, the consumer's run r, the
/// producer's run r + 1, ...), each handing its turn over as soon as it
/// submitted, without waiting for the devices: only the devices' timelines
/// order one run's reads after the other's writes. Each returns an
/// hcq::Error; one is reported as a test failure. Returns how many failed.
template <typename Produce, typename Consume>
int submitTakingTurns(int runs, Produce produce, Consume consume) {
  std::atomic<int> turn{0}, failures{0};
  auto takeTurns = [&](int parity, auto &submit) {
    for (int run = 0; run < runs; ++run) {
      while (turn.load(std::memory_order_acquire) != 2 * run + parity)
        std::this_thread::yield();
      if (hcq::Error e = submit(run)) {
        ADD_FAILURE() << "run " << run << ": " << hcq::toString(std::move(e));
        ++failures;
      }
      turn.store(2 * run + parity + 1, std::memory_order_release);
    }
  };
  std::thread producing([&] { takeTurns(0, produce); });
  std::thread consuming([&] { takeTurns(1, consume); });
  producing.join();
  consuming.join();
  return failures.load();
}

} // namespace hcq::test

#endif // HCQ_UNITTESTS_SHAREDSCHEDULES_H
