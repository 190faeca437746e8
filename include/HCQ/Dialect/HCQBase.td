//===- HCQBase.td - HCQ dialect definition and enums --------*- tablegen -*-===//

#ifndef HCQ_BASE_TD
#define HCQ_BASE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"
include "mlir/IR/Properties.td"

def HCQ_Dialect : Dialect {
  let name = "hcq";
  let cppNamespace = "::hcq";
  let summary = "Hardware command queues: schedules compiled to queue blobs";
  let description = [{
    The `hcq` dialect models a schedule of GPU kernel launches and copies
    and its lowering into pre-built hardware command-queue blobs that a thin
    runtime replays with a few host memory writes per kernel. It ports
    tinygrad's `hcq2.py`.

    The IR passes through these forms, each printable between passes:

    1. *Schedule* (input): `hcq.schedule` with buffer arguments, `hcq.alloc`,
       `hcq.view`, `hcq.launch` of an `hcq.kernel`, `hcq.copy` and opaque
       `hcq.host_call`.
    2. *Submits* (after `hcq-batch-deps`): `hcq.submit` regions on a
       (devices, queue) holding `hcq.wait`, `hcq.store`, `hcq.barrier`,
       `hcq.timestamp` and the calls, plus the host-side `hcq.fence`,
       `hcq.reset` and `hcq.finalize`. Signals and other compiler-made
       buffers are `hcq.placeholder` values.
    3. *Words* (after `hcq-encode`): `hcq.cmds` streams of command words.
    4. *Blobs* (after `hcq-seal`): `hcq.blob` with link-time patches,
       `hcq.patch_group` run-time patches through the `hcq.inputs` table,
       and `hcq.enqueue` of a sealed command buffer.
    5. *Executable*: `hcq.executable`, the container the runtime loads.

    A schedule names its `targets`, what its submits compile for (one
    target attribute per device kind: `targets [#hcq.amd_target<chip =
    "gfx1100">, #hcq.cpu_target]`, attached by hcq-attach-targets), and
    hands them on to its executable.

    A schedule or executable argument may carry `hcq.access` ("read",
    "write" or "readwrite"): how the schedule uses that buffer, which
    `hcq-batch-deps` records and the executable file passes on to runners.
  }];
  let hasRegionArgAttrVerify = 1;
  let hasOperationAttrVerify = 1;
  let useDefaultAttributePrinterParser = 1;
  // Types are parsed through a cache of their text (HCQDialect::parseType).
  let useDefaultTypePrinterParser = 0;
  let extraClassDeclaration = [{
    ::mlir::Type parseType(::mlir::DialectAsmParser &parser) const override;
    void printType(::mlir::Type type,
                   ::mlir::DialectAsmPrinter &printer) const override;

    /// Sets what a pass calls after it freed much of what it holds, part
    /// way through (hcq-encode, every 65,536 ops it erased as it encoded
    /// them): the application's way to give freed
    /// memory back to the system before the pass allocates more, as an
    /// allocator keeps freed pages by default. None unless set. Set it
    /// before running passes, not while they run; it is called on the
    /// threads the passes run on, at once from passes on different
    /// schedules, so it must be thread-safe. hcq-opt sets glibc's
    /// malloc_trim (--release-freed-memory).
    void setReleaseFreedMemory(std::function<void()> release) {
      releaseFreedMemoryHook = std::move(release);
    }
    /// What passes call: the hook, if one is set.
    void releaseFreedMemory() const {
      if (releaseFreedMemoryHook)
        releaseFreedMemoryHook();
    }

  private:
    std::function<void()> releaseFreedMemoryHook;
    /// Each type parsed so far, by its text (`buffer<1024xf32, AMD:0>`):
    /// a schedule names a few types, each once per operand of every call.
    mutable ::llvm::sys::SmartMutex<true> parsedTypesMutex;
    mutable ::llvm::StringMap<::mlir::Type> parsedTypes;
  }];
}

class HCQ_Op<string mnemonic, list<Trait> traits = []>
    : Op<HCQ_Dialect, mnemonic, traits>;

/// A signless i64 attribute read as int64_t, so verifiers can reject negative
/// sizes and offsets with a clear message instead of seeing huge unsigned ones.
def HCQ_I64Attr : TypedSignlessIntegerAttrBase<I64, "int64_t",
    "64-bit signless integer attribute"> {
  let convertFromStorage = "$_self.getValue().getSExtValue()";
}

//===----------------------------------------------------------------------===//
// Scalar properties, their ranges checked by ODS
//===----------------------------------------------------------------------===//

def HCQ_NonNegativeI64Prop : ConfinedProp<I64Prop, CPred<"$_self >= 0">,
    "a non-negative 64-bit integer">;
def HCQ_PositiveI64Prop : ConfinedProp<I64Prop, CPred<"$_self > 0">,
    "a positive 64-bit integer">;
/// The width of a stream's words or a patch: 32 or 64 bits.
def HCQ_WordBitsProp : ConfinedProp<I32Prop,
    CPred<"$_self == 32 || $_self == 64">, "32 or 64">;

//===----------------------------------------------------------------------===//
// Enums
//===----------------------------------------------------------------------===//

// The values of every enum below are the executable file's: each case is
// tied to include/HCQ/Runtime/ABI.h by a static_assert in HCQDialect.cpp.
def HCQ_PlaceholderTag : I32EnumAttr<"PlaceholderTag",
    "what a placeholder buffer becomes when linked", [
      I32EnumAttrCase<"signal", 0>,
      I32EnumAttrCase<"timeline_signal", 1>,
      I32EnumAttrCase<"timeline_value", 2>,
      I32EnumAttrCase<"epoch", 3>,
      I32EnumAttrCase<"sentinel_signal", 4>,
      I32EnumAttrCase<"timestamp", 5>,
      I32EnumAttrCase<"staging", 6>,
      I32EnumAttrCase<"cmdbuf", 7>,
      I32EnumAttrCase<"kernargs", 8>,
      I32EnumAttrCase<"program", 9>,
      I32EnumAttrCase<"scratch", 10>,
      I32EnumAttrCase<"inputs", 11>,
      I32EnumAttrCase<"offtbl", 12>,
      I32EnumAttrCase<"host_function", 13>,
      I32EnumAttrCase<"event_mailbox", 14>,
      I32EnumAttrCase<"interrupt_event", 15>]> {
  let cppNamespace = "::hcq";
}

def HCQ_KernelTarget : I32EnumAttr<"KernelTarget",
    "where a kernel's code comes from", [
      I32EnumAttrCase<"cpu", 0>,
      I32EnumAttrCase<"amd", 1>,
      I32EnumAttrCase<"builtin", 2>]> {
  let cppNamespace = "::hcq";
}

def HCQ_Access : I32EnumAttr<"Access", "how a kernel uses a buffer argument", [
      I32EnumAttrCase<"read", 1>,
      I32EnumAttrCase<"write", 2>,
      I32EnumAttrCase<"readwrite", 3>]> {
  let cppNamespace = "::hcq";
}

def HCQ_PushMode : I32EnumAttr<"PushMode", "how a queue's ring takes a push", [
      I32EnumAttrCase<"pm4", 0>,
      I32EnumAttrCase<"sdma", 1>,
      I32EnumAttrCase<"cpu", 2>]> {
  let cppNamespace = "::hcq";
}

#endif // HCQ_BASE_TD
