//===- CodeObjectTest.cpp - The code-object reader against crafted files --===//
//
// Real AMDHSA code objects (the test kernels for gfx1100, linked and
// unlinked) with one field each changed the way a hostile file would: every
// one is an error naming what is wrong, never an endless loop, an
// out-of-bounds access, a giant allocation or an abort inside LLVM's object
// library.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/AMD/CodeObject.h"

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELFTypes.h"
#include "llvm/Support/MemoryBuffer.h"

#include "gtest/gtest.h"

#include <cstring>

using namespace llvm;

namespace {

using Ehdr = object::ELF64LE::Ehdr;
using Shdr = object::ELF64LE::Shdr;
using Phdr = object::ELF64LE::Phdr;
using Sym = object::ELF64LE::Sym;
using Rela = object::ELF64LE::Rela;

std::vector<uint8_t> load(const char *name) {
  auto buffer =
      MemoryBuffer::getFile(std::string(HCQ_TEST_INPUTS) + "/" + name);
  EXPECT_TRUE(static_cast<bool>(buffer)) << name;
  if (!buffer)
    return {};
  return std::vector<uint8_t>((*buffer)->getBufferStart(),
                              (*buffer)->getBufferEnd());
}

template <typename T> T *at(std::vector<uint8_t> &bytes, uint64_t offset) {
  return reinterpret_cast<T *>(bytes.data() + offset);
}

Shdr *section(std::vector<uint8_t> &bytes, uint32_t type) {
  auto *header = at<Ehdr>(bytes, 0);
  for (unsigned i = 0; i < header->e_shnum; ++i) {
    auto *s = at<Shdr>(bytes, header->e_shoff + i * header->e_shentsize);
    if (s->sh_type == type)
      return s;
  }
  return nullptr;
}

Phdr *firstLoad(std::vector<uint8_t> &bytes) {
  auto *header = at<Ehdr>(bytes, 0);
  for (unsigned i = 0; i < header->e_phnum; ++i) {
    auto *p = at<Phdr>(bytes, header->e_phoff + i * header->e_phentsize);
    if (p->p_type == ELF::PT_LOAD)
      return p;
  }
  return nullptr;
}

/// The symbol named `name` in the symbol table.
Sym *symbol(std::vector<uint8_t> &bytes, StringRef name) {
  Shdr *symtab = section(bytes, ELF::SHT_SYMTAB);
  auto *header = at<Ehdr>(bytes, 0);
  Shdr *strtab =
      at<Shdr>(bytes, header->e_shoff + symtab->sh_link * header->e_shentsize);
  for (uint64_t off = symtab->sh_offset;
       off < symtab->sh_offset + symtab->sh_size; off += sizeof(Sym)) {
    Sym *s = at<Sym>(bytes, off);
    const char *text = reinterpret_cast<const char *>(
        bytes.data() + strtab->sh_offset + s->st_name);
    if (name == text)
      return s;
  }
  return nullptr;
}

std::string errorOf(const std::vector<uint8_t> &bytes,
                    StringRef kernel = "vadd") {
  auto info = hcq::amd::readKernel(
      StringRef(reinterpret_cast<const char *>(bytes.data()), bytes.size()),
      kernel);
  return info ? std::string() : toString(info.takeError());
}

} // namespace

TEST(CodeObject, TheTestObjectsRead) {
  EXPECT_EQ(errorOf(load("kernels-gfx1100.co")), "");
  EXPECT_EQ(errorOf(load("kernels-gfx1100.o")), "");
}

TEST(CodeObject, ASymbolTableOfEntrySizeZeroIsAnErrorNotALoop) {
  for (const char *file : {"kernels-gfx1100.co", "kernels-gfx1100.o"}) {
    std::vector<uint8_t> bytes = load(file);
    section(bytes, ELF::SHT_SYMTAB)->sh_entsize = 0;
    EXPECT_NE(errorOf(bytes).find("a symbol or relocation table of entry size "
                                  "0 (expected 24)"),
              std::string::npos)
        << file;
  }
}

TEST(CodeObject, ARelocationTableOfEntrySizeZeroOrOutsideTheFileIsAnError) {
  std::vector<uint8_t> bytes = load("kernels-gfx1100.o");
  Shdr *rela = section(bytes, ELF::SHT_RELA);
  ASSERT_NE(rela, nullptr);
  rela->sh_entsize = 0;
  EXPECT_NE(errorOf(bytes).find("entry size 0 (expected 24)"),
            std::string::npos);
  bytes = load("kernels-gfx1100.o");
  rela = section(bytes, ELF::SHT_RELA);
  rela->sh_offset = ~uint64_t(0) - 8; // offset + size wraps
  EXPECT_NE(errorOf(bytes).find("lies outside the file"), std::string::npos);
}

TEST(CodeObject, SegmentAddressesThatWrapAreErrors) {
  std::vector<uint8_t> bytes = load("kernels-gfx1100.co");
  Phdr *load = firstLoad(bytes);
  ASSERT_NE(load, nullptr);
  load->p_vaddr = ~uint64_t(0) - 16; // vaddr + memsz wraps to a small size
  EXPECT_NE(errorOf(bytes).find("no loadable segment of a sane size"),
            std::string::npos);
  bytes = ::load("kernels-gfx1100.co");
  firstLoad(bytes)->p_offset = ~uint64_t(0) - 4; // offset + filesz wraps
  EXPECT_NE(errorOf(bytes).find("PT_LOAD segment lies outside the file"),
            std::string::npos);
}

TEST(CodeObject, DescriptorAndEntryOffsetsThatWrapAreErrors) {
  std::vector<uint8_t> bytes = load("kernels-gfx1100.co");
  Sym *kd = symbol(bytes, "vadd.kd");
  ASSERT_NE(kd, nullptr);
  uint64_t descriptor = kd->st_value;
  kd->st_value = ~uint64_t(0) - 16; // kd + 64 wraps
  EXPECT_NE(errorOf(bytes).find("lies outside the image"), std::string::npos);
  // The descriptor's entry offset (bytes 16..23) made to wrap around.
  bytes = load("kernels-gfx1100.co");
  Phdr *seg = firstLoad(bytes);
  uint64_t fileOffset = descriptor - seg->p_vaddr + seg->p_offset;
  int64_t huge = INT64_MAX;
  std::memcpy(bytes.data() + fileOffset + 16, &huge, 8);
  EXPECT_NE(errorOf(bytes).find("puts the kernel entry outside the image"),
            std::string::npos);
}

TEST(CodeObject, DescriptorsAskingForUserSGPRsHcqDoesNotSetUpAreRefused) {
  // The real vadd descriptor, then each user SGPR the encoder does not load
  // (kernel_code_properties, bytes 56..57) switched on in turn.
  std::vector<uint8_t> bytes = load("kernels-gfx1100.co");
  Sym *kd = symbol(bytes, "vadd.kd");
  ASSERT_NE(kd, nullptr);
  hcq::Expected<hcq::amd::KernelInfo> info = hcq::amd::readKernel(
      llvm::StringRef(reinterpret_cast<const char *>(bytes.data()),
                      bytes.size()),
      "vadd");
  ASSERT_TRUE(static_cast<bool>(info)) << hcq::toString(info.takeError());
  std::vector<uint8_t> image = info->image;
  hcq::amd::KernelInfo decoded;
  ASSERT_FALSE(static_cast<bool>(
      hcq::amd::decodeKernelDescriptor(image, kd->st_value, decoded)));
  EXPECT_EQ(decoded.entryOffset, info->entryOffset);
  EXPECT_EQ(decoded.kernargUserData(), info->kernargUserData());
  for (auto [bit, name] : {std::pair{2, "queue_ptr"},
                           {4, "dispatch_id"},
                           {5, "flat_scratch_init"},
                           {6, "private_segment_size"}}) {
    std::vector<uint8_t> changed = image;
    changed[kd->st_value + 56] |= uint8_t(1u << bit);
    hcq::Error e =
        hcq::amd::decodeKernelDescriptor(changed, kd->st_value, decoded);
    ASSERT_TRUE(static_cast<bool>(e)) << name;
    EXPECT_NE(hcq::toString(std::move(e))
                  .find(std::string("enables the ") + name +
                        " user SGPR, which hcq does not set up"),
              std::string::npos)
        << name;
  }
}

TEST(CodeObject, RelocationOffsetsAndNobitsSizesThatWrapAreErrors) {
  std::vector<uint8_t> bytes = load("kernels-gfx1100.o");
  Shdr *rela = section(bytes, ELF::SHT_RELA);
  ASSERT_NE(rela, nullptr);
  at<Rela>(bytes, rela->sh_offset)->r_offset = ~uint64_t(0) - 2;
  EXPECT_NE(errorOf(bytes).find("is outside the image"), std::string::npos);
  // A NOBITS (.bss-like) section asking for terabytes.
  bytes = load("kernels-gfx1100.o");
  Shdr *any = section(bytes, ELF::SHT_PROGBITS);
  ASSERT_NE(any, nullptr);
  any->sh_type = ELF::SHT_NOBITS;
  any->sh_size = uint64_t(1) << 40;
  EXPECT_NE(errorOf(bytes).find("NOBITS section of 1099511627776 bytes"),
            std::string::npos);
}

// Tests that a few kilobytes of ELF cannot ask for an image of mostly zeros
// (hcq-fuzz-code-object found one asking for a gigabyte): a segment's
// memory past its file bytes, a NOBITS section, and an alignment gap, each
// of 512 MiB, are refused before anything is allocated.
TEST(CodeObject, AnImageOfMostlyZerosIsRefused) {
  const std::string zeros = "are zeros the file does not hold; at most "
                            "67108864 may be";
  std::vector<uint8_t> bytes = load("kernels-gfx1100.co");
  Phdr *segment = firstLoad(bytes);
  ASSERT_NE(segment, nullptr);
  segment->p_memsz = segment->p_filesz + (uint64_t(512) << 20);
  EXPECT_NE(errorOf(bytes).find(zeros), std::string::npos) << errorOf(bytes);

  bytes = load("kernels-gfx1100.o");
  Shdr *data = section(bytes, ELF::SHT_PROGBITS);
  ASSERT_NE(data, nullptr);
  data->sh_type = ELF::SHT_NOBITS;
  data->sh_flags |= ELF::SHF_ALLOC;
  data->sh_size = uint64_t(512) << 20;
  EXPECT_NE(errorOf(bytes).find(zeros), std::string::npos) << errorOf(bytes);

  // The last allocated section, aligned so that a gap comes before it.
  bytes = load("kernels-gfx1100.o");
  auto *header = at<Ehdr>(bytes, 0);
  Shdr *last = nullptr;
  for (unsigned i = 1; i < header->e_shnum; ++i) {
    auto *s = at<Shdr>(bytes, header->e_shoff + i * header->e_shentsize);
    if (s->sh_flags & ELF::SHF_ALLOC)
      last = s;
  }
  ASSERT_NE(last, nullptr);
  last->sh_addralign = uint64_t(512) << 20;
  EXPECT_NE(errorOf(bytes).find(zeros), std::string::npos) << errorOf(bytes);

  // Sizes that claim the zeros come from the file, which is too short to
  // hold them, are refused before anything is allocated too: a segment
  // whose file bytes are as many as its memory, and an allocated section
  // of file contents.
  bytes = load("kernels-gfx1100.co");
  segment = firstLoad(bytes);
  segment->p_memsz = uint64_t(512) << 20;
  segment->p_filesz = uint64_t(512) << 20;
  EXPECT_NE(errorOf(bytes).find("PT_LOAD segment lies outside the file"),
            std::string::npos)
      << errorOf(bytes);
  bytes = load("kernels-gfx1100.o");
  data = section(bytes, ELF::SHT_PROGBITS);
  data->sh_flags |= ELF::SHF_ALLOC;
  data->sh_size = uint64_t(512) << 20;
  EXPECT_NE(errorOf(bytes).find("an allocated section lies outside the file"),
            std::string::npos)
      << errorOf(bytes);
  // A few pages of zeros, as real code objects have, are read.
  bytes = load("kernels-gfx1100.co");
  segment = firstLoad(bytes);
  segment->p_memsz = segment->p_filesz + 4096;
  EXPECT_EQ(errorOf(bytes), "");
}

TEST(CodeObject, CompactRelocationsAreRefusedNotDecodedIntoAnAbort) {
  // Found by hcq-fuzz-code-object: a section typed SHT_CREL made LLVM's
  // object library decode its contents with cantFail, aborting the process.
  std::vector<uint8_t> bytes = load("kernels-gfx1100.co");
  Shdr *any = section(bytes, ELF::SHT_PROGBITS);
  ASSERT_NE(any, nullptr);
  any->sh_type = ELF::SHT_CREL;
  any->sh_offset = ~uint64_t(0) - 8; // contents LLVM cannot read
  EXPECT_EQ(errorOf(bytes), "compact relocations (SHT_CREL) are not supported");
}

TEST(CodeObject, ARelocationTableNamingNoSymbolTableIsAnError) {
  // Found by hcq-fuzz-code-object: a relocation section whose sh_link is
  // no section made LLVM's object library call report_fatal_error.
  std::vector<uint8_t> bytes = load("kernels-gfx1100.o");
  Shdr *rela = section(bytes, ELF::SHT_RELA);
  ASSERT_NE(rela, nullptr);
  rela->sh_link = 999;
  EXPECT_NE(errorOf(bytes).find("a relocation table names section 999 of "),
            std::string::npos);
}

TEST(CodeObject, MetadataThatCrashedTheMessagePackDocumentIsRead) {
  // hcq-fuzz-code-object's finding: a gfx1100 code object whose metadata
  // note, mutated, made llvm::msgpack::Document crash; the note is now
  // walked as a stream. Whatever it holds, the reader answers.
  auto file = MemoryBuffer::getFile(std::string(HCQ_FUZZ_CORPUS) +
                                    "/code-object/metadata-crash.co");
  ASSERT_TRUE(static_cast<bool>(file));
  hcq::Expected<hcq::amd::KernelInfo> info =
      hcq::amd::readKernel((*file)->getBuffer(), "vadd");
  if (!info)
    EXPECT_NE(hcq::toString(info.takeError()), "");
}

TEST(CodeObject, MetadataGivesMaxWorkgroupSizeAndHiddenArguments) {
  // kernels.cl: reduce is compiled for 1024 work-items, vadd for the
  // default 256; neither reads hidden arguments.
  std::vector<uint8_t> bytes = load("kernels-gfx1100.co");
  llvm::StringRef text(reinterpret_cast<const char *>(bytes.data()),
                       bytes.size());
  hcq::Expected<hcq::amd::KernelInfo> reduce =
      hcq::amd::readKernel(text, "reduce");
  ASSERT_TRUE(static_cast<bool>(reduce)) << hcq::toString(reduce.takeError());
  EXPECT_EQ(reduce->maxFlatWorkgroupSize, 1024u);
  hcq::Expected<hcq::amd::KernelInfo> vadd = hcq::amd::readKernel(text, "vadd");
  ASSERT_TRUE(static_cast<bool>(vadd)) << hcq::toString(vadd.takeError());
  EXPECT_EQ(vadd->maxFlatWorkgroupSize, 256u);
}
