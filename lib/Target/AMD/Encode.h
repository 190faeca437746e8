//===- Encode.h - PM4 and SDMA encoding of AMD submits ----------*- C++ -*-===//
//
// Private to the AMD target: #hcq.amd_target's model hands hcq-encode this
// encoder.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_TARGET_AMD_ENCODE_H
#define HCQ_LIB_TARGET_AMD_ENCODE_H

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Target/AMD/Target.h"

namespace hcq::amd {

/// PM4 and SDMA words for `target`; no PM4 packet straddles a multiple of
/// `indirectBufferDwords`, where hcq-lower-submit splits a command buffer
/// between INDIRECT_BUFFER packets.
std::unique_ptr<SubmitEncoder>
createSubmitEncoder(const Target &target, uint32_t indirectBufferDwords);

} // namespace hcq::amd

#endif // HCQ_LIB_TARGET_AMD_ENCODE_H
