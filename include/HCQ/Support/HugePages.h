//===- HugePages.h - Transparent huge pages for big compiles ----*- C++ -*-===//
//
// A million-call schedule is hundreds of megabytes of MLIR ops, each a small
// allocation visited again by every pass: with 4 KiB pages the walks miss
// the TLB and every page is a fault. glibc backs its heap with transparent
// huge pages when its tunable glibc.malloc.hugetlb=1 is set (glibc 2.35 and
// later), which it reads once, when a program starts. hcq-opt and
// hcq-translate therefore run themselves again with the tunable set when
// their input is big and the system leaves huge pages to programs that ask
// for them (Linux's "madvise" mode).
// Measured in docs/embedding.md ("Register and run the pipeline");
// HCQ_HUGE_PAGES=0 turns it off.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_SUPPORT_HUGEPAGES_H
#define HCQ_SUPPORT_HUGEPAGES_H

#include "llvm/ADT/StringRef.h"

#include <cstdint>
#include <optional>
#include <string>

namespace hcq {

/// Inputs smaller than these are compiled as they are: a second start of
/// the program costs about 20 ms, more than huge pages saved at 10,000
/// calls, less than they saved at 30,000 (about 4 MiB of text; MLIR
/// bytecode is about ten times denser).
constexpr uint64_t HUGE_PAGE_TEXT_BYTES = uint64_t(4) << 20;
constexpr uint64_t HUGE_PAGE_BYTECODE_BYTES = uint64_t(512) << 10;

/// What the process runs under, as maybeRunWithHugePages reads it.
struct HugePageContext {
  /// GLIBC_TUNABLES, HCQ_HUGE_PAGES and LD_PRELOAD, if set.
  std::optional<std::string> glibcTunables, optOut, preload;
  /// /sys/kernel/mm/transparent_hugepage/enabled ("always [madvise] never").
  std::string systemMode;
  /// The input's size in bytes (0 when it is not a regular file), and
  /// whether it is MLIR bytecode.
  uint64_t inputBytes = 0;
  bool bytecode = false;
};

/// The GLIBC_TUNABLES to run again with, or none to go on as it is: none
/// when turned off (HCQ_HUGE_PAGES=0), when glibc.malloc.hugetlb is set
/// already (by the user, or by the run before this one), under valgrind
/// (its preload: a new program would leave it), when the system's mode is
/// not "madvise" ("always" gives huge pages anyway, "never" none at all)
/// and for an input under HUGE_PAGE_TEXT_BYTES (HUGE_PAGE_BYTECODE_BYTES
/// of bytecode).
std::optional<std::string> getHugePageTunables(const HugePageContext &context);

/// Runs this program again (argv as it was) with getHugePageTunables' value
/// in GLIBC_TUNABLES, if it has one and the C library reads it, for the
/// input at `inputPath` ("-" for stdin). Returns if it does not, or if the
/// new start fails (the compile then goes on without huge pages).
void maybeRunWithHugePages(char **argv, llvm::StringRef inputPath);

/// The input file a tool whose options are parsed later (as
/// mlir-translate's main parses them) was most likely given: its first
/// argument that is not an option or the output after `-o`; "-" (standard
/// input) when there is none. A guess only good enough for
/// maybeRunWithHugePages: a wrong one changes how fast, never what.
llvm::StringRef guessInputArgument(int argc, char **argv);

} // namespace hcq

#endif // HCQ_SUPPORT_HUGEPAGES_H
