// RUN: matc-opt %s -convert-matrix-to-linalg='lower-print=false' | FileCheck %s

// With lower-print=false, matrix.print stays for a later run (the
// distributed pipeline lowers it after partitioning); the rest is lowered.
// CHECK-LABEL: func.func @main
// CHECK: %[[T:.*]] = linalg.transpose
// CHECK: matrix.print %[[T]] : tensor<3x2xf64>
// CHECK-NOT: printf
func.func @main() {
  %a = matrix.iota : tensor<2x3xf64>
  %t = matrix.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
  matrix.print %t : tensor<3x2xf64>
  return
}
