// RUN: matc-opt %s -convert-matrix-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @constant
// CHECK: %[[C:.*]] = arith.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK: return %[[C]]
func.func @constant() -> tensor<1x2xf32> {
  %0 = matrix.constant dense<[[1.0, 2.0]]> : tensor<1x2xf32>
  return %0 : tensor<1x2xf32>
}

// CHECK-LABEL: func.func @full
// CHECK-SAME: (%[[V:.*]]: f64)
// CHECK: %[[E:.*]] = tensor.empty() : tensor<2x3xf64>
// CHECK: linalg.fill ins(%[[V]] : f64) outs(%[[E]] : tensor<2x3xf64>)
func.func @full(%v: f64) -> tensor<2x3xf64> {
  %0 = matrix.full %v : f64 -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// CHECK-LABEL: func.func @eye
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[EQ:.*]] = arith.cmpi eq, %[[I]], %[[J]] : index
// CHECK: arith.select %[[EQ]], %{{.*}}, %{{.*}} : f64
func.func @eye() -> tensor<3x3xf64> {
  %0 = matrix.eye : tensor<3x3xf64>
  return %0 : tensor<3x3xf64>
}

// iota(2, 5): element (i, j) = i * 5 + j.
// CHECK-LABEL: func.func @iota
// CHECK: linalg.generic
// CHECK: %[[I:.*]] = linalg.index 0 : index
// CHECK: %[[J:.*]] = linalg.index 1 : index
// CHECK: %[[ROW:.*]] = arith.muli %[[I]], %c5 : index
// CHECK: %[[POS:.*]] = arith.addi %[[ROW]], %[[J]] : index
// CHECK: %[[INT:.*]] = arith.index_castui %[[POS]] : index to i64
// CHECK: arith.uitofp %[[INT]] : i64 to f32
func.func @iota() -> tensor<2x5xf32> {
  %0 = matrix.iota : tensor<2x5xf32>
  return %0 : tensor<2x5xf32>
}
