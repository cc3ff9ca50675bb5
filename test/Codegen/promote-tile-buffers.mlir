// RUN: matc-opt %s --split-input-file --allow-unregistered-dialect --matrix-promote-tile-buffers | FileCheck %s

// One thread: the buffers of the loop nest go to the top of one alloca
// scope around the outermost loop; every iteration reuses them.
// CHECK-LABEL: func.func @serial
// CHECK-NEXT: %[[C0:.*]] = arith.constant 0
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT:   %[[T:.*]] = memref.alloca() {alignment = 64 : i64} : memref<256x8x16xf32>
// CHECK-NEXT:   %[[B:.*]] = memref.alloca() {alignment = 64 : i64} : memref<8x128x16xf32>
// CHECK-NEXT:   scf.for
// CHECK-NEXT:     "test.use"(%[[T]])
// CHECK-NEXT:     scf.for
// CHECK-NEXT:       "test.use"(%[[B]])
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT: }
// CHECK-NEXT: return
// CHECK-NOT: memref.dealloc
func.func @serial(%n: index, %k: index) {
  %c0 = arith.constant 0 : index
  scf.for %i = %c0 to %n step %c0 {
    %t = memref.alloc() {alignment = 64 : i64} : memref<256x8x16xf32>
    "test.use"(%t) : (memref<256x8x16xf32>) -> ()
    scf.for %j = %c0 to %k step %c0 {
      %b = memref.alloc() {alignment = 64 : i64} : memref<8x128x16xf32>
      "test.use"(%b) : (memref<8x128x16xf32>) -> ()
      memref.dealloc %b : memref<8x128x16xf32>
    }
    memref.dealloc %t : memref<256x8x16xf32>
  }
  return
}

// -----

// Threads: the buffers belong to the body of the parallel loop, one per
// iteration (the scope is what convert-scf-to-openmp needs to give the
// stack back per iteration).
// CHECK-LABEL: func.func @parallel
// CHECK: scf.parallel
// CHECK-NEXT: memref.alloca_scope {
// CHECK-NEXT:   %[[T:.*]] = memref.alloca() : memref<64x16xf64>
// CHECK-NEXT:   "test.use"(%[[T]])
// CHECK-NEXT: }
// CHECK-NEXT: scf.reduce
// CHECK-NOT: memref.dealloc
func.func @parallel(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %t = memref.alloc() : memref<64x16xf64>
    "test.use"(%t) : (memref<64x16xf64>) -> ()
    memref.dealloc %t : memref<64x16xf64>
    scf.reduce
  }
  return
}

// -----

// Left on the heap: a dynamic shape, a buffer above max-bytes (512 KiB), one
// freed in another block (its lifetime is not one iteration), one not freed
// here (returned), one not in a loop.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: memref.alloca
// CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK: memref.alloc() : memref<512x256xf32>
// CHECK: memref.alloc() : memref<16xf32>
// CHECK: memref.alloc() : memref<8xf32>
// CHECK: memref.alloc() : memref<4xf32>
// CHECK-NOT: memref.alloca
func.func @kept(%n: index) -> memref<8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %out = scf.for %i = %c0 to %n step %c1 iter_args(%x = %n) -> (index) {
    %d = memref.alloc(%n) : memref<?xf32>
    "test.use"(%d) : (memref<?xf32>) -> ()
    memref.dealloc %d : memref<?xf32>
    %big = memref.alloc() : memref<512x256xf32>
    "test.use"(%big) : (memref<512x256xf32>) -> ()
    memref.dealloc %big : memref<512x256xf32>
    %late = memref.alloc() : memref<16xf32>
    scf.for %j = %c0 to %n step %c1 {
      memref.dealloc %late : memref<16xf32>
    }
    scf.yield %x : index
  }
  %r = memref.alloc() : memref<8xf32>
  scf.for %i = %c0 to %n step %c1 {
    "test.use"(%r) : (memref<8xf32>) -> ()
  }
  %s = memref.alloc() : memref<4xf32>
  "test.use"(%s) : (memref<4xf32>) -> ()
  memref.dealloc %s : memref<4xf32>
  return %r : memref<8xf32>
}

// -----

// The buffers of one scope take at most max-scope-bytes: the third does not
// fit and stays on the heap.
// CHECK-LABEL: func.func @scope_budget
// CHECK: memref.alloca_scope {
// CHECK: memref.alloca() : memref<256x256xf32>
// CHECK: memref.alloca() : memref<256x256xf32>
// CHECK: scf.for
// CHECK: memref.alloc() : memref<256x256xf32>
func.func @scope_budget(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %a = memref.alloc() : memref<256x256xf32>
    %b = memref.alloc() : memref<256x256xf32>
    %c = memref.alloc() : memref<256x256xf32>
    "test.use"(%a, %b, %c) : (memref<256x256xf32>, memref<256x256xf32>, memref<256x256xf32>) -> ()
    memref.dealloc %a : memref<256x256xf32>
    memref.dealloc %b : memref<256x256xf32>
    memref.dealloc %c : memref<256x256xf32>
  }
  return
}

// -----

// A loop whose results are used after it: they become results of the scope.
// CHECK-LABEL: func.func @loop_result
// CHECK: %[[R:.*]] = memref.alloca_scope -> (index) {
// CHECK:   memref.alloca() : memref<32xf32>
// CHECK:   %[[L:.*]] = scf.for
// CHECK:   memref.alloca_scope.return %[[L]] : index
// CHECK: return %[[R]]
func.func @loop_result(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %c0) -> (index) {
    %t = memref.alloc() : memref<32xf32>
    "test.use"(%t) : (memref<32xf32>) -> ()
    memref.dealloc %t : memref<32xf32>
    %y = arith.addi %x, %i : index
    scf.yield %y : index
  }
  return %r : index
}
