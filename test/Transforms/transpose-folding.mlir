// RUN: matc-opt %s --matrix-optimize | FileCheck %s
// lib/Transforms/TransposeFolding.cpp: transposes read in place by products.

// A transposed operand becomes the product's flag; the transpose is gone.
// CHECK-LABEL: func.func @fold_lhs
// CHECK-SAME: (%[[A:.*]]: tensor<3x2xf64>, %[[B:.*]]: tensor<3x4xf64>)
// CHECK-NOT: matrix.transpose
// CHECK: %[[R:.*]] = matrix.matmul %[[A]], %[[B]] {transpose_lhs} : tensor<3x2xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
// CHECK: return %[[R]]
func.func @fold_lhs(%a: tensor<3x2xf64>, %b: tensor<3x4xf64>) -> tensor<2x4xf64> {
  %t = matrix.transpose %a : tensor<3x2xf64> -> tensor<2x3xf64>
  %0 = matrix.matmul %t, %b : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// Both operands, with run-time sizes (a Gram matrix a.T @ a).
// CHECK-LABEL: func.func @fold_dynamic_gram
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf64>)
// CHECK-NOT: matrix.transpose
// CHECK: matrix.matmul %[[A]], %[[A]] {transpose_lhs} : tensor<?x3xf64>, tensor<?x3xf64> -> tensor<3x3xf64>
func.func @fold_dynamic_gram(%a: tensor<?x3xf64>) -> tensor<3x3xf64> {
  %t = matrix.transpose %a : tensor<?x3xf64> -> tensor<3x?xf64>
  %0 = matrix.matmul %t, %a : tensor<3x?xf64>, tensor<?x3xf64> -> tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// A transpose with another user stays for it, and the product still reads
// its input in place.
// CHECK-LABEL: func.func @fold_shared
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>, %[[B:.*]]: tensor<2x3xf64>)
// CHECK: %[[T:.*]] = matrix.transpose %[[B]]
// CHECK: matrix.matmul %[[A]], %[[B]] {transpose_rhs}
// CHECK: matrix.print %[[T]]
func.func @fold_shared(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x2xf64> {
  %t = matrix.transpose %b : tensor<2x3xf64> -> tensor<3x2xf64>
  %0 = matrix.matmul %a, %t : tensor<2x3xf64>, tensor<3x2xf64> -> tensor<2x2xf64>
  matrix.print %t : tensor<3x2xf64>
  return %0 : tensor<2x2xf64>
}

// (a @ b.T).T = b @ a.T: the result transpose is absorbed by swapping the
// operands and toggling both flags.
// CHECK-LABEL: func.func @transpose_of_product
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>, %[[B:.*]]: tensor<4x3xf64>)
// CHECK-NOT: matrix.transpose
// CHECK: %[[R:.*]] = matrix.matmul %[[B]], %[[A]] {transpose_rhs} : tensor<4x3xf64>, tensor<2x3xf64> -> tensor<4x2xf64>
// CHECK: return %[[R]]
func.func @transpose_of_product(%a: tensor<2x3xf64>, %b: tensor<4x3xf64>) -> tensor<4x2xf64> {
  %bt = matrix.transpose %b : tensor<4x3xf64> -> tensor<3x4xf64>
  %p = matrix.matmul %a, %bt : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  %t = matrix.transpose %p : tensor<2x4xf64> -> tensor<4x2xf64>
  return %t : tensor<4x2xf64>
}

// The same with run-time sizes: (a @ b).T = b.T @ a.T.
// CHECK-LABEL: func.func @transpose_of_product_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<3x?xf32>)
// CHECK: matrix.matmul %[[B]], %[[A]] {transpose_lhs, transpose_rhs} : tensor<3x?xf32>, tensor<?x3xf32> -> tensor<?x?xf32>
// CHECK-NOT: matrix.transpose
func.func @transpose_of_product_dynamic(%a: tensor<?x3xf32>, %b: tensor<3x?xf32>) -> tensor<?x?xf32> {
  %p = matrix.matmul %a, %b : tensor<?x3xf32>, tensor<3x?xf32> -> tensor<?x?xf32>
  %t = matrix.transpose %p : tensor<?x?xf32> -> tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

// A product with another user is computed once; its transpose stays.
// CHECK-LABEL: func.func @transpose_of_shared_product
// CHECK: %[[P:.*]] = matrix.matmul
// CHECK: matrix.transpose %[[P]]
// CHECK: matrix.print %[[P]]
func.func @transpose_of_shared_product(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>) -> tensor<4x2xf64> {
  %p = matrix.matmul %a, %b : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  %t = matrix.transpose %p : tensor<2x4xf64> -> tensor<4x2xf64>
  matrix.print %p : tensor<2x4xf64>
  return %t : tensor<4x2xf64>
}

// A flagged operand that is itself a transpose goes back to plain.
// CHECK-LABEL: func.func @toggle
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>, %[[B:.*]]: tensor<3x4xf64>)
// CHECK: matrix.matmul %[[A]], %[[B]] : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
func.func @toggle(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>) -> tensor<2x4xf64> {
  %t = matrix.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  %0 = matrix.matmul %t, %b {transpose_lhs} : tensor<3x2xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}
