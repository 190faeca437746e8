//===- HugePagesTest.cpp - When hcq-opt asks for huge pages ---------------===//

#include "HCQ/Support/HugePages.h"

#include <gtest/gtest.h>

#include <vector>

using hcq::getHugePageTunables;
using hcq::HugePageContext;
using hcq::HUGE_PAGE_BYTECODE_BYTES;
using hcq::HUGE_PAGE_TEXT_BYTES;

namespace {
HugePageContext bigInputOnMadvise() {
  HugePageContext context;
  context.systemMode = "always [madvise] never\n";
  context.inputBytes = HUGE_PAGE_TEXT_BYTES;
  return context;
}
} // namespace

// Tests that a big input on a system in "madvise" mode asks for the tunable,
// after any the user set.
TEST(HugePages, BigInputOnMadviseSystemAsksForTheTunable) {
  HugePageContext context = bigInputOnMadvise();
  EXPECT_EQ(getHugePageTunables(context), "glibc.malloc.hugetlb=1");
  context.glibcTunables = "glibc.malloc.arena_max=2";
  EXPECT_EQ(getHugePageTunables(context),
            "glibc.malloc.arena_max=2:glibc.malloc.hugetlb=1");
  context.glibcTunables = "";
  EXPECT_EQ(getHugePageTunables(context), "glibc.malloc.hugetlb=1");
}

// Tests each reason to go on as it is.
TEST(HugePages, NoSecondStartWhenItWouldNotHelpOrIsUnwanted) {
  HugePageContext small = bigInputOnMadvise();
  small.inputBytes = HUGE_PAGE_TEXT_BYTES - 1;
  EXPECT_EQ(getHugePageTunables(small), std::nullopt);
  // Bytecode is denser: as many calls in fewer bytes.
  small.bytecode = true;
  EXPECT_NE(getHugePageTunables(small), std::nullopt);
  small.inputBytes = HUGE_PAGE_BYTECODE_BYTES - 1;
  EXPECT_EQ(getHugePageTunables(small), std::nullopt);
  small.inputBytes = HUGE_PAGE_BYTECODE_BYTES;
  EXPECT_NE(getHugePageTunables(small), std::nullopt);

  // The tunable already set: the user's choice, or this is the second start.
  HugePageContext set = bigInputOnMadvise();
  set.glibcTunables = "glibc.malloc.hugetlb=0";
  EXPECT_EQ(getHugePageTunables(set), std::nullopt);

  HugePageContext off = bigInputOnMadvise();
  off.optOut = "0";
  EXPECT_EQ(getHugePageTunables(off), std::nullopt);
  off.optOut = "1";
  EXPECT_NE(getHugePageTunables(off), std::nullopt);

  HugePageContext valgrind = bigInputOnMadvise();
  valgrind.preload = "/usr/libexec/valgrind/vgpreload_core-amd64-linux.so";
  EXPECT_EQ(getHugePageTunables(valgrind), std::nullopt);

  for (const char *mode : {"[always] madvise never\n",
                           "always madvise [never]\n", ""}) {
    HugePageContext other = bigInputOnMadvise();
    other.systemMode = mode;
    EXPECT_EQ(getHugePageTunables(other), std::nullopt) << mode;
  }
}

// Tests that the input is found among options and the output.
TEST(HugePages, TheInputIsTheFirstArgumentNotAnOptionOrTheOutput) {
  auto guess = [](std::vector<const char *> args) {
    args.insert(args.begin(), "hcq-translate");
    return hcq::guessInputArgument(int(args.size()),
                                   const_cast<char **>(args.data()))
        .str();
  };
  EXPECT_EQ(guess({"--hcq-to-executable", "s.mlir", "-o", "s.hcqx"}),
            "s.mlir");
  EXPECT_EQ(guess({"-o", "s.hcqx", "--hcq-to-executable", "s.mlir"}),
            "s.mlir");
  EXPECT_EQ(guess({"--hcq-to-executable", "-o=s.hcqx", "s.mlir"}), "s.mlir");
  EXPECT_EQ(guess({"--hcq-to-executable", "-", "-o", "s.hcqx"}), "-");
  EXPECT_EQ(guess({"--hcq-to-executable", "-o", "s.hcqx"}), "-");
}
