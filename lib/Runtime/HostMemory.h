//===- HostMemory.h - Where the runtime's values live (internal) -*- C++
//-*-===//
//
// The runtime's Memory: host memory for CPU values and, on the emulated AMD
// device, for AMD values too; CPU kernels through dlopen; CPU twins of AMD
// programs by entry address. Internal to lib/Runtime.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_LIB_RUNTIME_HOSTMEMORY_H
#define HCQ_LIB_RUNTIME_HOSTMEMORY_H

#include "Queues.h"

#include "HCQ/Runtime/Link.h"
#include "HCQ/Runtime/Runtime.h"

namespace hcq::runtime {

class HostMemory : public Memory {
public:
  /// Every loaded AMD program's twin, by entry address.
  virtual const TwinMap &getTwins() const = 0;
};

/// The memory `exe` is linked into, under `options` (both must outlive it).
std::unique_ptr<HostMemory> makeHostMemory(const Executable &exe,
                                           const RuntimeOptions &options);

} // namespace hcq::runtime

#endif // HCQ_LIB_RUNTIME_HOSTMEMORY_H
