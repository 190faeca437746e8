// Truncated and garbage input files: a diagnostic and a non-zero exit, never a
// crash. `not` fails the test on a crash (it expects a plain non-zero exit).

// Tests that a text file cut mid-op is reported at its end.
// RUN: grep -v '^//' %s | head -c 150 > %t.cut
// RUN: not hcq-opt %t.cut 2>&1 | FileCheck %s --check-prefix=CUT
// CUT: error: unbalanced

// Tests that binary garbage is reported, not crashed on.
// RUN: printf '\x00\xff\xfe garbage \x01\x02' > %t.bin
// RUN: not hcq-opt %t.bin 2>&1 | FileCheck %s --check-prefix=GARBAGE
// GARBAGE: error:

// Tests that truncated bytecode is reported.
// RUN: hcq-opt %s --emit-bytecode -o %t.bc
// RUN: hcq-opt %t.bc | FileCheck %s --check-prefix=BC
// BC-LABEL: hcq.schedule @s
// RUN: head -c 60 %t.bc > %t.bc.cut
// RUN: not hcq-opt %t.bc.cut 2>&1 | FileCheck %s --check-prefix=BCCUT
// BCCUT: error:

// Tests that an empty file is an empty module.
// RUN: printf '' > %t.empty
// RUN: hcq-opt %t.empty | FileCheck %s --check-prefix=EMPTY
// EMPTY: module {

// Tests that a missing file is reported.
// RUN: not hcq-opt %t.does-not-exist 2>&1 | FileCheck %s --check-prefix=MISSING
// MISSING: cannot open input file

hcq.kernel @k cpu (write f32, read f32) symbol "k" library "libk.so"
hcq.schedule @s(%a: !hcq.buffer<16xf32, CPU:0>, %b: !hcq.buffer<16xf32, AMD:0>) {
  hcq.launch @k(%a, %a : !hcq.buffer<16xf32, CPU:0>, !hcq.buffer<16xf32, CPU:0>) global [1, 1, 1] local [1, 1, 1]
  hcq.copy %b[0, 64], %a[0, 64] : !hcq.buffer<16xf32, AMD:0>, !hcq.buffer<16xf32, CPU:0>
}
