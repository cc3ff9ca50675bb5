// RUN: matc-opt %s --matrix-lower-memref-copy | FileCheck %s

// CHECK-LABEL: func.func @strided
// CHECK-SAME: (%[[A:.*]]: memref<9x?xf32>, %[[B:.*]]: memref<9x?xf32, strided<[?, 1]>>)
// CHECK-NOT: memref.copy
// CHECK: linalg.copy ins(%[[A]] : memref<9x?xf32>) outs(%[[B]] : memref<9x?xf32, strided<[?, 1]>>)
func.func @strided(%a: memref<9x?xf32>, %b: memref<9x?xf32, strided<[?, 1]>>) {
  memref.copy %a, %b : memref<9x?xf32> to memref<9x?xf32, strided<[?, 1]>>
  return
}

// Static, contiguous and row-major on both sides: finalize-memref-to-llvm
// makes it an llvm.memcpy; left alone.
// CHECK-LABEL: func.func @contiguous
// CHECK: memref.copy
// CHECK-NOT: linalg.copy
func.func @contiguous(%a: memref<4x8xf64>, %b: memref<4x8xf64>) {
  memref.copy %a, %b : memref<4x8xf64> to memref<4x8xf64>
  return
}

// A static subview with a gap between rows is not contiguous.
// CHECK-LABEL: func.func @static_strided
// CHECK: linalg.copy
func.func @static_strided(%a: memref<4x8xf64>, %b: memref<4x4xf64, strided<[8, 1]>>) {
  %s = memref.subview %a[0, 0] [4, 4] [1, 1] : memref<4x8xf64> to memref<4x4xf64, strided<[8, 1]>>
  memref.copy %s, %b : memref<4x4xf64, strided<[8, 1]>> to memref<4x4xf64, strided<[8, 1]>>
  return
}
