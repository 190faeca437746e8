//===- Validate.h - Every check of an executable and its linked plan ------===//
//
// The one place that decides whether an executable may run: what its file
// says (every index names something that exists, every record has what its
// kind reads, the format's limits) and, once linked, what its plan will
// touch (every write stays inside its value). The reader calls the first,
// the runtime the second after the link; nothing downstream checks again.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_RUNTIME_VALIDATE_H
#define HCQ_RUNTIME_VALIDATE_H

#include "HCQ/Base/Error.h"
#include "HCQ/Runtime/Executable.h"

#include <string>
#include <vector>

namespace hcq::runtime {

/// An InvalidFile error: "invalid hcq executable: <why>".
Error formatError(const std::string &why);

/// Checks the records of a file just read. A runtime indexes what passes
/// without checking again.
Error validateExecutable(const Executable &exe);

/// Checks, once `exe` is linked at `addresses` (per value, per lane), what
/// the records alone cannot say: patch groups write at the offsets their
/// offset table holds after the link, steps read the lanes their operands
/// have, host copies stay inside their buffers. A crafted or corrupt file
/// fails here with an error instead of writing out of bounds at a run.
Error validateLinkedPlan(const Executable &exe,
                         const std::vector<std::vector<uint64_t>> &addresses);

} // namespace hcq::runtime

#endif // HCQ_RUNTIME_VALIDATE_H
