//===- Passes.td - Passes between upstream gpu and hcq -----*- tablegen -*-===//
//
// The way into hcq from upstream's gpu dialect, as upstream keeps its
// conversions (mlir/Conversion/Passes.td) apart from a dialect's own
// passes: a library of their own, which hcq-opt links and hcq-translate
// (hcq IR to an executable file) does not.
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_CONVERSION_PASSES_TD
#define HCQ_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertGPUToHCQ : Pass<"convert-gpu-to-hcq", "::mlir::ModuleOp"> {
  let summary = "Convert upstream gpu host code and gpu.binary kernels into "
                "hcq.schedule";
  let description = [{
    The way into hcq from an MLIR compiler's GPU path. Every `func.func`
    that uses the `gpu` dialect becomes an `hcq.schedule` of the same name:

    * its memref arguments become `!hcq.buffer` arguments on `device` (or
      on the device an argument's `hcq.device = "CPU:0"` attribute names),
      its i32, i64, f32 and f64 arguments bound variables; an argument
      keeps the name its location gives it (`loc("x")`, a NameLoc: what a
      compiler's builder sets, and what text keeps only when printed with
      `--mlir-print-debuginfo`), which the executable file records;
    * `gpu.launch_func` becomes `hcq.launch`: the grid (`blocks in`) is
      `global`, in workgroups, and the block (`threads in`) `local`, both
      constants; memref operands are the kernel's buffers (first), i32 and
      f32 operands its scalars (function arguments or constants);
    * `gpu.memcpy` becomes `hcq.copy` of the whole memref;
    * `gpu.alloc` becomes `hcq.alloc` on `device` (or on the device its
      own `hcq.device = "AMD:1"` attribute names); `gpu.dealloc` goes (the
      schedule owns its allocations);
    * `gpu.wait` and async tokens go: a schedule runs its calls in program
      order, which respects every token, and `hcq-batch-deps` derives the
      real dependencies from the buffers;
    * each kernel launched on an AMD device becomes an `hcq.kernel` of
      target `amd` holding the code object of the `gpu.binary`'s
      `#rocdl.target` object for `chip` (or its only one). The kernel
      metadata `gpu-module-to-binary` records must
      show bare pointers for the buffers, then i32 or f32 scalars
      (`convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}`). If the
      binary also has a `#gpu.object<#hcq.host_target, ...>` holding the
      kernel, the `hcq.kernel` carries that host object too: its
      `hcq_twin_<kernel>` is the kernel's CPU twin on the emulated AMD
      device and the simulated kernel driver;
    * each kernel launched on a CPU device becomes an `hcq.kernel` of target
      `cpu` holding the host object (`host_object`, `symbol` the kernel), and
      its launch has local size [1, 1, 1]: the host code runs a whole block
      per call. A kernel the binary has no host code for is refused there.
      Host code, here or as a twin, must take the launch's buffers then
      i32 or f32 scalars, and have been compiled for the launch's block
      (`known_block_size`); the binary's objects are resource blobs stored
      once each;
    * a kernel's buffers are `read`, `write` or `readwrite` as the host
      object's kernel table says (`hcq.access` among a kernel's argument
      attributes: what `#hcq.host_target` found in the kernel's body when
      it compiled it, beside the AMD code objects of the same source), and
      `readwrite` where the binary has no host object: `hcq-batch-deps`
      then orders two launches that share a buffer only if one writes it.

    Anything else (control flow, dynamic sizes, host-shared or dynamic
    allocations, scalars that are neither function arguments nor constants,
    memsets, kernels still in a `gpu.module`, other ops) is refused with an
    error naming the op, before anything is rewritten; the rewrite is a
    partial dialect conversion of the functions that passed.
  }];
  let dependentDialects = ["::hcq::HCQDialect"];
  let options = [
    Option<"device", "device", "std::string", "\"AMD:0\"",
           "The device of memref arguments and allocations">,
    Option<"chip", "chip", "std::string", "\"\"",
           "The AMD chip whose gpu.binary object to use (default: the only "
           "one)">,
  ];
}

def HCQAttachHostTarget : Pass<"hcq-attach-host-target",
                                "::mlir::ModuleOp"> {
  let summary = "Add #hcq.host_target to gpu.modules' targets";
  let description = [{
    Appends `#hcq.host_target` to the `targets` of every `gpu.module` of
    the module (not nested deeper) whose name matches `module`, as
    upstream's `rocdl-attach-target` adds `#rocdl.target`; a module that
    already has an equal target keeps its list. `gpu-module-to-binary` then
    compiles each such module for the host too: a
    `#gpu.object<#hcq.host_target, ...>` holding a host shared object of its
    kernels in hcq's CPU kernel ABI, and of their CPU twins for the emulated
    AMD device, from the gpu dialect or from what `convert-gpu-to-rocdl`
    leaves (docs/embedding.md says what compiles).
  }];
  let dependentDialects = ["::hcq::HCQDialect", "::mlir::gpu::GPUDialect"];
  let options = [
    Option<"moduleMatcher", "module", "std::string", [{""}],
           "Regex matching the names of the gpu.modules to attach the target "
           "to (empty: every one)">,
    Option<"optLevel", "O", "unsigned", "2",
           "LLVM optimization level (0 to 3)">,
    Option<"triple", "triple", "std::string", [{""}],
           "Target triple (empty: the compiler's host)">,
    Option<"chip", "chip", "std::string", [{""}],
           "Target CPU (empty: the triple's generic CPU)">,
  ];
}

#endif // HCQ_CONVERSION_PASSES_TD
