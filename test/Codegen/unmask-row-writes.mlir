// RUN: matc-opt %s --matrix-unmask-row-writes --split-input-file | FileCheck %s

// The packing of A for MR = 6 on AVX2: an 8 x 8 write masked to 6 columns
// into a contiguous 8 x 6 block becomes 8 unmasked row writes into the
// block collapsed to 48 elements, in order: rows 0-6 8 wide at 0, 6, ...,
// 36 (each overwritten past 6 by the next), row 7 6 wide at 42.
// CHECK-LABEL: func.func @pack_rows
// CHECK-SAME: (%[[V:.*]]: vector<8x8xf32>, %[[M:.*]]: memref<1x8x6xf32, strided<[1920, 6, 1], offset: ?>>, %[[P:.*]]: index)
// CHECK: %[[FLAT:.*]] = memref.collapse_shape %[[M]] {{\[}}[0], [1, 2]] : memref<1x8x6xf32, strided<[1920, 6, 1], offset: ?>> into memref<1x48xf32, strided<[1920, 1], offset: ?>>
// CHECK: %[[R0:.*]] = vector.extract %[[V]][0] : vector<8xf32> from vector<8x8xf32>
// CHECK: vector.transfer_write %[[R0]], %[[FLAT]][%[[P]], %{{.*}}] {in_bounds = [true]} : vector<8xf32>, memref<1x48xf32
// CHECK: %[[R1:.*]] = vector.extract %[[V]][1]
// CHECK: vector.transfer_write %[[R1]], %[[FLAT]][%[[P]], %[[C6:.*]]] {in_bounds = [true]} : vector<8xf32>
// CHECK-COUNT-5: vector.transfer_write {{.*}} : vector<8xf32>
// CHECK: %[[R7:.*]] = vector.extract %[[V]][7]
// CHECK: %[[S7:.*]] = vector.extract_strided_slice %[[R7]] {offsets = [0], sizes = [6], strides = [1]} : vector<8xf32> to vector<6xf32>
// CHECK: vector.transfer_write %[[S7]], %[[FLAT]][%[[P]], %{{.*}}] {in_bounds = [true]} : vector<6xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: return
func.func @pack_rows(%v: vector<8x8xf32>, %m: memref<1x8x6xf32, strided<[1920, 6, 1], offset: ?>>, %p: index) {
  %c0 = arith.constant 0 : index
  %mask = vector.constant_mask [8, 6] : vector<8x8xi1>
  vector.transfer_write %v, %m[%p, %c0, %c0], %mask {in_bounds = [true, true]} : vector<8x8xf32>, memref<1x8x6xf32, strided<[1920, 6, 1], offset: ?>>
  return
}

// -----

// f64 rows of 8 (two AVX2 registers) into rows of 6: rows 0-6 whole, the
// last one 6 wide.
// CHECK-LABEL: func.func @pack_rows_f64
// CHECK-COUNT-7: vector.transfer_write {{.*}} : vector<8xf64>, memref<48xf64>
// CHECK: vector.transfer_write {{.*}} : vector<6xf64>, memref<48xf64>
func.func @pack_rows_f64(%v: vector<8x8xf64>, %m: memref<8x6xf64>) {
  %c0 = arith.constant 0 : index
  %mask = vector.constant_mask [8, 6] : vector<8x8xi1>
  vector.transfer_write %v, %m[%c0, %c0], %mask {in_bounds = [true, true]} : vector<8x8xf64>, memref<8x6xf64>
  return
}

// -----

// Left masked: a mask of fewer rows, a dynamic mask, a block that is not
// the whole memref (rows longer than the mask keeps), a write at a
// nonzero column, and a strided block.
// CHECK-LABEL: func.func @kept
// CHECK-COUNT-5: vector.transfer_write {{.*}}, %{{.*}} {in_bounds = [true, true]} : vector<8x8xf32>
// CHECK-NOT: memref.collapse_shape
func.func @kept(%v: vector<8x8xf32>, %m: memref<8x6xf32>, %w: memref<8x7xf32>,
                %s: memref<8x6xf32, strided<[7, 1]>>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %rows = vector.constant_mask [7, 6] : vector<8x8xi1>
  vector.transfer_write %v, %m[%c0, %c0], %rows {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x6xf32>
  %dyn = vector.create_mask %n, %n : vector<8x8xi1>
  vector.transfer_write %v, %m[%c0, %c0], %dyn {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x6xf32>
  %six = vector.constant_mask [8, 6] : vector<8x8xi1>
  vector.transfer_write %v, %w[%c0, %c0], %six {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x7xf32>
  vector.transfer_write %v, %m[%c0, %c1], %six {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x6xf32>
  vector.transfer_write %v, %s[%c0, %c0], %six {in_bounds = [true, true]} : vector<8x8xf32>, memref<8x6xf32, strided<[7, 1]>>
  return
}
