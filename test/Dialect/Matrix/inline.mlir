// RUN: matc-opt %s -inline | FileCheck %s

// Matrix ops may be inlined (the distributed pipeline inlines every Mat
// function into main before partitioning it).
// CHECK-LABEL: func.func @main
// CHECK-NOT: call
// CHECK: %[[A:.*]] = matrix.iota : tensor<2x2xf64>
// CHECK: %[[T:.*]] = matrix.transpose %[[A]]
// CHECK: matrix.print %[[T]]
func.func private @mat_f(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  %t = matrix.transpose %a : tensor<2x2xf64> -> tensor<2x2xf64>
  matrix.print %t : tensor<2x2xf64>
  return %t : tensor<2x2xf64>
}
func.func @main() {
  %a = matrix.iota : tensor<2x2xf64>
  %r = call @mat_f(%a) : (tensor<2x2xf64>) -> tensor<2x2xf64>
  return
}
