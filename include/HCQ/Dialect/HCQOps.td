//===- HCQOps.td - HCQ operations --------------------------*- tablegen -*-===//

#ifndef HCQ_OPS_TD
#define HCQ_OPS_TD

include "HCQ/Dialect/HCQTypes.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/CallInterfaces.td"
include "mlir/Interfaces/FunctionInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "HCQ/Dialect/HCQInterfaces.td"
include "mlir/IR/OpAsmInterface.td"
include "mlir/IR/RegionKindInterface.td"

//===----------------------------------------------------------------------===//
// Containers
//===----------------------------------------------------------------------===//

// `arg_names` keeps the names the arguments were written with (`%x` is
// "x"; "" where a name was numeric): the printer gives them back, and the
// executable file records them (hcq-run --list-arguments). `traits` and
// `extraArguments` are what one kind adds to the others'.
class HCQ_FunctionLikeOp<string mnemonic, list<Trait> traits = [],
                         dag extraArguments = (ins)>
    : HCQ_Op<mnemonic, !listconcat([
    IsolatedFromAbove, FunctionOpInterface, NoTerminator, SingleBlock,
    DeclareOpInterfaceMethods<OpAsmOpInterface, ["getAsmBlockArgumentNames"]>],
    traits)> {
  let arguments = !con((ins SymbolNameAttr:$sym_name,
                            TypeAttrOf<FunctionType>:$function_type,
                            OptionalAttr<DictArrayAttr>:$arg_attrs,
                            OptionalAttr<DictArrayAttr>:$res_attrs,
                            OptionalAttr<StrArrayAttr>:$arg_names),
                       extraArguments);
  let regions = (region AnyRegion:$body);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    ::llvm::ArrayRef<::mlir::Type> getArgumentTypes() {
      return getFunctionType().getInputs();
    }
    ::llvm::ArrayRef<::mlir::Type> getResultTypes() {
      return getFunctionType().getResults();
    }
    ::mlir::Region *getCallableRegion() { return &getBody(); }
    /// The name argument `index` was written with, or "".
    ::llvm::StringRef getArgName(unsigned index) {
      auto names = getArgNamesAttr();
      return names && index < names.size()
                 ? ::llvm::cast<::mlir::StringAttr>(names[index]).getValue()
                 : ::llvm::StringRef();
    }
  }];
  // One syntax for every kind (HCQOps.cpp).
  let extraClassDefinition = [{
    ::mlir::ParseResult $cppClass::parse(::mlir::OpAsmParser &parser,
                                         ::mlir::OperationState &result) {
      return parseFunctionLike<$cppClass>(parser, result);
    }
    void $cppClass::print(::mlir::OpAsmPrinter &printer) {
      printFunctionLike(printer, *this);
    }
    void $cppClass::getAsmBlockArgumentNames(
        ::mlir::Region &region, ::mlir::OpAsmSetValueNameFn setName) {
      nameArguments(*this, region, setName);
    }
  }];
}

// A schedule's (and then its executable's) targets, printed after the
// signature: `targets [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target]`.
defvar HCQ_TargetsArguments = (ins OptionalAttr<HCQ_TargetArrayAttr>:$targets);

def HCQ_ScheduleOp : HCQ_FunctionLikeOp<"schedule", [HCQ_TargetsOpInterface],
                                        HCQ_TargetsArguments> {
  let summary = "the input: an ordered schedule of calls";
  let description = [{
    A schedule runs its calls in order each time it is replayed. Its
    arguments are the per-run inputs: buffers (`!hcq.buffer`), whose
    addresses may change every run, and bound variables (integers), whose
    values may. Argument `i` is input slot `i` (the seed's section 0.1).
    Buffers the schedule owns are `hcq.alloc`.

    `targets`, after the signature, says what its submits compile for: at
    most one target per device kind, such as `targets
    [#hcq.amd_target<chip = "gfx1100">, #hcq.cpu_target]`. hcq-attach-targets
    gives a schedule without them the pipeline's; hcq-encode needs the
    target of each device kind the schedule's submits are on.

    ```mlir
    hcq.kernel @vadd cpu (write f32, read f32, read f32)
        symbol "hcq_vadd" library "libhcqtestkernels.so"
    // c = a + b, then out = c: 64 workgroups of one thread (a CPU kernel
    // is called once per workgroup).
    hcq.schedule @add(%a: !hcq.buffer<64xf32, CPU:0>,
                      %b: !hcq.buffer<64xf32, CPU:0>,
                      %out: !hcq.buffer<64xf32, CPU:0>) {
      %c = hcq.alloc : !hcq.buffer<64xf32, CPU:0>
      hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>,
          !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>)
          global [64, 1, 1] local [1, 1, 1]
      hcq.copy %out[0, 256], %c[0, 256]
          : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
    }
    ```

    (test/Tools/hcq-run.mlir runs this example.)
  }];
}

def HCQ_ExecutableOp : HCQ_FunctionLikeOp<"executable",
                                          [HCQ_TargetsOpInterface],
                                          HCQ_TargetsArguments> {
  let summary = "the output: blobs, placeholders, patches and the host plan";
  let description = [{
    What the runtime loads. Its body holds the link-time memory
    (placeholders, `hcq.program`, `hcq.alloc`, `hcq.blob`, `hcq.inputs`)
    and the host plan in execution order: `hcq.call` of submitters, and the
    calls the queues cannot run (`hcq.host_call`, and copies and launches
    touching devices without queues, which the host runs). Arguments are the
    schedule's inputs, unchanged, and so are its `targets`: what its words
    were compiled for, through which hcq-print-packets reads them back.
  }];
}

def HCQ_SubmitterOp : HCQ_FunctionLikeOp<"submitter"> {
  let summary = "a host body: fences, resets, patches and pushes, in order";
  let description = [{
    A run of host-plan ops of an executable, on the host SUBMIT queue: its
    fences, resets, run-time patch groups, queue pushes and finalizers. Its
    arguments are the buffers and variables the run uses, in order of first
    use, so that two batches of the same shape call one submitter.
  }];
}

def HCQ_CallOp : HCQ_Op<"call", [CallOpInterface, HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "run a submitter";
  let description = [{
    Runs the `hcq.submitter` `callee` with `operands` as its arguments. A
    call in MLIR's sense (`CallOpInterface`; the submitter is its callable),
    so the call graph, inlining and symbol analyses see the host plan as it
    is.
  }];
  let arguments = (ins FlatSymbolRefAttr:$callee, Variadic<AnyType>:$operands,
                       OptionalAttr<DictArrayAttr>:$arg_attrs,
                       OptionalAttr<DictArrayAttr>:$res_attrs);
  let assemblyFormat = [{
    $callee `(` ($operands^ `:` qualified(type($operands)))? `)` attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$callee,
                   "::mlir::ValueRange":$operands), [{
      build($_builder, $_state, callee, operands, /*arg_attrs=*/nullptr,
            /*res_attrs=*/nullptr);
    }]>];
  let extraClassDeclaration = [{
    ::mlir::CallInterfaceCallable getCallableForCallee() {
      return getCalleeAttr();
    }
    void setCalleeFromCallable(::mlir::CallInterfaceCallable callee) {
      setCalleeAttr(::llvm::cast<::mlir::FlatSymbolRefAttr>(
          ::llvm::cast<::mlir::SymbolRefAttr>(callee)));
    }
    ::mlir::Operation::operand_range getArgOperands() { return getOperands(); }
    ::mlir::MutableOperandRange getArgOperandsMutable() {
      return getOperandsMutable();
    }
  }];
}

//===----------------------------------------------------------------------===//
// Kernels
//===----------------------------------------------------------------------===//

/// A code object's bytes: an inline string, or a `dense_resource` blob of
/// i8 (the kernel verifier checks the element type).
def HCQ_CodeObjectAttr : Attr<Or<[StrAttr.predicate,
    CPred<"::llvm::isa<::mlir::DenseResourceElementsAttr>($_self)">]>,
    "code object bytes (a string or a dense_resource blob)"> {
  let storageType = "::mlir::Attribute";
  let returnType = "::mlir::Attribute";
  let convertFromStorage = "$_self";
}

def HCQ_KernelOp : HCQ_Op<"kernel", [Symbol]> {
  let summary = "a kernel: its code and its argument signature";
  let description = [{
    Declares a kernel that `hcq.launch` calls. The signature lists the
    buffer arguments in ABI order, each with its access (`read`, `write`,
    `readwrite`) and element type, then the number of bound variables.

    * `cpu`: a host function `symbol` in the shared library `library`, or
      in `host_object`, a host ELF shared object the executable carries
      (what `#hcq.host_target` compiles; `convert-gpu-to-hcq` makes these);
    * `amd`: an AMDHSA code object (ELF bytes) in `code_object`: a
      `dense_resource<name> : tensor<Nxi8>` blob in the file's resource
      section, stored once however many kernels of one code object refer
      to it (what `convert-gpu-to-hcq` makes), or an inline string. With a
      `host_object`, its `hcq_twin_<symbol>` is the kernel's CPU twin on
      the emulated AMD device;
    * `builtin`: a kernel the compiler generates, named by `symbol`
      (`copy`: `(write T, read U)` with `T` and `U` of one size, copies
      element `x` of its read argument into its write argument for every
      `x` of a `[n, 1, 1]` grid).

    Code objects and host objects are bytes alike: a resource blob or an
    inline string.

    ```mlir
    hcq.kernel @vadd cpu (write f32, read f32, read f32) vars 1
        symbol "vadd_f32" library "libkernels.so"
    hcq.kernel @vadd_host cpu (write f32, read f32, read f32) vars 1
        symbol "vadd" host_object dense_resource<kernels_host> : tensor<9016xi8>
    ```
  }];
  let arguments = (ins SymbolNameAttr:$sym_name, EnumProp<HCQ_KernelTarget>:$target,
                       HCQ_AccessArrayAttr:$arg_access,
                       TypeArrayAttr:$arg_types,
                       DefaultValuedProp<HCQ_NonNegativeI64Prop, "0">:$num_vars,
                       OptionalAttr<StrAttr>:$symbol,
                       OptionalAttr<StrAttr>:$library,
                       OptionalAttr<HCQ_CodeObjectAttr>:$code_object,
                       OptionalAttr<HCQ_CodeObjectAttr>:$host_object);
  let assemblyFormat = [{
    $sym_name $target custom<KernelArgs>($arg_access, $arg_types)
    (`vars` $num_vars^)? (`symbol` $symbol^)? (`library` $library^)?
    (`code_object` $code_object^)? (`host_object` $host_object^)? attr-dict
  }];
  let builders = [
    // A kernel without a host object.
    OpBuilder<(ins "::llvm::StringRef":$sym_name,
                   "::hcq::KernelTarget":$target,
                   "::mlir::ArrayAttr":$arg_access,
                   "::mlir::ArrayAttr":$arg_types, "int64_t":$num_vars,
                   "::mlir::StringAttr":$symbol, "::mlir::StringAttr":$library,
                   "::mlir::Attribute":$code_object), [{
      build($_builder, $_state, sym_name, target, arg_access, arg_types,
            num_vars, symbol, library, code_object, /*host_object=*/nullptr);
    }]>
  ];
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    size_t getNumBufferArgs() { return getArgAccess().size(); }
    ::hcq::Access getAccess(size_t i);
    /// The code object's bytes, inline or in its resource blob; nothing when
    /// the kernel has none or its blob is missing.
    std::optional<::llvm::StringRef> getCodeObjectBytes();
    /// The host object's bytes, as getCodeObjectBytes.
    std::optional<::llvm::StringRef> getHostObjectBytes();
  }];
}

def HCQ_ProgramOp : HCQ_Op<"program", [
    Pure, HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_LinkTimeMemoryOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a kernel's code, loaded on devices";
  let description = [{
    The memory holding `kernel`'s code on the result's devices: for an
    `amd` kernel the loaded image of its code object (the link writes it,
    once, shared by every executable), for a `cpu` kernel its host function
    (resolved with dlsym), for a builtin the runtime's implementation. Words
    take its address: `lo(%prog + 256 >> 8)` is an AMD entry point.

    ```mlir
    %prog = hcq.program @vadd : !hcq.buffer<6144xi8, AMD:0>
    ```
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel);
  let results = (outs HCQ_AnyBuffer:$result);
  let assemblyFormat = "$kernel attr-dict `:` qualified(type($result))";
}

//===----------------------------------------------------------------------===//
// Schedule ops
//===----------------------------------------------------------------------===//

def HCQ_AllocOp : HCQ_Op<"alloc", [MemoryEffects<[MemAlloc]>,
    HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_LinkTimeMemoryOpInterface>]> {
  let summary = "a buffer the schedule owns";
  let description = [{
    An internal buffer: allocated once with the executable, the same memory
    on every run (unlike the schedule's buffer arguments).
  }];
  let results = (outs HCQ_AnyBuffer:$result);
  let assemblyFormat = "attr-dict `:` qualified(type($result))";
}

def HCQ_ViewOp : HCQ_Op<"view", [Pure, HCQ_InExecutable]> {
  let summary = "a view of a buffer at an element offset";
  let description = [{
    `%v = hcq.view %b[16] : !hcq.buffer<64xf32, CPU:0> -> !hcq.buffer<8xf32, CPU:0>`
    is elements 16..23 of `%b`. The offset counts elements of the source;
    the view may reinterpret the bytes as another element type
    (`-> !hcq.buffer<32xi8, CPU:0>`). It is on the source's devices and lies
    within it. Dependencies are tracked on the byte range of the underlying
    buffer, so disjoint views do not wait on each other.
  }];
  let arguments = (ins HCQ_AnyBuffer:$source, HCQ_NonNegativeI64Prop:$offset);
  let results = (outs HCQ_AnyBuffer:$result);
  let assemblyFormat = [{
    $source `[` $offset `]` attr-dict `:` qualified(type($source)) `->`
    qualified(type($result))
  }];
  let hasVerifier = 1;
}

def HCQ_LaunchOp : HCQ_Op<"launch", [
    HCQ_InSubmit, HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_QueueCallOpInterface>,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>,
    DeclareOpInterfaceMethods<SymbolUserOpInterface>]> {
  let summary = "a kernel launch";
  let description = [{
    Launches `kernel` on a grid of `global` workgroups of `local` threads.
    Each grid dimension is at most 2^32 - 1 workgroups (AMD's
    DISPATCH_DIRECT takes 32-bit dimensions; a CPU kernel gets uint32_t
    coordinates), and a workgroup at most 1024 work-items in each dimension
    and in all (the AMDGPU maximum flat workgroup size); the verifier
    refuses more rather than let an encoder truncate it.
    The buffer operands match the kernel's signature in number and element
    type; which are read and which written comes from the kernel, and so do
    its memory effects (both, on every buffer, when the kernel cannot be
    found). It also writes its queue's timeline (the `hcq.queue` resource):
    every launch the schedule names runs, one that only reads included, so
    no pass erases one as dead. `vars`
    are the kernel's scalars, as many as it declares: each is an argument of
    the schedule (a bound variable, written into the kernel arguments every
    run) or a constant (folded into them when encoded); anything else is
    refused. Scalars are integers or f32 / f64, passed as their bits: 32-bit
    scalars take 4 bytes of an AMD kernel's arguments, 64-bit ones 8; a CPU
    kernel gets each in a 64-bit word (an integer sign-extended, a float's
    bits in the low half for f32). Enqueued on the first non-CPU device of its buffers (seed
    section 2).

    Written `hcq.launch @k(%a, %b : !t, !t) vars(%n : i32) global [4, 1, 1]
    local [64, 1, 1]`: the buffers in parentheses, the scalars, if any,
    after `vars`. The operands (`args`) are the buffers, then the scalars;
    their types tell them apart, so the op needs no segment sizes (MLIR's
    verifier turns those into a uniqued attribute at every check of an op).
  }];
  let arguments = (ins FlatSymbolRefAttr:$kernel,
                       Variadic<AnyTypeOf<[HCQ_AnyBuffer, AnySignlessIntegerOrIndex,
                                           F32, F64]>>:$args,
                       DenseI64ArrayAttr:$global_size,
                       DenseI64ArrayAttr:$local_size);
  let assemblyFormat = [{
    $kernel `` custom<LaunchArgs>($args, type($args))
    `global` $global_size `local` $local_size attr-dict
  }];
  let builders = [
    OpBuilder<(ins "::mlir::FlatSymbolRefAttr":$kernel,
                   "::mlir::ValueRange":$buffers, "::mlir::ValueRange":$vars,
                   "::mlir::DenseI64ArrayAttr":$global_size,
                   "::mlir::DenseI64ArrayAttr":$local_size)>
  ];
  let extraClassDeclaration = [{
    /// The buffer operands: every operand before the trailing scalars.
    ::mlir::Operation::operand_range getBuffers();
    /// The scalar operands (bound variables and constants): the operands
    /// after the last buffer.
    ::mlir::Operation::operand_range getVars();
    /// The kernel this launch names, or null. It is looked up in
    /// `symbolTable` when the caller knows the launch's nearest symbol table
    /// (the same for every launch of a schedule), else in the one found past
    /// the submits and schedules around the launch, which are not symbol
    /// tables (finding a table otherwise asks each op on the way for its
    /// traits, a slow call).
    KernelOp lookupKernel(::mlir::SymbolTableCollection &symbols,
                          ::mlir::Operation *symbolTable = nullptr);
  }];
  let hasVerifier = 1;
}

def HCQ_CopyOp : HCQ_Op<"copy", [HCQ_InSubmit, HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_QueueCallOpInterface>,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>,
    DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "a copy of a byte range between two buffers";
  let description = [{
    `hcq.copy %dst[doff, n], %src[soff, n]` copies `n` bytes: its memory
    effects read the source, write the destination and write its queue's
    timeline (the `hcq.queue` resource, as a launch). Both ranges
    have the same size and lie within their buffers. Lanes: with as many on
    both sides, lane `i` of the source goes into lane `i` of the destination
    (whatever the devices); a source on one device goes into every lane of
    the destination (a broadcast). Anything else (several lanes into one,
    or different counts above one) is refused: which lane lands would be
    ambiguous. Enqueued on the source's devices (pushing is faster than
    pulling), a broadcast on the destination's, a non-CPU device winning
    (as `hcq-batch-deps` places calls).
  }];
  let arguments = (ins HCQ_AnyBuffer:$dst, I64Prop:$dst_offset,
                       I64Prop:$dst_size, HCQ_AnyBuffer:$src,
                       I64Prop:$src_offset, I64Prop:$src_size);
  let assemblyFormat = [{
    $dst `[` $dst_offset `,` $dst_size `]` `,`
    $src `[` $src_offset `,` $src_size `]` attr-dict `:`
    qualified(type($dst)) `,` qualified(type($src))
  }];
  let hasVerifier = 1;
}

def HCQ_HostCallOp : HCQ_Op<"host_call", [HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>]> {
  let summary = "an opaque host function call";
  let description = [{
    Work the command queues cannot run (the seed's non-enqueueable calls):
    it ends the current batch and stays in place, executed by the host in
    schedule order.
  }];
  let arguments = (ins StrAttr:$callee, Variadic<AnyType>:$operands);
  let assemblyFormat = [{
    $callee `(` ($operands^ `:` qualified(type($operands)))? `)` attr-dict
  }];
}

//===----------------------------------------------------------------------===//
// Placeholders
//===----------------------------------------------------------------------===//

def HCQ_PlaceholderOp : HCQ_Op<"placeholder", [Pure, HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_LinkTimeMemoryOpInterface>]> {
  let summary = "a buffer that exists only once linked";
  let description = [{
    A compiler-made buffer: a signal, the device timeline, a command
    buffer, a table. Its identity is its attributes and type (tag, slot,
    size, element type, devices), so the op is pure and `cse` merges equal
    placeholders, as tinygrad's hash-consed placeholders are one buffer.
    `volatile` marks memory another agent writes (signals): never cached.

    Its tag fixes whose memory it is (`abi::getPlaceholderScope` in
    include/HCQ/Runtime/ABI.h), and the syntax says so:

    * `slot N`: the executable's own memory, one per (tag, slot, device)
      within the executable (queue signals, epochs, timestamps, staging,
      command buffers, kernel arguments, tables);
    * `device`: the device's memory, one per (tag, device) for the whole
      process, shared by every executable loaded on that device
      (`timeline_signal`, `timeline_value`, `sentinel_signal`, `scratch`,
      `event_mailbox`);
    * `interrupt_event device`: not memory but a number the device gives,
      the event its interrupts carry (the AMD encoder writes it into the
      `event_mailbox` and the interrupt after each timeline store the host
      may sleep on);
    * `host_function slot N`: not memory but the runtime's entry function
      `N` (docs/cpu-queue.md).

    ```mlir
    %s = hcq.placeholder signal slot 3 volatile : !hcq.buffer<1xi64, AMD:0>
    %t = hcq.placeholder timeline_signal device volatile : !hcq.buffer<1xi64, AMD:0>
    ```
  }];
  let arguments = (ins EnumProp<HCQ_PlaceholderTag>:$tag, HCQ_NonNegativeI64Prop:$slot,
                       UnitProp:$is_volatile);
  let results = (outs HCQ_AnyBuffer:$result);
  let assemblyFormat = [{
    $tag custom<PlaceholderSlot>(ref($tag), $slot)
    (`volatile` $is_volatile^)? attr-dict `:` qualified(type($result))
  }];
  let extraClassDeclaration = [{
    /// Whether its memory is the device's, shared by every executable.
    bool isDeviceScoped();
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Submits (hcq-batch-deps)
//===----------------------------------------------------------------------===//

def HCQ_SubmitOp : HCQ_Op<"submit", [NoTerminator, SingleBlock]> {
  let summary = "commands for one (devices, queue), in order";
  let description = [{
    The body runs on `queue` of every device of the tuple, one lane per
    device. It holds `hcq.wait`, `hcq.store`, `hcq.barrier`,
    `hcq.timestamp` and the calls (`hcq.launch`, `hcq.copy`); after
    encoding, `hcq.cmds`.
  }];
  let arguments = (ins HCQ_DevicesAttr:$devices, HCQ_QueueAttr:$queue);
  let regions = (region SizedRegion<1>:$body);
  let assemblyFormat = [{
    `on` custom<Devices>($devices) `queue` custom<Queue>($queue)
    attr-dict-with-keyword $body
  }];
  let hasVerifier = 1;
}

class HCQ_SignalOp<string mnemonic> : HCQ_Op<mnemonic,
    [HasParent<"SubmitOp">, HCQ_InSubmit]> {
  // One operand list: the signals, then the value buffer when
  // `has_value_buffer` says there is one. Two operand groups would need
  // segment sizes, which MLIR's verifier turns into a uniqued attribute at
  // every check of an op (tens of thousands of waits and stores).
  let arguments = (ins Variadic<HCQ_AnyBuffer>:$args,
                       UnitProp:$has_value_buffer, I64Prop:$value);
  let hasVerifier = 1;
  let hasCustomAssemblyFormat = 1;
  let builders = [
    OpBuilder<(ins "::mlir::ValueRange":$signals,
                   "::mlir::Value":$value_buffer, "int64_t":$value), [{
      $_state.addOperands(signals);
      if (value_buffer)
        $_state.addOperands(value_buffer);
      auto &props = $_state.getOrAddProperties<Properties>();
      props.setHasValueBuffer(static_cast<bool>(value_buffer));
      props.setValue(value);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The signals: every operand but the value buffer.
    ::mlir::Operation::operand_range getSignals() {
      return getHasValueBuffer() && !getArgs().empty() ? getArgs().drop_back()
                                                       : getArgs();
    }
    /// The placeholder whose host value is added to `value`, or null.
    ::mlir::Value getValueBuffer() {
      return getHasValueBuffer() && !getArgs().empty() ? getArgs().back()
                                                       : ::mlir::Value();
    }
  }];
}

def HCQ_WaitOp : HCQ_SignalOp<"wait"> {
  let summary = "wait until a signal reaches a value";
  let description = [{
    `hcq.wait %s >= 5` stalls the queue until the 64-bit signal `%s` is at
    least 5. Multi-lane: one signal per lane (`hcq.wait %a, %b >= 5`), or
    one for all. The value is a constant, or the host value in a
    placeholder plus a constant (`>= [%tlv : !t] - 1`), read at submit
    time: that is how the first submit waits for the device timeline.

    The operands (`args`) are the signals, then the value buffer if
    `has_value_buffer`.
  }];
}

def HCQ_StoreOp : HCQ_SignalOp<"store"> {
  let summary = "store a value into a signal when prior work is done";
  let description = [{
    `hcq.store %s = 5` writes 5 into `%s` once everything before it on the
    queue has completed. Values and operands as for `hcq.wait`.
  }];
}

def HCQ_BarrierOp : HCQ_Op<"barrier", [HasParent<"SubmitOp">,
                                         HCQ_InSubmit]> {
  let summary = "a memory barrier: make prior writes visible";
  let description = [{
    Flushes and invalidates caches so the queue sees memory written before
    this submit (HDP flush and ACQUIRE_MEM on AMD).
  }];
  let assemblyFormat = "attr-dict";
}

def HCQ_TimestampOp : HCQ_Op<"timestamp", [HasParent<"SubmitOp">,
                                             HCQ_InSubmit]> {
  let summary = "write the device clock into a placeholder";
  let description = [{
    With profiling on, each call is bracketed by two timestamps; the
    runtime turns their difference into the call's duration. One slot per
    lane, or one for all.
  }];
  let arguments = (ins Variadic<HCQ_AnyBuffer>:$slots);
  let assemblyFormat = "$slots attr-dict `:` qualified(type($slots))";
  let hasVerifier = 1;
}

def HCQ_ProfileOp : HCQ_Op<"profile", [HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>]> {
  let summary = "names the call a pair of timestamps brackets";
  let description = [{
    With profiling on, `hcq-batch-deps` brackets each call with two
    `hcq.timestamp`s into the `timestamp` placeholders `start` and `end`;
    this op says which call they time: `name` (the kernel's symbol name, or
    `copy`) on `queue` of the placeholders' devices. It stays in the
    schedule, and the executable, so the runtime can read every pair back as
    a named duration per lane (hcq-run writes them as a Chrome trace).

    ```mlir
    hcq.profile "vadd" %t0, %t1 queue COMPUTE:0 : !hcq.buffer<1xi64, AMD:0>, !hcq.buffer<1xi64, AMD:0>
    ```
  }];
  let arguments = (ins StrAttr:$name, HCQ_AnyBuffer:$start,
                       HCQ_AnyBuffer:$end, HCQ_QueueAttr:$queue);
  let assemblyFormat = [{
    $name $start `,` $end `queue` custom<Queue>($queue) attr-dict `:`
    qualified(type($start)) `,` qualified(type($end))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Host ops (hcq-batch-deps)
//===----------------------------------------------------------------------===//

def HCQ_FenceOp : HCQ_Op<"fence", [
    DeclareOpInterfaceMethods<HCQ_SubmitterStepOpInterface>]> {
  let summary = "host: wait until the device timeline reaches an epoch";
  let description = [{
    `hcq.fence %timeline reaches %epoch`: the host spins until
    `*timeline >= *epoch`, so the previous run of this schedule is done with
    the buffers this run reuses.
  }];
  let arguments = (ins HCQ_AnyBuffer:$timeline, HCQ_AnyBuffer:$epoch);
  let assemblyFormat = [{
    $timeline `reaches` $epoch attr-dict `:` qualified(type($timeline))
    `,` qualified(type($epoch))
  }];
  let hasVerifier = 1;
}

def HCQ_ResetOp : HCQ_Op<"reset", [
    DeclareOpInterfaceMethods<HCQ_SubmitterStepOpInterface>]> {
  let summary = "host: zero queue signals";
  let arguments = (ins Variadic<HCQ_AnyBuffer>:$signals);
  let assemblyFormat = "$signals attr-dict `:` qualified(type($signals))";
  let hasVerifier = 1;
}

def HCQ_FinalizeOp : HCQ_Op<"finalize", [
    DeclareOpInterfaceMethods<HCQ_SubmitterStepOpInterface>]> {
  let summary = "host: record the epoch and bump the timeline";
  let description = [{
    After the device group's finalizer submit: `*epoch = *timeline_value`,
    then `*timeline_value += 1`. The next run's fence waits for that epoch.
  }];
  let arguments = (ins HCQ_AnyBuffer:$timeline_value, HCQ_AnyBuffer:$epoch);
  let assemblyFormat = [{
    $timeline_value `,` $epoch attr-dict `:`
    qualified(type($timeline_value)) `,` qualified(type($epoch))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Command words (hcq-encode)
//===----------------------------------------------------------------------===//

// Encoded data lives in op properties, not in attributes uniqued by the
// context (HCQ/Dialect/Words.h).
// Dense 32-bit units, in bytecode one blob of bytes (hcq::writeDenseUnits).
class HCQ_DenseUnitsProp<string summary> : IntArrayProp<I32Prop, summary> {
  let writeToMlirBytecode = "::hcq::writeDenseUnits($_writer, $_storage)";
  let readFromMlirBytecode = [{
    if (::mlir::failed(::hcq::readDenseUnits($_reader, $_storage)))
      return ::mlir::failure();
  }];
}
def HCQ_WordsProp : HCQ_DenseUnitsProp<
    "every word's constant bits in 32-bit units, a 64-bit word low half "
    "first (0 where a symbolic word stands)">;
// A table of symbolic words, one hcq::SymbolEntry each (an address's or
// load's lo and hi halves one entry; HCQ/Dialect/Words.h): dense op-local
// structs, nothing uniqued. The attribute form, for the generic syntax, is
// an array<i64> of four integers an entry (HCQ/Dialect/HCQ.h); bytecode
// writes the same integers.
class HCQ_SymbolTableProp<string what> : Property<"::hcq::SymbolEntries",
    "a table of symbolic words (HCQ/Dialect/Words.h)",
    "const ::hcq::SymbolEntries &"> {
  let convertFromStorage = "$_storage";
  let assignToStorage = "$_storage = $_value";
  let convertToAttribute = [{
    return ::hcq::getSymbolsAttr($_ctxt, $_storage);
  }];
  let convertFromAttribute = [{
    return ::hcq::setSymbolsFromAttr($_storage, $_attr, $_diag,
                                     "}] # what # [{");
  }];
  let hashProperty = "::hcq::hash_value($_storage)";
  let writeToMlirBytecode = "::hcq::writeSymbols($_writer, $_storage)";
  let readFromMlirBytecode = [{
    if (::mlir::failed(::hcq::readSymbols($_reader, $_storage)))
      return ::mlir::failure();
  }];
}
def HCQ_SymbolsProp : HCQ_SymbolTableProp<"symbols table">;
def HCQ_PatchesProp : HCQ_SymbolTableProp<"patch table">;
// One command word (hcq::Word), stored as it is; its attribute and
// bytecode forms are a symbol entry's at 0.
def HCQ_WordProp : Property<"::hcq::Word", "a command word"> {
  let convertToAttribute = [{
    return ::hcq::getWordPropAttr($_ctxt, $_storage);
  }];
  let convertFromAttribute = [{
    return ::hcq::setWordPropFromAttr($_storage, $_attr, $_diag);
  }];
  let hashProperty = "::hcq::hash_value($_storage)";
  let writeToMlirBytecode = "::hcq::writeWordProp($_writer, $_storage)";
  let readFromMlirBytecode = [{
    if (::mlir::failed(::hcq::readWordProp($_reader, $_storage)))
      return ::mlir::failure();
  }];
}
def HCQ_DwordsProp : HCQ_DenseUnitsProp<"dwords">;
def HCQ_SegmentsProp : IntArrayProp<I32Prop,
    "the word index where each segment after the first starts">;

def HCQ_CmdsOp : HCQ_Op<"cmds", [HCQ_InSubmit]> {
  let summary = "a stream of command words";
  let description = [{
    Words of `word_bits` (32 for PM4 and SDMA, 64 for CPU entries). A word
    is a constant (`0xc0053c00`), the address of a buffer operand plus a
    byte offset (`addr(%b + 8)`, or its `lo`/`hi` half in a 32-bit stream,
    optionally shifted: `lo(%prog + 0 >> 8)`), a bound variable
    (`var(%n)`), or the host value of a placeholder plus an addend
    (`load(%tlv - 1)`); any of them may OR in constant bits
    (`hi(%s) | 0x80000000`). An address of a placeholder resolves at link
    time, of a schedule input per run; variables and loads per run. A word
    of a multi-device submit may name one operand per lane
    (`lo([%producer, %sentinel])`: lane 0 polls a producer's signal, lane 1
    the sentinel).

    With tag `cmdbuf` the words are the submit's queue stream. Any other
    tag (`kernargs`) makes an indirect stream whose `!hcq.linear` result
    other words take the address of. An indirect stream may have several
    segments, each in its own brackets: each starts 128-byte aligned in the
    stream's memory, after the padded segments before it. The encoders put
    the kernel arguments of every launch of a submit in one stream, a
    segment per launch, so a launch is not an op of its own.

    ```mlir
    %k = hcq.cmds kernargs i64 [addr(%x), var(%n)] [addr(%y)] : !hcq.buffer<4xf32, AMD:0>, i32, !hcq.buffer<4xf32, AMD:0>
    hcq.cmds cmdbuf i32 [0xc0023f00, lo(%k + 0), hi(%k + 0), lo(%k + 128), hi(%k + 128)] : !hcq.linear
    ```
  }];
  let arguments = (ins EnumProp<HCQ_PlaceholderTag>:$tag, HCQ_WordBitsProp:$word_bits,
                       HCQ_WordsProp:$words, HCQ_SymbolsProp:$symbols,
                       HCQ_SegmentsProp:$segments,
                       Variadic<AnyType>:$refs);
  let results = (outs Optional<HCQ_LinearType>:$linear);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
  let extraClassDeclaration = [{
    /// The words, dense and symbolic (HCQ/Dialect/Words.h).
    ::hcq::WordStream getStream() {
      return ::hcq::WordStream(getWords(), getSymbols(), getWordBits(),
                               getSegments());
    }
    size_t getNumWords() { return getStream().size(); }
  }];
}

//===----------------------------------------------------------------------===//
// Blobs and patches (hcq-seal)
//===----------------------------------------------------------------------===//

def HCQ_BlobOp : HCQ_Op<"blob", [HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>]> {
  let summary = "bytes to write into a placeholder at link time";
  let description = [{
    `data` (dwords, little-endian) is written at offset 0 of `target`, then
    each link-time patch: `at: word` writes the word at byte offset `at`.
    A patch word takes the address of a placeholder operand (64 bits, or 32
    for `lo`/`hi`). Unknown bytes are `0xbe`, padding `0xbf`. Once linked
    (`hcq-link`), a blob of a multi-device target may hold one `lane`'s
    bytes only.

    Data of more than 100 dwords prints as one string of 8 hex digits a
    dword, in order, parsed in bulk: `hex "c0053c00bebebebe..."`. The limit
    is MLIR's for elements attributes, so
    `--mlir-print-elementsattrs-with-hex-if-larger=N` sets it (-1: always
    a list). Either form parses.

    ```mlir
    hcq.blob %cb = [0xc0053c00, 0xbebebebe] patches [4: lo(%s + 0)] : !t, !s
    ```
  }];
  let arguments = (ins HCQ_AnyBuffer:$target, HCQ_DwordsProp:$data,
                       HCQ_PatchesProp:$patches, Variadic<AnyType>:$refs,
                       OptionalProp<I32Prop>:$lane);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def HCQ_InputsOp : HCQ_Op<"inputs", [HCQ_InExecutable,
    DeclareOpInterfaceMethods<HCQ_ExecutableRecordOpInterface>]> {
  let summary = "what each slot of an inputs table holds";
  let description = [{
    Slot `i` of the inputs placeholder `table` holds, each run, the address
    of lane `lanes[i]` of input `inputs[i]`. The runtime writes the table;
    `hcq.patch_group` copies from it into blobs.
  }];
  let arguments = (ins HCQ_AnyBuffer:$table, Variadic<HCQ_AnyBuffer>:$inputs,
                       DenseI32ArrayAttr:$lanes);
  let assemblyFormat = [{
    $table `=` `[` $inputs `]` `lanes` $lanes attr-dict `:`
    qualified(type($table)) `,` qualified(type($inputs))
  }];
  let hasVerifier = 1;
}

def HCQ_PatchGroupOp : HCQ_Op<"patch_group", [
    DeclareOpInterfaceMethods<HCQ_SubmitterStepOpInterface>]> {
  let summary = "run-time patches: one loop over an offset-table range";
  let description = [{
    Each run, for every entry `e` in `start .. start + count - 1` of the
    offset table (pairs of `u32`: a byte offset into `target`, an
    inputs-table slot), writes the `bits`-wide `word` at that offset of
    `target`. The word's one operand is its `source`:

    * `lo(%inputs + 8)`: an address from the inputs table, at the entry's
      slot (plus the lane, on a multi-device target), plus 8, low half;
    * `var(%n)`: a bound variable;
    * `load.lo(%timeline_value - 1)`: a host value plus an addend.

    Every entry of a group writes the same kind of value, so one loop writes
    each group; `count` is the group's length, a bound value of the run.

    ```mlir
    hcq.patch_group %cb offsets %off[0, 2] i32 lo(%in) : !hcq.buffer<256xi8, AMD:0>, !hcq.buffer<8xi32, CPU:0>, !hcq.buffer<2xi64, CPU:0>
    ```
  }];
  let arguments = (ins HCQ_AnyBuffer:$target, HCQ_AnyBuffer:$offsets,
                       HCQ_NonNegativeI64Prop:$start, HCQ_PositiveI64Prop:$count,
                       HCQ_WordBitsProp:$bits,
                       HCQ_WordProp:$word, AnyType:$source);
  let hasCustomAssemblyFormat = 1;
  let hasVerifier = 1;
}

def HCQ_EnqueueOp : HCQ_Op<"enqueue"> {
  let summary = "host: push a sealed command buffer onto a queue";
  let description = [{
    What a submit becomes once sealed: the first `size` bytes of the
    command-buffer placeholder are pushed onto `queue` of each device.
  }];
  let arguments = (ins HCQ_AnyBuffer:$cmdbuf, I64Prop:$size,
                       HCQ_DevicesAttr:$devices, HCQ_QueueAttr:$queue);
  let assemblyFormat = [{
    $cmdbuf `[` $size `]` `on` custom<Devices>($devices) `queue`
    custom<Queue>($queue) attr-dict `:` qualified(type($cmdbuf))
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Queue pushes (hcq-lower-submit)
//===----------------------------------------------------------------------===//

def HCQ_PushOp : HCQ_Op<"push", [
    DeclareOpInterfaceMethods<HCQ_SubmitterStepOpInterface>]> {
  let summary = "host: put commands on a device queue and publish them";
  let description = [{
    What an `hcq.enqueue` becomes once lowered for its backend: the first
    `size` bytes of `source` go onto `queue` of each device of `devices`
    (one lane each). The queue is the device's, owned by the runtime for the
    whole process: its ring, read and write pointers and doorbell are what a
    kernel-driver queue has, so the executable names the queue, not its
    memory. `mode` says how the ring takes the bytes:

    * `pm4` (AMD compute): `source` is an INDIRECT_BUFFER packet pointing at
      the command buffer; the ring and pointers count dwords and the copy
      wraps around the ring's end;
    * `sdma` (AMD copy): `source` is the command buffer itself; pointers
      count bytes; a push that does not fit before the ring's end zeroes the
      tail (SDMA NOPs) and starts again at offset 0;
    * `cpu`: `source` holds CPU queue entries; the host waits until the
      worker's read pointer leaves room, copies the entries, publishes the
      write pointer, and wakes the worker only if it sleeps: at most one
      wake per push, never one per entry.

    ```mlir
    hcq.push %ib[16] pm4 on AMD:0 queue COMPUTE:0 : !hcq.buffer<128xi8, AMD:0>
    ```
  }];
  let arguments = (ins HCQ_AnyBuffer:$source, I64Prop:$size,
                       EnumProp<HCQ_PushMode>:$mode, HCQ_DevicesAttr:$devices,
                       HCQ_QueueAttr:$queue);
  let assemblyFormat = [{
    $source `[` $size `]` $mode `on` custom<Devices>($devices) `queue`
    custom<Queue>($queue) attr-dict `:` qualified(type($source))
  }];
  let hasVerifier = 1;
}

#endif // HCQ_OPS_TD
