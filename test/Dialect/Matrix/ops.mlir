// RUN: matc-opt %s | matc-opt | FileCheck %s
// Round trip: every op parses, prints and parses again.

// CHECK-LABEL: func.func @all_ops
func.func @all_ops(%a: tensor<2x3xf64>, %b: tensor<3x?xf64>, %s: f64, %x: tensor<2x3xf32>) {
  // CHECK: matrix.constant dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf64>
  %c = matrix.constant dense<[[1.0, 2.0]]> : tensor<1x2xf64>
  // CHECK: matrix.matmul %{{.*}}, %{{.*}} : tensor<2x3xf64>, tensor<3x?xf64> -> tensor<2x?xf64>
  %m = matrix.matmul %a, %b : tensor<2x3xf64>, tensor<3x?xf64> -> tensor<2x?xf64>
  // CHECK: matrix.matmul %{{.*}}, %{{.*}} {transpose_lhs} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<3x3xf64>
  %mtl = matrix.matmul %a, %a {transpose_lhs} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<3x3xf64>
  // CHECK: matrix.matmul %{{.*}}, %{{.*}} {transpose_lhs, transpose_rhs} : tensor<3x?xf64>, tensor<2x3xf64> -> tensor<?x2xf64>
  %mtb = matrix.matmul %b, %a {transpose_lhs, transpose_rhs} : tensor<3x?xf64>, tensor<2x3xf64> -> tensor<?x2xf64>
  // CHECK: matrix.add %{{.*}}, %{{.*}} : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  %add = matrix.add %a, %a : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  // CHECK: matrix.sub %{{.*}}, %{{.*}} : f64, tensor<2x3xf64> -> tensor<2x3xf64>
  %sub = matrix.sub %s, %a : f64, tensor<2x3xf64> -> tensor<2x3xf64>
  // CHECK: matrix.mul %{{.*}}, %{{.*}} : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  %mul = matrix.mul %a, %s : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
  // CHECK: matrix.neg %{{.*}} : tensor<2x3xf32>
  %neg = matrix.neg %x : tensor<2x3xf32>
  // CHECK: matrix.transpose %{{.*}} : tensor<3x?xf64> -> tensor<?x3xf64>
  %t = matrix.transpose %b : tensor<3x?xf64> -> tensor<?x3xf64>
  // CHECK: matrix.full %{{.*}} : f64 -> tensor<2x2xf64>
  %f = matrix.full %s : f64 -> tensor<2x2xf64>
  // CHECK: matrix.eye : tensor<3x3xf32>
  %e = matrix.eye : tensor<3x3xf32>
  // CHECK: matrix.iota : tensor<2x5xf64>
  %i = matrix.iota : tensor<2x5xf64>
  // CHECK: matrix.print %{{.*}} : tensor<2x?xf64>
  matrix.print %m : tensor<2x?xf64>
  // CHECK: matrix.print %{{.*}} : f64
  matrix.print %s : f64
  return
}
