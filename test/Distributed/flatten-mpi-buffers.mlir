// RUN: matc-opt %s -split-input-file --matrix-flatten-mpi-buffers -verify-diagnostics | FileCheck %s

// n-D buffers become 1-D, so that MPIToLLVM's element count (the size of
// the first dimension) is the number of elements. An in-place allreduce
// keeps one buffer for both operands.
// CHECK-LABEL: func.func @flatten
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf64>, %[[B:.*]]: memref<2x3xf32, strided<[3, 1], offset: ?>>, %[[C:.*]]: memref<16xf64>
// CHECK: %[[FA:.*]] = memref.collapse_shape %[[A]] {{\[\[}}0, 1]] : memref<4x8xf64> into memref<32xf64>
// CHECK: mpi.allreduce(%[[FA]], %[[FA]], MPI_SUM, %{{.*}}) : memref<32xf64>, memref<32xf64>
// CHECK: %[[FB:.*]] = memref.collapse_shape %[[B]] {{\[\[}}0, 1]] : memref<2x3xf32, strided<[3, 1], offset: ?>> into memref<6xf32, strided<[1], offset: ?>>
// CHECK: mpi.send(%[[FB]], %{{.*}}, %{{.*}}, %{{.*}}) : memref<6xf32, strided<[1], offset: ?>>, i32, i32
// CHECK: %[[FA2:.*]] = memref.collapse_shape %[[A]]
// CHECK: mpi.recv(%[[FA2]], %{{.*}}, %{{.*}}, %{{.*}}) : memref<32xf64>, i32, i32
// CHECK: mpi.send(%[[C]], %{{.*}}, %{{.*}}, %{{.*}}) : memref<16xf64>, i32, i32
func.func @flatten(%a: memref<4x8xf64>, %b: memref<2x3xf32, strided<[3, 1], offset: ?>>, %c: memref<16xf64>, %peer: i32) {
  %comm = mpi.comm_world : !mpi.comm
  %tag = arith.constant 0 : i32
  mpi.allreduce(%a, %a, MPI_SUM, %comm) : memref<4x8xf64>, memref<4x8xf64>
  mpi.send(%b, %tag, %peer, %comm) : memref<2x3xf32, strided<[3, 1], offset: ?>>, i32, i32
  mpi.recv(%a, %tag, %peer, %comm) : memref<4x8xf64>, i32, i32
  mpi.send(%c, %tag, %peer, %comm) : memref<16xf64>, i32, i32
  return
}

// -----

// A buffer that is not contiguous would need an MPI derived datatype.
func.func @strided(%b: memref<2x3xf64, strided<[6, 1]>>, %peer: i32) {
  %comm = mpi.comm_world : !mpi.comm
  %tag = arith.constant 0 : i32
  // expected-error @below {{'mpi.send' op needs a contiguous buffer, not 'memref<2x3xf64, strided<[6, 1]>>'}}
  mpi.send(%b, %tag, %peer, %comm) : memref<2x3xf64, strided<[6, 1]>>, i32, i32
  return
}
