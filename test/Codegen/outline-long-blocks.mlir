// RUN: matc-opt %s --split-input-file --matrix-outline-long-blocks=max-ops=6 | FileCheck %s

// A body of more than max-ops ops is cut into runs of about max-ops ops,
// each a private noinline function; what a run defines and later runs use
// are its results, what it uses from before its arguments; constants are
// cloned in. The last op (the return) stays.
// CHECK-LABEL: func.func private @long.part0
// CHECK-SAME: (%{{.*}}: memref<4xf64>) -> (memref<4xf64>, memref<4xf64>, f64)
// CHECK-SAME: attributes {passthrough = ["noinline"]}
// CHECK: arith.constant 0 : index
// CHECK: memref.alloc() : memref<4xf64>
// CHECK-LABEL: func.func private @long.part1
// CHECK: memref.dealloc
// CHECK-LABEL: func.func @long
// CHECK: %[[C0:.*]]:3 = call @long.part0(%{{.*}}) : (memref<4xf64>) -> (memref<4xf64>, memref<4xf64>, f64)
// CHECK-NEXT: call @long.part1(%[[C0]]#2, %[[C0]]#1, %{{.*}}, %[[C0]]#0)
// CHECK-NEXT: return
func.func @long(%x: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %one = arith.constant 1.0 : f64
  %a = memref.alloc() : memref<4xf64>
  %v = memref.load %x[%c0] : memref<4xf64>
  %w = arith.addf %v, %one : f64
  memref.store %w, %a[%c0] : memref<4xf64>
  %b = memref.alloc() : memref<4xf64>
  %u = memref.load %a[%c0] : memref<4xf64>
  %t = arith.mulf %u, %u : f64
  memref.store %t, %b[%c0] : memref<4xf64>
  memref.store %t, %x[%c0] : memref<4xf64>
  memref.dealloc %a : memref<4xf64>
  memref.dealloc %b : memref<4xf64>
  return
}

// -----

// A run whose result is a stack allocation (valid only in its frame) or of
// a type a function cannot pass (an LLVM struct) stays in place; a short
// body is left whole.
// CHECK-LABEL: func.func @kept
// CHECK-NOT: call
// CHECK: memref.alloca
// CHECK-NOT: func.func private @kept.part
// CHECK-LABEL: func.func @short
// CHECK-NOT: call
func.func @kept(%x: memref<4xf64>, %i: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %s = memref.alloca() : memref<4xf64>
  %v = memref.load %x[%c0] : memref<4xf64>
  %w = arith.addf %v, %v : f64
  memref.store %w, %s[%c0] : memref<4xf64>
  %u = llvm.mlir.undef : !llvm.struct<(i32)>
  %p = llvm.insertvalue %i, %u[0] : !llvm.struct<(i32)>
  %q = arith.addi %i, %i : i32
  %r = arith.muli %q, %q : i32
  %t = memref.load %s[%c0] : memref<4xf64>
  memref.store %t, %x[%c0] : memref<4xf64>
  %e = llvm.extractvalue %p[0] : !llvm.struct<(i32)>
  %f = arith.addi %e, %r : i32
  return %f : i32
}
func.func @short(%x: memref<4xf64>) {
  %c0 = arith.constant 0 : index
  %v = memref.load %x[%c0] : memref<4xf64>
  memref.store %v, %x[%c0] : memref<4xf64>
  return
}

