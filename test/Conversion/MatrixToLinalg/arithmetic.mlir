// RUN: matc-opt %s -convert-matrix-to-linalg | FileCheck %s

// CHECK-DAG: #[[ID:.*]] = affine_map<(d0, d1) -> (d0, d1)>
// CHECK-DAG: #[[BCAST:.*]] = affine_map<(d0, d1) -> ()>
// CHECK-DAG: #[[MAP_A:.*]] = affine_map<(d0, d1, d2) -> (d0, d2)>
// CHECK-DAG: #[[MAP_TA:.*]] = affine_map<(d0, d1, d2) -> (d2, d0)>
// CHECK-DAG: #[[MAP_B:.*]] = affine_map<(d0, d1, d2) -> (d2, d1)>
// CHECK-DAG: #[[MAP_TB:.*]] = affine_map<(d0, d1, d2) -> (d1, d2)>
// CHECK-DAG: #[[MAP_C:.*]] = affine_map<(d0, d1, d2) -> (d0, d1)>

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>, %[[B:.*]]: tensor<3x4xf64>)
// CHECK-DAG: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf64>
// CHECK: %[[ACC:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%[[EMPTY]] : tensor<2x4xf64>)
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[A]], %[[B]] : tensor<2x3xf64>, tensor<3x4xf64>) outs(%[[ACC]] : tensor<2x4xf64>)
// CHECK: return %[[R]]
func.func @matmul(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>) -> tensor<2x4xf64> {
  %0 = matrix.matmul %a, %b : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// `A = A @ A`: the product is written into a fresh tensor, never into A.
// CHECK-LABEL: func.func @matmul_self
// CHECK-SAME: (%[[A:.*]]: tensor<2x2xf64>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x2xf64>
// CHECK: %[[ACC:.*]] = linalg.fill {{.*}} outs(%[[EMPTY]]
// CHECK: linalg.matmul ins(%[[A]], %[[A]] : {{.*}}) outs(%[[ACC]] :
func.func @matmul_self(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %0 = matrix.matmul %a, %a : tensor<2x2xf64>, tensor<2x2xf64> -> tensor<2x2xf64>
  return %0 : tensor<2x2xf64>
}

// Dynamic sizes come from the operands: rows of the lhs, columns of the rhs.
// CHECK-LABEL: func.func @matmul_dynamic
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<3x?xf32>)
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[A]], %c0
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[B]], %c1
// CHECK: tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK: linalg.matmul
func.func @matmul_dynamic(%a: tensor<?x3xf32>, %b: tensor<3x?xf32>) -> tensor<?x?xf32> {
  %0 = matrix.matmul %a, %b : tensor<?x3xf32>, tensor<3x?xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// A transposed operand is read in place through linalg.matmul's indexing
// maps (d0 = i, d1 = j, d2 = k; the maps are checked at the top), never
// copied.
// CHECK-LABEL: func.func @matmul_transpose_lhs
// CHECK-SAME: (%[[X:.*]]: tensor<3x2xf64>, %[[Y:.*]]: tensor<3x4xf64>)
// CHECK-NOT: linalg.transpose
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4xf64>
// CHECK: %[[ACC:.*]] = linalg.fill {{.*}} outs(%[[EMPTY]]
// CHECK: linalg.matmul indexing_maps = [#[[MAP_TA]], #[[MAP_B]], #[[MAP_C]]] ins(%[[X]], %[[Y]] : tensor<3x2xf64>, tensor<3x4xf64>) outs(%[[ACC]] : tensor<2x4xf64>)
func.func @matmul_transpose_lhs(%a: tensor<3x2xf64>, %b: tensor<3x4xf64>) -> tensor<2x4xf64> {
  %0 = matrix.matmul %a, %b {transpose_lhs} : tensor<3x2xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// Dynamic sizes come from the dimensions the product reads: m is the lhs's
// dimension 1 when it is transposed, n the rhs's dimension 0.
// CHECK-LABEL: func.func @matmul_transpose_both_dynamic
// CHECK-SAME: (%[[X:.*]]: tensor<3x?xf32>, %[[Y:.*]]: tensor<?x3xf32>)
// CHECK-DAG: %[[M:.*]] = tensor.dim %[[X]], %c1
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[Y]], %c0
// CHECK: tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK: linalg.matmul indexing_maps = [#[[MAP_TA]], #[[MAP_TB]], #[[MAP_C]]] ins(%[[X]], %[[Y]] :
func.func @matmul_transpose_both_dynamic(%a: tensor<3x?xf32>, %b: tensor<?x3xf32>) -> tensor<?x?xf32> {
  %0 = matrix.matmul %a, %b {transpose_lhs, transpose_rhs} : tensor<3x?xf32>, tensor<?x3xf32> -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @matmul_transpose_rhs
// CHECK: linalg.matmul indexing_maps = [#[[MAP_A]], #[[MAP_TB]], #[[MAP_C]]] ins({{.*}} : tensor<2x3xf64>, tensor<4x3xf64>) outs({{.*}} : tensor<2x4xf64>)
func.func @matmul_transpose_rhs(%a: tensor<2x3xf64>, %b: tensor<4x3xf64>) -> tensor<2x4xf64> {
  %0 = matrix.matmul %a, %b {transpose_rhs} : tensor<2x3xf64>, tensor<4x3xf64> -> tensor<2x4xf64>
  return %0 : tensor<2x4xf64>
}

// CHECK-LABEL: func.func @transpose
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf64>)
// CHECK: %[[EMPTY:.*]] = tensor.empty() : tensor<3x2xf64>
// CHECK: linalg.transpose ins(%[[A]] : tensor<2x3xf64>) outs(%[[EMPTY]] : tensor<3x2xf64>) permutation = [1, 0]
func.func @transpose(%a: tensor<2x3xf64>) -> tensor<3x2xf64> {
  %0 = matrix.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  return %0 : tensor<3x2xf64>
}

// CHECK-LABEL: func.func @add
// CHECK: linalg.generic {indexing_maps = [#[[ID]], #[[ID]], #[[ID]]], iterator_types = ["parallel", "parallel"]}
// CHECK: ^bb0(%[[X:.*]]: f64, %[[Y:.*]]: f64, %{{.*}}: f64):
// CHECK: %[[S:.*]] = arith.addf %[[X]], %[[Y]] : f64
// CHECK: linalg.yield %[[S]]
func.func @add(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = matrix.add %a, %b : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// A scalar operand enters the generic with the broadcasting map.
// CHECK-LABEL: func.func @scalar_minus_matrix
// CHECK-SAME: (%[[A:.*]]: tensor<2x3xf32>, %[[S:.*]]: f32)
// CHECK: linalg.generic {indexing_maps = [#[[BCAST]], #[[ID]], #[[ID]]]
// CHECK-SAME: ins(%[[S]], %[[A]] : f32, tensor<2x3xf32>)
// CHECK: ^bb0(%[[X:.*]]: f32, %[[Y:.*]]: f32, %{{.*}}: f32):
// CHECK: arith.subf %[[X]], %[[Y]] : f32
func.func @scalar_minus_matrix(%a: tensor<2x3xf32>, %s: f32) -> tensor<2x3xf32> {
  %0 = matrix.sub %s, %a : f32, tensor<2x3xf32> -> tensor<2x3xf32>
  return %0 : tensor<2x3xf32>
}

// CHECK-LABEL: func.func @mul
// CHECK: linalg.generic
// CHECK: arith.mulf
func.func @mul(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<2x3xf64> {
  %0 = matrix.mul %a, %b : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return %0 : tensor<2x3xf64>
}

// CHECK-LABEL: func.func @neg
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf64>)
// CHECK: %[[M:.*]] = tensor.dim %[[A]], %c0
// CHECK: tensor.empty(%[[M]]) : tensor<?x3xf64>
// CHECK: linalg.generic
// CHECK: arith.negf
func.func @neg(%a: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %0 = matrix.neg %a : tensor<?x3xf64>
  return %0 : tensor<?x3xf64>
}
