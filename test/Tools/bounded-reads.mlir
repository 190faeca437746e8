// Bounded file reads (issue 39): every file is read as far as its reader
// needs (an executable's header says how long it is, an input's type how
// many bytes), so a 64 GiB sparse file, a truncated one or one longer than
// its header says is an error naming the file and both sizes, never an
// allocation of the file's size that aborts. `not` fails on a signal.
// RUN: rm -rf %t && mkdir -p %t
// RUN: hcq-opt --hcq-pipeline %hcq_src_root/examples/cpu-chain.mlir | hcq-translate --hcq-to-executable -o %t/chain.hcqx
// RUN: truncate -s 64G %t/zeros.bin
// RUN: head -c 24 %t/chain.hcqx > %t/big.hcqx
// RUN: truncate -s 64G %t/big.hcqx

// Tests that an executable with a real header and 64 GiB of holes, and
// 64 GiB of zeros, are refused by hcq-run and hcq-exe-dump after reading 24
// bytes.
// RUN: not hcq-run %t/big.hcqx 2>&1 | FileCheck %s --check-prefix=BIG
// RUN: not hcq-exe-dump %t/big.hcqx 2>&1 | FileCheck %s --check-prefix=BIG
// BIG: error: '{{.*}}big.hcqx': invalid hcq executable: the file is 68719476736 bytes, its header says {{[0-9]+}} (24 of header and {{[0-9]+}} of payload)
// RUN: not hcq-run %t/zeros.bin 2>&1 | FileCheck %s --check-prefix=ZEROS
// RUN: not hcq-exe-dump %t/zeros.bin 2>&1 | FileCheck %s --check-prefix=ZEROS
// ZEROS: error: '{{.*}}zeros.bin': invalid hcq executable: not an HCQX file (bad magic)

// Tests that a header claiming more than an executable may be (1 TiB) is
// refused by the limit, before the file's size is looked at.
// RUN: %python -c "import struct,sys; d=bytearray(open(sys.argv[1],'rb').read(24)); d[8:16]=struct.pack('<Q',1<<40); open(sys.argv[2],'wb').write(d)" %t/chain.hcqx %t/huge.hcqx
// RUN: not hcq-exe-dump %t/huge.hcqx 2>&1 | FileCheck %s --check-prefix=HUGE
// HUGE: error: '{{.*}}huge.hcqx': invalid hcq executable: header says 1099511627776 payload bytes, more than the 1073741800 an executable may have

// Tests that a file one byte short or long of what its header says names
// both sizes.
// RUN: %python -c "import sys; d=open(sys.argv[1],'rb').read(); open(sys.argv[2],'wb').write(d[:-1]); open(sys.argv[3],'wb').write(d+b'x')" %t/chain.hcqx %t/short.hcqx %t/long.hcqx
// RUN: not hcq-run %t/short.hcqx 2>&1 | FileCheck %s --check-prefix=SHORT
// SHORT: error: '{{.*}}short.hcqx': invalid hcq executable: the file is [[N:[0-9]+]] bytes, its header says {{[0-9]+}} (24 of header and {{[0-9]+}} of payload): truncated
// RUN: not hcq-exe-dump %t/long.hcqx 2>&1 | FileCheck %s --check-prefix=LONG
// LONG: error: '{{.*}}long.hcqx': invalid hcq executable: the file is {{[0-9]+}} bytes, its header says {{[0-9]+}} (24 of header and {{[0-9]+}} of payload){{$}}

// Tests that an --input or --expected_output file is read only if it is no
// larger than its value (and a .npy header) can be.
// RUN: not hcq-run %t/chain.hcqx --input=64xf32=@%t/zeros.bin 2>&1 | FileCheck %s --check-prefix=INPUT
// INPUT: error: {{.*}}zeros.bin holds 68719476736 bytes; 64xf32 is 256 (raw little-endian elements, or a .npy file)
// RUN: not hcq-run %t/chain.hcqx --expected_output=1xf32=@%t/zeros.bin 2>&1 | FileCheck %s --check-prefix=EXPECTED
// EXPECTED: error: --expected_output '1xf32=@{{.*}}zeros.bin' for output 0 (argument 2, %sum: buffer 1xf32, written): {{.*}}zeros.bin holds 68719476736 bytes; 1xf32 is 4
// A .npy header followed by 64 GiB of holes.
// RUN: %python -c "import sys; h=b\"{'descr': '<f4', 'fortran_order': False, 'shape': (64,), }\"; h+=b' '*(117-len(h))+b'\n'; open(sys.argv[1],'wb').write(b'\x93NUMPY\x01\x00'+bytes([len(h),0])+h)" %t/big.npy
// RUN: truncate -s 64G %t/big.npy
// RUN: not hcq-run %t/chain.hcqx --input=64xf32=@%t/big.npy 2>&1 | FileCheck %s --check-prefix=NPY
// NPY: error: {{.*}}big.npy holds 68719476736 bytes; 64xf32 is 256

// Tests that --arg TYPE:COUNT:file= reads only the bytes its buffer needs,
// so the sparse file gives zeros: sum((0 + 1) * 2) over 64 elements.
// RUN: env LD_LIBRARY_PATH=%inputs hcq-run %t/chain.hcqx --arg f32:64:file=%t/zeros.bin --arg f32:64:fill=1 --arg f32:1:fill=0 --arg i32=2 --arg i32=64 2>&1 | FileCheck %s --check-prefix=PREFIX
// PREFIX: arg 2: 128
