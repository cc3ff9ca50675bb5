// RUN: matc-opt %s -split-input-file --matrix-split-deallocs | FileCheck %s

// Buffers of different allocations, memref.alloc results and results of
// calls of functions of the module (freed through their base buffers), are
// freed each by its own bufferization.dealloc, which lowers without a
// run-time test of every pair of pointers.
// CHECK-LABEL: func.func @split
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf64>
// CHECK: %[[R:.*]] = call @make()
// CHECK: %[[BASE:.*]], %{{.*}}, %{{.*}}, %{{.*}} = memref.extract_strided_metadata %[[R]]
// CHECK-NEXT: bufferization.dealloc (%[[A]] : memref<4xf64>) if (%{{.*}})
// CHECK-NEXT: bufferization.dealloc (%[[BASE]] : memref<f64>) if (%{{.*}})
// CHECK-NEXT: return
func.func private @make() -> memref<4xf64> {
  %a = memref.alloc() : memref<4xf64>
  return %a : memref<4xf64>
}
func.func @split(%c: i1) {
  %a = memref.alloc() : memref<4xf64>
  %r = call @make() : () -> memref<4xf64>
  %base, %offset, %size, %stride = memref.extract_strided_metadata %r : memref<4xf64> -> memref<f64>, index, index, index
  bufferization.dealloc (%a, %base : memref<4xf64>, memref<f64>) if (%c, %c)
  return
}

// -----

// With retained values, each split op retains them; a retained value's
// ownership is the `or` of the split ops' answers.
// CHECK-LABEL: func.func @retained
// CHECK: %[[O1:.*]]:2 = bufferization.dealloc (%{{.*}} : memref<4xf64>) if (%{{.*}}) retain (%[[X:.*]], %[[Y:.*]] : memref<4xf64>, memref<4xf64>)
// CHECK-NEXT: %[[O2:.*]]:2 = bufferization.dealloc (%{{.*}} : memref<4xf64>) if (%{{.*}}) retain (%[[X]], %[[Y]] : memref<4xf64>, memref<4xf64>)
// CHECK-NEXT: %[[OX:.*]] = arith.ori %[[O1]]#0, %[[O2]]#0 : i1
// CHECK-NEXT: %[[OY:.*]] = arith.ori %[[O1]]#1, %[[O2]]#1 : i1
// CHECK-NEXT: return %[[OX]], %[[OY]]
func.func @retained(%c: i1, %x: memref<4xf64>, %y: memref<4xf64>) -> (i1, i1) {
  %a = memref.alloc() : memref<4xf64>
  %b = memref.alloc() : memref<4xf64>
  %o:2 = bufferization.dealloc (%a, %b : memref<4xf64>, memref<4xf64>) if (%c, %c) retain (%x, %y : memref<4xf64>, memref<4xf64>)
  return %o#0, %o#1 : i1, i1
}

// -----

// Left as one op: a buffer that may be another (an argument, the result of
// a function without a body here), or the same allocation twice.
// CHECK-LABEL: func.func @kept
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xf64>, memref<4xf64>)
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xf64>, memref<f64>)
// CHECK: bufferization.dealloc (%{{.*}}, %{{.*}} : memref<4xf64>, memref<f64>)
// CHECK-NEXT: return
func.func private @elsewhere() -> memref<4xf64>
func.func @kept(%c: i1, %arg: memref<4xf64>) {
  %a = memref.alloc() : memref<4xf64>
  bufferization.dealloc (%a, %arg : memref<4xf64>, memref<4xf64>) if (%c, %c)
  %b = memref.alloc() : memref<4xf64>
  %r = call @elsewhere() : () -> memref<4xf64>
  %rbase, %o1, %s1, %t1 = memref.extract_strided_metadata %r : memref<4xf64> -> memref<f64>, index, index, index
  bufferization.dealloc (%b, %rbase : memref<4xf64>, memref<f64>) if (%c, %c)
  %d = memref.alloc() : memref<4xf64>
  %dbase, %o2, %s2, %t2 = memref.extract_strided_metadata %d : memref<4xf64> -> memref<f64>, index, index, index
  bufferization.dealloc (%d, %dbase : memref<4xf64>, memref<f64>) if (%c, %c)
  return
}
