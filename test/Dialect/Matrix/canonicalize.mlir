// RUN: matc-opt %s -canonicalize | FileCheck %s

// CHECK-LABEL: func.func @transpose_transpose
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>)
// CHECK-NEXT: return %[[A]]
func.func @transpose_transpose(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = matrix.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %1 = matrix.transpose %0 : tensor<3x2xf64> -> tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// A dynamic dimension survives the round trip unchanged.
// CHECK-LABEL: func.func @transpose_transpose_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>)
// CHECK-NEXT: return %[[A]]
func.func @transpose_transpose_dynamic(%a: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %0 = matrix.transpose %a : tensor<?x3xf32> -> tensor<3x?xf32>
  %1 = matrix.transpose %0 : tensor<3x?xf32> -> tensor<?x3xf32>
  return %1 : tensor<?x3xf32>
}

// CHECK-LABEL: func.func @neg_neg
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>)
// CHECK-NEXT: return %[[A]]
func.func @neg_neg(%a: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = matrix.neg %a : tensor<2x3xf64>
  %1 = matrix.neg %0 : tensor<2x3xf64>
  return %1 : tensor<2x3xf64>
}

// A single transpose stays.
// CHECK-LABEL: func.func @one_transpose
// CHECK: matrix.transpose
func.func @one_transpose(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = matrix.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// Unused pure ops are removed; print is kept.
// CHECK-LABEL: func.func @dead
// CHECK-NOT: matrix.matmul
// CHECK: matrix.print
func.func @dead(%a: tensor<2x2xf64>) {
  %0 = matrix.matmul %a, %a : tensor<2x2xf64>, tensor<2x2xf64> -> tensor<2x2xf64>
  matrix.print %a : tensor<2x2xf64>
  return
}

//===----------------------------------------------------------------------===//
// Elementwise folders: exact for every input, so they run at -O0 too.
//===----------------------------------------------------------------------===//

// x - 0 is x for every x (-0 - 0 = -0), with a scalar zero or zeros(m, n).
// CHECK-LABEL: func.func @sub_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf64>)
// CHECK-NOT: matrix.sub
// CHECK: return %[[X]], %[[X]]
func.func @sub_zero(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %0 = matrix.sub %x, %zero : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  %zeros = matrix.full %zero : f64 -> tensor<2x3xf64>
  %1 = matrix.sub %x, %zeros : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0, %1 : tensor<2x3xf64>, tensor<2x3xf64>
}

// x - (-0) is x + 0, which turns -0 into +0: kept. 0 - x is not x either.
// CHECK-LABEL: func.func @sub_not_folded
// CHECK: matrix.sub
// CHECK: matrix.sub
func.func @sub_not_folded(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %negzero = arith.constant -0.0 : f64
  %0 = matrix.sub %x, %negzero : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  %zero = arith.constant 0.0 : f64
  %1 = matrix.sub %zero, %x : f64, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0, %1 : tensor<2x3xf64>, tensor<2x3xf64>
}

// x + (-0) is x for every x.
// CHECK-LABEL: func.func @add_negative_zero
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf64>)
// CHECK-NEXT: return %[[X]]
func.func @add_negative_zero(%x: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %negzero = arith.constant -0.0 : f64
  %0 = matrix.add %negzero, %x : f64, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// x + 0 is +0 where x is -0: with an x that may hold -0 (an argument, a
// negation of iota) the sum stays, whether 0 is a scalar or zeros(m, n).
// CHECK-LABEL: func.func @add_zero_kept
// CHECK-COUNT-3: matrix.add
func.func @add_zero_kept(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %0 = matrix.add %x, %zero : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  %zeros = matrix.full %zero : f64 -> tensor<2x3xf64>
  %1 = matrix.add %x, %zeros : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %i = matrix.iota : tensor<2x3xf64>
  %n = matrix.neg %i : tensor<2x3xf64>
  %2 = matrix.add %n, %zeros : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0, %1, %2 : tensor<2x3xf64>, tensor<2x3xf64>, tensor<2x3xf64>
}

// ... but folds where x provably holds no -0: iota, eye, a literal, full of
// a constant, a transpose of one, a sum with such a side.
// CHECK-LABEL: func.func @add_zero_folded
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf64>)
// CHECK-DAG: %[[I:.*]] = matrix.iota : tensor<2x3xf64>
// CHECK-DAG: %[[C:.*]] = matrix.constant dense
// CHECK-DAG: %[[E:.*]] = matrix.eye
// CHECK-DAG: %[[T:.*]] = matrix.transpose %[[E]]
// CHECK-DAG: %[[S:.*]] = matrix.add %[[X]], %{{.*}} : tensor<2x3xf64>, f64
// CHECK-NOT: matrix.add
// CHECK: return %[[I]], %[[C]], %[[T]], %[[S]]
func.func @add_zero_folded(%x: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<1x2xf64>, tensor<3x3xf32>, tensor<2x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %zeros = matrix.full %zero : f64 -> tensor<2x3xf64>
  %i = matrix.iota : tensor<2x3xf64>
  %0 = matrix.add %zeros, %i : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %c = matrix.constant dense<[[1.0, -2.0]]> : tensor<1x2xf64>
  %1 = matrix.add %c, %zero : tensor<1x2xf64>, f64 -> tensor<1x2xf64>
  %zero32 = arith.constant 0.0 : f32
  %e = matrix.eye : tensor<3x3xf32>
  %t = matrix.transpose %e : tensor<3x3xf32> -> tensor<3x3xf32>
  %2 = matrix.add %t, %zero32 : tensor<3x3xf32>, f32 -> tensor<3x3xf32>
  %one = arith.constant 1.0 : f64
  %s = matrix.add %x, %one : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  %3 = matrix.add %s, %zeros : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0, %1, %2, %3 : tensor<2x3xf64>, tensor<1x2xf64>, tensor<3x3xf32>, tensor<2x3xf64>
}

// A literal holding -0 keeps its + 0.
// CHECK-LABEL: func.func @add_zero_literal_negative_zero
// CHECK: matrix.add
func.func @add_zero_literal_negative_zero() -> tensor<1x2xf64> {
  %zero = arith.constant 0.0 : f64
  %c = matrix.constant dense<[[1.0, -0.0]]> : tensor<1x2xf64>
  %0 = matrix.add %c, %zero : tensor<1x2xf64>, f64 -> tensor<1x2xf64>
  return %0 : tensor<1x2xf64>
}

// x * 1 is x for every x: scalar 1 on either side, ones(m, n), a splat
// literal of ones.
// CHECK-LABEL: func.func @mul_one
// CHECK-SAME: (%[[X:.*]]: tensor<2x3xf32>)
// CHECK-NOT: matrix.mul
// CHECK: return %[[X]], %[[X]], %[[X]], %[[X]]
func.func @mul_one(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) {
  %one = arith.constant 1.0 : f32
  %0 = matrix.mul %x, %one : tensor<2x3xf32>, f32 -> tensor<2x3xf32>
  %1 = matrix.mul %one, %x : f32, tensor<2x3xf32> -> tensor<2x3xf32>
  %ones = matrix.full %one : f32 -> tensor<2x3xf32>
  %2 = matrix.mul %ones, %x : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %c = matrix.constant dense<1.0> : tensor<2x3xf32>
  %3 = matrix.mul %x, %c : tensor<2x3xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0, %1, %2, %3 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>
}

// No fold when x's type is not the result's (a `?` the other side fixes),
// nor for a factor other than 1.
// CHECK-LABEL: func.func @mul_not_folded
// CHECK-COUNT-2: matrix.mul
func.func @mul_not_folded(%x: tensor<?x3xf64>, %y: tensor<2x3xf64>) -> (tensor<2x3xf64>, tensor<2x3xf64>) {
  %one = arith.constant 1.0 : f64
  %ones = matrix.full %one : f64 -> tensor<2x3xf64>
  %0 = matrix.mul %x, %ones : tensor<?x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %two = arith.constant 2.0 : f64
  %1 = matrix.mul %y, %two : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  return %0, %1 : tensor<2x3xf64>, tensor<2x3xf64>
}
