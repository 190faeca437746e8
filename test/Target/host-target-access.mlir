// RUN: hcq-opt %s --split-input-file --hcq-attach-host-target --gpu-module-to-binary="format=isa" | FileCheck %s

// Tests that the host object's kernel table records how the kernel's body
// uses each buffer argument (hcq.access, for convert-gpu-to-hcq), from the
// gpu dialect: only loaded is read, only stored write, both readwrite (an
// atomic too), a store through a subview is a store to the memref, and a
// buffer never accessed (never used, or only measured) is read. Scalars get
// nothing.
// CHECK-LABEL: gpu.binary @access
// CHECK-SAME: kernel_metadata<"rules", {{.*}} arg_attrs = [{hcq.access = "read"}, {hcq.access = "write"}, {hcq.access = "readwrite"}, {hcq.access = "read"}, {hcq.access = "write"}, {hcq.access = "readwrite"}, {hcq.access = "read"}, {}]
gpu.module @access {
  gpu.func @rules(%loaded: memref<64xf32>, %stored: memref<64xf32>,
                  %both: memref<64xf32>, %unused: memref<64xf32>,
                  %viewed: memref<8x8xf32>, %atomic: memref<64xi32>,
                  %measured: memref<64xf32>, %n: i32) kernel
      attributes {known_block_size = array<i32: 64, 1, 1>} {
    %t = gpu.thread_id x
    %c0 = arith.constant 0 : index
    %one = arith.constant 1 : i32
    %x = memref.load %loaded[%t] : memref<64xf32>
    memref.store %x, %stored[%t] : memref<64xf32>
    %y = memref.load %both[%t] : memref<64xf32>
    %z = arith.addf %x, %y : f32
    memref.store %z, %both[%t] : memref<64xf32>
    %row = memref.subview %viewed[1, 0] [1, 8] [1, 1] : memref<8x8xf32> to memref<8xf32, strided<[1], offset: 8>>
    memref.store %z, %row[%c0] : memref<8xf32, strided<[1], offset: 8>>
    %old = memref.atomic_rmw addi %one, %atomic[%t] : (i32, memref<64xi32>) -> i32
    %d = memref.dim %measured, %c0 : memref<64xf32>
    gpu.return
  }
}
// -----

// Tests the same in the form convert-gpu-to-rocdl leaves (bare pointers):
// a pointer packed into a memref descriptor and taken out again is still
// the buffer, a getelementptr into it too; a pointer stored as a value or
// turned into an integer escapes (readwrite: the analysis never answers
// narrower than the truth), the memory it is stored into is written, and a
// pointer only compared is never accessed (read).
// CHECK-LABEL: gpu.binary @lowered
// CHECK-SAME: kernel_metadata<"escapes", {{.*}} arg_attrs = [{hcq.access = "read"}, {hcq.access = "write"}, {hcq.access = "readwrite"}, {hcq.access = "readwrite"}, {hcq.access = "write"}, {hcq.access = "read"}]
gpu.module @lowered {
  llvm.func @escapes(%packed: !llvm.ptr, %stored: !llvm.ptr, %escaped: !llvm.ptr,
                     %numbered: !llvm.ptr, %table: !llvm.ptr, %compared: !llvm.ptr)
      attributes {gpu.kernel, gpu.known_block_size = array<i32: 64, 1, 1>} {
    %t = rocdl.workitem.id.x : i32
    %i = llvm.sext %t : i32 to i64
    %poison = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64)>
    %s0 = llvm.insertvalue %packed, %poison[0] : !llvm.struct<(ptr, ptr, i64)>
    %s1 = llvm.insertvalue %packed, %s0[1] : !llvm.struct<(ptr, ptr, i64)>
    %p = llvm.extractvalue %s1[1] : !llvm.struct<(ptr, ptr, i64)>
    %e = llvm.getelementptr inbounds %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    %v = llvm.load %e : !llvm.ptr -> f32
    %o = llvm.getelementptr %stored[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    llvm.store %v, %o : f32, !llvm.ptr
    llvm.store %escaped, %table : !llvm.ptr, !llvm.ptr
    %n = llvm.ptrtoint %numbered : !llvm.ptr to i64
    %c = llvm.icmp "eq" %compared, %packed : !llvm.ptr
    llvm.return
  }
}
