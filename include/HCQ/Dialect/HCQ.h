//===- HCQ.h - HCQ dialect --------------------------------------*- C++ -*-===//

#ifndef HCQ_DIALECT_HCQ_H
#define HCQ_DIALECT_HCQ_H

#include "HCQ/Base/Device.h"
#include "HCQ/Target/AMD/PM4.h"

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Dialect.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/Mutex.h"

#include <functional>

#include "HCQ/Dialect/HCQDialect.h.inc"
#include "HCQ/Dialect/HCQEnums.h"
#include "HCQ/Dialect/Words.h"

namespace hcq {
/// The symbol-table properties (hcq.cmds `symbols`, hcq.blob `patches`) as
/// attributes, for the generic op syntax: an array<i64> of four integers an
/// entry, `[at | (kind | part << 8 | shift << 16 | pair << 24) << 32,
/// ref | lanes << 32, value, or_bits]`. Reading refuses what an entry
/// cannot hold (a whole number of entries, known kinds and parts, no other
/// bits), naming the property as `what`; the verifiers check the rest.
mlir::Attribute getSymbolsAttr(mlir::MLIRContext *ctx,
                               const SymbolEntries &entries);
mlir::LogicalResult
setSymbolsFromAttr(SymbolEntries &entries, mlir::Attribute attr,
                   llvm::function_ref<mlir::InFlightDiagnostic()> emitError,
                   llvm::StringRef what);
/// hcq.patch_group's word property as an attribute: one entry at 0.
mlir::Attribute getWordPropAttr(mlir::MLIRContext *ctx, const Word &word);
mlir::LogicalResult
setWordPropFromAttr(Word &word, mlir::Attribute attr,
                    llvm::function_ref<mlir::InFlightDiagnostic()> emitError);
/// The same properties in bytecode: the entry count, then each entry's
/// four integers.
void writeSymbols(mlir::DialectBytecodeWriter &writer,
                  const SymbolEntries &entries);
mlir::LogicalResult readSymbols(mlir::DialectBytecodeReader &reader,
                                SymbolEntries &entries);
/// The version of hcq's bytecode (its properties' encodings), written with
/// every file; a reader refuses any other by name. Bump it when an encoding
/// changes. 1: dense units as blobs, `targets` inherent. (Files from before
/// versions fail in MLIR's reader, at the first property that changed.)
constexpr uint64_t BYTECODE_VERSION = 1;
/// A version of hcq's bytecode: what a file's reader found, and what a
/// BytecodeWriterConfig::setDialectVersion<HCQDialect> asks a writer to
/// write (BYTECODE_VERSION when it asks nothing).
struct BytecodeVersion : mlir::DialectVersion {
  explicit BytecodeVersion(uint64_t value) : value(value) {}
  uint64_t value;
};

/// Dense 32-bit units (a stream's words, a blob's data) in bytecode: one
/// blob of their little-endian bytes, not a varint each (an executable's
/// blobs hold millions of them).
void writeDenseUnits(mlir::DialectBytecodeWriter &writer,
                     llvm::ArrayRef<int32_t> units);
mlir::LogicalResult readDenseUnits(mlir::DialectBytecodeReader &reader,
                                   llvm::SmallVectorImpl<int32_t> &units);
void writeWordProp(mlir::DialectBytecodeWriter &writer, const Word &word);
mlir::LogicalResult readWordProp(mlir::DialectBytecodeReader &reader,
                                 Word &word);

/// How a queue call uses one buffer: the bytes [offset, offset + size) of
/// `buffer`, and whether it writes them (else it only reads).
struct BufferUse {
  mlir::Value buffer;
  int64_t offset = 0, size = 0;
  bool write = false;
  bool read = true;
};
/// A call's buffer uses: a launch has a few buffers, a copy two (kept
/// inline, without a heap allocation per call).
using BufferUses = llvm::SmallVector<BufferUse, 4>;

namespace OpTrait {
/// Device-side work an hcq.submit may hold.
template <typename ConcreteType>
class InSubmit : public mlir::OpTrait::TraitBase<ConcreteType, InSubmit> {};
/// What an hcq.executable may hold: link-time memory, calls, profiles.
template <typename ConcreteType>
class InExecutable
    : public mlir::OpTrait::TraitBase<ConcreteType, InExecutable> {};
} // namespace OpTrait

// What the executable-file interfaces name; the ops that write records
// see them whole (HCQ/Dialect/ExecutableWriter.h).
class ExecutableWriter;
namespace runtime {
struct Step;
struct Value;
} // namespace runtime

/// Whether the link gives `value` its memory, so its address is known
/// before the first run: a result of a LinkTimeMemoryOpInterface op, or a
/// stream (which seal places in its tag's placeholder).
bool isLinkTimeMemory(mlir::Value value);

namespace detail {
/// TargetsOpInterface's verifier: `op`'s targets, if it names any, are a
/// non-empty list of targets (each a TargetKindAttrInterface with a
/// promised or registered TargetAttrInterface), no two for one device kind.
mlir::LogicalResult verifyTargets(mlir::Operation *op);
} // namespace detail
} // namespace hcq

#include "HCQ/Dialect/HCQTargetKindInterface.h.inc"

#include "HCQ/Dialect/HCQInterfaces.h.inc"

#define GET_ATTRDEF_CLASSES
#include "HCQ/Dialect/HCQAttrs.h.inc"

#define GET_TYPEDEF_CLASSES
#include "HCQ/Dialect/HCQTypes.h.inc"

#define GET_OP_CLASSES
#include "HCQ/Dialect/HCQOps.h.inc"

// The target interface names ops and returns data about them, so it comes
// after them; the attributes implement it through external models
// (HCQ/Target/AMD/TargetAttr.h, HCQ/Target/CPU/TargetAttr.h).
#include "HCQ/Dialect/TargetInterface.h"

#include "HCQ/Dialect/HCQAttrInterfaces.h.inc"

namespace hcq {
/// The argument attribute saying how a schedule uses a buffer argument:
/// "read", "write" or "readwrite" (recorded by hcq-batch-deps).
constexpr llvm::StringLiteral ACCESS_ATTR = "hcq.access";
/// The target for devices of `kind` that `op` (a schedule or executable, or
/// inside one) names: the nearest TargetsOpInterface op at or above it that
/// names targets decides. Null if it names none.
mlir::Attribute getTargetAttr(mlir::Operation *op, DeviceKind kind);

/// Prints a command word as the ops do (`lo(%s + 8)`), with `printOperand`
/// naming each operand by its index among the op's word operands.
void printWord(
    llvm::raw_ostream &os, const Word &word, unsigned bits,
    llvm::function_ref<void(llvm::raw_ostream &, unsigned)> printOperand);

} // namespace hcq

#endif // HCQ_DIALECT_HCQ_H
