// RUN: matc-opt %s --matrix-to-linalg="opt-level=0" | FileCheck %s --check-prefix=LINALG
// RUN: matc-opt %s --matrix-to-affine="opt-level=0" | FileCheck %s --check-prefix=AFFINE
// RUN: matc-opt %s --matrix-to-llvm="opt-level=0" | FileCheck %s --check-prefix=LLVM
// RUN: matc-opt %s --matrix-to-llvm="opt-level=0" | mlir-runner -e main -entry-point-result=void | FileCheck %s --check-prefix=OUT

// Each stage of the plain (-O0) pipeline, checked on a Gram matrix with a
// run-time row count and a program that prints it. The optimizing stages
// (-O1 and up) are checked in optimized-*.mlir.

// LINALG-NOT: matrix.
// LINALG-LABEL: func.func @mat_gram
// LINALG: linalg.transpose
// LINALG: linalg.matmul

// Bufferization at function boundaries: memrefs with identity layouts, and
// every temporary buffer freed.
// AFFINE-LABEL: func.func @mat_gram
// AFFINE-SAME: (%[[A:.*]]: memref<?x3xf64>) -> memref<3x3xf64>
// AFFINE: %[[T:.*]] = memref.alloc(%{{.*}}) {{.*}} : memref<3x?xf64>
// AFFINE: affine.for
// AFFINE: memref.dealloc %[[T]] : memref<3x?xf64>
// AFFINE: return
// AFFINE-LABEL: func.func @main
// AFFINE-NOT: linalg.
// AFFINE: memref.dealloc
// AFFINE: return

// LLVM-NOT: func.func
// LLVM-NOT: memref.
// LLVM-NOT: affine.
// LLVM-DAG: llvm.func @malloc
// LLVM-DAG: llvm.func @free
// LLVM-DAG: llvm.func @mat_gram
// LLVM-DAG: llvm.func @main()

// iota(4, 3).T @ iota(4, 3), computed by hand.
// OUT:      126 144 162
// OUT-NEXT: 144 166 188
// OUT-NEXT: 162 188 214

func.func @mat_gram(%a: tensor<?x3xf64>) -> tensor<3x3xf64> {
  %t = matrix.transpose %a : tensor<?x3xf64> -> tensor<3x?xf64>
  %g = matrix.matmul %t, %a : tensor<3x?xf64>, tensor<?x3xf64> -> tensor<3x3xf64>
  return %g : tensor<3x3xf64>
}

func.func @main() {
  %i = matrix.iota : tensor<4x3xf64>
  %d = tensor.cast %i : tensor<4x3xf64> to tensor<?x3xf64>
  %g = call @mat_gram(%d) : (tensor<?x3xf64>) -> tensor<3x3xf64>
  matrix.print %g : tensor<3x3xf64>
  return
}
