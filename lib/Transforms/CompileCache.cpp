//===- CompileCache.cpp - Pipeline results by content ---------------------===//

#include "HCQ/Transforms/CompileCache.h"

#include "mlir/IR/OperationSupport.h"
#include "mlir/Pass/PassManager.h"
#include "llvm/Support/BLAKE3.h"

using namespace mlir;

namespace hcq {

namespace {

/// A digest of a module's content, walked, not printed: each op's name,
/// attributes, properties and result types (all uniqued in the context, so
/// an address names a content there), its operands as the numbers of the
/// values they use and its successors as block numbers, and the shape of its
/// regions. Locations are left out.
class ContentDigest {
public:
  explicit ContentDigest(Operation *root) {
    // Values and blocks are numbered first: a use may come before its
    // definition in walk order (blocks out of dominance order).
    root->walk([&](Block *block) {
      blocks.try_emplace(block, blocks.size());
      for (BlockArgument arg : block->getArguments())
        values.try_emplace(arg, values.size());
      for (Operation &op : *block)
        for (Value result : op.getResults())
          values.try_emplace(result, values.size());
    });
    addOp(root);
  }

  void add(StringRef text) {
    add(text.size());
    hasher.update(text);
  }
  std::string final() {
    auto digest = hasher.final();
    return std::string(digest.begin(), digest.end());
  }

private:
  void add(uint64_t word) {
    hasher.update(ArrayRef<uint8_t>(reinterpret_cast<const uint8_t *>(&word),
                                    sizeof word));
  }
  void add(const void *pointer) { add(uint64_t(uintptr_t(pointer))); }

  void addOp(Operation *op) {
    add(op->getName().getAsOpaquePointer());
    add(op->getRawDictionaryAttrs().getAsOpaquePointer());
    Attribute properties = op->getPropertiesAsAttribute();
    add(properties ? properties.getAsOpaquePointer() : nullptr);
    add(op->getNumOperands());
    for (Value operand : op->getOperands())
      add(values.lookup(operand));
    add(op->getNumResults());
    for (Type type : op->getResultTypes())
      add(type.getAsOpaquePointer());
    add(op->getNumSuccessors());
    for (Block *successor : op->getSuccessors())
      add(blocks.lookup(successor));
    add(op->getNumRegions());
    for (Region &region : op->getRegions()) {
      add(uint64_t(region.getBlocks().size()));
      for (Block &block : region) {
        add(block.getNumArguments());
        for (Type type : block.getArgumentTypes())
          add(type.getAsOpaquePointer());
        add(uint64_t(block.getOperations().size()));
        for (Operation &nested : block)
          addOp(&nested);
      }
    }
  }

  llvm::BLAKE3 hasher;
  DenseMap<Value, uint64_t> values;
  DenseMap<Block *, uint64_t> blocks;
};

} // namespace

FailureOr<ModuleOp> CompileCache::compile(ModuleOp input,
                                          const PipelineOptions &options) {
  // The key: a digest of the module's content and of the options.
  ContentDigest digest(input);
  std::string optionText;
  llvm::raw_string_ostream os(optionText);
  options.print(os);
  digest.add(optionText);
  std::string key = digest.final();

  auto it = results.find(key);
  if (it != results.end()) {
    ++hitCount;
    return it->second.get();
  }
  OwningOpRef<ModuleOp> result = cast<ModuleOp>(input->clone());
  PassManager pm(input.getContext());
  buildPipeline(pm, options);
  if (failed(pm.run(*result)))
    return failure();
  ModuleOp compiled = result.get();
  results.emplace(std::move(key), std::move(result));
  return compiled;
}

} // namespace hcq
