//===- CodeObject.h - AMDHSA code objects -----------------------*- C++ -*-===//
//
// Reads what the encoder needs from a kernel's AMDHSA code object: the loaded
// image with its relocations applied, and the kernel descriptor's fields.
// The records are LLVM-free (the executable file stores a kernel's
// ProgramFacts and image for the runtime); reading a code object uses LLVM's
// object library and stays on the compiler side (and in the simulated kernel
// driver).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_AMD_CODEOBJECT_H
#define HCQ_TARGET_AMD_CODEOBJECT_H

#include "HCQ/Base/Error.h"
#include "HCQ/Base/Span.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace hcq::amd {

/// What loading and running a kernel's program needs of its code object:
/// where it enters its loaded image and what its descriptor asks the
/// hardware to set up. The executable file stores these (and the image)
/// so that a runtime parses no ELF; KernelInfo, the compiler's fuller
/// reading, extends them.
struct ProgramFacts {
  /// Entry point, as a byte offset into the image (descriptor address plus
  /// kernel_code_entry_byte_offset). 256-byte aligned.
  uint64_t entryOffset = 0;
  uint32_t privateSegmentBytes = 0;  // scratch per lane
  bool dispatchPtr = false;          // SGPR pair for the dispatch packet
  bool privateSegmentBuffer = false; // SGPR quad for the scratch V#
  /// The processor it was built for: e_flags & EF_AMDGPU_MACH.
  uint32_t mach = 0;

  /// The user SGPRs the hardware loads from COMPUTE_USER_DATA, in order:
  /// the scratch buffer descriptor (4) if the kernel has a private segment
  /// buffer, the dispatch packet pointer (2) if it asks for one, then the
  /// kernel-argument pointer (2). These give each one's first index.
  unsigned dispatchPtrUserData() const { return privateSegmentBuffer ? 4 : 0; }
  unsigned kernargUserData() const {
    return dispatchPtrUserData() + (dispatchPtr ? 2 : 0);
  }
  unsigned userDataCount() const { return kernargUserData() + 2; }
};

struct KernelInfo : ProgramFacts {
  std::string name;
  /// The loaded image, with its relocations applied: a linked code object's
  /// PT_LOAD segments at their virtual addresses, or an unlinked object's
  /// allocated sections in order. The program placeholder holds it.
  std::vector<uint8_t> image;
  uint32_t groupSegmentBytes = 0; // LDS
  uint32_t kernargBytes = 0;
  uint32_t rsrc1 = 0, rsrc2 = 0, rsrc3 = 0;
  bool wave32 = false;
  /// From the code object's metadata note (NT_AMDGPU_METADATA; LLVM
  /// AMDGPUUsage "Code Object V3 to V6 Metadata"): the most work-items a
  /// workgroup may have (0 when not given), and the hidden kernel arguments
  /// the kernel reads (".value_kind: hidden_*"), in the kernarg segment.
  uint32_t maxFlatWorkgroupSize = 0;
  struct HiddenArgument {
    std::string kind; // "hidden_block_count_x"
    uint32_t offset = 0, size = 0;
  };
  std::vector<HiddenArgument> hiddenArguments;
  /// The explicit arguments that are pointers to global memory
  /// (".value_kind: global_buffer", 8 bytes), and whether the kernel only
  /// reads through them (".is_const", or ".actual_access"/".access"
  /// "read_only").
  struct BufferArgument {
    uint32_t offset = 0;
    bool readOnly = false;
  };
  std::vector<BufferArgument> bufferArguments;
};

/// Reads the kernel descriptor at byte `kd` of a loaded `image` into
/// `info`'s descriptor fields (sizes, RSRC registers, entry, user SGPRs),
/// per LLVM AMDGPUUsage "Kernel Descriptor". Refuses a descriptor outside
/// the image, an entry outside it or off 256 bytes, and one enabling user
/// SGPRs hcq does not set up. Shared by readKernel and the simulated kernel
/// driver, which finds kernels in GPU memory.
Error decodeKernelDescriptor(Span<const uint8_t> image, uint64_t kd,
                             KernelInfo &info);

/// Reads the metadata of kernel `info.name` (whose descriptor fields
/// decodeKernelDescriptor filled) from the PT_NOTE segments of a loaded
/// `image`: what the simulated kernel driver, which finds kernels in GPU
/// memory, knows of their arguments. An image without notes leaves `info`
/// as it is.
Error readLoadedMetadata(Span<const uint8_t> image, KernelInfo &info);

/// Parses `bytes` as an AMDHSA code object (64-bit little-endian ELF for
/// EM_AMDGPU, linked or relocatable) and reads kernel `name`, or the only
/// kernel when `name` is empty. Errors name what is wrong: not an ELF, not
/// AMDGPU, no or several kernels, a descriptor out of bounds, an unsupported
/// relocation.
Expected<KernelInfo> readKernel(std::string_view bytes, std::string_view name);

} // namespace hcq::amd

#endif // HCQ_TARGET_AMD_CODEOBJECT_H
