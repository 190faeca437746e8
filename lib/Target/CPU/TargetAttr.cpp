//===- TargetAttr.cpp - #hcq.cpu_target's model ---------------------------===//
//
// hcq::TargetAttrInterface for CPU devices: the CPU queue entries' encoder
// (Encode.cpp), a push of the command buffer itself, and the entries read
// back. Every method returns data; the passes make the ops and print.
//
//===----------------------------------------------------------------------===//

#include "HCQ/Target/CPU/TargetAttr.h"
#include "Encode.h"

#include "HCQ/Target/Disassembler.h"

#include "mlir/IR/DialectRegistry.h"

using namespace mlir;
using namespace hcq;

namespace {

struct CPUTargetAttrModel
    : public TargetAttrInterface::ExternalModel<CPUTargetAttrModel,
                                                CPUTargetAttr> {
  std::unique_ptr<SubmitEncoder> createSubmitEncoder(Attribute) const {
    return cpu::createSubmitEncoder();
  }

  FailureOr<PushPlan> planPush(Attribute, EnqueueOp) const {
    // The CPU queue runs the command buffer's entries where they are.
    PushPlan plan;
    plan.mode = PushMode::cpu;
    return plan;
  }

  std::optional<IndirectBuffer> followIndirectBuffer(Attribute, QueueKind,
                                                     ArrayRef<uint32_t>) const {
    return std::nullopt;
  }

  llvm::Error disassemble(Attribute, QueueKind, ArrayRef<DisasmWord> words,
                          llvm::raw_ostream &os) const {
    return disassembleCPU(words, os);
  }
};

} // namespace

void hcq::registerCPUTargetInterfaceExternalModels(DialectRegistry &registry) {
  registry.addExtension(+[](MLIRContext *ctx, HCQDialect *) {
    CPUTargetAttr::attachInterface<CPUTargetAttrModel>(*ctx);
  });
}
