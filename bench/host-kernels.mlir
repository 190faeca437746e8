// The kernels of bench/host-kernels.cpp, in the gpu dialect: the same
// computations as the hand-written CPU twins hcq_twin_vadd and
// hcq_twin_matmul in test/Runtime/Inputs/kernels.c, with the same kernel
// arguments (so one AMD code object runs with either twin), at sizes where
// a launch takes milliseconds. bench/CMakeLists.txt compiles them with and
// without hcq-attach-host-target (bench/README.md).
//
//   vadd:   out[i] = a[i] + b[i] for i < n; 2^20 elements, blocks of 64
//   matmul: out[r * 64 + c] = sum_k x[r * 64 + k] * w[k * 64 + c];
//           1,024 rows, one per workgroup (block id y), 64 columns
//   vadd_small: vadd over 4 blocks, a launch of a few microseconds
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @vadd(%out: memref<1048576xf32>, %a: memref<1048576xf32>,
                   %b: memref<1048576xf32>, %n: i32)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %ii = arith.index_cast %i : index to i32
      %in = arith.cmpi slt, %ii, %n : i32
      scf.if %in {
        %x = memref.load %a[%i] : memref<1048576xf32>
        %y = memref.load %b[%i] : memref<1048576xf32>
        %s = arith.addf %x, %y : f32
        memref.store %s, %out[%i] : memref<1048576xf32>
      }
      gpu.return
    }
    gpu.func @matmul(%out: memref<65536xf32>, %x: memref<65536xf32>,
                     %w: memref<4096xf32>)
        kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %r = gpu.block_id y
      %c = gpu.thread_id x
      %row = arith.muli %r, %c64 : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%s = %zero) -> (f32) {
        %xi = arith.addi %row, %k : index
        %xv = memref.load %x[%xi] : memref<65536xf32>
        %wk = arith.muli %k, %c64 : index
        %wi = arith.addi %wk, %c : index
        %wv = memref.load %w[%wi] : memref<4096xf32>
        %p = arith.mulf %xv, %wv : f32
        %t = arith.addf %s, %p : f32
        scf.yield %t : f32
      }
      %oi = arith.addi %row, %c : index
      memref.store %sum, %out[%oi] : memref<65536xf32>
      gpu.return
    }
  }
  func.func @run_vadd(%out: memref<1048576xf32>, %a: memref<1048576xf32>,
                      %b: memref<1048576xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %blocks = arith.constant 16384 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@vadd
        blocks in (%blocks, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<1048576xf32>, %a : memref<1048576xf32>,
             %b : memref<1048576xf32>, %n : i32)
    gpu.wait [%t1]
    return
  }
  func.func @run_vadd_small(%out: memref<1048576xf32>,
                            %a: memref<1048576xf32>,
                            %b: memref<1048576xf32>, %n: i32) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@vadd
        blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<1048576xf32>, %a : memref<1048576xf32>,
             %b : memref<1048576xf32>, %n : i32)
    gpu.wait [%t1]
    return
  }
  func.func @run_matmul(%out: memref<65536xf32>, %x: memref<65536xf32>,
                        %w: memref<4096xf32>) {
    %c1 = arith.constant 1 : index
    %c64 = arith.constant 64 : index
    %rows = arith.constant 1024 : index
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@matmul
        blocks in (%c1, %rows, %c1) threads in (%c64, %c1, %c1)
        args(%out : memref<65536xf32>, %x : memref<65536xf32>,
             %w : memref<4096xf32>)
    gpu.wait [%t1]
    return
  }
}
