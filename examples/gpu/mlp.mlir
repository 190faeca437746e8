// The source of examples/mlp.mlir: a two-layer MLP in upstream MLIR, as an
// ML compiler's GPU path leaves it. Layer 1 (matmul, then relu in place)
// runs on AMD:0, its activations move to AMD:1 for layer 2 (matmul), and
// the result goes back to the host. Shapes: x is 4x64, w1 and w2 are 64x64.
//
// scripts/make-example.sh compiles it with hcq-opt (upstream's GPU pipeline
// plus hcq-attach-host-target: a gfx1100 code object and a host object of
// the same kernels, the latter their CPU twin on the emulated AMD device and
// the simulated kernel driver) and converts it with --convert-gpu-to-hcq
// into the hcq.schedule checked in as examples/mlp.mlir. Devices: memrefs
// and allocations are on AMD:0 unless an `hcq.device` attribute says
// otherwise; a launch runs where its buffers are. The arguments are named
// by their locations (loc("x")), which the schedule and the executable keep.
module attributes {gpu.container_module} {
  gpu.module @mlp_kernels {
    // out[r][c] = sum_k x[r][k] * w[k][c] for 64x64 weights; one workgroup
    // of 64 work-items per row (grid 1 x 4).
    gpu.func @matmul(%out: memref<256xf32>, %x: memref<256xf32>, %w: memref<4096xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %r = gpu.block_id y
      %c = gpu.thread_id x
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %row = arith.muli %r, %c64 : index
      %sum = scf.for %k = %c0 to %c64 step %c1 iter_args(%acc = %zero) -> (f32) {
        %xi = arith.addi %row, %k : index
        %kw = arith.muli %k, %c64 : index
        %wi = arith.addi %kw, %c : index
        %xv = memref.load %x[%xi] : memref<256xf32>
        %wv = memref.load %w[%wi] : memref<4096xf32>
        %p = arith.mulf %xv, %wv : f32
        %s = arith.addf %acc, %p : f32
        scf.yield %s : f32
      }
      %oi = arith.addi %row, %c : index
      memref.store %sum, %out[%oi] : memref<256xf32>
      gpu.return
    }

    // x[i] = x[i] > 0 ? x[i] : 0, in place; blocks of 64.
    gpu.func @relu(%x: memref<256xf32>) kernel attributes {known_block_size = array<i32: 64, 1, 1>} {
      %bid = gpu.block_id x
      %tid = gpu.thread_id x
      %c64 = arith.constant 64 : index
      %zero = arith.constant 0.0 : f32
      %base = arith.muli %bid, %c64 : index
      %i = arith.addi %base, %tid : index
      %v = memref.load %x[%i] : memref<256xf32>
      %pos = arith.cmpf ogt, %v, %zero : f32
      %y = arith.select %pos, %v, %zero : f32
      memref.store %y, %x[%i] : memref<256xf32>
      gpu.return
    }
  }

  func.func @mlp(%x: memref<256xf32> {hcq.device = "CPU:0"} loc("x"),
                 %w1: memref<4096xf32> loc("w1"),
                 %w2: memref<4096xf32> {hcq.device = "AMD:1"} loc("w2"),
                 %out: memref<256xf32> {hcq.device = "CPU:0"} loc("out")) {
    %c1 = arith.constant 1 : index
    %c4 = arith.constant 4 : index
    %c64 = arith.constant 64 : index
    %t0 = gpu.wait async
    %x0, %t1 = gpu.alloc async [%t0] () : memref<256xf32>
    %h0, %t2 = gpu.alloc async [%t1] () : memref<256xf32>
    %h1, %t3 = gpu.alloc async [%t2] () {hcq.device = "AMD:1"} : memref<256xf32>
    %y1, %t4 = gpu.alloc async [%t3] () {hcq.device = "AMD:1"} : memref<256xf32>
    %t5 = gpu.memcpy async [%t4] %x0, %x : memref<256xf32>, memref<256xf32>
    %t6 = gpu.launch_func async [%t5] @mlp_kernels::@matmul blocks in (%c1, %c4, %c1) threads in (%c64, %c1, %c1) args(%h0 : memref<256xf32>, %x0 : memref<256xf32>, %w1 : memref<4096xf32>)
    %t7 = gpu.launch_func async [%t6] @mlp_kernels::@relu blocks in (%c4, %c1, %c1) threads in (%c64, %c1, %c1) args(%h0 : memref<256xf32>)
    %t8 = gpu.memcpy async [%t7] %h1, %h0 : memref<256xf32>, memref<256xf32>
    %t9 = gpu.launch_func async [%t8] @mlp_kernels::@matmul blocks in (%c1, %c4, %c1) threads in (%c64, %c1, %c1) args(%y1 : memref<256xf32>, %h1 : memref<256xf32>, %w2 : memref<4096xf32>)
    %t10 = gpu.memcpy async [%t9] %out, %y1 : memref<256xf32>, memref<256xf32>
    %t11 = gpu.dealloc async [%t10] %x0 : memref<256xf32>
    %t12 = gpu.dealloc async [%t11] %h0 : memref<256xf32>
    %t13 = gpu.dealloc async [%t12] %h1 : memref<256xf32>
    %t14 = gpu.dealloc async [%t13] %y1 : memref<256xf32>
    gpu.wait [%t14]
    return
  }
}
