//===- executable.cpp - Fuzz the executable reader and the link -----------===//
//
// Any bytes: readExecutable answers with an executable or an error; what it
// accepts links against a deterministic address map (the runtime's link,
// without dlopen of whatever library a file names) or fails with an error.
// Checksums are recomputed first, so mutations reach the parser.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Runtime/Executable.h"
#include "ExecutableBytes.h"
#include "HCQ/Runtime/Link.h"

#include <cstddef>
#include <cstdint>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::vector<uint8_t> bytes(data, data + size);
  hcq::test::resealExecutable(bytes);
  auto exe = hcq::runtime::readExecutable(bytes);
  if (!exe) {
    hcq::consumeError(exe.takeError());
    return 0;
  }
  hcq::runtime::AddressMap memory(0x100000000);
  auto linked = hcq::runtime::link(*exe, memory);
  if (!linked)
    hcq::consumeError(linked.takeError());
  return 0;
}
