// RUN: matc-opt %s --matrix-scalarize-extracted-reads --split-input-file | FileCheck %s

// The A of a register step: MR = 6 elements read as a vector, each only
// extracted (to be broadcast): one scalar load per element, so that LLVM
// broadcasts each from memory.
// CHECK-LABEL: func.func @broadcast_a
// CHECK-NOT: vector.transfer_read
// CHECK-COUNT-6: memref.load
// CHECK-NOT: memref.load
// CHECK: return
func.func @broadcast_a(%a: memref<1x1x6xf32, strided<[1920, 6, 1], offset: ?>>, %b: vector<16xf32>, %c: vector<6x16xf32>) -> vector<6x16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %a[%c0, %c0, %c0], %pad {in_bounds = [true]} : memref<1x1x6xf32, strided<[1920, 6, 1], offset: ?>>, vector<6xf32>
  %e0 = vector.extract %v[0] : f32 from vector<6xf32>
  %e1 = vector.extract %v[1] : f32 from vector<6xf32>
  %e2 = vector.extract %v[2] : f32 from vector<6xf32>
  %e3 = vector.extract %v[3] : f32 from vector<6xf32>
  %e4 = vector.extract %v[4] : f32 from vector<6xf32>
  %e5 = vector.extract %v[5] : f32 from vector<6xf32>
  %x0 = vector.broadcast %e0 : f32 to vector<16xf32>
  %x1 = vector.broadcast %e1 : f32 to vector<16xf32>
  %x2 = vector.broadcast %e2 : f32 to vector<16xf32>
  %x3 = vector.broadcast %e3 : f32 to vector<16xf32>
  %x4 = vector.broadcast %e4 : f32 to vector<16xf32>
  %x5 = vector.broadcast %e5 : f32 to vector<16xf32>
  %f0 = vector.fma %x0, %b, %b : vector<16xf32>
  %f1 = vector.fma %x1, %f0, %b : vector<16xf32>
  %f2 = vector.fma %x2, %f1, %b : vector<16xf32>
  %f3 = vector.fma %x3, %f2, %b : vector<16xf32>
  %f4 = vector.fma %x4, %f3, %b : vector<16xf32>
  %f5 = vector.fma %x5, %f4, %b : vector<16xf32>
  %out = vector.insert %f5, %c[0] : vector<16xf32> into vector<6x16xf32>
  return %out : vector<6x16xf32>
}

// -----

// A vector read that is used whole (the B row of a step) stays a vector
// read.
// CHECK-LABEL: func.func @vector_b
// CHECK: vector.transfer_read
// CHECK-NOT: memref.load
func.func @vector_b(%b: memref<16xf32>, %c: vector<16xf32>) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %b[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  %e = vector.extract %v[3] : f32 from vector<16xf32>
  %x = vector.broadcast %e : f32 to vector<16xf32>
  %f = vector.fma %x, %v, %c : vector<16xf32>
  return %f : vector<16xf32>
}

// -----

// The loads read the memory where the vector read did, not where its
// elements are extracted: here the buffer is freed (and in @written,
// overwritten) in between, so they come before the dealloc and the store.
// (A 1 x 32 f32 matrix transposed on 2 MPI ranks read its freed buffer:
// difftest's MPI seed 97; test/matc/mpi/valgrind.test.)
// CHECK-LABEL: func.func @freed
// CHECK-COUNT-2: memref.load
// CHECK-NOT: memref.load
// CHECK: memref.dealloc
func.func @freed(%m: memref<1x32xf32>) -> f32 {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0, %c0], %pad {in_bounds = [true]} : memref<1x32xf32>, vector<16xf32>
  memref.dealloc %m : memref<1x32xf32>
  %e0 = vector.extract %v[0] : f32 from vector<16xf32>
  %e1 = vector.extract %v[15] : f32 from vector<16xf32>
  %s = arith.addf %e0, %e1 : f32
  return %s : f32
}

// -----

// CHECK-LABEL: func.func @written
// CHECK: memref.load
// CHECK: memref.load
// CHECK: memref.store
// CHECK-NOT: memref.load
// CHECK: scf.for
// CHECK-NOT: memref.load
// CHECK: return
func.func @written(%m: memref<8xf64>, %x: f64, %n: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f64
  %v = vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<8xf64>, vector<8xf64>
  memref.store %x, %m[%c0] : memref<8xf64>
  %e0 = vector.extract %v[0] : f64 from vector<8xf64>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %e0) -> (f64) {
    %e7 = vector.extract %v[7] : f64 from vector<8xf64>
    %a = arith.addf %acc, %e7 : f64
    scf.yield %a : f64
  }
  return %r : f64
}

// -----

// An extract at a position computed after the read cannot move to it: the
// read stays a vector read.
// CHECK-LABEL: func.func @late_position
// CHECK: vector.transfer_read
// CHECK: memref.dealloc
// CHECK: vector.extract
// CHECK-NOT: memref.load
func.func @late_position(%m: memref<16xf32>, %j: index) -> f32 {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 0.0 : f32
  %v = vector.transfer_read %m[%c0], %pad {in_bounds = [true]} : memref<16xf32>, vector<16xf32>
  memref.dealloc %m : memref<16xf32>
  %i = arith.addi %j, %j : index
  %e = vector.extract %v[%i] : f32 from vector<16xf32>
  return %e : f32
}
