// A kernel and its host code in upstream MLIR, as an ML compiler's GPU path
// leaves them: gpu.module (for gfx1100) and a func.func of gpu.alloc,
// gpu.memcpy, gpu.launch_func and async tokens. Debian's own MLIR 22
// compiles the kernel into a gpu.binary; --convert-gpu-to-hcq turns the
// rest into an hcq.schedule (test/Conversion/gpu-to-hcq-e2e.mlir):
//
//   mkdir -p tk/llvm/bin && ln -s /usr/lib/llvm-22/bin/ld.lld tk/llvm/bin/
//   mlir-opt-22 examples/gpu/vadd.mlir --pass-pipeline="builtin.module(
//     gpu.module(convert-scf-to-cf,
//                convert-gpu-to-rocdl{use-bare-ptr-memref-call-conv=1}),
//     gpu-module-to-binary{toolkit=$PWD/tk})" -o vadd-bin.mlir
//   hcq-opt vadd-bin.mlir --convert-gpu-to-hcq --hcq-pipeline ...
//
// out[i] = a[i] + b[i] for i < n; a is staged through a buffer of the
// schedule's own. Compiled so, by mlir-opt-22, the kernel has no host code
// and runs only on an AMD GPU: the emulated AMD device refuses it for want
// of a CPU twin. Compiled by hcq-opt with one more pass,
// hcq-attach-host-target, the gpu.binary carries a host object of the
// kernel too, and the program runs on CPU:0 and the emulated AMD device
// with nothing hand-written: the README's "A gpu program, from its source
// to running here" (test/Conversion/gpu-example.mlir).
module attributes {gpu.container_module} {
  gpu.module @kernels [#rocdl.target<chip = "gfx1100">] {
    gpu.func @vadd(%out: memref<256xf32>, %a: memref<256xf32>, %b: memref<256xf32>, %n: i32) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %ii = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %ii, %n : i32
      scf.if %in {
        %x = memref.load %a[%i] : memref<256xf32>
        %y = memref.load %b[%i] : memref<256xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %out[%i] : memref<256xf32>
      }
      gpu.return
    }
  }
  func.func @main(%a: memref<256xf32>, %b: memref<256xf32>, %out: memref<256xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %buf, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
    %t2 = gpu.memcpy async [%t1] %buf, %a : memref<256xf32>, memref<256xf32>
    %t3 = gpu.launch_func async [%t2] @kernels::@vadd blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%out : memref<256xf32>, %buf : memref<256xf32>, %b : memref<256xf32>, %n : i32)
    %t4 = gpu.dealloc async [%t3] %buf : memref<256xf32>
    gpu.wait [%t4]
    return
  }
}
