//===- ExecutableWriter.h - What ops write into an executable ---*- C++ -*-===//
//
// How the ops of an hcq.executable write themselves into the runtime's
// executable (HCQ/Runtime/Executable.h): each op fills its own record
// (ExecutableRecordOpInterface, SubmitterStepOpInterface,
// LinkTimeMemoryOpInterface) through an ExecutableWriter, which numbers the
// values, kernels and submitters records refer to. The conversion
// (HCQ/Transforms/ExecutableConversion.h) is the one writer.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_DIALECT_EXECUTABLEWRITER_H
#define HCQ_DIALECT_EXECUTABLEWRITER_H

#include "HCQ/Dialect/HCQ.h"
#include "HCQ/Runtime/Executable.h"

namespace hcq {

/// Builds one runtime executable; records are added in body order.
class ExecutableWriter {
public:
  virtual ~ExecutableWriter() = default;

  /// The executable being built: records are appended to its lists.
  runtime::Executable &getExecutable() { return out; }

  /// The index of `value` among the file's values, recorded at its first
  /// use; fails (reported at its definition) if it cannot be written.
  virtual mlir::FailureOr<uint32_t> getValueIndex(mlir::Value value) = 0;
  /// The index of the kernel `name` (looked up from `user`), recorded at
  /// its first use.
  virtual mlir::FailureOr<uint32_t> getKernelIndex(mlir::FlatSymbolRefAttr name,
                                                   mlir::Operation *user) = 0;
  /// The index of the submitter `name` (looked up from `user`), recorded
  /// at its first call.
  virtual mlir::FailureOr<uint32_t>
  getSubmitterIndex(mlir::FlatSymbolRefAttr name, mlir::Operation *user) = 0;

  /// getValueIndex of each of `values`, in order.
  mlir::FailureOr<std::vector<uint32_t>>
  getValueIndices(mlir::ValueRange values);
  /// `word`, whose operands are of `refs`, with its operands as values.
  mlir::FailureOr<runtime::Word> getWord(const Word &word,
                                         mlir::ValueRange refs);

protected:
  runtime::Executable out;
};

/// An ODS enum as the ABI's (HCQDialect.cpp asserts they agree).
template <typename AbiEnum, typename OdsEnum> AbiEnum toAbi(OdsEnum value) {
  return static_cast<AbiEnum>(static_cast<uint32_t>(value));
}

/// Devices and queues as the file names them.
std::vector<runtime::DeviceId> toRuntimeDevices(DevicesAttr devices);
inline QueueName toRuntimeQueue(QueueAttr queue) {
  return {queue.getKind(), queue.getIndex()};
}

/// `word` (its operands of `refs`) as the file's, each operand numbered
/// by `index`.
mlir::FailureOr<runtime::Word>
toRuntimeWord(const Word &word, mlir::ValueRange refs,
              llvm::function_ref<mlir::FailureOr<uint32_t>(mlir::Value)> index);

} // namespace hcq

#endif // HCQ_DIALECT_EXECUTABLEWRITER_H
