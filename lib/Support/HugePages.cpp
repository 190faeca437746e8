//===- HugePages.cpp - Transparent huge pages for big compiles ------------===//

#include "HCQ/Support/HugePages.h"

#include <cstdlib>
#include <fstream>
#include <iterator>

#include <sys/stat.h>
#include <unistd.h>

using namespace hcq;

std::optional<std::string>
hcq::getHugePageTunables(const HugePageContext &context) {
  static constexpr llvm::StringLiteral TUNABLE = "glibc.malloc.hugetlb";
  if (context.optOut && *context.optOut == "0")
    return std::nullopt;
  if (context.glibcTunables &&
      llvm::StringRef(*context.glibcTunables).contains(TUNABLE))
    return std::nullopt;
  if (context.preload && llvm::StringRef(*context.preload).contains("vgpreload"))
    return std::nullopt;
  if (!llvm::StringRef(context.systemMode).contains("[madvise]"))
    return std::nullopt;
  if (context.inputBytes < (context.bytecode ? HUGE_PAGE_BYTECODE_BYTES
                                              : HUGE_PAGE_TEXT_BYTES))
    return std::nullopt;
  std::string tunables = TUNABLE.str() + "=1";
  if (context.glibcTunables && !context.glibcTunables->empty())
    tunables = *context.glibcTunables + ":" + tunables;
  return tunables;
}

void hcq::maybeRunWithHugePages(char **argv, llvm::StringRef inputPath) {
  // glibc reads the tunable from 2.35 on; elsewhere a second start would
  // change nothing.
#if defined(__linux__) && defined(__GLIBC__) &&                                \
    (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 35))
  auto env = [](const char *name) -> std::optional<std::string> {
    if (const char *value = std::getenv(name))
      return std::string(value);
    return std::nullopt;
  };
  HugePageContext context;
  context.glibcTunables = env("GLIBC_TUNABLES");
  context.optOut = env("HCQ_HUGE_PAGES");
  context.preload = env("LD_PRELOAD");
  struct stat info;
  if (inputPath != "-" && stat(inputPath.str().c_str(), &info) == 0 &&
      S_ISREG(info.st_mode))
    context.inputBytes = static_cast<uint64_t>(info.st_size);
  // Read last: most runs are small and stop before them.
  if (context.inputBytes >= HUGE_PAGE_BYTECODE_BYTES) {
    // MLIR bytecode starts with "ML\xefR" (mlir/Bytecode/Encoding.h).
    char magic[4] = {};
    std::ifstream(inputPath.str(), std::ios::binary).read(magic, 4);
    context.bytecode = llvm::StringRef(magic, 4) == "ML\xefR";
    std::ifstream mode("/sys/kernel/mm/transparent_hugepage/enabled");
    context.systemMode.assign(std::istreambuf_iterator<char>(mode), {});
  }
  std::optional<std::string> tunables = getHugePageTunables(context);
  if (!tunables)
    return;
  if (setenv("GLIBC_TUNABLES", tunables->c_str(), /*overwrite=*/1) != 0)
    return;
  execv("/proc/self/exe", argv);
  // Not started again: go on as before, without the tunable.
  if (context.glibcTunables)
    setenv("GLIBC_TUNABLES", context.glibcTunables->c_str(), 1);
  else
    unsetenv("GLIBC_TUNABLES");
#else
  (void)argv;
  (void)inputPath;
#endif
}

llvm::StringRef hcq::guessInputArgument(int argc, char **argv) {
  for (int i = 1; i < argc; ++i) {
    llvm::StringRef arg = argv[i];
    if (arg == "-o") {
      ++i;
      continue;
    }
    if (arg == "-" || !arg.starts_with("-"))
      return arg;
  }
  return "-";
}
