//===- CodeObject.cpp - AMDHSA code objects -------------------------------===//

#include "HCQ/Target/AMD/CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

using namespace llvm;
using namespace llvm::object;

namespace hcq::amd {

static Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

template <typename T> static T readLE(ArrayRef<uint8_t> image, uint64_t at) {
  return support::endian::read<T, llvm::endianness::little>(image.data() + at);
}

Expected<KernelInfo> readKernel(StringRef bytes, StringRef name) {
  if (bytes.size() < 4 || !bytes.starts_with("\x7f"
                                             "ELF"))
    return fail("not an ELF file (bad magic)");
  auto object =
      ELF64LEObjectFile::create(MemoryBufferRef(bytes, "code object"));
  if (!object)
    return fail("malformed ELF: " + toString(object.takeError()));
  const ELF64LEFile &elf = object->getELFFile();
  if (elf.getHeader().e_machine != ELF::EM_AMDGPU)
    return fail("ELF is not for AMDGPU (e_machine " +
                Twine(elf.getHeader().e_machine) + ")");
  if (elf.getHeader().e_ident[ELF::EI_OSABI] != ELF::ELFOSABI_AMDGPU_HSA)
    return fail("ELF is not an AMDHSA code object (OS ABI " +
                Twine(elf.getHeader().e_ident[ELF::EI_OSABI]) + ")");

  // The loaded image: every PT_LOAD at its virtual address.
  auto segments = elf.program_headers();
  if (!segments)
    return fail("malformed program headers: " + toString(segments.takeError()));
  uint64_t imageSize = 0;
  for (const auto &ph : *segments)
    if (ph.p_type == ELF::PT_LOAD)
      imageSize = std::max<uint64_t>(imageSize, ph.p_vaddr + ph.p_memsz);
  if (imageSize == 0 || imageSize > (1u << 30))
    return fail("code object has no loadable segment of a sane size");
  KernelInfo info;
  info.image.assign(imageSize, 0);
  for (const auto &ph : *segments) {
    if (ph.p_type != ELF::PT_LOAD)
      continue;
    if (ph.p_offset + ph.p_filesz > bytes.size() || ph.p_filesz > ph.p_memsz)
      return fail("PT_LOAD segment lies outside the file");
    std::memcpy(info.image.data() + ph.p_vaddr, bytes.data() + ph.p_offset,
                ph.p_filesz);
  }

  // Relocations: R_AMDGPU_REL64 stores S + A - P, the only kind a code
  // object for a kernel carries (AMDGPU ELF ABI, LLVM AMDGPUUsage).
  for (const SectionRef &section : object->sections()) {
    for (const RelocationRef &rel : section.relocations()) {
      ELFRelocationRef elfRel(rel);
      if (elfRel.getType() != ELF::R_AMDGPU_REL64)
        return fail("unsupported AMDGPU relocation type " +
                    Twine(elfRel.getType()));
      auto addend = elfRel.getAddend();
      if (!addend)
        return fail("relocation without addend");
      uint64_t place = rel.getOffset();
      uint64_t symbol = 0;
      if (rel.getSymbol() != object->symbol_end()) {
        auto value = rel.getSymbol()->getValue();
        if (!value)
          return fail("bad relocation symbol: " + toString(value.takeError()));
        symbol = *value;
      }
      if (place + 8 > info.image.size())
        return fail("relocation at " + Twine(place) + " is outside the image");
      support::endian::write64le(info.image.data() + place,
                                 symbol + *addend - place);
    }
  }

  // The kernel descriptor: symbol "<kernel>.kd".
  std::optional<std::pair<std::string, uint64_t>> descriptor;
  for (const ELFSymbolRef &symbol : object->symbols()) {
    auto symName = symbol.getName();
    if (!symName || !symName->ends_with(".kd"))
      continue;
    StringRef kernel = symName->drop_back(3);
    if (!name.empty() && kernel != name)
      continue;
    if (descriptor && descriptor->first != kernel)
      return fail("code object holds several kernels ('" + descriptor->first +
                  "', '" + kernel + "'): name one with 'symbol'");
    auto address = symbol.getAddress();
    if (!address)
      return fail("bad descriptor symbol: " + toString(address.takeError()));
    descriptor = {kernel.str(), *address};
  }
  if (!descriptor)
    return name.empty() ? fail("code object holds no kernel descriptor")
                        : fail("code object has no kernel '" + name + "'");
  info.name = descriptor->first;
  uint64_t kd = descriptor->second;
  using amdhsa::kernel_descriptor_t;
  if (kd + sizeof(kernel_descriptor_t) > info.image.size())
    return fail("kernel descriptor lies outside the image");
  ArrayRef<uint8_t> image = info.image;
  info.groupSegmentBytes =
      readLE<uint32_t>(image, kd + amdhsa::GROUP_SEGMENT_FIXED_SIZE_OFFSET);
  info.privateSegmentBytes =
      readLE<uint32_t>(image, kd + amdhsa::PRIVATE_SEGMENT_FIXED_SIZE_OFFSET);
  info.kernargBytes = readLE<uint32_t>(image, kd + amdhsa::KERNARG_SIZE_OFFSET);
  int64_t entry =
      readLE<int64_t>(image, kd + amdhsa::KERNEL_CODE_ENTRY_BYTE_OFFSET_OFFSET);
  info.rsrc3 = readLE<uint32_t>(image, kd + amdhsa::COMPUTE_PGM_RSRC3_OFFSET);
  info.rsrc1 = readLE<uint32_t>(image, kd + amdhsa::COMPUTE_PGM_RSRC1_OFFSET);
  info.rsrc2 = readLE<uint32_t>(image, kd + amdhsa::COMPUTE_PGM_RSRC2_OFFSET);
  uint16_t properties =
      readLE<uint16_t>(image, kd + amdhsa::KERNEL_CODE_PROPERTIES_OFFSET);
  int64_t entryOffset = static_cast<int64_t>(kd) + entry;
  if (entryOffset < 0 || static_cast<uint64_t>(entryOffset) >= image.size())
    return fail("kernel entry lies outside the image");
  if (entryOffset % 256)
    return fail("kernel entry is not 256-byte aligned");
  info.entryOffset = entryOffset;
  info.wave32 =
      properties & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32;
  info.dispatchPtr =
      properties & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR;
  info.privateSegmentBuffer =
      properties &
      amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER;
  return info;
}

} // namespace hcq::amd
