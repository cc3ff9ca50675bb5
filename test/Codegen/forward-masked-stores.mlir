// RUN: matc-opt %s --split-input-file --pass-pipeline='builtin.module(func.func(matrix-forward-masked-stores, canonicalize))' | FileCheck %s

// The fill of zeros of a register tile of C masked in its columns, read
// back at once under the same mask: the read is the zeros (the lanes it
// keeps) or its padding (zero too): the loop starts from the constant.
// CHECK-LABEL: func.func @fill_then_read
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x16xf64>
// CHECK: vector.transfer_write %[[ZERO]]
// CHECK-NOT: vector.transfer_read
// CHECK: return %[[ZERO]]
func.func @fill_then_read(%c: memref<8x?xf64>, %n: index) -> vector<8x16xf64> {
  %c0 = arith.constant 0 : index
  %c8 = arith.constant 8 : index
  %pad = arith.constant 0.0 : f64
  %zeros = arith.constant dense<0.0> : vector<8x16xf64>
  %mask = vector.create_mask %c8, %n : vector<8x16xi1>
  vector.transfer_write %zeros, %c[%c0, %c0], %mask {in_bounds = [true, true]} : vector<8x16xf64>, memref<8x?xf64>
  %read = vector.transfer_read %c[%c0, %c0], %pad, %mask {in_bounds = [true, true]} : memref<8x?xf64>, vector<8x16xf64>
  return %read : vector<8x16xf64>
}

// -----

// Another value and another padding: the lanes the mask keeps are the
// value's, the others the padding (a select); a mask made again of the
// same sizes is the same mask.
// CHECK-LABEL: func.func @value_and_padding
// CHECK-SAME: (%[[C:.*]]: memref<?xf32>, %[[V:.*]]: vector<16xf32>, %[[N:.*]]: index)
// CHECK: %[[PAD:.*]] = arith.constant dense<1.000000e+00> : vector<16xf32>
// CHECK: %[[MASK:.*]] = vector.create_mask %[[N]]
// CHECK: vector.transfer_write %[[V]], %[[C]]
// CHECK-NOT: vector.transfer_read
// CHECK: %[[SEL:.*]] = arith.select %[[MASK]], %[[V]], %[[PAD]]
// CHECK: return %[[SEL]]
func.func @value_and_padding(%c: memref<?xf32>, %v: vector<16xf32>, %n: index) -> vector<16xf32> {
  %c0 = arith.constant 0 : index
  %pad = arith.constant 1.0 : f32
  %mask = vector.create_mask %n : vector<16xi1>
  vector.transfer_write %v, %c[%c0], %mask {in_bounds = [true]} : vector<16xf32>, memref<?xf32>
  %again = vector.create_mask %n : vector<16xi1>
  %read = vector.transfer_read %c[%c0], %pad, %again {in_bounds = [true]} : memref<?xf32>, vector<16xf32>
  return %read : vector<16xf32>
}

// -----

// Not forwarded: another mask, other indices, another memref, a write
// to memory in between, or transfers that may be out of bounds (a lane
// out of bounds is not written, and read as the padding).
// CHECK-LABEL: func.func @not_forwarded
// CHECK-COUNT-5: vector.transfer_read
func.func @not_forwarded(%c: memref<?xf64>, %d: memref<?xf64>, %v: vector<8xf64>, %n: index, %m: index)
    -> (vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %pad = arith.constant 0.0 : f64
  %mask = vector.create_mask %n : vector<8xi1>
  %other = vector.create_mask %m : vector<8xi1>
  vector.transfer_write %v, %c[%c0], %mask {in_bounds = [true]} : vector<8xf64>, memref<?xf64>
  %r0 = vector.transfer_read %c[%c0], %pad, %other {in_bounds = [true]} : memref<?xf64>, vector<8xf64>
  vector.transfer_write %v, %c[%c0], %mask {in_bounds = [true]} : vector<8xf64>, memref<?xf64>
  %r1 = vector.transfer_read %c[%c1], %pad, %mask {in_bounds = [true]} : memref<?xf64>, vector<8xf64>
  vector.transfer_write %v, %c[%c0], %mask {in_bounds = [true]} : vector<8xf64>, memref<?xf64>
  %r2 = vector.transfer_read %d[%c0], %pad, %mask {in_bounds = [true]} : memref<?xf64>, vector<8xf64>
  vector.transfer_write %v, %c[%c0], %mask {in_bounds = [true]} : vector<8xf64>, memref<?xf64>
  memref.store %pad, %c[%c1] : memref<?xf64>
  %r3 = vector.transfer_read %c[%c0], %pad, %mask {in_bounds = [true]} : memref<?xf64>, vector<8xf64>
  vector.transfer_write %v, %c[%c0], %mask : vector<8xf64>, memref<?xf64>
  %r4 = vector.transfer_read %c[%c0], %pad, %mask : memref<?xf64>, vector<8xf64>
  return %r0, %r1, %r2, %r3, %r4 : vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>, vector<8xf64>
}
