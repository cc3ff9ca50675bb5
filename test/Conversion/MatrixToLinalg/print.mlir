// RUN: matc-opt %s -convert-matrix-to-linalg | FileCheck %s

// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.first("%g\00")
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.rest(" %g\00")
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.newline("\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.scalar("%g\0A\00")

// A row per line: "%g" for column 0, " %g" after it, "\n" after the row.
// CHECK-LABEL: func.func @print_matrix
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>)
// CHECK: %[[ROWS:.*]] = tensor.dim %[[A]], %c0
// CHECK: scf.for %[[I:.*]] = %c0 to %[[ROWS]] step %c1 {
// CHECK: scf.for %[[J:.*]] = %c0 to %{{.*}} step %c1 {
// CHECK: %[[X:.*]] = tensor.extract %[[A]][%[[I]], %[[J]]] : tensor<?x3xf32>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[J]], %c0
// CHECK: %[[FMT:.*]] = arith.select %[[FIRST]]
// f32 is widened; a NaN of either sign prints as "nan".
// CHECK: %[[D:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[ISNAN:.*]] = arith.cmpf uno, %[[D]], %[[D]] : f64
// CHECK: %[[P:.*]] = arith.select %[[ISNAN]], %{{.*}}, %[[D]] : f64
// CHECK: llvm.call @printf(%[[FMT]], %[[P]]) vararg(!llvm.func<i32 (ptr, ...)>)
// CHECK: }
// CHECK: llvm.call @printf
// CHECK-NOT: matrix.print
func.func @print_matrix(%a: tensor<?x3xf32>) {
  matrix.print %a : tensor<?x3xf32>
  return
}

// CHECK-LABEL: func.func @print_scalar
// CHECK: %[[FMT:.*]] = llvm.mlir.addressof @matc.fmt.scalar
// CHECK: llvm.call @printf(%[[FMT]], %{{.*}})
func.func @print_scalar(%s: f64) {
  matrix.print %s : f64
  return
}
