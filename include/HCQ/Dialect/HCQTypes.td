//===- HCQTypes.td - HCQ types -----------------------------*- tablegen -*-===//

#ifndef HCQ_TYPES_TD
#define HCQ_TYPES_TD

include "HCQ/Dialect/HCQAttrs.td"

class HCQ_Type<string name, string typeMnemonic, list<Trait> traits = []>
    : TypeDef<HCQ_Dialect, name, traits> {
  let mnemonic = typeMnemonic;
}

def HCQ_BufferType : HCQ_Type<"Buffer", "buffer"> {
  let summary = "a device buffer: element count, element type, devices";
  let description = [{
    `!hcq.buffer<1024xf32, AMD:0>` is 1024 `f32` elements on `AMD:0`;
    `!hcq.buffer<16xi8, [AMD:0, AMD:1]>` has one 16-byte allocation per
    lane. Element types are integers and floats of whole bytes. Schedule
    buffers, views, placeholders (signals, command buffers, tables) are all
    values of this type. The byte size per lane fits a signed 64-bit
    integer: the verifier refuses `!hcq.buffer<4611686018427387904xf32, ...>`,
    whose 2^64 bytes would wrap to 0.
  }];
  let parameters = (ins "int64_t":$numElements, "::mlir::Type":$elementType,
                        HCQ_DevicesAttr:$devices);
  let hasCustomAssemblyFormat = 1;
  let genVerifyDecl = 1;
  let extraClassDeclaration = [{
    /// Bytes per element.
    int64_t getElementBytes() const;
    /// Bytes per lane. Never overflows: the verifier refuses a type whose
    /// byte size does not fit int64_t (build computed types with getChecked).
    int64_t getByteSize() const { return getNumElements() * getElementBytes(); }
    size_t getNumLanes() const { return getDevices().size(); }
  }];
}

def HCQ_LinearType : HCQ_Type<"Linear", "linear"> {
  let summary = "an indirect command-word stream";
  let description = [{
    The value of an `hcq.cmds` with a tag other than `cmdbuf`, such as a
    kernel's `kernargs`: a stream whose address other words refer to.
    `hcq-seal` turns it into a placeholder of that tag.
  }];
}

def HCQ_AnyBuffer : Type<CPred<"::llvm::isa<::hcq::BufferType>($_self)">,
                         "hcq buffer", "::hcq::BufferType">;

#endif // HCQ_TYPES_TD
