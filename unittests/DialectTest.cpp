//===- DialectTest.cpp - The hcq dialect through MLIR's interfaces --------===//
//
// What generic MLIR code sees of hcq ops: hcq.call is a call
// (CallOpInterface) whose callable is its submitter; hcq.launch and
// hcq.copy say what they read and write (MemoryEffectOpInterface); a
// schedule's targets are found with or without their models.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Transforms/Passes.h"
#include "HCQ/Transforms/Targets.h"

#include "mlir/AsmParser/AsmParser.h"
#include "mlir/Bytecode/BytecodeWriter.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"
#include "mlir/Pass/PassManager.h"

#include "gtest/gtest.h"

using namespace mlir;

TEST(Dialect, CallIsACallResolvingToItsSubmitter) {
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
hcq.executable @e(%x: i32) {
  hcq.call @first(%x : i32)
}
hcq.submitter @first(%y: i32) {
}
hcq.submitter @second(%z: i32) {
}
)mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  hcq::ExecutableOp exe = *module->getOps<hcq::ExecutableOp>().begin();
  hcq::CallOp call = *exe.getBody().front().getOps<hcq::CallOp>().begin();
  auto asCall = dyn_cast<CallOpInterface>(call.getOperation());
  ASSERT_TRUE(asCall);
  EXPECT_EQ(asCall.getArgOperands().size(), 1u);
  SymbolTableCollection symbols;
  Operation *callee = asCall.resolveCallableInTable(&symbols);
  ASSERT_TRUE(callee);
  EXPECT_EQ(cast<SymbolOpInterface>(callee).getName(), "first");
  EXPECT_TRUE(isa<CallableOpInterface>(callee));
  // Retargeting through the interface changes the op's callee.
  asCall.setCalleeFromCallable(FlatSymbolRefAttr::get(&ctx, "second"));
  EXPECT_EQ(call.getCallee(), "second");
}

namespace {
/// The effects `op` declares, as "read 0, write 1": the effect and the
/// operand number, or the resource's name for an effect on no operand, in
/// order.
std::string describeEffects(Operation *op) {
  auto iface = dyn_cast<MemoryEffectOpInterface>(op);
  if (!iface)
    return "none declared";
  SmallVector<MemoryEffects::EffectInstance> effects;
  iface.getEffects(effects);
  std::string result;
  for (const MemoryEffects::EffectInstance &effect : effects) {
    if (!result.empty())
      result += ", ";
    result += isa<MemoryEffects::Read>(effect.getEffect())    ? "read "
              : isa<MemoryEffects::Write>(effect.getEffect()) ? "write "
                                                              : "other ";
    OpOperand *operand = effect.getEffectValue<OpOperand *>();
    result += operand ? std::to_string(operand->getOperandNumber())
                      : effect.getResource()->getName().str();
  }
  return result;
}
} // namespace

TEST(Dialect, CallsDeclareTheirMemoryEffects) {
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(
      R"mlir(
!t = !hcq.buffer<64xf32, CPU:0>
hcq.kernel @vadd cpu (write f32, read f32, readwrite f32)
    symbol "hcq_vadd" library "libhcqtestkernels.so"
hcq.schedule @s(%a: !t, %b: !t, %c: !t, %n: i32) {
  hcq.launch @vadd(%c, %a, %b : !t, !t, !t) global [64, 1, 1] local [1, 1, 1]
  hcq.launch @missing(%a, %b : !t, !t) vars(%n : i32)
      global [64, 1, 1] local [1, 1, 1]
  hcq.copy %a[0, 16], %b[16, 16] : !t, !t
}
)mlir",
      // The second launch names no kernel, which the verifier refuses.
      ParserConfig(&ctx, /*verifyAfterParse=*/false));
  ASSERT_TRUE(module);
  auto schedule = *module->getOps<hcq::ScheduleOp>().begin();
  SmallVector<Operation *> calls;
  for (Operation &op : schedule.getBody().front())
    calls.push_back(&op);
  ASSERT_EQ(calls.size(), 3u);
  // A launch as its kernel's signature says; both ways on each buffer (and
  // none on its scalars) when the kernel cannot be found. Each call also
  // writes its queue's timeline.
  EXPECT_EQ(describeEffects(calls[0]),
            "write 0, read 1, read 2, write 2, write hcq.queue");
  EXPECT_EQ(describeEffects(calls[1]),
            "read 0, write 0, read 1, write 1, write hcq.queue");
  // A copy reads its source (operand 1) and writes its destination.
  EXPECT_EQ(describeEffects(calls[2]), "read 1, write 0, write hcq.queue");
  for (Operation *call : calls)
    EXPECT_FALSE(isMemoryEffectFree(call));
}

namespace {
/// Runs hcq-encode on a schedule naming its targets, in a context with or
/// without the target models; the first error, if any.
std::string encodeWith(bool registerModels) {
  DialectRegistry registry;
  if (registerModels)
    hcq::registerTargetInterfaces(registry);
  MLIRContext ctx(registry);
  ctx.loadDialect<hcq::HCQDialect>();
  std::string error;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
    if (error.empty())
      error = d.str();
    return success();
  });
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
hcq.schedule @s() targets [#hcq.cpu_target] {
  %sig = hcq.placeholder signal slot 1 volatile : !hcq.buffer<1xi64, CPU:0>
  hcq.submit on CPU:0 queue COMPUTE:0 {
    hcq.store %sig = 1 : !hcq.buffer<1xi64, CPU:0>
  }
}
)mlir",
                                                             &ctx);
  EXPECT_TRUE(module);
  PassManager pm(&ctx);
  pm.nest<hcq::ScheduleOp>().addPass(hcq::createHCQEncode());
  bool ok = succeeded(pm.run(*module));
  EXPECT_EQ(ok, error.empty()) << error;
  return error;
}
} // namespace

TEST(Dialect, TargetsEncodeThroughTheirRegisteredModels) {
  // The attribute names the target; what it does is registered apart, so a
  // context without the models is told how to get them, not crashed.
  EXPECT_EQ(encodeWith(/*registerModels=*/true), "");
  EXPECT_EQ(encodeWith(/*registerModels=*/false),
            "'hcq.submit' op has target #hcq.cpu_target but its interface is "
            "not registered: call hcq::registerTargetInterfaces on the "
            "context's registry");
}

TEST(Dialect, TargetModelsArePromisedAndKindsNeedNone) {
  // The dialect promises the targets' models, so that a use without them
  // is a missing registration rather than no target; registering them
  // resolves the promise. The device kind of a target, which the
  // verifier and getTargetAttr ask for, needs no model.
  for (bool registerModels : {false, true}) {
    DialectRegistry registry;
    if (registerModels)
      hcq::registerTargetInterfaces(registry);
    MLIRContext ctx(registry);
    auto *dialect = ctx.getOrLoadDialect<hcq::HCQDialect>();
    EXPECT_EQ((dialect->hasPromisedInterface<hcq::AMDTargetAttr,
                                             hcq::TargetAttrInterface>()),
              !registerModels);
    EXPECT_EQ((dialect->hasPromisedInterface<hcq::CPUTargetAttr,
                                             hcq::TargetAttrInterface>()),
              !registerModels);

    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
hcq.schedule @s(%n: i32) targets [#hcq.amd_target<chip = "gfx942">, #hcq.cpu_target] {
  hcq.host_call "h"(%n : i32)
}
)mlir",
                                                               &ctx);
    ASSERT_TRUE(module);
    auto schedule = *module->getOps<hcq::ScheduleOp>().begin();
    Operation *call = &schedule.getBody().front().front();
    auto amd = dyn_cast_or_null<hcq::AMDTargetAttr>(
        hcq::getTargetAttr(call, hcq::DeviceKind::AMD));
    ASSERT_TRUE(amd);
    EXPECT_EQ(amd.getChip(), "gfx942");
    EXPECT_TRUE(isa_and_nonnull<hcq::CPUTargetAttr>(
        schedule.getTarget(hcq::DeviceKind::CPU)));
    EXPECT_FALSE(hcq::getTargetAttr(call, hcq::DeviceKind::CUDA));
  }
}

TEST(Dialect, BufferElementBytesForEveryElementType) {
  // The common floats take a shortcut past FloatType's interface; every
  // type must still give its width in bytes.
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  auto bytesOf = [&](StringRef element) {
    std::string text = ("!hcq.buffer<4x" + element + ", CPU:0>").str();
    auto type = dyn_cast_or_null<hcq::BufferType>(parseType(text, &ctx));
    EXPECT_TRUE(type) << text;
    return type ? type.getElementBytes() : -1;
  };
  EXPECT_EQ(bytesOf("i8"), 1);
  EXPECT_EQ(bytesOf("i16"), 2);
  EXPECT_EQ(bytesOf("i32"), 4);
  EXPECT_EQ(bytesOf("i64"), 8);
  EXPECT_EQ(bytesOf("f16"), 2);
  EXPECT_EQ(bytesOf("bf16"), 2);
  EXPECT_EQ(bytesOf("f32"), 4);
  EXPECT_EQ(bytesOf("f64"), 8);
  EXPECT_EQ(bytesOf("f8E4M3FN"), 1);
}

TEST(Dialect, TypesParsedFromTheSameTextAreTheSameUnlessTheyNameAnAlias) {
  // HCQDialect::parseType keeps each type by its text; a text naming an
  // alias means what the file it is in defines, so it is parsed anew.
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  auto bufferIn = [&](StringRef source) {
    OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
    EXPECT_TRUE(module) << source.str();
    if (!module)
      return hcq::BufferType();
    auto exe = *module->getOps<hcq::ExecutableOp>().begin();
    return cast<hcq::BufferType>(
        exe.getBody().front().getArgument(0).getType());
  };
  hcq::BufferType first =
      bufferIn("hcq.executable @e(%x: !hcq.buffer<4xf32, CPU:0>) {}");
  hcq::BufferType again =
      bufferIn("hcq.executable @e(%x: !hcq.buffer<4xf32, CPU:0>) {}");
  EXPECT_EQ(first, again);
  EXPECT_EQ(first.getNumElements(), 4);
  hcq::BufferType wide =
      bufferIn("!e = i64\nhcq.executable @e(%x: !hcq.buffer<4x!e, CPU:0>) {}");
  hcq::BufferType narrow =
      bufferIn("!e = i8\nhcq.executable @e(%x: !hcq.buffer<4x!e, CPU:0>) {}");
  ASSERT_TRUE(wide && narrow);
  EXPECT_EQ(wide.getElementBytes(), 8);
  EXPECT_EQ(narrow.getElementBytes(), 1);

  // A text that did not parse is refused every time, with its diagnostic.
  for (int attempt = 0; attempt < 2; ++attempt) {
    std::string message;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
      message = diag.str();
      return success();
    });
    EXPECT_FALSE(parseType("!hcq.buffer<0xf32, CPU:0>", &ctx));
    EXPECT_NE(message.find("positive element count"), std::string::npos)
        << message;
  }
}

TEST(Dialect, BytecodeOfAnotherHcqVersionIsRefusedByName) {
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  const char *source = R"mlir(
hcq.executable @e() {
  %p = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<8xi8, AMD:0>
  hcq.blob %p = [0xc0053c00, 0x1] : !hcq.buffer<8xi8, AMD:0>
}
)mlir";
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(source, &ctx);
  ASSERT_TRUE(module);
  auto write = [&](std::optional<uint64_t> version) {
    std::string bytes;
    llvm::raw_string_ostream os(bytes);
    BytecodeWriterConfig config;
    if (version)
      config.setDialectVersion<hcq::HCQDialect>(
          std::make_unique<hcq::BytecodeVersion>(*version));
    EXPECT_TRUE(succeeded(writeBytecodeToFile(*module, os, config)));
    return bytes;
  };
  auto read = [&](const std::string &bytes) {
    std::string error;
    ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &d) {
      if (error.empty())
        error = d.str();
      return success();
    });
    OwningOpRef<ModuleOp> again = parseSourceString<ModuleOp>(bytes, &ctx);
    return again ? std::string("read") : error;
  };
  EXPECT_EQ(read(write(std::nullopt)), "read");
  EXPECT_EQ(read(write(hcq::BYTECODE_VERSION)), "read");
  EXPECT_EQ(read(write(hcq::BYTECODE_VERSION + 1)),
            "hcq bytecode version " +
                std::to_string(hcq::BYTECODE_VERSION + 1) +
                ": this hcq reads version " +
                std::to_string(hcq::BYTECODE_VERSION) + " only");
}

// Tests that a symbols table gives back every field of every entry it was
// given, the entries kept in its packed form and those that do not fit it,
// and that two tables of the same entries are equal and hash alike however
// they were written.
TEST(Dialect, SymbolEntriesGiveBackEveryEntryPackedOrNot) {
  using hcq::SymbolEntries;
  using hcq::SymbolEntry;
  using hcq::Word;
  using hcq::WordKind;
  using hcq::WordPart;
  auto entry = [](uint32_t at, bool pair, WordKind kind, uint64_t value,
                  int32_t ref, WordPart part, uint32_t shift, uint64_t orBits,
                  uint32_t lanes) {
    return SymbolEntry{at, pair,
                       Word(kind, value, ref, part, shift, orBits, lanes)};
  };
  int64_t limit = int64_t(1) << 43;
  std::vector<SymbolEntry> entries = {
      // Packed: the edges of each field.
      entry(0, false, WordKind::address, 0, 0, WordPart::full, 0, 0, 1),
      entry(1, true, WordKind::address, 8, 3, WordPart::full, 0, 0, 1),
      entry(3, false, WordKind::load, uint64_t(-1), 7, WordPart::lo, 0, 0, 1),
      entry(4, false, WordKind::variable, 0, 2, WordPart::hi, 63, 0, 255),
      entry(5, false, WordKind::address, uint64_t(limit - 1), INT32_MAX,
            WordPart::full, 8, 0, 0),
      entry(6, false, WordKind::load, uint64_t(-limit), 1, WordPart::full, 0, 0,
            1),
      // Not packed: one field past its edge each.
      entry(7, false, WordKind::address, uint64_t(limit), 0, WordPart::full, 0,
            0, 1),
      entry(8, false, WordKind::load, uint64_t(-limit - 1), 0, WordPart::full,
            0, 0, 1),
      entry(9, true, WordKind::address, 16, 5, WordPart::full, 0,
            0x8000000000000001, 1),
      entry(11, false, WordKind::address, 0, 0, WordPart::full, 64, 0, 1),
      entry(12, false, WordKind::address, 0, 0, WordPart::full, 0, 0, 256),
      entry(13, false, WordKind::address, UINT64_MAX, -1, WordPart::lo,
            UINT32_MAX, UINT64_MAX, UINT32_MAX),
  };
  SymbolEntries table;
  for (const SymbolEntry &e : entries)
    table.push_back(e);
  ASSERT_EQ(table.size(), entries.size());
  for (size_t k = 0; k < entries.size(); ++k)
    EXPECT_EQ(table[k], entries[k]) << "entry " << k;
  EXPECT_TRUE(std::equal(table.begin(), table.end(), entries.begin()));

  // The same entries written over others, packed over not and back.
  SymbolEntries rewritten;
  for (size_t k = 0; k < entries.size(); ++k)
    rewritten.push_back(entries[entries.size() - 1 - k]);
  EXPECT_NE(rewritten, table);
  for (size_t k = 0; k < entries.size(); ++k)
    rewritten.set(k, entries[k]);
  EXPECT_EQ(rewritten, table);
  EXPECT_EQ(hcq::hash_value(rewritten), hcq::hash_value(table));
  rewritten.set(2, entries[3]);
  EXPECT_NE(rewritten, table);
  EXPECT_EQ(rewritten[2], entries[3]);

  rewritten.truncate(2);
  EXPECT_EQ(rewritten.size(), 2u);
  EXPECT_EQ(rewritten.back(), entries[1]);
}

// Tests that a blob's patch table found valid once is found invalid again
// when anything it was checked against changes: an entry, an operand, the
// data's size (the verifier remembers a valid table; see
// SymbolEntries::getVerifiedKey).
TEST(Dialect, BlobPatchesAreVerifiedAgainWhenAnythingTheyDependOnChanges) {
  MLIRContext ctx;
  ctx.loadDialect<hcq::HCQDialect>();
  OwningOpRef<ModuleOp> module = parseSourceString<ModuleOp>(R"mlir(
    hcq.schedule @s(%x: !hcq.buffer<1xi64, AMD:0>) {
      %cb = hcq.placeholder cmdbuf slot 1 : !hcq.buffer<256xi8, AMD:0>
      %s = hcq.placeholder signal slot 2 volatile : !hcq.buffer<1xi64, AMD:0>
      hcq.blob %cb = [1, 0, 0, 0] patches [4: lo(%s), 8: addr(%s + 8)] : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<1xi64, AMD:0>
    }
  )mlir",
                                                             &ctx);
  ASSERT_TRUE(module);
  hcq::BlobOp blob;
  module->walk([&](hcq::BlobOp op) { blob = op; });
  ASSERT_TRUE(blob);
  std::string message;
  ScopedDiagnosticHandler handler(&ctx, [&](Diagnostic &diag) {
    message = diag.str();
    return success();
  });
  auto verifies = [&]() {
    message.clear();
    return succeeded(mlir::verify(blob));
  };
  ASSERT_TRUE(verifies()) << message;
  ASSERT_FALSE(blob.getPatches().getVerifiedKey().empty());
  // Twice, remembered: still valid.
  ASSERT_TRUE(verifies()) << message;

  // An entry changed: past the data's 16 bytes.
  hcq::SymbolEntries &patches = blob.getProperties().patches;
  hcq::SymbolEntry second = patches[1];
  hcq::SymbolEntry outside = second;
  outside.at = 12;
  patches.set(1, outside);
  EXPECT_FALSE(verifies());
  EXPECT_NE(message.find("patch #1 at byte 12 is outside the 16-byte data"),
            std::string::npos)
      << message;
  // A table found invalid is not remembered.
  EXPECT_TRUE(patches.getVerifiedKey().empty());
  patches.set(1, second);
  ASSERT_TRUE(verifies()) << message;

  // Entries dropped and appended: the same.
  patches.truncate(1);
  patches.push_back(outside);
  EXPECT_FALSE(verifies());
  EXPECT_NE(message.find("patch #1 at byte 12 is outside the 16-byte data"),
            std::string::npos)
      << message;
  patches.clear();
  patches.push_back(second);
  EXPECT_TRUE(verifies()) << message;
  patches.clear();
  patches.push_back(hcq::SymbolEntry{0, false, second.word});
  patches.push_back(second);
  ASSERT_TRUE(verifies()) << message;

  // The data changed: 8 bytes hold no patch at byte 8.
  blob.getProperties().data.assign({1, 0});
  EXPECT_FALSE(verifies());
  EXPECT_NE(message.find("patch #1 at byte 8 is outside the 8-byte data"),
            std::string::npos)
      << message;
  blob.getProperties().data.assign({1, 0, 0, 0});
  ASSERT_TRUE(verifies()) << message;

  // An operand changed: the schedule's argument, of the same type, is no
  // link-time memory.
  Value signal = blob.getRefs()[0];
  Value argument =
      blob->getParentOfType<hcq::ScheduleOp>().getBody().front().getArgument(0);
  blob->setOperand(1, argument);
  EXPECT_FALSE(verifies());
  EXPECT_FALSE(message.empty());
  blob->setOperand(1, signal);
  EXPECT_TRUE(verifies()) << message;
}

// Tests that pushing a 64-bit symbolic word's halves at once appends what
// pushing its lo then its hi half does (one pair entry in a 32-bit stream,
// two entries in a 64-bit one or for a variable), OR-ed bits included.
TEST(Dialect, PushingBothHalvesIsPushingLoThenHi) {
  using hcq::Word;
  using hcq::WordKind;
  using hcq::WordPart;
  std::vector<Word> words = {
      Word(WordKind::address, 64, 0, WordPart::full, 8, 0),
      Word(WordKind::address, 0, 1, WordPart::full, 0, uint64_t(0x1234) << 32),
      Word(WordKind::load, 16, 2, WordPart::full, 0, 0),
      Word(WordKind::variable, 0, 3, WordPart::full, 0, 0),
      Word(WordKind::address, 8, 0, WordPart::full, 0, 0, /*lanes=*/2),
  };
  for (unsigned bits : {32u, 64u}) {
    hcq::WordStreamBuilder halves(bits), oneByOne(bits);
    for (const Word &word : words) {
      // A constant before each, so no word begins a stream.
      halves.pushConstant(7);
      oneByOne.pushConstant(7);
      halves.pushHalves(word);
      oneByOne.push(word.half(WordPart::lo));
      oneByOne.push(word.half(WordPart::hi));
    }
    EXPECT_EQ(halves.units, oneByOne.units) << bits << "-bit stream";
    EXPECT_EQ(halves.symbols, oneByOne.symbols) << bits << "-bit stream";
    // Pairs in a 32-bit stream but for the variable's halves.
    EXPECT_EQ(halves.symbols.size(), bits == 32 ? 6u : 10u);
  }
}
