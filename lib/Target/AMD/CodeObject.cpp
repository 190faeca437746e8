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

  KernelInfo info;
  info.mach = elf.getHeader().e_flags & ELF::EF_AMDGPU_MACH;
  // Where each allocated section lies in the image, and so each symbol.
  DenseMap<const void *, uint64_t> sectionBase;
  bool relocatable = elf.getHeader().e_type == ELF::ET_REL;
  if (relocatable) {
    // An unlinked object (what a compiler hands tinygrad): lay the
    // allocated sections out in order, each at its alignment.
    uint64_t size = 0;
    for (const SectionRef &section : object->sections()) {
      auto header = object->getSection(section.getRawDataRefImpl());
      if (!(header->sh_flags & ELF::SHF_ALLOC))
        continue;
      size = alignTo(size, std::max<uint64_t>(header->sh_addralign, 1));
      sectionBase[header] = size;
      size += header->sh_size;
    }
    if (size == 0 || size > (1u << 30))
      return fail("code object has no allocated section of a sane size");
    info.image.assign(size, 0);
    for (const SectionRef &section : object->sections()) {
      auto header = object->getSection(section.getRawDataRefImpl());
      auto it = sectionBase.find(header);
      if (it == sectionBase.end() || header->sh_type == ELF::SHT_NOBITS)
        continue;
      auto contents = section.getContents();
      if (!contents)
        return fail("bad section: " + toString(contents.takeError()));
      std::memcpy(info.image.data() + it->second, contents->data(),
                  contents->size());
    }
  } else {
    // A linked code object: every PT_LOAD at its virtual address.
    auto segments = elf.program_headers();
    if (!segments)
      return fail("malformed program headers: " +
                  toString(segments.takeError()));
    uint64_t size = 0;
    for (const auto &ph : *segments)
      if (ph.p_type == ELF::PT_LOAD)
        size = std::max<uint64_t>(size, ph.p_vaddr + ph.p_memsz);
    if (size == 0 || size > (1u << 30))
      return fail("code object has no loadable segment of a sane size");
    info.image.assign(size, 0);
    for (const auto &ph : *segments) {
      if (ph.p_type != ELF::PT_LOAD)
        continue;
      if (ph.p_offset + ph.p_filesz > bytes.size() || ph.p_filesz > ph.p_memsz)
        return fail("PT_LOAD segment lies outside the file");
      std::memcpy(info.image.data() + ph.p_vaddr, bytes.data() + ph.p_offset,
                  ph.p_filesz);
    }
  }
  // A symbol's place in the image.
  auto symbolAddress = [&](const ELFSymbolRef &symbol) -> Expected<uint64_t> {
    auto value = symbol.getValue();
    if (!value)
      return value.takeError();
    if (!relocatable)
      return *value;
    auto section = symbol.getSection();
    if (!section)
      return section.takeError();
    if (*section == object->section_end())
      return *value;
    auto it =
        sectionBase.find(object->getSection((*section)->getRawDataRefImpl()));
    if (it == sectionBase.end())
      return fail("symbol in a section that is not loaded");
    return it->second + *value;
  };

  // Relocations, PC-relative as the AMDGPU ELF ABI defines them (LLVM
  // AMDGPUUsage, "Relocation Records"): R_AMDGPU_REL64 stores S + A - P;
  // R_AMDGPU_REL32_LO/HI its low/high 32 bits. An unlinked object's
  // kernel descriptor reaches its code through an R_AMDGPU_REL64.
  for (const SectionRef &relocSection : object->sections()) {
    auto target = relocSection.getRelocatedSection();
    if (!target)
      return fail("bad relocation section: " + toString(target.takeError()));
    if (*target == object->section_end())
      continue;
    uint64_t base = 0;
    if (relocatable) {
      auto it =
          sectionBase.find(object->getSection((*target)->getRawDataRefImpl()));
      if (it == sectionBase.end())
        continue; // relocations of sections that are not loaded
      base = it->second;
    }
    for (const RelocationRef &rel : relocSection.relocations()) {
      ELFRelocationRef elfRel(rel);
      uint64_t type = elfRel.getType();
      if (type != ELF::R_AMDGPU_REL64 && type != ELF::R_AMDGPU_REL32_LO &&
          type != ELF::R_AMDGPU_REL32_HI)
        return fail("unsupported AMDGPU relocation type " + Twine(type));
      auto addend = elfRel.getAddend();
      if (!addend)
        return fail("relocation without addend");
      uint64_t place = base + rel.getOffset();
      uint64_t symbol = 0;
      if (rel.getSymbol() != object->symbol_end()) {
        auto address = symbolAddress(ELFSymbolRef(*rel.getSymbol()));
        if (!address)
          return fail("bad relocation symbol: " +
                      toString(address.takeError()));
        symbol = *address;
      }
      uint64_t value = symbol + *addend - place;
      unsigned width = type == ELF::R_AMDGPU_REL64 ? 8 : 4;
      if (place + width > info.image.size())
        return fail("relocation at " + Twine(place) + " is outside the image");
      if (type == ELF::R_AMDGPU_REL64)
        support::endian::write64le(info.image.data() + place, value);
      else
        support::endian::write32le(info.image.data() + place,
                                   type == ELF::R_AMDGPU_REL32_LO
                                       ? static_cast<uint32_t>(value)
                                       : static_cast<uint32_t>(value >> 32));
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
    auto address = symbolAddress(symbol);
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
