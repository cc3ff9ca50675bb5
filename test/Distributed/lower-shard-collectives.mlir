// RUN: matc-opt %s -split-input-file --matrix-lower-shard-collectives -verify-diagnostics | FileCheck %s

shard.grid @matc_grid(shape = 2) {sym_visibility = "private"}

// all_gather along rows: the own block is copied into its place in an
// N x block staging buffer, the other blocks are received from their
// owners in a pairwise exchange (the partner of step s is (s - r) mod N;
// the lower rank sends first), and the staging buffer is the result.
// CHECK-LABEL: func.func @gather_rows
// CHECK-SAME: (%[[IN:.*]]: tensor<2x3xf64>)
// CHECK: %[[COMM:.*]] = mpi.comm_world : !mpi.comm
// CHECK: %[[RANK:.*]] = mpi.comm_rank(%[[COMM]]) : i32
// CHECK: %[[R:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[STAGING:.*]] = memref.alloc() : memref<2x2x3xf64>
// CHECK: %[[MINE:.*]] = bufferization.to_buffer %[[IN]] read_only
// CHECK: %[[OWN:.*]] = memref.subview %[[STAGING]][%[[R]], 0, 0] [1, 2, 3] [1, 1, 1]
// CHECK: linalg.copy ins(%[[MINE]] : {{.*}}) outs(%[[OWN]] : {{.*}})
// CHECK: scf.for %[[S:.*]] = %{{.*}} to %{{.*}} step %{{.*}} {
// CHECK:   %[[SUM:.*]] = arith.addi %[[S]], %{{.*}} : index
// CHECK:   %[[DIFF:.*]] = arith.subi %[[SUM]], %[[R]] : index
// CHECK:   %[[P:.*]] = arith.remui %[[DIFF]], %{{.*}} : index
// CHECK:   %[[SELF:.*]] = arith.cmpi eq, %[[P]], %[[R]] : index
// CHECK:   scf.if %[[SELF]] {
// CHECK:   } else {
// CHECK:     %[[FIRST:.*]] = arith.cmpi ult, %[[R]], %[[P]] : index
// CHECK:     scf.if %[[FIRST]] {
// CHECK:       mpi.send(%{{.*}}, %{{.*}}, %{{.*}}, %[[COMM]]) : memref<6xf64, strided<[1], offset: ?>>, i32, i32
// CHECK:       mpi.recv(%{{.*}}, %{{.*}}, %{{.*}}, %[[COMM]]) : memref<6xf64, strided<[1], offset: ?>>, i32, i32
// CHECK:     } else {
// CHECK:       mpi.recv
// CHECK:       mpi.send
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[STAGING]] restrict writable : memref<2x2x3xf64> to tensor<2x2x3xf64>
// CHECK: %[[G:.*]] = tensor.collapse_shape %[[T]] {{\[\[}}0, 1], [2]] : tensor<2x2x3xf64> into tensor<4x3xf64>
// CHECK: return %[[G]]
func.func @gather_rows(%a: tensor<2x3xf64>) -> tensor<4x3xf64> {
  %g = shard.all_gather %a on @matc_grid grid_axes = [0] gather_axis = 0 : tensor<2x3xf64> -> tensor<4x3xf64>
  return %g : tensor<4x3xf64>
}

// all_gather along columns: the blocks, staged along a leading axis, are
// moved next to the columns and merged with them.
// CHECK-LABEL: func.func @gather_columns
// CHECK: %[[T:.*]] = bufferization.to_tensor %{{.*}} restrict writable : memref<2x4x3xf64> to tensor<2x4x3xf64>
// CHECK: %[[M:.*]] = linalg.transpose ins(%[[T]] : tensor<2x4x3xf64>) outs(%{{.*}} : tensor<4x2x3xf64>) permutation = [1, 0, 2]
// CHECK: tensor.collapse_shape %[[M]] {{\[\[}}0], [1, 2]] : tensor<4x2x3xf64> into tensor<4x6xf64>
func.func @gather_columns(%a: tensor<4x3xf64>) -> tensor<4x6xf64> {
  %g = shard.all_gather %a on @matc_grid grid_axes = [0] gather_axis = 1 : tensor<4x3xf64> -> tensor<4x6xf64>
  return %g : tensor<4x6xf64>
}

// all_to_all from rows to columns (the transpose of a split matrix): the
// block is cut into N pieces of columns, moved to a leading axis; piece p
// goes to rank p, this rank's piece is copied; the pieces received are the
// rows of the result.
// CHECK-LABEL: func.func @rows_to_columns
// CHECK-SAME: (%[[IN:.*]]: tensor<2x4xf64>)
// CHECK: %[[X:.*]] = tensor.expand_shape %[[IN]] {{\[\[}}0], [1, 2]] output_shape [2, 2, 2] : tensor<2x4xf64> into tensor<2x2x2xf64>
// CHECK: %[[SEND:.*]] = memref.alloc() : memref<2x2x2xf64>
// CHECK: %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only
// CHECK: linalg.transpose ins(%[[XB]] : {{.*}}) outs(%[[SEND]] : memref<2x2x2xf64>) permutation = [1, 0, 2]
// CHECK: %[[RECV:.*]] = memref.alloc() : memref<2x2x2xf64>
// CHECK: scf.for
// CHECK:   scf.if
// CHECK:     linalg.copy
// CHECK:   } else {
// CHECK:     mpi.send
// CHECK:     mpi.recv
// CHECK: %[[T:.*]] = bufferization.to_tensor %[[RECV]] restrict writable
// CHECK: tensor.collapse_shape %[[T]] {{\[\[}}0, 1], [2]] : tensor<2x2x2xf64> into tensor<4x2xf64>
func.func @rows_to_columns(%a: tensor<2x4xf64>) -> tensor<4x2xf64> {
  %t = shard.all_to_all %a on @matc_grid grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x4xf64> -> tensor<4x2xf64>
  return %t : tensor<4x2xf64>
}

// all_slice: this rank's block, at offset rank * size. No communication.
// CHECK-LABEL: func.func @slice
// CHECK-SAME: (%[[IN:.*]]: tensor<1x8xf64>)
// CHECK: %[[RANK:.*]] = mpi.comm_rank
// CHECK: %[[R:.*]] = arith.index_cast %[[RANK]] : i32 to index
// CHECK: %[[OFF:.*]] = arith.muli %[[R]], %{{.*}} : index
// CHECK: tensor.extract_slice %[[IN]][0, %[[OFF]]] [1, 4] [1, 1] : tensor<1x8xf64> to tensor<1x4xf64>
// CHECK-NOT: mpi.send
func.func @slice(%a: tensor<1x8xf64>) -> tensor<1x4xf64> {
  %s = shard.all_slice %a on @matc_grid grid_axes = [0] slice_axis = 1 : tensor<1x8xf64> -> tensor<1x4xf64>
  return %s : tensor<1x4xf64>
}

// A collective is first moved to just before its first user, so that what
// it makes is alive only while needed.
// CHECK-LABEL: func.func @sink
// CHECK: linalg.fill
// CHECK: mpi.send
// CHECK: tensor.collapse_shape
// CHECK-NEXT: linalg.copy
func.func @sink(%a: tensor<2x3xf64>, %b: tensor<4x3xf64>, %c: f64) -> (tensor<4x3xf64>, tensor<4x3xf64>) {
  %g = shard.all_gather %a on @matc_grid grid_axes = [0] gather_axis = 0 : tensor<2x3xf64> -> tensor<4x3xf64>
  %f = linalg.fill ins(%c : f64) outs(%b : tensor<4x3xf64>) -> tensor<4x3xf64>
  %r = linalg.copy ins(%g : tensor<4x3xf64>) outs(%b : tensor<4x3xf64>) -> tensor<4x3xf64>
  return %f, %r : tensor<4x3xf64>, tensor<4x3xf64>
}

// -----

shard.grid @matc_grid(shape = 2) {sym_visibility = "private"}

// A product of a gathered right operand: computed by column panels of it
// (here 2 panels of 16 columns), each gathered just before its product (in
// one staging buffer for all), in a zero-filled slice of the result. The
// gather is never materialized.
// CHECK-LABEL: func.func @gathered_product
// CHECK-SAME: (%[[A:.*]]: tensor<4x8xf64>, %[[B:.*]]: tensor<4x32xf64>)
// CHECK-NOT: shard.all_gather
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<4x32xf64>
// CHECK: %[[STAGING:.*]] = memref.alloc() : memref<2x4x16xf64>
// CHECK: %[[C:.*]] = scf.for %[[J:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[EMPTY]]) -> (tensor<4x32xf64>) {
// CHECK:   %[[COL:.*]] = arith.muli %[[J]], %{{.*}} : index
// CHECK:   tensor.extract_slice %[[B]][0, %[[COL]]] [4, 16] [1, 1] : tensor<4x32xf64> to tensor<4x16xf64>
// CHECK-NOT: memref.alloc
// CHECK:   linalg.copy
// CHECK:   scf.for
// CHECK:     mpi.send
// CHECK:     mpi.recv
// CHECK:   %[[PIECES:.*]] = bufferization.to_tensor %[[STAGING]] restrict writable
// CHECK:   %[[PANEL:.*]] = tensor.collapse_shape %[[PIECES]] {{\[\[}}0, 1], [2]] : tensor<2x4x16xf64> into tensor<8x16xf64>
// CHECK:   %[[SLICE:.*]] = tensor.extract_slice %[[ACC]][0, %[[COL]]] [4, 16] [1, 1]
// CHECK:   %[[ZERO:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[SLICE]] : tensor<4x16xf64>)
// CHECK:   %[[P:.*]] = linalg.matmul ins(%[[A]], %[[PANEL]] : tensor<4x8xf64>, tensor<8x16xf64>) outs(%[[ZERO]] : tensor<4x16xf64>)
// CHECK:   %[[NEXT:.*]] = tensor.insert_slice %[[P]] into %[[ACC]][0, %[[COL]]] [4, 16] [1, 1]
// CHECK:   scf.yield %[[NEXT]]
// CHECK: return %[[C]]
func.func @gathered_product(%a: tensor<4x8xf64>, %b: tensor<4x32xf64>) -> tensor<4x32xf64> {
  %zero = arith.constant 0.0 : f64
  %g = shard.all_gather %b on @matc_grid grid_axes = [0] gather_axis = 0 : tensor<4x32xf64> -> tensor<8x32xf64>
  %e = tensor.empty() : tensor<4x32xf64>
  %f = linalg.fill ins(%zero : f64) outs(%e : tensor<4x32xf64>) -> tensor<4x32xf64>
  %c = linalg.matmul ins(%a, %g : tensor<4x8xf64>, tensor<8x32xf64>) outs(%f : tensor<4x32xf64>) -> tensor<4x32xf64>
  return %c : tensor<4x32xf64>
}

// -----

// Collectives over part of a grid are not supported.
shard.grid @grid2d(shape = 2x2) {sym_visibility = "private"}
func.func @two_dimensional(%a: tensor<2x3xf64>) -> tensor<4x3xf64> {
  // expected-error @below {{cannot lower to MPI: only collectives over every axis of a static 1-D grid, on static shapes, are supported}}
  %g = shard.all_gather %a on @grid2d grid_axes = [0] gather_axis = 0 : tensor<2x3xf64> -> tensor<4x3xf64>
  return %g : tensor<4x3xf64>
}
