// A two-layer MLP on two AMD GPUs: the input comes from the host, layer 1 runs
// on AMD:0, its activations move to AMD:1 for layer 2, and the result goes
// back to the host. Shapes: x is 4x64, w1 and w2 are 64x64.
//
// Run it through the pipeline with:  hcq-opt --hcq-pipeline examples/mlp.mlir
//
// The code objects are stand-ins (an ELF magic only) until the AMD encoder
// lands and the examples carry real ones built by clang-22.

hcq.kernel @matmul amd (write f32, read f32, read f32) code_object "\7FELF\02\01\01\00"
hcq.kernel @relu amd (readwrite f32) code_object "\7FELF\02\01\01\00"

hcq.schedule @mlp(%x: !hcq.buffer<256xf32, CPU:0>, %w1: !hcq.buffer<4096xf32, AMD:0>,
                  %w2: !hcq.buffer<4096xf32, AMD:1>, %out: !hcq.buffer<256xf32, CPU:0>) {
  %x0 = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
  %h0 = hcq.alloc : !hcq.buffer<256xf32, AMD:0>
  %h1 = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
  %y1 = hcq.alloc : !hcq.buffer<256xf32, AMD:1>
  hcq.copy %x0[0, 1024], %x[0, 1024] : !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, CPU:0>
  hcq.launch @matmul(%h0, %x0, %w1 : !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<256xf32, AMD:0>, !hcq.buffer<4096xf32, AMD:0>) global [1, 4, 1] local [64, 1, 1]
  hcq.launch @relu(%h0 : !hcq.buffer<256xf32, AMD:0>) global [4, 1, 1] local [64, 1, 1]
  hcq.copy %h1[0, 1024], %h0[0, 1024] : !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:0>
  hcq.launch @matmul(%y1, %h1, %w2 : !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<256xf32, AMD:1>, !hcq.buffer<4096xf32, AMD:1>) global [1, 4, 1] local [64, 1, 1]
  hcq.copy %out[0, 1024], %y1[0, 1024] : !hcq.buffer<256xf32, CPU:0>, !hcq.buffer<256xf32, AMD:1>
}
