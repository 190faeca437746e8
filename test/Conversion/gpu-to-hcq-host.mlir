// RUN: rm -rf %t && split-file %s %t && mkdir -p %t/tk/llvm/bin && ln -s %ld_lld %t/tk/llvm/bin/ld.lld
// RUN: hcq-opt %t/axpy.mlir --pass-pipeline="builtin.module(rocdl-attach-target{chip=gfx1100},rocdl-attach-target{chip=gfx942},hcq-attach-host-target,gpu.module(convert-scf-to-cf,convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),gpu-module-to-binary{toolkit=%t/tk})" --mlir-print-debuginfo -o %t/bin.mlir
// RUN: FileCheck %s --check-prefix=BINARY --input-file=%t/bin.mlir
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=device=CPU:0 | FileCheck %s --check-prefix=CPU-IR
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx942 | FileCheck %s --check-prefix=AMD-IR
// RUN: mkdir %t/cpu %t/gfx1100 %t/gfx942
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=device=CPU:0 --hcq-pipeline | hcq-translate --hcq-to-executable -o %t/cpu/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx1100 --hcq-pipeline=target=gfx1100 | hcq-translate --hcq-to-executable -o %t/gfx1100/main.hcqx
// RUN: hcq-opt %t/bin.mlir --convert-gpu-to-hcq=chip=gfx942 --hcq-pipeline=target=gfx942 | hcq-translate --hcq-to-executable -o %t/gfx942/main.hcqx
// RUN: %python %t/reference.py %t 173
// RUN: hcq-run %t/cpu/main.hcqx --runs 3 --input=200xf32=@%t/x.bin --input=200xf32=@%t/y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@%t/out.bin 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx1100/main.hcqx --amd=emulated --runs 3 --input=200xf32=@%t/x.bin --input=200xf32=@%t/y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@%t/out.bin 2>&1 | FileCheck %s --check-prefix=OK
// RUN: hcq-run %t/gfx942/main.hcqx --amd=emulated --runs 3 --input=200xf32=@%t/x.bin --input=200xf32=@%t/y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@%t/out.bin 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx1100 hcq-run %t/gfx1100/main.hcqx --amd=hardware --runs 3 --input=200xf32=@%t/x.bin --input=200xf32=@%t/y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@%t/out.bin 2>&1 | FileCheck %s --check-prefix=OK
// RUN: %kfdsim HCQ_KFD_SIM_GPUS=gfx942 hcq-run %t/gfx942/main.hcqx --amd=hardware --runs 3 --input=200xf32=@%t/x.bin --input=200xf32=@%t/y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@%t/out.bin 2>&1 | FileCheck %s --check-prefix=OK
// RUN: not hcq-run %t/cpu/main.hcqx --input=200xf32=@%t/x.bin --input=200xf32=@%t/y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=174 --expected_output=200xf32=@%t/out.bin 2>&1 | FileCheck %s --check-prefix=BOUND
// RUN: mkdir %t/elsewhere && cp %t/cpu/main.hcqx %t/elsewhere/cpu.hcqx && cp %t/gfx942/main.hcqx %t/elsewhere/gfx942.hcqx
// RUN: rm -rf %t/cpu %t/gfx1100 %t/gfx942 %t/tk %t/bin.mlir
// RUN: hcq-exe-dump %t/elsewhere/cpu.hcqx | FileCheck %s --check-prefix=DUMP
// RUN: hcq-run %t/elsewhere/gfx942.hcqx --list-arguments | FileCheck %s --check-prefix=LIST
// RUN: hcq-exe-dump %t/elsewhere/gfx942.hcqx | FileCheck %s --check-prefix=DUMP-AMD
// RUN: cd %t/elsewhere && env -u LD_LIBRARY_PATH hcq-run cpu.hcqx --input=200xf32=@../x.bin --input=200xf32=@../y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@../out.bin 2>&1 | FileCheck %s --check-prefix=OK
// RUN: cd %t/elsewhere && env -u LD_LIBRARY_PATH hcq-run gfx942.hcqx --amd=emulated --input=200xf32=@../x.bin --input=200xf32=@../y.bin --input=200xf32=-7 --input=f32=1.5 --input=i32=173 --expected_output=200xf32=@../out.bin 2>&1 | FileCheck %s --check-prefix=OK

// Tests that a gpu program runs on CPU:0, on the emulated AMD device and on
// the simulated kernel driver (gfx1100 and gfx942 code objects) from its
// source alone, with no twin of its kernel anywhere (the simulator's twin
// library has none): one gpu-module-to-binary, after rocdl-attach-target
// (twice) and hcq-attach-host-target, gives the gpu.binary both AMD code
// objects and the host object; --convert-gpu-to-hcq makes a cpu kernel of
// the host object for the launch on CPU:0 (called once per workgroup: local
// size [1, 1, 1]) and gives the AMD kernel the host object as its CPU twin.
// out = alpha * x + y for i < n = 173 over 200-element buffers, grid 4 x
// 64: the bounds check keeps the last 83 work-items away; reference.py
// computes the expected elements in Python (f32 rounding), the elements past
// n keep their -7, x and y stay as they were. The same executables copied to
// another folder, with the compiler's output and the toolkit gone, run the
// same: they carry their host code.
// BINARY-LABEL: gpu.binary @kernels [
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx1100">
// BINARY-SAME: #gpu.object<#rocdl.target<chip = "gfx942">
// BINARY-SAME: #gpu.object<#hcq.host_target, kernels = <[#gpu.kernel_metadata<"axpy", !llvm.func<void (ptr, ptr, ptr, f32, i32)>, arg_attrs = [{hcq.access = "write"}, {hcq.access = "read"}, {hcq.access = "read"}, {}, {}], metadata = {block_size = array<i32: 64, 1, 1>}>]>, bin = "\7FELF
// CPU-IR-LABEL: hcq.kernel @kernels_axpy_cpu cpu (write f32, read f32, read f32) vars 2 symbol "axpy" host_object dense_resource<kernels_host> : tensor<{{[0-9]+}}xi8>
// CPU-IR-LABEL: hcq.schedule @main(%x: !hcq.buffer<200xf32, CPU:0>, %y: !hcq.buffer<200xf32, CPU:0>, %out: !hcq.buffer<200xf32, CPU:0>, %alpha: f32, %n: i32)
// CPU-IR: hcq.launch @kernels_axpy_cpu({{.*}}) vars({{.*}} : f32, i32) global [4, 1, 1] local [1, 1, 1]
// AMD-IR-LABEL: hcq.kernel @kernels_axpy amd (write f32, read f32, read f32) vars 2 symbol "axpy" code_object dense_resource<kernels_gfx942> : tensor<{{[0-9]+}}xi8> host_object dense_resource<kernels_host> : tensor<{{[0-9]+}}xi8>
// AMD-IR-LABEL: hcq.schedule @main(%x: !hcq.buffer<200xf32, AMD:0>, %y: !hcq.buffer<200xf32, AMD:0>, %out: !hcq.buffer<200xf32, AMD:0>, %alpha: f32, %n: i32)
// AMD-IR: hcq.launch @kernels_axpy({{.*}}) vars({{.*}} : f32, i32) global [4, 1, 1] local [64, 1, 1]
// LIST: @main, 5 arguments
// LIST-NEXT: 0 %x: buffer 200xf32, read
// LIST-NEXT: 1 %y: buffer 200xf32, read
// LIST-NEXT: 2 %out: buffer 200xf32, written
// LIST-NEXT: 3 %alpha: f32
// LIST-NEXT: 4 %n: i32
// OK-NOT: error
// OK: arg 2: -7.5 -7 -6.5 -6 -5.5 -5 -4.5 -4
// BOUND: error: output 0 (%out: buffer 200xf32, written) is not as expected: element 173 is {{.*}}, expected -7
// DUMP-LABEL: executable @main
// DUMP: images 0, host objects 1
// DUMP: kernel kernels_axpy_cpu: axpy in host object 0 ({{[0-9]+}} bytes)
// DUMP-AMD-LABEL: executable @main
// DUMP-AMD: images 1, host objects 1
// DUMP-AMD: kernel kernels_axpy: image 0 ({{[0-9]+}} bytes), entry at 0x{{[0-9A-F]+}}, CPU twin in host object 0 ({{[0-9]+}} bytes)

//--- axpy.mlir
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @axpy(%out: memref<200xf32>, %x: memref<200xf32>,
                   %y: memref<200xf32>, %alpha: f32, %n: i32) kernel
        attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %ii = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %ii, %n : i32
      scf.if %in {
        %a = memref.load %x[%i] : memref<200xf32>
        %b = memref.load %y[%i] : memref<200xf32>
        %p = arith.mulf %alpha, %a : f32
        %s = arith.addf %p, %b : f32
        memref.store %s, %out[%i] : memref<200xf32>
      }
      gpu.return
    }
  }
  func.func @main(%x: memref<200xf32> loc("x"), %y: memref<200xf32> loc("y"),
                  %out: memref<200xf32> loc("out"), %alpha: f32 loc("alpha"),
                  %n: i32 loc("n")) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@axpy
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<200xf32>, %x : memref<200xf32>,
             %y : memref<200xf32>, %alpha : f32, %n : i32)
    gpu.wait [%t1]
    return
  }
}

//--- reference.py
# x, y and the expected out = alpha * x + y (alpha = 1.5) for i < n, -7
# beyond, each rounded to f32 as the kernel rounds it.
import os
import struct
import sys

folder, n = sys.argv[1], int(sys.argv[2])


def f32(v):
    return struct.unpack("<f", struct.pack("<f", v))[0]


x = [i * 0.5 - 7 for i in range(200)]
y = [3 - i * 0.25 for i in range(200)]
out = [f32(f32(1.5 * x[i]) + y[i]) if i < n else -7.0 for i in range(200)]
for name, values in (("x", x), ("y", y), ("out", out)):
    with open(os.path.join(folder, name + ".bin"), "wb") as f:
        f.write(struct.pack("<200f", *values))
