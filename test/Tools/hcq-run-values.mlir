// hcq-run's typed values, in iree-run-module's spelling: --list-arguments,
// --input ([DIMSx]TYPE=VALUE; a file is a .npy or raw elements, decided by
// its content), --output (.npy or raw) and --expected_output, on the
// bundled CPU example: sum((a + b) * s) over 64 elements.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/cpu-chain.mlir | hcq-translate --hcq-to-executable -o %t/chain.hcqx
// RUN: %python -c "import struct,sys; open(sys.argv[1],'wb').write(struct.pack('<64f',*range(64)))" %t/a.bin

// Tests that the file records each argument's name, kind, type, shape and
// use, and that --list-arguments prints them.
// RUN: hcq-run %t/chain.hcqx --list-arguments | FileCheck %s --check-prefix=LIST
// LIST: @chain, 5 arguments
// LIST-NEXT: 0 %a: buffer 64xf32, read
// LIST-NEXT: 1 %b: buffer 64xf32, read
// LIST-NEXT: 2 %sum: buffer 1xf32, written
// LIST-NEXT: 3 %s: i32
// LIST-NEXT: 4 %n: i32

// Tests typed inputs (a raw file, one number for every element, scalars),
// the output written as .npy and as raw bytes, and a matching expected
// output (exit 0).
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --input=64xf32=@%t/a.bin --input=64xf32=1 --input=1xf32=0 --input=i32=2 --input=i32=64 --output=@%t/sum.npy --expected_output=1xf32=4160 2>&1 | FileCheck %s --check-prefix=OK
// OK-NOT: error
// OK: arg 2: 4160
// RUN: %python -c "import sys; d=open(sys.argv[1],'rb').read(); print(d[:6] == b'\x93NUMPY', len(d) % 64, d[d.index(b'{'):d.index(b'}')+1].decode())" %t/sum.npy | FileCheck %s --check-prefix=NPY
// NPY: True 4 {'descr': '<f4', 'fortran_order': False, 'shape': (1,), }
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --input=64xf32=@%t/a.bin --input=64xf32=1 --input=1xf32=0 --input=i32=2 --input=i32=64 --output=@%t/sum.bin
// RUN: %python -c "import struct,sys; print(struct.unpack('<f', open(sys.argv[1],'rb').read()))" %t/sum.bin | FileCheck %s --check-prefix=RAW
// RAW: (4160.0,)

// Tests that a file's content decides how it is read: the .npy written
// above, renamed to .bin, is still read as .npy (its shape and dtype
// checked); a list of every element works as well; a float output within
// --expected_f32_threshold matches.
// RUN: cp %t/sum.npy %t/npy-named.bin
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --input=64xf32=@%t/a.bin --input="64xf32=1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1" --input=1xf32=@%t/npy-named.bin --input=i32=2 --input=i32=64 --expected_output=1xf32=4160.001 --expected_f32_threshold=0.01

// Tests that an output other than expected fails the run (exit 1), naming
// the output, the element and both values.
// RUN: not env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --input=64xf32=@%t/a.bin --input=64xf32=1 --input=1xf32=0 --input=i32=2 --input=i32=64 --expected_output=1xf32=4000 2>&1 | FileCheck %s --check-prefix=MISMATCH
// MISMATCH: error: output 0 (%sum: buffer 1xf32, written) is not as expected: element 0 is 4160, expected 4000 (threshold 0.0001)

// Tests that inputs that do not fit their argument are refused by name
// before anything runs.
// RUN: not hcq-run %t/chain.hcqx --input=64xi32=1 2>&1 | FileCheck %s --check-prefix=TYPE
// TYPE: error: argument 0 (%a: buffer 64xf32, read): --input '64xi32=1' is i32, the argument f32
// RUN: not hcq-run %t/chain.hcqx --input=f32=1 2>&1 | FileCheck %s --check-prefix=SCALAR
// SCALAR: error: argument 0 (%a: buffer 64xf32, read): --input 'f32=1' is a scalar; give the buffer's shape, as in 64xf32=...
// RUN: not hcq-run %t/chain.hcqx --input=64xf32=1 --input=64xf32=1 --input=1xf32=0 --input=2xi32=2 2>&1 | FileCheck %s --check-prefix=SHAPED
// SHAPED: error: argument 3 (%s: i32): --input '2xi32=2' is shaped; the argument is a variable (give i32=V)
// RUN: not hcq-run %t/chain.hcqx --input=32xf32=1 2>&1 | FileCheck %s --check-prefix=COUNT
// COUNT: error: argument 0 (%a: buffer 64xf32, read): --input '32xf32=1' has 32 elements, the argument 64
// RUN: not hcq-run %t/chain.hcqx --input=32xf32=@%t/a.bin 2>&1 | FileCheck %s --check-prefix=RAWSIZE
// RAWSIZE: error: {{.*}}a.bin holds 256 bytes; 32xf32 is 128 (raw little-endian elements, or a .npy file)
// RUN: not hcq-run %t/chain.hcqx --input=64xf32=@%t/sum.npy 2>&1 | FileCheck %s --check-prefix=NPYSHAPE
// NPYSHAPE: error: {{.*}}sum.npy is a .npy file of shape 1, not 64
// RUN: not hcq-run %t/chain.hcqx --input=64xf32=@/dev/zero 2>&1 | FileCheck %s --check-prefix=DEVZERO
// DEVZERO: error: cannot read '/dev/zero': not a regular file
// RUN: not hcq-run %t/chain.hcqx --input=64xf32=1,2 2>&1 | FileCheck %s --check-prefix=LIST2
// LIST2: error: value '64xf32=1,2' gives 2 numbers for 64 elements (give one, for all, or every one)
// RUN: not hcq-run %t/chain.hcqx --input=i32=3000000000 2>&1 | FileCheck %s --check-prefix=RANGE
// RANGE: error: bad value 'i32=3000000000': '3000000000' is not an i32
// RUN: not hcq-run %t/chain.hcqx --output=@%t/x --output=@%t/y 2>&1 | FileCheck %s --check-prefix=OUTPUTS
// OUTPUTS: error: 2 --output options for @chain, which writes 1 buffer
// RUN: not hcq-run %t/chain.hcqx --output=%t/x 2>&1 | FileCheck %s --check-prefix=OUTSPEC
// OUTSPEC: error: bad --output '{{.*}}/x' (expected @FILE)
