//===- EncodeTest.cpp - What hcq-encode's streams hold --------------------===//
//
// The memory hcq-encode keeps and gives back: a schedule's submits double in
// size as it goes (hcq-batch-deps), and each hcq.cmds op keeps its words and
// symbol entries until hcq-seal, so room reserved and not used is memory a
// million-call schedule holds for nothing; the calls it erases are memory
// the application may give back as it goes.
//
//===----------------------------------------------------------------------===//

#include "TestCompile.h"

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

#include <map>
#include <string>

namespace {

/// `calls` calls on AMD:0 over 16 buffers: launches of vadd, every fifth
/// call a copy (on the copy queue, which the next launch of its buffer
/// waits for).
std::string manyCalls(int calls) {
  std::string ty = "!hcq.buffer<256xf32, AMD:0>";
  std::string text =
      hcq::test::amdKernel(HCQ_TEST_INPUTS "/kernels-gfx1100.co", "vadd",
                           "(write f32, read f32, read f32)", 1) +
      "hcq.schedule @many(%n: i32) targets [#hcq.amd_target<chip = "
      "\"gfx1100\">, #hcq.cpu_target] {\n";
  for (int b = 0; b < 16; ++b)
    text += "  %b" + std::to_string(b) + " = hcq.alloc : " + ty + "\n";
  auto buffer = [](int i) { return "%b" + std::to_string(i % 16); };
  for (int i = 0; i < calls; ++i) {
    if (i % 5 == 4)
      text += "  hcq.copy " + buffer(i) + "[0, 1024], " + buffer(i + 7) +
              "[0, 1024] : " + ty + ", " + ty + "\n";
    else
      text += "  hcq.launch @vadd(" + buffer(i) + ", " + buffer(i + 3) + ", " +
              buffer(i + 11) + " : " + ty + ", " + ty + ", " + ty +
              ") vars(%n : i32) global [1, 1, 1] local [256, 1, 1]\n";
  }
  return text + "}\n";
}

/// Runs hcq-batch-deps and hcq-encode on `calls` calls of manyCalls, with
/// a release hook counting its calls into `releases`.
mlir::LogicalResult encodeManyCalls(mlir::MLIRContext &ctx, int calls,
                                    int *releases,
                                    mlir::OwningOpRef<mlir::ModuleOp> &module) {
  ctx.getOrLoadDialect<hcq::HCQDialect>()->setReleaseFreedMemory(
      [releases] { ++*releases; });
  module = mlir::parseSourceString<mlir::ModuleOp>(manyCalls(calls), &ctx);
  if (!module)
    return mlir::failure();
  mlir::PassManager pm(&ctx);
  mlir::OpPassManager &schedules = pm.nest<hcq::ScheduleOp>();
  schedules.addPass(hcq::createHCQBatchDeps());
  schedules.addPass(hcq::createHCQEncode());
  return pm.run(*module);
}

mlir::DialectRegistry targetRegistry() {
  mlir::DialectRegistry registry;
  hcq::registerTargetInterfaces(registry);
  return registry;
}

} // namespace

// Tests that hcq-encode calls the context's release hook as it erases the
// calls it encoded, once every 65,536 of them, and not at every submit.
TEST(Encode, CallsTheReleaseHookEvery65536ErasedCalls) {
  mlir::MLIRContext ctx(targetRegistry());
  mlir::OwningOpRef<mlir::ModuleOp> module;
  int releases = 0;
  // Submits of 32, 64, ... calls: many submits, fewer than 65,536 calls.
  ASSERT_TRUE(mlir::succeeded(encodeManyCalls(ctx, 6000, &releases, module)));
  EXPECT_EQ(releases, 0);
  // 140,000 calls and their waits: two releases or three.
  ASSERT_TRUE(mlir::succeeded(encodeManyCalls(ctx, 140000, &releases, module)));
  EXPECT_GE(releases, 2);
  EXPECT_LE(releases, 3);
}

// Tests that every stream hcq-encode makes holds little more room than its
// words and symbol entries take, on both queues and in the kernel
// arguments: the big submits are reserved from what the smaller ones
// before them took, neither grown by doubling (up to half unused) nor
// reserved by a guess far above what a call takes.
TEST(Encode, StreamsHoldLittleMoreThanTheyTake) {
  mlir::MLIRContext ctx(targetRegistry());
  mlir::OwningOpRef<mlir::ModuleOp> module;
  int releases = 0;
  ASSERT_TRUE(mlir::succeeded(encodeManyCalls(ctx, 6000, &releases, module)));

  // An eighth above what is used, and a little for a small stream.
  auto roomy = [](size_t capacity, size_t size) {
    return capacity > size + size / 8 + 64;
  };
  // The first submits of each kind are reserved by a guess; the big ones
  // after them, which hold most of the memory, are checked.
  std::map<hcq::PlaceholderTag, size_t> bigStreams;
  module->walk([&](hcq::CmdsOp cmds) {
    const hcq::CmdsOp::Properties &props = cmds.getProperties();
    if (props.words.size() < 4096)
      return;
    ++bigStreams[cmds.getTag()];
    std::string what = hcq::stringifyPlaceholderTag(cmds.getTag()).str() +
                       " stream of " + std::to_string(props.words.size()) +
                       " words";
    EXPECT_FALSE(roomy(props.words.capacity(), props.words.size()))
        << what << " has room for " << props.words.capacity();
    EXPECT_FALSE(roomy(props.symbols.capacity(), props.symbols.size()))
        << what << ": " << props.symbols.size() << " symbol entries, room for "
        << props.symbols.capacity();
    EXPECT_FALSE(roomy(props.segments.capacity(), props.segments.size()))
        << what << ": " << props.segments.size() << " segments, room for "
        << props.segments.capacity();
  });
  // Big streams of both queues and of the kernel arguments were checked.
  EXPECT_GE(bigStreams[hcq::PlaceholderTag::cmdbuf], 6u);
  EXPECT_GE(bigStreams[hcq::PlaceholderTag::kernargs], 2u);
}
