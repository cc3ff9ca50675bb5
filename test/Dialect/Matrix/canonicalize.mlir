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
