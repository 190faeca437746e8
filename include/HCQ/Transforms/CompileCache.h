//===- CompileCache.h - Pipeline results by content -------------*- C++ -*-===//
//
// The seed's compile cache (section 8): a schedule compiled once is not
// compiled again. Keyed by a digest (BLAKE3) of the input's content, walked
// rather than printed, and of the pipeline options, so an embedding compiler
// that rebuilds the same schedule in the same context gets the executable it
// already has.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_TRANSFORMS_COMPILECACHE_H
#define HCQ_TRANSFORMS_COMPILECACHE_H

#include "HCQ/Transforms/Passes.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include <map>

namespace hcq {

class CompileCache {
public:
  /// The --hcq-pipeline output for `input`, which is left unchanged: the
  /// cached one when a module of the same content was compiled with the
  /// same options. The cache owns the result.
  mlir::FailureOr<mlir::ModuleOp> compile(mlir::ModuleOp input,
                                          const PipelineOptions &options);

  size_t hits() const { return hitCount; }
  size_t size() const { return results.size(); }

private:
  std::map<std::string, mlir::OwningOpRef<mlir::ModuleOp>> results;
  size_t hitCount = 0;
};

} // namespace hcq

#endif // HCQ_TRANSFORMS_COMPILECACHE_H
