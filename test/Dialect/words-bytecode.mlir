// Tests that the symbol tables and words of the encoded and sealed ops
// (hcq.cmds `symbols`, hcq.blob `patches`, hcq.patch_group's word) are
// written to bytecode and read back unchanged: the pipeline's executable,
// and the same schedule stopped after hcq-encode, print the same text once
// through bytecode.
// RUN: hcq-opt %s --hcq-pipeline -o %t.exe.mlir
// RUN: hcq-opt %t.exe.mlir --emit-bytecode -o %t.exe.mlirbc
// RUN: hcq-opt %t.exe.mlirbc -o %t.exe.again.mlir
// RUN: diff %t.exe.mlir %t.exe.again.mlir
// RUN: FileCheck %s --check-prefix=EXE < %t.exe.mlir
// RUN: hcq-opt %s --hcq-stage-copies --hcq-attach-targets --hcq-materialize-builtins --hcq-batch-deps --hcq-encode -o %t.cmds.mlir
// RUN: hcq-opt %t.cmds.mlir --emit-bytecode | hcq-opt -o %t.cmds.again.mlir
// RUN: diff %t.cmds.mlir %t.cmds.again.mlir
// RUN: FileCheck %s --check-prefix=CMDS < %t.cmds.mlir
// EXE: hcq.blob {{.*}} patches [{{[0-9]+}}: addr(
// EXE: hcq.patch_group
// CMDS: hcq.cmds cmdbuf i64 [{{.*}}addr(

hcq.kernel @vadd cpu (write f32, read f32, read f32) symbol "vadd" library "libkernels.so"

hcq.schedule @s(%a: !hcq.buffer<64xf32, CPU:0>, %b: !hcq.buffer<64xf32, CPU:0>, %c: !hcq.buffer<64xf32, CPU:0>) {
  hcq.launch @vadd(%c, %a, %b : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %a[0, 256], %c[0, 256] : !hcq.buffer<64xf32, CPU:0>, !hcq.buffer<64xf32, CPU:0>
}
