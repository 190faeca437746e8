//===- HCQInterfaces.td - HCQ op interfaces and traits -----*- tablegen -*-===//
//
// What passes and verifiers ask of ops by kind: the calls a device queue
// runs, the ops naming targets, and where an op may stand (a submit, a
// submitter, an executable). Ops say which they are where they are defined
// (HCQOps.td), so no pass keeps a list of them.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_INTERFACES
#define HCQ_INTERFACES

include "mlir/IR/OpBase.td"

def HCQ_QueueCallOpInterface : OpInterface<"QueueCallOpInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    A call a device queue runs: a kernel launch (on a COMPUTE queue) or a
    copy (on a COPY queue). Dependency tracking, the choice of the devices
    it is enqueued on and the schedule's argument uses ask it which buffers
    it touches, which bytes of them and how. It has no results and no
    regions: hcq-batch-deps copies it into its submit as a plain op.
  }];
  let methods = [
    InterfaceMethod<[{
        The buffers it touches, in the order its enqueue devices are chosen
        from: a launch's in operand order, a copy's destination then
        source.
      }], "::llvm::SmallVector<::mlir::Value>", "getCallBuffers">,
    InterfaceMethod<[{
        How it uses each of getCallBuffers(): the bytes (offset and size in
        the buffer) and whether it writes them; a launch's from its
        kernel's signature, found through `symbols` in `symbolTable`, its
        nearest symbol table, when the caller knows it (the same for every
        call of a schedule: finding it walks up asking each op for its
        traits), else in the one found from the op.
      }], "::hcq::BufferUses", "getBufferUses",
      (ins "::mlir::SymbolTableCollection &":$symbols,
           "::mlir::Operation *":$symbolTable)>,
    InterfaceMethod<"The kind of queue that runs it.", "::hcq::QueueKind",
      "getQueueKind">,
  ];
}

def HCQ_TargetsOpInterface : OpInterface<"TargetsOpInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    An op naming what the submits in it compile for (hcq.schedule, and
    hcq.executable, which keeps its schedule's): its inherent `targets`, a
    non-empty array of targets (TargetKindAttrInterface, with a
    TargetAttrInterface model), no two for one device kind; or none. Its
    verifier checks them; `hcq::getTargetAttr` asks the nearest one above an
    op for the target of a device kind.
  }];
  let methods = [
    InterfaceMethod<"The targets, or null if it names none.",
      "::mlir::ArrayAttr", "getTargetsAttr">,
  ];
  let extraSharedClassDeclaration = [{
    /// Its target for devices of `kind`, or null.
    ::hcq::TargetKindAttrInterface getTarget(::hcq::DeviceKind kind) {
      if (::mlir::ArrayAttr targets = $_op.getTargetsAttr())
        for (::mlir::Attribute attr : targets)
          if (auto target =
                  ::llvm::dyn_cast<::hcq::TargetKindAttrInterface>(attr);
              target && target.getDeviceKind() == kind)
            return target;
      return {};
    }
  }];
  let verify = [{ return ::hcq::detail::verifyTargets($_op); }];
}

def HCQ_TargetAttrInterface : AttrInterface<"TargetAttrInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    What a device kind's submits are compiled for (`#hcq.amd_target`,
    `#hcq.cpu_target`), attached to a schedule as its `targets` by
    hcq-attach-targets (as upstream's rocdl-attach-target attaches
    `#rocdl.target`s) and carried on to its executable. The target encodes
    the submits on its devices (hcq-encode), plans how an enqueue of a
    sealed command buffer is pushed (hcq-lower-submit) and reads its
    command words back (hcq-print-packets), so no pass takes a target
    option.

    Like upstream's gpu::TargetAttrInterface, whose serializeToObject
    returns bytes, every method returns data (HCQ/Dialect/TargetInterface.h)
    and changes no IR: the passes make and erase the ops. The methods are
    external models in the target libraries (lib/Target/AMD, lib/Target/CPU):
    a context that compiles registers them with
    `hcq::registerAMDTargetInterfaceExternalModels` and
    `hcq::registerCPUTargetInterfaceExternalModels` (both:
    `hcq::registerTargetInterfaces`). The dialect promises them, so a use
    of the interface without its model is an error, not a target that is
    silently missing; what the dialect itself asks of a target (its device
    kind) is TargetKindAttrInterface, which needs no model.
  }];
  let methods = [
    InterfaceMethod<[{
        An encoder of this target's submits of one schedule: for each, the
        command words that replace its body, the indirect streams they
        address (a launch's kernel arguments) and the placeholders and
        programs they name.
      }], "std::unique_ptr<::hcq::SubmitEncoder>", "createSubmitEncoder">,
    InterfaceMethod<[{
        How `enqueue` is pushed onto its queue: the push mode, and the
        packets pushed instead of the command buffer when its queue takes
        them (on a PM4 ring, INDIRECT_BUFFER packets to it).
      }], "::mlir::FailureOr<::hcq::PushPlan>", "planPush",
      (ins "::hcq::EnqueueOp":$enqueue)>,
    InterfaceMethod<[{
        The command buffer the indirect-buffer packet at the start of
        `words` (pushed on a `queue` queue) runs, if they are one.
      }], "std::optional<::hcq::IndirectBuffer>", "followIndirectBuffer",
      (ins "::hcq::QueueKind":$queue,
           "::llvm::ArrayRef<uint32_t>":$words)>,
    InterfaceMethod<[{
        Prints `queue`'s command words as packets, one per line.
      }], "::llvm::Error", "disassemble",
      (ins "::hcq::QueueKind":$queue,
           "::llvm::ArrayRef<::hcq::DisasmWord>":$words,
           "::llvm::raw_ostream &":$os)>,
  ];
}

def HCQ_LinkTimeMemoryOpInterface : OpInterface<"LinkTimeMemoryOpInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    An op whose result is memory the link gives an address before the first
    run (hcq.placeholder, hcq.program, hcq.alloc): a word taking its address
    is patched once, at link time, where an input's is patched every run.
    `hcq::isLinkTimeMemory` asks it (seal, the word verifiers, hcq.blob's
    target); the executable file records the result as a value of the
    op's kind.
  }];
  let methods = [
    InterfaceMethod<[{
        Fills what the executable file records of its result beyond its
        size and devices: its value kind and what that kind carries.
        `writer` gives the indices of other records (a program's kernel).
      }], "::mlir::LogicalResult", "writeValue",
      (ins "::hcq::ExecutableWriter &":$writer,
           "::hcq::runtime::Value &":$value)>,
  ];
}

def HCQ_SubmitterStepOpInterface : OpInterface<"SubmitterStepOpInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    A host-side step of a submitter (hcq.fence, hcq.reset, hcq.finalize,
    hcq.patch_group, hcq.push): the only ops a submitter holds, each one
    step of its record in the executable file.
  }];
  let methods = [
    InterfaceMethod<[{
        Fills its step of the executable file: its kind and what that kind
        carries. `step.operands`, its operands as the submitter's argument
        numbers, are filled already; `argIndex` numbers any other value.
      }], "void", "writeStep",
      (ins "::hcq::runtime::Step &":$step,
           "::llvm::function_ref<uint32_t(::mlir::Value)>":$argIndex)>,
  ];
}

def HCQ_ExecutableRecordOpInterface
    : OpInterface<"ExecutableRecordOpInterface"> {
  let cppNamespace = "::hcq";
  let description = [{
    An op of an hcq.executable the file records by itself: a blob, an
    inputs table, a profile entry, or a step of the host plan (a submitter
    call, a host call, a host-run copy or launch). The conversion to the
    runtime's executable (HCQ/Transforms/ExecutableConversion.h) asks each
    op of the body in order, so a new record kind needs no change there.
  }];
  let methods = [
    InterfaceMethod<[{
        Adds its record to the executable `writer` builds, numbering the
        values, kernels and submitters it names through `writer`. Fails
        with a diagnostic when one cannot be written.
      }], "::mlir::LogicalResult", "writeRecord",
      (ins "::hcq::ExecutableWriter &":$writer)>,
  ];
}

// Where an op may stand. hcq.submit holds device-side work, a submitter
// host-side steps (SubmitterStepOpInterface), an executable link-time
// memory and calls.
def HCQ_InSubmit : NativeOpTrait<"InSubmit"> {
  let cppNamespace = "::hcq::OpTrait";
}
def HCQ_InExecutable : NativeOpTrait<"InExecutable"> {
  let cppNamespace = "::hcq::OpTrait";
}

#endif // HCQ_INTERFACES
