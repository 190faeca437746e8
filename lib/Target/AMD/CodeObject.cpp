//===- CodeObject.cpp - AMDHSA code objects -------------------------------===//

#include "HCQ/Target/AMD/CodeObject.h"
#include "HCQ/Support/LLVMError.h"
#include "HCQ/Target/AMD/Target.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackReader.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/AMDHSAKernelDescriptor.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstring>

using namespace llvm;
using namespace llvm::object;

namespace hcq::amd {

static llvm::Error fail(const Twine &message) {
  return createStringError(inconvertibleErrorCode(), message);
}

/// The largest image a code object may describe (1 GiB): its segments and
/// sections are checked against it before anything is allocated.
constexpr uint64_t MAX_IMAGE_BYTES = uint64_t(1) << 30;
/// The most of an image that may be zeros the file does not hold (64 MiB):
/// NOBITS sections, segments' memory past their file bytes, the gaps
/// between them. Real code objects have a few pages; without a bound, a
/// few kilobytes of ELF asked for a gigabyte of zeros (found by
/// hcq-fuzz-code-object), which the executable then carries.
constexpr uint64_t MAX_ZERO_FILL_BYTES = uint64_t(64) << 20;

/// Refuses an image of `size` bytes whose segments or sections copy
/// `copied` bytes out of a file of `fileSize` when the rest, zeros, is more
/// than MAX_ZERO_FILL_BYTES. No more than the file is counted as copied:
/// segments mapping the same bytes again at other addresses would
/// otherwise make an image of many times the file.
static llvm::Error checkZeroFill(uint64_t size, uint64_t copied,
                                 uint64_t fileSize) {
  uint64_t zeros = size - std::min({size, copied, fileSize});
  if (zeros <= MAX_ZERO_FILL_BYTES)
    return llvm::Error::success();
  return fail("code object describes an image of " + Twine(size) +
              " bytes of which " + Twine(zeros) +
              " are zeros the file does not hold; at most " +
              Twine(MAX_ZERO_FILL_BYTES) + " may be");
}

/// Whether [at, at + size) lies within `limit` bytes, without overflow.
static bool fits(uint64_t at, uint64_t size, uint64_t limit) {
  return at <= limit && size <= limit - at;
}

/// Checks the section headers LLVM's object library walks with no checks of
/// its own: symbol and relocation tables must have their entry size (a zero
/// one makes the symbol iterator loop forever and the relocation count divide
/// by zero) and lie inside the file (or the library aborts the process).
static llvm::Error checkSectionTables(const ELF64LEFile &elf,
                                      uint64_t fileBytes) {
  auto sections = elf.sections();
  if (!sections)
    return fail("malformed section headers: " + toString(sections.takeError()));
  for (const auto &header : *sections) {
    uint64_t entry = 0;
    switch (header.sh_type) {
    case ELF::SHT_SYMTAB:
    case ELF::SHT_DYNSYM:
      entry = sizeof(ELF64LE::Sym);
      break;
    case ELF::SHT_REL:
      entry = sizeof(ELF64LE::Rel);
      break;
    case ELF::SHT_RELA:
      entry = sizeof(ELF64LE::Rela);
      break;
    case ELF::SHT_CREL:
      // Compact relocations: LLVM decodes them aborting on bad contents,
      // and no AMDHSA code object has them.
      return fail("compact relocations (SHT_CREL) are not supported");
    case ELF::SHT_NOBITS:
      if (header.sh_size > MAX_IMAGE_BYTES)
        return fail("a NOBITS section of " + Twine(header.sh_size) + " bytes");
      continue;
    default:
      continue;
    }
    if (header.sh_entsize != entry || header.sh_size % entry)
      return fail("a symbol or relocation table of entry size " +
                  Twine(header.sh_entsize) + " (expected " + Twine(entry) +
                  ") and " + Twine(header.sh_size) + " bytes");
    if (!fits(header.sh_offset, header.sh_size, fileBytes))
      return fail("a symbol or relocation table lies outside the file");
    // A relocation table's symbol table: LLVM aborts on a bad index.
    if ((header.sh_type == ELF::SHT_REL || header.sh_type == ELF::SHT_RELA) &&
        header.sh_link >= sections->size())
      return fail("a relocation table names section " + Twine(header.sh_link) +
                  " of " + Twine(sections->size()) + " as its symbol table");
  }
  return llvm::Error::success();
}

template <typename T> static T readLE(ArrayRef<uint8_t> image, uint64_t at) {
  return support::endian::read<T, llvm::endianness::little>(image.data() + at);
}

static llvm::Error decodeDescriptor(ArrayRef<uint8_t> image, uint64_t kd,
                                    KernelInfo &info) {
  auto bad = [&](const Twine &what) {
    return createStringError(inconvertibleErrorCode(),
                             "kernel descriptor at 0x" + Twine::utohexstr(kd) +
                                 " " + what);
  };
  using amdhsa::kernel_descriptor_t;
  if (!fits(kd, sizeof(kernel_descriptor_t), image.size()))
    return bad("lies outside the image");
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
  // kd is within the 1 GiB image, so only the entry's own value can wrap.
  int64_t entryOffset;
  if (__builtin_add_overflow(static_cast<int64_t>(kd), entry, &entryOffset) ||
      entryOffset < 0 || static_cast<uint64_t>(entryOffset) >= image.size())
    return bad("puts the kernel entry outside the image");
  if (entryOffset % 256)
    return bad("puts the kernel entry off a 256-byte boundary");
  info.entryOffset = entryOffset;
  info.wave32 =
      properties & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_WAVEFRONT_SIZE32;
  info.dispatchPtr =
      properties & amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_PTR;
  info.privateSegmentBuffer =
      properties &
      amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER;
  // The user SGPRs the encoder sets up are the scratch buffer descriptor,
  // the dispatch pointer and the kernel-argument pointer (KernelInfo); a
  // kernel expecting others would read garbage in their place.
  static constexpr std::pair<uint16_t, const char *> unsupported[] = {
      {amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_QUEUE_PTR, "queue_ptr"},
      {amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_DISPATCH_ID, "dispatch_id"},
      {amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_FLAT_SCRATCH_INIT,
       "flat_scratch_init"},
      {amdhsa::KERNEL_CODE_PROPERTY_ENABLE_SGPR_PRIVATE_SEGMENT_SIZE,
       "private_segment_size"}};
  for (auto [bit, what] : unsupported)
    if (properties & bit)
      return bad(Twine("enables the ") + what +
                 " user SGPR, which hcq does not set up (build the kernel "
                 "without it, e.g. as code object v5)");
  return llvm::Error::success();
}

namespace {
/// A streaming walk over the NT_AMDGPU_METADATA note's MessagePack that
/// reads only what hcq uses and skips the rest without recursion, so no
/// input can exhaust the stack or ask for memory in advance.
class MetadataWalk {
public:
  explicit MetadataWalk(StringRef blob)
      : reader(MemoryBufferRef(blob, "AMDGPU metadata")) {}

  llvm::Expected<msgpack::Object> next() {
    msgpack::Object object;
    llvm::Expected<bool> more = reader.read(object);
    if (!more)
      return more.takeError();
    if (!*more)
      return fail("AMDGPU metadata ends early");
    return object;
  }
  /// Skips what `object` opens (the items of an array or a map).
  llvm::Error skip(const msgpack::Object &object) {
    for (uint64_t pending = items(object); pending; --pending) {
      llvm::Expected<msgpack::Object> item = next();
      if (!item)
        return item.takeError();
      pending += items(*item);
    }
    return llvm::Error::success();
  }
  static std::optional<uint64_t> number(const msgpack::Object &object) {
    if (object.Kind == msgpack::Type::UInt)
      return object.UInt;
    if (object.Kind == msgpack::Type::Int && object.Int >= 0)
      return uint64_t(object.Int);
    return std::nullopt;
  }
  static bool isString(const msgpack::Object &object, StringRef text) {
    return object.Kind == msgpack::Type::String && object.Raw == text;
  }
  /// Reads the `count` items of an array, each handed to `visit`, which
  /// must read or skip what the item opens.
  llvm::Error
  forEachItem(uint64_t count,
              function_ref<llvm::Error(const msgpack::Object &)> visit) {
    for (uint64_t i = 0; i < count; ++i) {
      llvm::Expected<msgpack::Object> item = next();
      if (!item)
        return item.takeError();
      if (llvm::Error e = visit(*item))
        return e;
    }
    return llvm::Error::success();
  }
  /// Reads the `count` key-value pairs of a map, as forEachItem.
  llvm::Error
  forEachPair(uint64_t count,
              function_ref<llvm::Error(const msgpack::Object &key,
                                       const msgpack::Object &value)>
                  visit) {
    return forEachItem(count, [&](const msgpack::Object &key) -> llvm::Error {
      llvm::Expected<msgpack::Object> value = next();
      if (!value)
        return value.takeError();
      return visit(key, *value);
    });
  }
  /// Reads the items of `object` if it is a map, with forEachPair, and
  /// skips anything else.
  llvm::Error ifMap(const msgpack::Object &object,
                    function_ref<llvm::Error(const msgpack::Object &key,
                                             const msgpack::Object &value)>
                        visit) {
    if (object.Kind != msgpack::Type::Map)
      return skip(object);
    return forEachPair(object.Length, visit);
  }

private:
  static uint64_t items(const msgpack::Object &object) {
    if (object.Kind == msgpack::Type::Array)
      return object.Length;
    if (object.Kind == msgpack::Type::Map)
      return 2 * uint64_t(object.Length);
    return 0;
  }
  msgpack::Reader reader;
};

/// One kernel's entry: {.name, .max_flat_workgroup_size, .args: [{.offset,
/// .size, .value_kind}], ...}.
llvm::Error readKernelMetadata(MetadataWalk &walk, const msgpack::Object &entry,
                               KernelInfo &info) {
  using Object = msgpack::Object;
  std::string name;
  std::optional<uint64_t> maxFlat;
  std::vector<KernelInfo::HiddenArgument> hidden;
  std::vector<KernelInfo::BufferArgument> buffers;
  bool hiddenOutside = false;
  auto readArgument = [&](const Object &arg) -> llvm::Error {
    std::optional<uint64_t> offset, size;
    std::string kind, access;
    bool isConst = false;
    if (llvm::Error e = walk.ifMap(
            arg, [&](const Object &key, const Object &value) -> llvm::Error {
              if (MetadataWalk::isString(key, ".offset"))
                offset = MetadataWalk::number(value);
              else if (MetadataWalk::isString(key, ".size"))
                size = MetadataWalk::number(value);
              else if (MetadataWalk::isString(key, ".value_kind") &&
                       value.Kind == msgpack::Type::String)
                kind = value.Raw.str();
              else if ((MetadataWalk::isString(key, ".actual_access") ||
                        (MetadataWalk::isString(key, ".access") &&
                         access.empty())) &&
                       value.Kind == msgpack::Type::String)
                access = value.Raw.str();
              else if (MetadataWalk::isString(key, ".is_const") &&
                       value.Kind == msgpack::Type::Boolean)
                isConst = value.Bool;
              else
                return walk.skip(value);
              return llvm::Error::success();
            }))
      return e;
    if (kind == "global_buffer") {
      if (offset && size && *size == 8 && *offset <= info.kernargBytes &&
          8 <= info.kernargBytes - *offset)
        buffers.push_back(
            {uint32_t(*offset), isConst || access == "read_only"});
      return llvm::Error::success();
    }
    if (!StringRef(kind).starts_with("hidden_"))
      return llvm::Error::success();
    if (!offset || !size || *size > 8 || *offset > info.kernargBytes ||
        *size > info.kernargBytes - *offset)
      hiddenOutside = true;
    else
      hidden.push_back({kind, uint32_t(*offset), uint32_t(*size)});
    return llvm::Error::success();
  };
  if (llvm::Error e = walk.ifMap(
          entry, [&](const Object &key, const Object &value) -> llvm::Error {
            if (MetadataWalk::isString(key, ".name") &&
                value.Kind == msgpack::Type::String)
              name = value.Raw.str();
            else if (MetadataWalk::isString(key, ".max_flat_workgroup_size"))
              maxFlat = MetadataWalk::number(value);
            else if (MetadataWalk::isString(key, ".args") &&
                     value.Kind == msgpack::Type::Array)
              return walk.forEachItem(value.Length, readArgument);
            else
              return walk.skip(value);
            return llvm::Error::success();
          }))
    return e;
  if (name != info.name)
    return llvm::Error::success();
  if (hiddenOutside)
    return fail("a hidden argument of '" + name +
                "' lies outside its kernel arguments");
  if (maxFlat)
    info.maxFlatWorkgroupSize = uint32_t(std::min<uint64_t>(*maxFlat, ~0u));
  info.hiddenArguments = std::move(hidden);
  info.bufferArguments = std::move(buffers);
  return llvm::Error::success();
}

/// The kernel's entry in the NT_AMDGPU_METADATA note ({"amdhsa.kernels":
/// [...], ...}), when the code object has one.
llvm::Error readMetadataNote(StringRef blob, KernelInfo &info) {
  using Object = msgpack::Object;
  MetadataWalk walk(blob);
  llvm::Expected<Object> root = walk.next();
  if (!root)
    return root.takeError();
  if (root->Kind != msgpack::Type::Map)
    return fail("AMDGPU metadata is not a map");
  return walk.forEachPair(
      root->Length, [&](const Object &key, const Object &value) -> llvm::Error {
        if (!MetadataWalk::isString(key, "amdhsa.kernels") ||
            value.Kind != msgpack::Type::Array)
          return walk.skip(value);
        return walk.forEachItem(value.Length,
                                [&](const Object &entry) -> llvm::Error {
                                  return readKernelMetadata(walk, entry, info);
                                });
      });
}
} // namespace

/// The kernel's metadata (LLVM AMDGPUUsage "Code Object V3 to V6
/// Metadata"), from the code object's NT_AMDGPU_METADATA notes.
static llvm::Error readMetadata(const ELF64LEFile &elf, KernelInfo &info) {
  auto sections = elf.sections();
  if (!sections)
    return fail("malformed section table: " + toString(sections.takeError()));
  for (const auto &section : *sections) {
    if (section.sh_type != ELF::SHT_NOTE)
      continue;
    llvm::Error error = llvm::Error::success();
    for (const auto &note : elf.notes(section, error)) {
      if (note.getName() != "AMDGPU" ||
          note.getType() != ELF::NT_AMDGPU_METADATA)
        continue;
      // As the note iterator aligns (LLVM allows 0, 1, 4 and 8 here).
      ArrayRef<uint8_t> desc =
          note.getDesc(std::max<uint64_t>(section.sh_addralign, 4));
      if (llvm::Error e = readMetadataNote(
              StringRef(reinterpret_cast<const char *>(desc.data()),
                        desc.size()),
              info)) {
        consumeError(std::move(error));
        return fail("malformed AMDGPU metadata: " + toString(std::move(e)));
      }
    }
    if (error)
      return fail("malformed note: " + toString(std::move(error)));
  }
  return llvm::Error::success();
}

static llvm::Expected<KernelInfo> readCodeObject(StringRef bytes,
                                                 StringRef name) {
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

  if (llvm::Error e = checkSectionTables(elf, bytes.size()))
    return std::move(e);

  KernelInfo info;
  info.mach = elf.getHeader().e_flags & ELF::EF_AMDGPU_MACH;
  // Where each allocated section lies in the image, and so each symbol.
  DenseMap<const void *, uint64_t> sectionBase;
  bool relocatable = elf.getHeader().e_type == ELF::ET_REL;
  if (relocatable) {
    // An unlinked object (what a compiler hands tinygrad): lay the
    // allocated sections out in order, each at its alignment.
    uint64_t size = 0, fileBytes = 0;
    for (const SectionRef &section : object->sections()) {
      auto header = object->getSection(section.getRawDataRefImpl());
      if (!(header->sh_flags & ELF::SHF_ALLOC))
        continue;
      if (header->sh_type != ELF::SHT_NOBITS) {
        // Its bytes must be in the file before they count as copied.
        if (!fits(header->sh_offset, header->sh_size, bytes.size()))
          return fail("an allocated section lies outside the file");
        fileBytes += header->sh_size;
      }
      uint64_t align = std::max<uint64_t>(header->sh_addralign, 1);
      if (align > MAX_IMAGE_BYTES || header->sh_size > MAX_IMAGE_BYTES)
        return fail("code object has a section of a size or alignment "
                    "beyond 1 GiB");
      size = alignTo(size, align);
      sectionBase[header] = size;
      size += header->sh_size;
      if (size > MAX_IMAGE_BYTES)
        return fail("code object has no allocated section of a sane size");
    }
    if (size == 0 || size > MAX_IMAGE_BYTES)
      return fail("code object has no allocated section of a sane size");
    if (llvm::Error e = checkZeroFill(size, fileBytes, bytes.size()))
      return std::move(e);
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
    uint64_t size = 0, fileBytes = 0;
    for (const auto &ph : *segments) {
      if (ph.p_type != ELF::PT_LOAD)
        continue;
      if (!fits(ph.p_vaddr, ph.p_memsz, MAX_IMAGE_BYTES))
        return fail("code object has no loadable segment of a sane size");
      // Checked before anything is allocated: the bytes it copies are the
      // file's.
      if (!fits(ph.p_offset, ph.p_filesz, bytes.size()) ||
          ph.p_filesz > ph.p_memsz)
        return fail("PT_LOAD segment lies outside the file");
      size = std::max<uint64_t>(size, ph.p_vaddr + ph.p_memsz);
      // Each term at most the file's size, so the sum does not wrap.
      fileBytes += ph.p_filesz;
    }
    if (size == 0 || size > MAX_IMAGE_BYTES)
      return fail("code object has no loadable segment of a sane size");
    if (llvm::Error e = checkZeroFill(size, fileBytes, bytes.size()))
      return std::move(e);
    info.image.assign(size, 0);
    for (const auto &ph : *segments) {
      if (ph.p_type != ELF::PT_LOAD)
        continue;
      std::memcpy(info.image.data() + ph.p_vaddr, bytes.data() + ph.p_offset,
                  ph.p_filesz);
    }
  }
  // A symbol's place in the image.
  auto symbolAddress =
      [&](const ELFSymbolRef &symbol) -> llvm::Expected<uint64_t> {
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
      uint64_t offset = rel.getOffset();
      if (offset > MAX_IMAGE_BYTES)
        return fail("relocation at " + Twine(offset) + " is outside the image");
      uint64_t place = base + offset;
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
      if (!fits(place, width, info.image.size()))
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
  if (llvm::Error e = decodeDescriptor(info.image, kd, info))
    return fail(toString(std::move(e)));
  if (llvm::Error e = readMetadata(elf, info))
    return std::move(e);
  return info;
}

// The record's processor numbers are stated in Target.h without LLVM.
static_assert(ELF_MACH_MASK == ELF::EF_AMDGPU_MACH &&
              ELF_MACH_GFX1100 == ELF::EF_AMDGPU_MACH_AMDGCN_GFX1100 &&
              ELF_MACH_GFX1101 == ELF::EF_AMDGPU_MACH_AMDGCN_GFX1101 &&
              ELF_MACH_GFX1102 == ELF::EF_AMDGPU_MACH_AMDGCN_GFX1102 &&
              ELF_MACH_GFX942 == ELF::EF_AMDGPU_MACH_AMDGCN_GFX942);

hcq::Error decodeKernelDescriptor(Span<const uint8_t> image, uint64_t kd,
                                  KernelInfo &info) {
  return fromLLVMError(
      decodeDescriptor(ArrayRef(image.data(), image.size()), kd, info));
}

hcq::Error readLoadedMetadata(Span<const uint8_t> image, KernelInfo &info) {
  auto at = [&](uint64_t offset, uint64_t bytes) -> const uint8_t * {
    return offset <= image.size() && bytes <= image.size() - offset
               ? image.data() + offset
               : nullptr;
  };
  const auto *header =
      reinterpret_cast<const ELF::Elf64_Ehdr *>(at(0, sizeof(ELF::Elf64_Ehdr)));
  if (!header || std::memcmp(header->e_ident, ELF::ElfMagic, 4) != 0)
    return hcq::makeError(hcq::ErrorCode::InvalidFile,
                          "the loaded image starts with no ELF header");
  for (unsigned i = 0; i < header->e_phnum; ++i) {
    const auto *ph = reinterpret_cast<const ELF::Elf64_Phdr *>(
        at(header->e_phoff + uint64_t(i) * sizeof(ELF::Elf64_Phdr),
           sizeof(ELF::Elf64_Phdr)));
    if (!ph || ph->p_type != ELF::PT_NOTE)
      continue;
    // Notes: namesz, descsz, type, then the name and the description,
    // each padded to the segment's alignment (4 or 8).
    uint64_t align = ph->p_align == 8 ? 8 : 4;
    auto pad = [&](uint64_t n) { return (n + align - 1) / align * align; };
    for (uint64_t note = ph->p_vaddr; note + 12 <= ph->p_vaddr + ph->p_memsz;) {
      const uint8_t *head = at(note, 12);
      if (!head)
        break;
      uint32_t nameBytes, descBytes, type;
      std::memcpy(&nameBytes, head, 4);
      std::memcpy(&descBytes, head + 4, 4);
      std::memcpy(&type, head + 8, 4);
      uint64_t desc = note + 12 + pad(nameBytes);
      const uint8_t *name = at(note + 12, nameBytes);
      const uint8_t *body = at(desc, descBytes);
      if (!name || !body)
        break;
      if (type == ELF::NT_AMDGPU_METADATA && nameBytes >= 6 &&
          std::memcmp(name, "AMDGPU", 6) == 0)
        if (llvm::Error e = readMetadataNote(
                StringRef(reinterpret_cast<const char *>(body), descBytes),
                info))
          return fromLLVMError(
              fail("malformed AMDGPU metadata: " + toString(std::move(e))));
      note = desc + pad(descBytes);
    }
  }
  return hcq::Error::success();
}

hcq::Expected<KernelInfo> readKernel(std::string_view bytes,
                                     std::string_view name) {
  return fromLLVMExpected(readCodeObject(bytes, name));
}

} // namespace hcq::amd
