// RUN: matc-opt %s -convert-matrix-to-linalg | FileCheck %s

// CHECK-DAG: llvm.func @printf(!llvm.ptr, ...) -> i32
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.first("%g\00")
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.rest(" %g\00")
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.newline("\0A\00")
// CHECK-DAG: llvm.mlir.global internal constant @matc.fmt.scalar("%g\0A\00")

// A matrix is printed by one function per element type, called by every
// print of that type, whatever its shape.
// CHECK-LABEL: func.func @print_matrix
// CHECK-SAME: (%[[A:.*]]: tensor<?x3xf32>, %[[B:.*]]: tensor<2x2xf32>, %[[C:.*]]: tensor<4x4xf64>)
// CHECK: %[[CA:.*]] = tensor.cast %[[A]] : tensor<?x3xf32> to tensor<?x?xf32>
// CHECK: call @matc.print.f32(%[[CA]]) : (tensor<?x?xf32>) -> ()
// CHECK: %[[CB:.*]] = tensor.cast %[[B]] : tensor<2x2xf32> to tensor<?x?xf32>
// CHECK: call @matc.print.f32(%[[CB]])
// CHECK: %[[CC:.*]] = tensor.cast %[[C]] : tensor<4x4xf64> to tensor<?x?xf64>
// CHECK: call @matc.print.f64(%[[CC]]) : (tensor<?x?xf64>) -> ()
// CHECK-NOT: matrix.print
func.func @print_matrix(%a: tensor<?x3xf32>, %b: tensor<2x2xf32>, %c: tensor<4x4xf64>) {
  matrix.print %a : tensor<?x3xf32>
  matrix.print %b : tensor<2x2xf32>
  matrix.print %c : tensor<4x4xf64>
  return
}

// CHECK-LABEL: func.func @print_scalar
// CHECK: %[[FMT:.*]] = llvm.mlir.addressof @matc.fmt.scalar
// CHECK: llvm.call @printf(%[[FMT]], %{{.*}})
func.func @print_scalar(%s: f64) {
  matrix.print %s : f64
  return
}

// A row per line: "%g" for column 0, " %g" after it, "\n" after the row.
// CHECK-LABEL: func.func private @matc.print.f32
// CHECK-SAME: (%[[M:.*]]: tensor<?x?xf32>) attributes {passthrough = ["noinline"]}
// CHECK: %[[ROWS:.*]] = tensor.dim %[[M]], %c0
// CHECK: %[[COLS:.*]] = tensor.dim %[[M]], %c1
// CHECK: scf.for %[[I:.*]] = %c0 to %[[ROWS]] step %c1 {
// CHECK: scf.for %[[J:.*]] = %c0 to %[[COLS]] step %c1 {
// CHECK: %[[X:.*]] = tensor.extract %[[M]][%[[I]], %[[J]]] : tensor<?x?xf32>
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[J]], %c0
// CHECK: %[[FMT:.*]] = arith.select %[[FIRST]]
// f32 is widened; a NaN of either sign prints as "nan".
// CHECK: %[[D:.*]] = arith.extf %[[X]] : f32 to f64
// CHECK: %[[ISNAN:.*]] = arith.cmpf uno, %[[D]], %[[D]] : f64
// CHECK: %[[P:.*]] = arith.select %[[ISNAN]], %{{.*}}, %[[D]] : f64
// CHECK: llvm.call @printf(%[[FMT]], %[[P]]) vararg(!llvm.func<i32 (ptr, ...)>)
// CHECK: }
// CHECK: llvm.call @printf
// CHECK: return
// CHECK-LABEL: func.func private @matc.print.f64
// CHECK-SAME: (%{{.*}}: tensor<?x?xf64>)
// CHECK-NOT: arith.extf
// CHECK: return
