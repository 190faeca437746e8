//===- Disassembler.h - PM4, SDMA and CPU entry disassembly -----*- C++ -*-===//
//
// Prints command words as named packets with their fields. Words may be
// symbolic (an address the link has not resolved yet): they print as their
// symbol. A packet that cannot be decoded is an error naming its offset.
// MLIR-free: used by hcq-print-packets and by the runtime's tools.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TARGET_DISASSEMBLER_H
#define HCQ_TARGET_DISASSEMBLER_H

#include "HCQ/Target/AMD/Target.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <optional>
#include <string>

namespace hcq {

/// One word: a value, or a symbol standing for one.
struct DisasmWord {
  std::optional<uint64_t> value;
  std::string symbol;
  /// For CPU entries: the runtime host function this word is the address of.
  std::optional<uint32_t> hostFunction;

  static DisasmWord of(uint64_t v) { return {v, {}, std::nullopt}; }
};

/// PM4 type-3 packets of a compute queue (32-bit words).
llvm::Error disassemblePM4(llvm::ArrayRef<DisasmWord> words,
                           const amd::Target &target, llvm::raw_ostream &os);
/// SDMA packets of a copy queue (32-bit words).
llvm::Error disassembleSDMA(llvm::ArrayRef<DisasmWord> words,
                            const amd::Target &target, llvm::raw_ostream &os);
/// CPU queue entries (64-bit words, cpu::ENTRY_WORDS per entry).
llvm::Error disassembleCPU(llvm::ArrayRef<DisasmWord> words,
                           llvm::raw_ostream &os);

} // namespace hcq

#endif // HCQ_TARGET_DISASSEMBLER_H
