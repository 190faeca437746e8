// hcq-run checks every --arg, --input, --output and --expected_output
// against the executable's arguments (how many, which, buffer or variable,
// element type, element count) before it opens a device or runs anything
// (issue 39): a wrong one is an error naming the argument by index and
// name, what it expected and what it was given, and exit status 1, where a
// wrong type ran and printed wrong numbers with exit status 0. No
// LD_LIBRARY_PATH in the refused runs: they never load the kernel library.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/cpu-chain.mlir | hcq-translate --hcq-to-executable -o %t/chain.hcqx

// Tests that a buffer of the wrong element type, or of another element
// count (more as well as fewer), is refused.
// RUN: not hcq-run %t/chain.hcqx --arg i32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=BUFTYPE
// BUFTYPE: error: argument 0 (%a: buffer 64xf32, read): --arg 'i32:64:arange' is i32, the argument f32
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:128:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=BUFCOUNT
// BUFCOUNT: error: argument 1 (%b: buffer 64xf32, read): --arg 'f32:128:fill=1' has 128 elements, the argument 64

// Tests that a variable of the wrong type (f32 bits for an i32, i64 for an
// i32) and a buffer for a variable are refused.
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg f32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=VARTYPE
// VARTYPE: error: argument 3 (%s: i32): --arg 'f32=2' is f32, the argument i32
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i64=64 2>&1 | FileCheck %s --check-prefix=VARI64
// VARI64: error: argument 4 (%n: i32): --arg 'i64=64' is i64, the argument i32
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32:1:fill=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=VARBUF
// VARBUF: error: argument 3 (%s: i32): --arg 'i32:1:fill=2' gives a buffer; the argument is a variable (give i32=V)
// RUN: not hcq-run %t/chain.hcqx --arg f32=1 2>&1 | FileCheck %s --check-prefix=BUFVAR
// BUFVAR: error: argument 0 (%a: buffer 64xf32, read): --arg 'f32=1' gives a variable; the argument is a buffer (give f32:64:INIT)
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2.5 --arg i32=64 2>&1 | FileCheck %s --check-prefix=VARVALUE
// VARVALUE: error: argument 3 (%s: i32): --arg 'i32=2.5' has a bad value '2.5'

// Tests that too few and too many arguments are refused, --arg and
// --input alike.
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --input=64xf32=1 --arg f32:1:fill=0 --arg i32=2 2>&1 | FileCheck %s --check-prefix=FEW
// FEW: error: @chain takes 5 arguments, given 4: argument 4 (%n: i32) has no --arg or --input
// RUN: not hcq-run %t/chain.hcqx --arg f32:64:arange --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 --input=i32=1 2>&1 | FileCheck %s --check-prefix=MANY
// MANY: error: --input 'i32=1' would be argument 5, and @chain takes 5 arguments

// Tests that --expected_output and --output are checked before the run:
// the value's type and element count against the output, the file's folder.
// RUN: not hcq-run %t/chain.hcqx --expected_output=1xi32=4160 2>&1 | FileCheck %s --check-prefix=EXPTYPE
// EXPTYPE: error: --expected_output '1xi32=4160' for output 0 (argument 2, %sum: buffer 1xf32, written) is i32, the output f32
// RUN: not hcq-run %t/chain.hcqx --expected_output=2xf32=1 2>&1 | FileCheck %s --check-prefix=EXPCOUNT
// EXPCOUNT: error: --expected_output '2xf32=1' for output 0 (argument 2, %sum: buffer 1xf32, written) has 2 elements, the output 1 (give one, for every element, or all)
// RUN: not hcq-run %t/chain.hcqx --expected_output=1xf32=x 2>&1 | FileCheck %s --check-prefix=EXPBAD
// EXPBAD: error: --expected_output '1xf32=x' for output 0 (argument 2, %sum: buffer 1xf32, written): bad value '1xf32=x': 'x' is not a number
// RUN: not hcq-run %t/chain.hcqx --output=@%t/no/such/folder/sum.npy 2>&1 | FileCheck %s --check-prefix=OUTDIR
// OUTDIR: error: --output '@{{.*}}/no/such/folder/sum.npy' for output 0 (argument 2, %sum: buffer 1xf32, written): cannot write into folder '{{.*}}/no/such/folder'

// Tests that an output on two devices is written and checked lane by lane:
// --output writes a (2, 4) .npy of both lanes, a matching
// --expected_output passes, and a mismatch names each lane and its device.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %S/Inputs/lanes-cpu.mlir --input=4xf32=1,2,3,4 --input=4xf32=0 --output=@%t/lanes.npy --expected_output=4xf32=2,4,6,8 2>&1 | FileCheck %s --check-prefix=LANES
// LANES-NOT: error
// LANES: arg 1 lane 0: 2 4 6 8
// LANES: arg 1 lane 1: 2 4 6 8
// RUN: %python -c "import struct,sys; d=open(sys.argv[1],'rb').read(); h=d[d.index(b'{'):d.index(b'}')+1].decode(); print(h, struct.unpack('<8f', d[-32:]))" %t/lanes.npy | FileCheck %s --check-prefix=LANESNPY
// LANESNPY: {'descr': '<f4', 'fortran_order': False, 'shape': (2, 4), } (2.0, 4.0, 6.0, 8.0, 2.0, 4.0, 6.0, 8.0)
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %S/Inputs/lanes-cpu.mlir --input=4xf32=1,2,3,4 --input=4xf32=0 --output=@%t/lanes.bin
// RUN: %python -c "import os,sys; print(os.path.getsize(sys.argv[1]))" %t/lanes.bin | FileCheck %s --check-prefix=LANESRAW
// LANESRAW: 32
// RUN: not env LD_LIBRARY_PATH=%inputs hcq-run %S/Inputs/lanes-cpu.mlir --input=4xf32=1,2,3,4 --input=4xf32=0 --expected_output=4xf32=2,4,6,9 2>&1 | FileCheck %s --check-prefix=LANEMISMATCH
// LANEMISMATCH: error: output 0 (%out: buffer 4xf32, written) lane 0 (CPU:0) is not as expected: element 3 is 8, expected 9
// LANEMISMATCH: error: output 0 (%out: buffer 4xf32, written) lane 1 (CPU:1) is not as expected: element 3 is 8, expected 9

// Tests that numbers a signed duration or an allocation cannot hold are
// refused by name.
// RUN: not hcq-run %t/chain.hcqx --ring-bytes=2147483648 2>&1 | FileCheck %s --check-prefix=RING
// RING: error: --ring-bytes must be at most 1073741824 (1 GiB), got 2147483648
// RUN: not hcq-run %t/chain.hcqx --workgroup-threads=0 2>&1 | FileCheck %s --check-prefix=WGTHREADS0
// WGTHREADS0: error: --workgroup-threads must be 1..1024, got 0
// RUN: not hcq-run %t/chain.hcqx --workgroup-threads=1025 2>&1 | FileCheck %s --check-prefix=WGTHREADS
// WGTHREADS: error: --workgroup-threads must be 1..1024, got 1025
// RUN: not hcq-run %t/chain.hcqx --timeout-ms=18446744073709551615 2>&1 | FileCheck %s --check-prefix=TIMEOUT
// TIMEOUT: error: --timeout-ms=18446744073709551615: not a number of the range 0..4294967295
// RUN: not hcq-run %t/chain.hcqx --device-timeout-ms=CPU:0=0 2>&1 | FileCheck %s --check-prefix=DEVTIMEOUT
// DEVTIMEOUT: error: bad --device-timeout-ms 'CPU:0=0' (expected DEVICE=MS, as in AMD:0=500; MS 1..4294967295)
