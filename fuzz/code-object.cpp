//===- code-object.cpp - Fuzz the AMDHSA code-object reader ---------------===//
//
// Any bytes: readKernel answers with kernel facts or an error; never a
// crash, a hang, an out-of-bounds access or an allocation beyond 1 GiB.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/AMD/CodeObject.h"

#include <cstddef>
#include <cstdint>
#include <string_view>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char *>(data), size);
  // Without a name (the only kernel) and with one (as the encoder asks).
  for (std::string_view name : {"", "vadd"}) {
    auto info = hcq::amd::readKernel(bytes, name);
    if (!info)
      hcq::consumeError(info.takeError());
  }
  return 0;
}
