//===- Passes.cpp - Registration of the gpu-to-hcq passes -----------------===//

#include "HCQ/Conversion/Passes.h"

namespace hcq {
#define GEN_PASS_REGISTRATION
#include "HCQ/Conversion/Passes.h.inc"
} // namespace hcq

void hcq::registerConversionPasses() { registerHCQConversionPasses(); }
