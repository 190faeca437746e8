//===- CompileCacheTest.cpp - Pipeline results by content -----------------===//

#include "HCQ/Transforms/CompileCache.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/IR/MLIRContext.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;

namespace {

const char *const schedule = R"mlir(
hcq.kernel @k cpu (write f32) symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>) {
  hcq.launch @k(%a : !hcq.buffer<16xf32, CPU:0>) global [%d, 1, 1] local [1, 1, 1]
}
)mlir";

OwningOpRef<ModuleOp> parse(MLIRContext &ctx, int grid) {
  std::string text = schedule;
  text.replace(text.find("%d"), 2, std::to_string(grid));
  return parseSourceString<ModuleOp>(text, &ctx);
}

/// A context with the HCQ dialect and the targets' models, and a cache.
class CompileCache : public testing::Test {
protected:
  CompileCache() : ctx(makeRegistry()) { ctx.loadDialect<hcq::HCQDialect>(); }
  static DialectRegistry makeRegistry() {
    DialectRegistry registry;
    hcq::registerTargetInterfaces(registry);
    return registry;
  }

  MLIRContext ctx;
  hcq::CompileCache cache;
  hcq::PipelineOptions options;
};

} // namespace

TEST_F(CompileCache, CompilesEachContentOnce) {

  OwningOpRef<ModuleOp> first = parse(ctx, 4), again = parse(ctx, 4),
                        other = parse(ctx, 8);
  ASSERT_TRUE(first && again && other);
  FailureOr<ModuleOp> a = cache.compile(*first, options);
  ASSERT_TRUE(succeeded(a));
  EXPECT_FALSE(a->getOps<hcq::ExecutableOp>().empty());
  // The input is left as it was.
  EXPECT_FALSE(first->getOps<hcq::ScheduleOp>().empty());

  FailureOr<ModuleOp> b = cache.compile(*again, options);
  ASSERT_TRUE(succeeded(b));
  EXPECT_EQ(*a, *b);
  EXPECT_EQ(cache.hits(), 1u);

  FailureOr<ModuleOp> c = cache.compile(*other, options);
  ASSERT_TRUE(succeeded(c));
  EXPECT_NE(*a, *c);
  EXPECT_EQ(cache.size(), 2u);

  // Other options are another compile.
  hcq::PipelineOptions profiled;
  profiled.profile = true;
  ASSERT_TRUE(succeeded(cache.compile(*first, profiled)));
  EXPECT_EQ(cache.size(), 3u);
  EXPECT_EQ(cache.hits(), 1u);
}

TEST_F(CompileCache, KeysAreContentNotSpellingOrLocations) {
  auto compile = [&](const std::string &text) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(text, &ctx);
    EXPECT_TRUE(module);
    FailureOr<ModuleOp> result = cache.compile(*module, options);
    EXPECT_TRUE(succeeded(result));
    return succeeded(result) ? *result : ModuleOp();
  };
  // One schedule, spelled with `t` for its temporary, `operands` for the
  // launch's and `tail` after the launch. (A schedule's argument names are
  // content: the executable keeps them.)
  auto schedule = [](std::string t, std::string operands, std::string tail) {
    return "hcq.kernel @k cpu (write f32, read f32) symbol \"k\" library "
           "\"libk.so\"\n"
           "hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>) {\n"
           "  %" +
           t +
           " = hcq.alloc : !hcq.buffer<16xf32, CPU:0>\n"
           "  hcq.launch @k(" +
           operands +
           " : !hcq.buffer<16xf32, CPU:0>, "
           "!hcq.buffer<16xf32, CPU:0>) global [4, 1, 1] local [1, 1, 1]" +
           tail + "\n}\n";
  };
  std::string twoBuffers = schedule("t", "%a, %t", "");
  // Another value name, a location: the same content.
  std::string renamed = schedule("tmp", "%a, %tmp", " loc(\"model.py\":4:1)");
  // The operands swapped: another schedule.
  std::string swapped = schedule("t", "%t, %a", "");
  // A discardable attribute more: another module.
  std::string tagged = schedule("t", "%a, %t", " {note = \"x\"}");
  ModuleOp first = compile(twoBuffers);
  EXPECT_EQ(compile(renamed), first);
  EXPECT_EQ(cache.hits(), 1u);
  EXPECT_NE(compile(swapped), first);
  EXPECT_NE(compile(tagged), first);
  EXPECT_EQ(cache.size(), 3u);
}
