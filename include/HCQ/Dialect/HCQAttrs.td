//===- HCQAttrs.td - HCQ attributes ------------------------*- tablegen -*-===//

#ifndef HCQ_ATTRS_TD
#define HCQ_ATTRS_TD

include "HCQ/Dialect/HCQBase.td"
include "HCQ/Dialect/HCQTargetKindInterface.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

class HCQ_Attr<string name, string attrMnemonic, list<Trait> traits = []>
    : AttrDef<HCQ_Dialect, name, traits> {
  let mnemonic = attrMnemonic;
}

def HCQ_DeviceAttr : HCQ_Attr<"Device", "device"> {
  let summary = "one device, `KIND:N`";
  let description = [{
    A device such as `#hcq.device<AMD:1>`. The known kinds are `AMD` and
    `CPU`, which have command-queue backends, and `CUDA`, `NV`, `METAL` and
    `DISK`, which may only appear as the far end of a copy. `KIND` alone
    means index 0.
  }];
  let parameters = (ins "::hcq::DeviceKind":$kind, "uint32_t":$index);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    ::hcq::DeviceName getName() const { return {getKind(), getIndex()}; }
    /// Whether this device has a command-queue backend (AMD, CPU).
    bool isHCQ() const { return ::hcq::hasCommandQueueBackend(getKind()); }
    std::string str() const { return getName().str(); }
  }];
}

def HCQ_DevicesAttr : HCQ_Attr<"Devices", "devices"> {
  let summary = "a device tuple: one lane per device";
  let description = [{
    The devices a multi-device value or call spans, e.g.
    `#hcq.devices<[AMD:0, AMD:1]>`. Lane `i` is device `i`; every lane runs
    the same command stream against its own copy of each buffer. A tuple of
    one device prints without brackets: `#hcq.devices<CPU:0>`. The tuple is
    non-empty and holds no device twice.
  }];
  let parameters = (ins ArrayRefParameter<"DeviceAttr">:$devices);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    size_t size() const { return getDevices().size(); }
    DeviceAttr front() const { return getDevices().front(); }
    /// Whether every device has a command-queue backend.
    bool allHCQ() const;
    /// Whether every device is of the given kind.
    bool allOfKind(::hcq::DeviceKind kind) const;
    /// Whether the two tuples have a device in common.
    bool intersects(DevicesAttr other) const;
  }];
}

def HCQ_QueueAttr : HCQ_Attr<"Queue", "queue"> {
  let summary = "a queue of a device, `KIND:N`";
  let description = [{
    `#hcq.queue<COMPUTE:0>` runs kernels, `#hcq.queue<COPY:0>` runs copies,
    `#hcq.queue<SUBMIT:0>` is the host queue of the batched submitter.
    Submits on one (devices, queue) execute in FIFO order.
  }];
  let parameters = (ins "::hcq::QueueKind":$kind, "uint32_t":$index);
  let hasCustomAssemblyFormat = 1;
  let extraClassDeclaration = [{
    ::hcq::QueueName getName() const { return {getKind(), getIndex()}; }
    std::string str() const { return getName().str(); }
  }];
}

def HCQ_AccessArrayAttr : TypedArrayAttrBase<HCQ_Access,
    "array of buffer accesses">;

def HCQ_AMDTargetAttr : HCQ_Attr<"AMDTarget", "amd_target",
    [HCQ_TargetKindAttrInterface]> {
  let summary = "AMD GPUs of one generation, as what submits compile for";
  let description = [{
    `#hcq.amd_target<chip = "gfx1100">`: a schedule's submits on AMD
    devices become PM4 (compute) and SDMA (copy) words for this generation
    (gfx1100, gfx1101, gfx1102 or gfx942), its builtin copy kernel is the
    chip's, and its packets read back as the chip's. A TargetAttrInterface
    (registered with `hcq::registerAMDTargetInterfaceExternalModels`).

    `indirect_buffer_dwords` (default 1048574, printed only when it differs)
    is how much of a compute command buffer one INDIRECT_BUFFER packet runs:
    a longer buffer is padded with NOPs so that no packet straddles a
    multiple of it and pushed as several INDIRECT_BUFFER packets. It is at
    least 64 and at most 1048575 (the packet's 20-bit size field).
  }];
  let parameters = (ins StringRefParameter<"GPU generation">:$chip,
      DefaultValuedParameter<"uint32_t", "::hcq::amd::pm4::IB_DEFAULT_DWORDS",
                             "dwords per INDIRECT_BUFFER">:
          $indirect_buffer_dwords);
  let builders = [
    AttrBuilder<(ins "::llvm::StringRef":$chip), [{
      return $_get($_ctxt, chip, ::hcq::amd::pm4::IB_DEFAULT_DWORDS);
    }]>
  ];
  let assemblyFormat = "`<` struct(params) `>`";
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    ::hcq::DeviceKind getDeviceKind() const { return ::hcq::DeviceKind::AMD; }
  }];
}

def HCQ_CPUTargetAttr : HCQ_Attr<"CPUTarget", "cpu_target",
    [HCQ_TargetKindAttrInterface]> {
  let summary = "The CPU device, as what submits compile for";
  let description = [{
    `#hcq.cpu_target`: a schedule's submits on CPU devices become CPU queue
    entries (64-bit words). A TargetAttrInterface (registered with
    `hcq::registerCPUTargetInterfaceExternalModels`).
  }];
  let extraClassDeclaration = [{
    ::hcq::DeviceKind getDeviceKind() const { return ::hcq::DeviceKind::CPU; }
  }];
}

// A schedule's or executable's `targets`. Any array: TargetsOpInterface's
// verifier checks the elements, naming the one at fault.
def HCQ_TargetArrayAttr : TypedArrayAttrBase<AnyAttr,
    "array of targets (#hcq.amd_target, #hcq.cpu_target), one per device " #
    "kind">;

def HCQ_HostTargetAttr : HCQ_Attr<"HostTarget", "host_target"> {
  let summary = "The host CPU, as what a gpu.module's kernels compile for";
  let description = [{
    `#hcq.host_target` among a `gpu.module`'s targets (where
    `hcq-attach-host-target` puts it) makes upstream's
    `gpu-module-to-binary` compile the module's kernels for the host: a
    `#gpu.object<#hcq.host_target, ...>` holding an ELF shared object whose
    functions, one per kernel and named like it, have hcq's CPU kernel ABI
    (`hcq::cpu::KernelFunction`, docs/cpu-queue.md). An upstream
    `gpu::TargetAttrInterface`, attached by
    `hcq::registerHostTargetInterfaceExternalModels` (lib/Target/Host).

    `O` is the LLVM optimization level (0 to 3, default 2), `triple` the
    target triple (default: the compiler's host), `chip` the CPU (default:
    the triple's generic one, so that the object is the same on every
    machine).
  }];
  let parameters = (ins
      DefaultValuedParameter<"int", "2", "optimization level">:$O,
      StringRefParameter<"target triple", "\"\"">:$triple,
      StringRefParameter<"target CPU", "\"\"">:$chip);
  let assemblyFormat = "(`<` struct(params)^ `>`)?";
  let genVerifyDecl = 1;
}

#endif // HCQ_ATTRS_TD
