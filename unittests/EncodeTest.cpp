//===- EncodeTest.cpp - What hcq-encode keeps and gives back --------------===//
//
// The memory hcq-encode keeps and gives back: a schedule's submits double in
// size as it goes (hcq-batch-deps), and each hcq.cmds op keeps its words and
// symbol entries until hcq-seal, so room reserved and not used is memory a
// million-call schedule holds for nothing; the ops it erases are memory the
// application may give back as it goes.
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

#include <atomic>
#include <map>
#include <numeric>
#include <string>

namespace {

/// `calls` calls on AMD:0 over 16 buffers: launches of vadd and copies (on
/// the copy queue, which the next launch of its buffer waits for). The
/// first `mixed` calls alternate a launch and a copy, the rest have a copy
/// every fifth call, so the compute queue's first submits hold a wait for
/// every launch and its last ones far fewer.
std::string manyCalls(int calls, int mixed = 0) {
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
    if (i < mixed ? i % 2 == 1 : i % 5 == 4)
      text += "  hcq.copy " + buffer(i) + "[0, 1024], " + buffer(i + 7) +
              "[0, 1024] : " + ty + ", " + ty + "\n";
    else
      text += "  hcq.launch @vadd(" + buffer(i) + ", " + buffer(i + 3) + ", " +
              buffer(i + 11) + " : " + ty + ", " + ty + ", " + ty +
              ") vars(%n : i32) global [1, 1, 1] local [256, 1, 1]\n";
  }
  return text + "}\n";
}

mlir::DialectRegistry targetRegistry() {
  mlir::DialectRegistry registry;
  hcq::registerTargetInterfaces(registry);
  return registry;
}

/// Parses `source` and runs hcq-batch-deps on it.
mlir::OwningOpRef<mlir::ModuleOp> batched(mlir::MLIRContext &ctx,
                                          const std::string &source) {
  ctx.getOrLoadDialect<hcq::HCQDialect>();
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(source, &ctx);
  if (!module)
    return {};
  mlir::PassManager pm(&ctx);
  pm.nest<hcq::ScheduleOp>().addPass(hcq::createHCQBatchDeps());
  if (mlir::failed(pm.run(*module)))
    return {};
  return module;
}

mlir::LogicalResult encode(mlir::ModuleOp module) {
  mlir::PassManager pm(module.getContext());
  pm.nest<hcq::ScheduleOp>().addPass(hcq::createHCQEncode());
  return pm.run(module);
}

} // namespace

// Tests that hcq-encode calls the context's release hook as it erases the
// ops it encoded, never more often than once every 65,536 of them, and
// then at least once; not at every submit.
TEST(Encode, CallsTheReleaseHookAtMostEvery65536ErasedOps) {
  mlir::MLIRContext ctx(targetRegistry());
  std::atomic<int> releases = 0;
  ctx.getOrLoadDialect<hcq::HCQDialect>()->setReleaseFreedMemory(
      [&releases] { ++releases; });
  for (int calls : {6000, 140000}) {
    mlir::OwningOpRef<mlir::ModuleOp> module = batched(ctx, manyCalls(calls));
    ASSERT_TRUE(module);
    size_t ops = 0;
    module->walk([&](hcq::SubmitOp submit) {
      ops += submit.getBody().front().getOperations().size();
    });
    releases = 0;
    ASSERT_TRUE(mlir::succeeded(encode(*module)));
    SCOPED_TRACE(std::to_string(calls) + " calls, " + std::to_string(ops) +
                 " ops in submits");
    EXPECT_LE(size_t(releases), ops / 65536);
    // The submits double: the ops of all but the last are more than 65,536
    // once the schedule holds more than twice that many.
    if (ops > 2 * 65536)
      EXPECT_GE(releases, 1);
  }
}

// Tests that every big stream hcq-encode makes holds little more room than
// its words and symbol entries take, on both queues and in the kernel
// arguments: the big submits are reserved from what the smaller ones
// before them took, launches and other ops apart, neither grown by doubling
// (up to half unused) nor reserved by a guess far above what a call takes.
// The first schedule's compute submits hold a wait for every launch at
// first and far fewer later, which a mean over all ops would under-reserve.
TEST(Encode, StreamsHoldLittleMoreThanTheyTake) {
  mlir::MLIRContext ctx(targetRegistry());
  for (auto [calls, mixed] : {std::pair{9000, 3000}, {6000, 0}}) {
    SCOPED_TRACE(std::to_string(calls) + " calls, " + std::to_string(mixed) +
                 " alternating");
    mlir::OwningOpRef<mlir::ModuleOp> module =
        batched(ctx, manyCalls(calls, mixed));
    ASSERT_TRUE(module);
    ASSERT_TRUE(mlir::succeeded(encode(*module)));

    // An eighth above what is used, and a little for a small stream.
    auto roomy = [](size_t capacity, size_t size) {
      return capacity > size + size / 8 + 64;
    };
    // The first submits of each kind are reserved by a guess; the big ones
    // after them, which hold most of the memory, are checked.
    std::map<std::string, size_t> bigStreams;
    module->walk([&](hcq::CmdsOp cmds) {
      const hcq::CmdsOp::Properties &props = cmds.getProperties();
      if (props.words.size() < 4096)
        return;
      auto submit = cmds->getParentOfType<hcq::SubmitOp>();
      std::string what =
          hcq::stringifyPlaceholderTag(cmds.getTag()).str() + " stream on " +
          std::string(hcq::stringifyQueueKind(submit.getQueue().getKind()));
      ++bigStreams[what];
      what += " of " + std::to_string(props.words.size()) + " words";
      // The kernel arguments have room for their layout in the blob, every
      // launch's segment padded, where hcq-seal pads them in place.
      size_t needed = props.words.size();
      if (cmds.getTag() == hcq::PlaceholderTag::kernargs) {
        needed = cmds.getStream().getPaddedBytes() / 4;
        EXPECT_GE(props.words.capacity(), needed)
            << what << " has no room for its " << needed << " laid out";
      }
      EXPECT_FALSE(roomy(props.words.capacity(), needed))
          << what << " has room for " << props.words.capacity();
      EXPECT_FALSE(roomy(props.symbols.capacity(), props.symbols.size()))
          << what << ": " << props.symbols.size()
          << " symbol entries, room for " << props.symbols.capacity();
      EXPECT_FALSE(roomy(props.segments.capacity(), props.segments.size()))
          << what << ": " << props.segments.size() << " segments, room for "
          << props.segments.capacity();
    });
    // Big streams of both queues and of the kernel arguments were checked.
    EXPECT_GE(bigStreams["cmdbuf stream on COMPUTE"], 3u);
    EXPECT_GE(bigStreams["cmdbuf stream on COPY"], 1u);
    EXPECT_GE(bigStreams["kernargs stream on COMPUTE"], 1u);
  }
}

// Tests that a kernel launched again after many others in the same submit
// is encoded as it was the first time: the encoder keeps what it found
// about each kernel for the submit, and keeps it where it was while its
// table of kernels grows (60 kernels, each its own copy of vadd). Reading
// freed memory shows as different words only where the memory was reused;
// under ASan (scripts/test-sanitizers.sh) or valgrind it is an error.
TEST(Encode, AKernelLaunchedAgainAfterManyOthersEncodesAsBefore) {
  mlir::MLIRContext ctx(targetRegistry());
  ctx.getOrLoadDialect<hcq::HCQDialect>();
  const std::string vadd =
      hcq::test::amdKernel(HCQ_TEST_INPUTS "/kernels-gfx1100.co", "vadd",
                           "(write f32, read f32, read f32)", 1);
  const std::string prefix = "hcq.kernel @vadd";
  ASSERT_EQ(vadd.compare(0, prefix.size(), prefix), 0);
  constexpr int KERNELS = 60;
  std::string ty = "!hcq.buffer<256xf32, AMD:0>";
  std::string text;
  for (int k = 0; k < KERNELS; ++k)
    text += prefix + std::to_string(k) + vadd.substr(prefix.size());
  text += "hcq.schedule @s(%a: " + ty + ", %n: i32) targets " +
          "[#hcq.amd_target<chip = \"gfx1100\">] {\n" +
          "  hcq.submit on AMD:0 queue COMPUTE:0 {\n";
  std::vector<int> launched(KERNELS);
  std::iota(launched.begin(), launched.end(), 0);
  launched.push_back(0);
  for (int k : launched)
    text += "    hcq.launch @vadd" + std::to_string(k) + "(%a, %a, %a : " + ty +
            ", " + ty + ", " + ty +
            ") vars(%n : i32) global [1, 1, 1] local [256, 1, 1]\n";
  text += "  }\n}\n";
  mlir::OwningOpRef<mlir::ModuleOp> module =
      mlir::parseSourceString<mlir::ModuleOp>(text, &ctx);
  ASSERT_TRUE(module);
  ASSERT_TRUE(mlir::succeeded(encode(*module)));

  hcq::CmdsOp cmdbuf;
  module->walk([&](hcq::CmdsOp cmds) {
    if (cmds.getTag() == hcq::PlaceholderTag::cmdbuf)
      cmdbuf = cmds;
  });
  ASSERT_TRUE(cmdbuf);
  const hcq::CmdsOp::Properties &props = cmdbuf.getProperties();
  size_t launches = KERNELS + 1;
  ASSERT_EQ(props.words.size() % launches, 0u);
  size_t perLaunch = props.words.size() / launches;
  llvm::ArrayRef<int32_t> words = props.words;
  // The same words (the symbolic ones are zero here), and the same program
  // named by the first and the last dispatch's first symbol entry.
  EXPECT_EQ(words.take_front(perLaunch), words.take_back(perLaunch));
  ASSERT_EQ(props.symbols.size() % launches, 0u);
  size_t entries = props.symbols.size() / launches;
  hcq::SymbolEntry first = props.symbols[0];
  hcq::SymbolEntry last = props.symbols[props.symbols.size() - entries];
  EXPECT_EQ(last.at - first.at, (launches - 1) * perLaunch);
  EXPECT_EQ(first.word.ref, last.word.ref);
  EXPECT_EQ(first.word.value, last.word.value);
}
