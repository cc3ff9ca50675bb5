// RUN: matc-opt %s -split-input-file --matrix-free-buffers-early | FileCheck %s

// A buffer is freed right after the last op of its block that uses it or a
// view of it; a use inside a loop counts as a use by the loop.
// CHECK-LABEL: func.func @after_last_use
// CHECK: %[[A:.*]] = memref.alloc() : memref<4x4xf64>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4x4xf64>
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[A]] : memref<4x4xf64>)
// CHECK: scf.for
// CHECK:   memref.load %[[V:.*]][
// CHECK: }
// CHECK-NEXT: memref.dealloc %[[A]] : memref<4x4xf64>
// CHECK-NEXT: linalg.fill ins(%{{.*}} : f64) outs(%[[B]] : memref<4x4xf64>)
// CHECK-NEXT: memref.dealloc %[[B]] : memref<4x4xf64>
// CHECK-NEXT: return
func.func @after_last_use(%x: f64, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %a = memref.alloc() : memref<4x4xf64>
  %b = memref.alloc() : memref<4x4xf64>
  linalg.fill ins(%x : f64) outs(%a : memref<4x4xf64>)
  %v = memref.subview %a[0, 0] [2, 2] [1, 1] : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1]>>
  scf.for %i = %c0 to %n step %c1 {
    %e = memref.load %v[%c0, %c0] : memref<2x2xf64, strided<[4, 1]>>
  }
  linalg.fill ins(%x : f64) outs(%b : memref<4x4xf64>)
  memref.dealloc %a : memref<4x4xf64>
  memref.dealloc %b : memref<4x4xf64>
  return
}

// -----

// A buffer that may outlive its last use in the block stays as it is:
// a view of it is returned, or passed to a call.
// CHECK-LABEL: func.func @escapes
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: %[[B:.*]] = memref.alloc()
// CHECK: %[[C:.*]] = memref.alloc()
// CHECK: call @use(%[[A]])
// CHECK: linalg.fill ins(%{{.*}} : f64) outs(%[[C]] : memref<4x4xf64>)
// CHECK-NEXT: memref.dealloc %[[C]] : memref<4x4xf64>
// CHECK-NEXT: memref.dealloc %[[A]] : memref<4x4xf64>
// CHECK-NEXT: return
func.func private @use(memref<4x4xf64>)
func.func @escapes(%x: f64) -> memref<2x2xf64, strided<[4, 1]>> {
  %a = memref.alloc() : memref<4x4xf64>
  %b = memref.alloc() : memref<4x4xf64>
  %c = memref.alloc() : memref<4x4xf64>
  call @use(%a) : (memref<4x4xf64>) -> ()
  %v = memref.subview %b[0, 0] [2, 2] [1, 1] : memref<4x4xf64> to memref<2x2xf64, strided<[4, 1]>>
  linalg.fill ins(%x : f64) outs(%c : memref<4x4xf64>)
  memref.dealloc %a : memref<4x4xf64>
  memref.dealloc %c : memref<4x4xf64>
  return %v : memref<2x2xf64, strided<[4, 1]>>
}

// -----

// A call of a function of the module only reads or writes the buffer (the
// product functions of matrix-outline-products; a Mat function, whose
// memref result is, after the ownership-based deallocation, a new buffer,
// never its argument): the buffer is freed after it. A call of a function
// without a body may keep it: left alone. (Regression, issue 13: a matrix
// passed to a Mat function stayed to the end of main, one more per
// statement.)
// CHECK-LABEL: func.func @calls
// CHECK: %[[A:.*]] = memref.alloc() : memref<4x4xf64>
// CHECK: %[[B:.*]] = memref.alloc() : memref<4x4xf64>
// CHECK: %[[C:.*]] = memref.alloc() : memref<4x4xf64>
// CHECK-NEXT: call @product(%[[A]])
// CHECK-NEXT: memref.dealloc %[[A]]
// CHECK-NEXT: call @unknown(%[[B]])
// CHECK-NEXT: call @scaled(%[[C]])
// CHECK-NEXT: memref.dealloc %[[C]]
// CHECK-NEXT: linalg.fill
// CHECK-NEXT: memref.dealloc %[[B]]
// CHECK-NEXT: return
func.func private @product(%a: memref<4x4xf64>) {
  return
}
func.func private @unknown(memref<4x4xf64>)
func.func private @scaled(%a: memref<4x4xf64>) -> memref<4x4xf64> {
  %r = memref.alloc() : memref<4x4xf64>
  memref.copy %a, %r : memref<4x4xf64> to memref<4x4xf64>
  return %r : memref<4x4xf64>
}
func.func @calls(%x: f64, %out: memref<4x4xf64>) {
  %a = memref.alloc() : memref<4x4xf64>
  %b = memref.alloc() : memref<4x4xf64>
  %c = memref.alloc() : memref<4x4xf64>
  call @product(%a) : (memref<4x4xf64>) -> ()
  call @unknown(%b) : (memref<4x4xf64>) -> ()
  %r = call @scaled(%c) : (memref<4x4xf64>) -> memref<4x4xf64>
  linalg.fill ins(%x : f64) outs(%out : memref<4x4xf64>)
  memref.dealloc %a : memref<4x4xf64>
  memref.dealloc %b : memref<4x4xf64>
  memref.dealloc %c : memref<4x4xf64>
  return
}

// -----

// The result of a call of a function of the module is a new buffer (after
// the ownership-based deallocation, which makes results owned by the
// caller): it is freed through its base buffer after its last use, the base
// buffer taken there. The result of a function without a body is left
// alone.
// CHECK-LABEL: func.func @call_results
// CHECK: %[[R:.*]] = call @make() : () -> memref<4x4xf64>
// CHECK-NEXT: call @product(%[[R]])
// CHECK-NEXT: %[[BASE:.*]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[R]]
// CHECK-NEXT: memref.dealloc %[[BASE]] : memref<f64>
// CHECK-NEXT: %[[S:.*]] = call @make_elsewhere()
// CHECK-NEXT: call @product(%[[S]])
// CHECK-NEXT: %[[T:.*]] = call @make() : () -> memref<4x4xf64>
// CHECK-NEXT: %[[TBASE:.*]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[T]]
// CHECK-NEXT: memref.dealloc %[[TBASE]] : memref<f64>
// CHECK-NEXT: %[[U:.*]] = memref.alloc()
// CHECK-NEXT: call @product(%[[U]])
// CHECK-NEXT: memref.dealloc %[[U]]
// CHECK-NEXT: %[[SBASE:.*]], %{{.*}}, %{{.*}}:2, %{{.*}}:2 = memref.extract_strided_metadata %[[S]]
// CHECK-NEXT: memref.dealloc %[[SBASE]] : memref<f64>
// CHECK-NEXT: return
func.func private @product(%a: memref<4x4xf64>) {
  return
}
func.func private @make() -> memref<4x4xf64> {
  %a = memref.alloc() : memref<4x4xf64>
  return %a : memref<4x4xf64>
}
func.func private @make_elsewhere() -> memref<4x4xf64>
func.func @call_results() {
  %r = call @make() : () -> memref<4x4xf64>
  call @product(%r) : (memref<4x4xf64>) -> ()
  %s = call @make_elsewhere() : () -> memref<4x4xf64>
  call @product(%s) : (memref<4x4xf64>) -> ()
  %t = call @make() : () -> memref<4x4xf64>
  %u = memref.alloc() : memref<4x4xf64>
  call @product(%u) : (memref<4x4xf64>) -> ()
  %base, %offset, %sizes:2, %strides:2 = memref.extract_strided_metadata %r : memref<4x4xf64> -> memref<f64>, index, index, index, index, index
  memref.dealloc %base : memref<f64>
  %sbase, %soffset, %ssizes:2, %sstrides:2 = memref.extract_strided_metadata %s : memref<4x4xf64> -> memref<f64>, index, index, index, index, index
  memref.dealloc %sbase : memref<f64>
  %tbase, %toffset, %tsizes:2, %tstrides:2 = memref.extract_strided_metadata %t : memref<4x4xf64> -> memref<f64>, index, index, index, index, index
  memref.dealloc %tbase : memref<f64>
  memref.dealloc %u : memref<4x4xf64>
  return
}
