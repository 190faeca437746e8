//===- AsmUtils.h - Shared parsing and printing helpers ---------*- C++ -*-===//
//
// The pieces of HCQ syntax that several attributes, types and ops share:
// device tuples (`AMD:0`, `[AMD:0, AMD:1]`) and queues (`COMPUTE:0`).
//
//===----------------------------------------------------------------------===//

#ifndef HCQ_DIALECT_ASMUTILS_H
#define HCQ_DIALECT_ASMUTILS_H

#include "HCQ/Dialect/HCQ.h"

namespace hcq {

/// Parses `KIND` or `KIND:N` into a device attribute.
mlir::ParseResult parseDeviceName(mlir::AsmParser &parser, DeviceAttr &device);
void printDeviceName(mlir::AsmPrinter &printer, DeviceAttr device);

/// Parses a device tuple: one device, or a bracketed list of them.
mlir::ParseResult parseDeviceTuple(mlir::AsmParser &parser,
                                   DevicesAttr &devices);
void printDeviceTuple(mlir::AsmPrinter &printer, DevicesAttr devices);

/// Parses `KIND` or `KIND:N` into a queue attribute.
mlir::ParseResult parseQueueName(mlir::AsmParser &parser, QueueAttr &queue);
void printQueueName(mlir::AsmPrinter &printer, QueueAttr queue);

} // namespace hcq

#endif // HCQ_DIALECT_ASMUTILS_H
