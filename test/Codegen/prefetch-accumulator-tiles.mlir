// RUN: matc-opt %s --matrix-prefetch-accumulator-tiles --split-input-file | FileCheck %s

// The register kernel of a packed product: the loop over the tiles of a
// row of C reads each tile into the accumulators of the loop over k. The
// tile of the next iteration (the same one in the last iteration) is
// prefetched before the loop over k, one prefetch per 64-byte line: a row
// of 32 f32 is two lines, 2 rows are 4 prefetches.
// CHECK-LABEL: func.func @packed_kernel
// CHECK-SAME: (%[[C:.*]]: memref<?x?x2x32xf32>, %[[B:.*]]: memref<?x32xf32>, %[[I:.*]]: index, %[[N:.*]]: index, %[[K:.*]]: index)
// CHECK: scf.for %[[J:.*]] = %[[C0:.*]] to %[[N]] step %[[C1:.*]] {
// CHECK: %[[TILE:.*]] = memref.subview %[[C]][%[[I]], %[[J]], 0, 0]
// CHECK: %[[ACC:.*]] = vector.transfer_read %[[TILE]]
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK: %[[IN:.*]] = arith.cmpi slt, %[[NEXT]], %[[N]] : index
// CHECK: %[[J2:.*]] = arith.select %[[IN]], %[[NEXT]], %[[J]] : index
// CHECK: %[[TILE2:.*]] = memref.subview %[[C]][%[[I]], %[[J2]], 0, 0]
// CHECK: memref.prefetch %[[TILE2]][%[[C0]], %[[C0]], %[[C0]], %[[C0]]], write, locality<3>, data
// CHECK: %[[C16:.*]] = arith.constant 16 : index
// CHECK: memref.prefetch %[[TILE2]][%[[C0]], %[[C0]], %[[C0]], %[[C16]]], write, locality<3>, data
// CHECK: %[[R1:.*]] = arith.constant 1 : index
// CHECK: memref.prefetch %[[TILE2]][%[[C0]], %[[C0]], %[[R1]], %[[C0]]], write, locality<3>, data
// CHECK: %[[R1B:.*]] = arith.constant 1 : index
// CHECK: %[[C16B:.*]] = arith.constant 16 : index
// CHECK: memref.prefetch %[[TILE2]][%[[C0]], %[[C0]], %[[R1B]], %[[C16B]]], write, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK: scf.for {{.*}} iter_args
func.func @packed_kernel(%c: memref<?x?x2x32xf32>, %b: memref<?x32xf32>, %i: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  scf.for %j = %c0 to %n step %c1 {
    %tile = memref.subview %c[%i, %j, 0, 0] [1, 1, 2, 32] [1, 1, 1, 1] : memref<?x?x2x32xf32> to memref<1x1x2x32xf32, strided<[?, 64, 32, 1], offset: ?>>
    %acc = vector.transfer_read %tile[%c0, %c0, %c0, %c0], %pad {in_bounds = [true, true]} : memref<1x1x2x32xf32, strided<[?, 64, 32, 1], offset: ?>>, vector<2x32xf32>
    %r = scf.for %kk = %c0 to %k step %c1 iter_args(%a = %acc) -> (vector<2x32xf32>) {
      %row = vector.transfer_read %b[%kk, %c0], %pad {in_bounds = [true]} : memref<?x32xf32>, vector<32xf32>
      %row2 = vector.broadcast %row : vector<32xf32> to vector<2x32xf32>
      %s = arith.addf %a, %row2 : vector<2x32xf32>
      scf.yield %s : vector<2x32xf32>
    }
    vector.transfer_write %r, %tile[%c0, %c0, %c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<1x1x2x32xf32, strided<[?, 64, 32, 1], offset: ?>>
  }
  return
}

// -----

// The accumulators may enter through a vector.broadcast (as the
// vectorizer leaves them for a 4-D packed tile); a row of 16 f64 is two
// lines. The index of the tile may be computed from the induction variable.
// CHECK-LABEL: func.func @broadcast_f64
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N:.*]] step %[[C2:.*]] {
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %[[C2]] : index
// CHECK: %[[J2:.*]] = arith.select %{{.*}}, %[[NEXT]], %[[J]] : index
// CHECK: %[[ROW2:.*]] = affine.apply #{{.*}}(%[[J2]])
// CHECK: %[[TILE2:.*]] = memref.subview %{{.*}}[%[[ROW2]], 0] [1, 16]
// CHECK-COUNT-2: memref.prefetch %[[TILE2]]
// CHECK-NOT: memref.prefetch
// CHECK: scf.for
#half = affine_map<(d0) -> (d0 floordiv 2)>
func.func @broadcast_f64(%c: memref<?x16xf64>, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c2 = arith.constant 2 : index
  %pad = arith.constant 0.0 : f64
  scf.for %j = %c0 to %n step %c2 {
    %row = affine.apply #half(%j)
    %tile = memref.subview %c[%row, 0] [1, 16] [1, 1] : memref<?x16xf64> to memref<1x16xf64, strided<[16, 1], offset: ?>>
    %v = vector.transfer_read %tile[%c0, %c0], %pad {in_bounds = [true]} : memref<1x16xf64, strided<[16, 1], offset: ?>>, vector<16xf64>
    %acc = vector.broadcast %v : vector<16xf64> to vector<1x16xf64>
    %r = scf.for %kk = %c0 to %k step %c2 iter_args(%a = %acc) -> (vector<1x16xf64>) {
      %s = arith.addf %a, %a : vector<1x16xf64>
      scf.yield %s : vector<1x16xf64>
    }
    %w = vector.extract %r[0] : vector<16xf64> from vector<1x16xf64>
    vector.transfer_write %w, %tile[%c0, %c0] {in_bounds = [true]} : vector<16xf64>, memref<1x16xf64, strided<[16, 1], offset: ?>>
  }
  return
}

// -----

// Not prefetched: a tile that does not move with the loop, a masked read,
// and a read that does not start a loop's accumulators.
// CHECK-LABEL: func.func @unchanged
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @unchanged(%c: memref<?x32xf32>, %n: index, %k: index, %mask: vector<32xi1>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  scf.for %j = %c0 to %n step %c1 {
    %fixed = vector.transfer_read %c[%c0, %c0], %pad {in_bounds = [true]} : memref<?x32xf32>, vector<32xf32>
    %r = scf.for %kk = %c0 to %k step %c1 iter_args(%a = %fixed) -> (vector<32xf32>) {
      scf.yield %a : vector<32xf32>
    }
    %masked = vector.transfer_read %c[%j, %c0], %pad, %mask {in_bounds = [true]} : memref<?x32xf32>, vector<32xf32>
    %r2 = scf.for %kk = %c0 to %k step %c1 iter_args(%a = %masked) -> (vector<32xf32>) {
      scf.yield %a : vector<32xf32>
    }
    %plain = vector.transfer_read %c[%j, %c0], %pad {in_bounds = [true]} : memref<?x32xf32>, vector<32xf32>
    %s = arith.addf %plain, %r : vector<32xf32>
    %s2 = arith.addf %s, %r2 : vector<32xf32>
    vector.transfer_write %s2, %c[%j, %c0] {in_bounds = [true]} : vector<32xf32>, memref<?x32xf32>
  }
  return
}

// -----

// The read inside the scf.if that selects zeros in the first k-block
// (transform.matc.zero_first_accumulation), its tile taken outside it: the
// next tile is prefetched before the loop over k all the same (a
// regression test: the pass once looked for the read in the loop's body
// only, and the product kernels lost their prefetches).
// CHECK-LABEL: func.func @zero_first_kernel
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %[[N:.*]] step %[[C1:.*]] {
// CHECK: %[[ACC:.*]] = scf.if %{{.*}} -> (vector<2x32xf32>) {
// CHECK: vector.transfer_read
// CHECK: %[[NEXT:.*]] = arith.addi %[[J]], %[[C1]] : index
// CHECK-COUNT-4: memref.prefetch {{.*}}, write, locality<3>, data
// CHECK-NOT: memref.prefetch
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %[[ACC]])
func.func @zero_first_kernel(%c: memref<?x?x2x32xf32>, %b: memref<?x32xf32>, %i: index, %n: index, %k: index, %first: i1) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f32
  %zeros = arith.constant dense<0.0> : vector<2x32xf32>
  scf.for %j = %c0 to %n step %c1 {
    %tile = memref.subview %c[%i, %j, 0, 0] [1, 1, 2, 32] [1, 1, 1, 1] : memref<?x?x2x32xf32> to memref<1x1x2x32xf32, strided<[?, 64, 32, 1], offset: ?>>
    %acc = scf.if %first -> (vector<2x32xf32>) {
      scf.yield %zeros : vector<2x32xf32>
    } else {
      %read = vector.transfer_read %tile[%c0, %c0, %c0, %c0], %pad {in_bounds = [true, true]} : memref<1x1x2x32xf32, strided<[?, 64, 32, 1], offset: ?>>, vector<2x32xf32>
      scf.yield %read : vector<2x32xf32>
    }
    %r = scf.for %kk = %c0 to %k step %c1 iter_args(%a = %acc) -> (vector<2x32xf32>) {
      %row = vector.transfer_read %b[%kk, %c0], %pad {in_bounds = [true]} : memref<?x32xf32>, vector<32xf32>
      %row2 = vector.broadcast %row : vector<32xf32> to vector<2x32xf32>
      %s = arith.addf %a, %row2 : vector<2x32xf32>
      scf.yield %s : vector<2x32xf32>
    }
    vector.transfer_write %r, %tile[%c0, %c0, %c0, %c0] {in_bounds = [true, true]} : vector<2x32xf32>, memref<1x1x2x32xf32, strided<[?, 64, 32, 1], offset: ?>>
  }
  return
}

// -----

// The loop over the tiles of C of a vector-matrix product (tagged
// matc.vector_matrix_tiles by Schedule.mlir's @schedule_vector_matrix):
// its row of C stays in the L1 across the blocks of k, nothing is
// prefetched (measured on Zen 4, x @ b of 2048 x 2048 f64 from Python:
// 883 us with the prefetches, 822 without).
// CHECK-LABEL: func.func @vector_matrix_tiles
// CHECK-NOT: memref.prefetch
// CHECK: return
func.func @vector_matrix_tiles(%c: memref<?xf64>, %b: memref<?x?xf64>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %c32 = arith.constant 32 : index
  %pad = arith.constant 0.0 : f64
  scf.for %j = %c0 to %n step %c32 {
    %tile = memref.subview %c[%j] [32] [1] : memref<?xf64> to memref<32xf64, strided<[1], offset: ?>>
    %acc = vector.transfer_read %tile[%c0], %pad {in_bounds = [true]} : memref<32xf64, strided<[1], offset: ?>>, vector<32xf64>
    %r = scf.for %kk = %c0 to %c8 step %c1 iter_args(%a = %acc) -> (vector<32xf64>) {
      %row = vector.transfer_read %b[%kk, %j], %pad {in_bounds = [true]} : memref<?x?xf64>, vector<32xf64>
      %s = arith.addf %a, %row : vector<32xf64>
      scf.yield %s : vector<32xf64>
    }
    vector.transfer_write %r, %tile[%c0] {in_bounds = [true]} : vector<32xf64>, memref<32xf64, strided<[1], offset: ?>>
  } {matc.vector_matrix_tiles}
  return
}
