// RUN: matc-opt %s --matrix-optimize | FileCheck %s
// lib/Transforms/ElementwiseSimplify.cpp: exact elementwise rewrites that
// build ops (the folders they enable are in lib/IR/MatrixCanonicalize.cpp).

// A full operand becomes its scalar, broadcast: no filled matrix.
// CHECK-LABEL: func.func @full_to_scalar
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf64>)
// CHECK-DAG: %[[TWO:.*]] = arith.constant 2.000000e+00 : f64
// CHECK-DAG: %[[THREE:.*]] = arith.constant 3.000000e+00 : f64
// CHECK-NOT: matrix.full
// CHECK: %[[S:.*]] = matrix.sub %[[THREE]], %[[X]] : f64, tensor<2x3xf64>
// CHECK: %[[M:.*]] = matrix.mul %[[S]], %[[TWO]] : tensor<2x3xf64>, f64
// CHECK: return %[[M]]
func.func @full_to_scalar(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %three = arith.constant 3.0 : f64
  %f3 = matrix.full %three : f64 -> tensor<2x3xf64>
  %0 = matrix.sub %f3, %x : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %two = arith.constant 2.0 : f64
  %f2 = matrix.full %two : f64 -> tensor<2x3xf64>
  %1 = matrix.mul %0, %f2 : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// x + zeros with an x that may hold -0: the zeros matrix goes, the + 0 stays
// (-0 + 0 is +0). x * ones and x - zeros become x.
// CHECK-LABEL: func.func @identities
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf64>)
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-NOT: matrix.full
// CHECK: %[[A:.*]] = matrix.add %[[X]], %[[ZERO]] : tensor<2x3xf64>, f64
// CHECK: return %[[A]], %[[X]], %[[X]]
func.func @identities(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %zeros = matrix.full %zero : f64 -> tensor<2x3xf64>
  %0 = matrix.add %x, %zeros : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %one = arith.constant 1.0 : f64
  %ones = matrix.full %one : f64 -> tensor<2x3xf64>
  %1 = matrix.mul %ones, %x : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %2 = matrix.sub %x, %zeros : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0, %1, %2 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

// x - x is zeros when every element of x is finite: iota, a literal without
// inf/nan, a negated transpose of eye.
// CHECK-LABEL: func.func @self_difference_finite
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-NOT: matrix.sub
// CHECK: %[[Z1:.*]] = matrix.full %[[ZERO]] : f32 -> tensor<2x3xf32>
// CHECK: %[[Z2:.*]] = matrix.full %[[ZERO]] : f32 -> tensor<1x2xf32>
// CHECK: %[[Z3:.*]] = matrix.full %[[ZERO]] : f32 -> tensor<3x3xf32>
// CHECK: return %[[Z1]], %[[Z2]], %[[Z3]]
func.func @self_difference_finite() -> (tensor<2x3xf32>, tensor<1x2xf32>, tensor<3x3xf32>) {
  %i = matrix.iota : tensor<2x3xf32>
  %0 = matrix.sub %i, %i : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %c = matrix.constant dense<[[1.0e30, -2.0]]> : tensor<1x2xf32>
  %1 = matrix.sub %c, %c : tensor<1x2xf32>, tensor<1x2xf32> -> tensor<1x2xf32>
  %e = matrix.eye : tensor<3x3xf32>
  %t = matrix.transpose %e : tensor<3x3xf32> -> tensor<3x3xf32>
  %n = matrix.neg %t : tensor<3x3xf32>
  %2 = matrix.sub %n, %n : tensor<3x3xf32>, tensor<3x3xf32> -> tensor<3x3xf32>
  return %0, %1, %2 : tensor<2x3xf32>, tensor<1x2xf32>, tensor<3x3xf32>
}

// ... and stays otherwise: inf - inf and nan - nan are nan. An argument, a
// literal holding inf or nan, a product (which may overflow) all keep it.
// CHECK-LABEL: func.func @self_difference_kept
// CHECK-COUNT-4: matrix.sub
func.func @self_difference_kept(%x: tensor<2x2xf64>) -> (tensor<2x2xf64>, tensor<1x2xf64>, tensor<1x2xf64>, tensor<2x2xf64>) {
  %0 = matrix.sub %x, %x : tensor<2x2xf64>, tensor<2x2xf64> -> tensor<2x2xf64>
  %inf = matrix.constant dense<[[1.0, 0x7FF0000000000000]]> : tensor<1x2xf64>
  %1 = matrix.sub %inf, %inf : tensor<1x2xf64>, tensor<1x2xf64> -> tensor<1x2xf64>
  %nan = matrix.constant dense<[[0x7FF8000000000000, 1.0]]> : tensor<1x2xf64>
  %2 = matrix.sub %nan, %nan : tensor<1x2xf64>, tensor<1x2xf64> -> tensor<1x2xf64>
  %c = matrix.constant dense<[[1.0e300, 0.0], [0.0, 1.0e300]]> : tensor<2x2xf64>
  %p = matrix.matmul %c, %c : tensor<2x2xf64>, tensor<2x2xf64> -> tensor<2x2xf64>
  %3 = matrix.sub %p, %p : tensor<2x2xf64>, tensor<2x2xf64> -> tensor<2x2xf64>
  return %0, %1, %2, %3 : tensor<2x2xf64>, tensor<1x2xf64>, tensor<1x2xf64>, tensor<2x2xf64>
}
