//===- SharedSchedules.h - Producer, consumer and reader schedules -*- C++
//-*-===//
//
// The schedules the shared-device tests run (SharedDeviceTest.cpp on the CPU
// and emulated AMD devices, SimulatedKFDTest.cpp on the hardware AMD device).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_UNITTESTS_SHAREDSCHEDULES_H
#define HCQ_UNITTESTS_SHAREDSCHEDULES_H

#include "TestCompile.h"

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

} // namespace hcq::test

#endif // HCQ_UNITTESTS_SHAREDSCHEDULES_H
