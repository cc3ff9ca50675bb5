// RUN: matc-opt %s --matrix-split-module="parts=2 min-ops=0" | FileCheck %s
// RUN: matc-opt %s --matrix-split-module="parts=2" | FileCheck %s --check-prefix=SMALL
// RUN: matc-opt %s --matrix-split-module="parts=1 min-ops=0" | FileCheck %s --check-prefix=SMALL
// RUN: matc-opt %s --matrix-split-module="parts=2 min-ops=0" --matrix-merge-modules | FileCheck %s --check-prefix=ROUND

// The largest function (@big) gets a part of its own; @small and @main,
// the lighter ones, share the other (Graham's rule). A part declares what
// it calls of another (private, without the definition's discardable
// attributes) and holds a copy of the globals and external declarations it
// refers to, in the module's order; the module's attributes go on both.
// CHECK-LABEL: module attributes {matrix.test = 1 : i64} {
// CHECK-NEXT: module attributes {matrix.test = 1 : i64} {
// CHECK-NEXT: func.func @big(%{{.*}}: memref<8xf64>) attributes {matrix.c_program} {
// CHECK: module attributes {matrix.test = 1 : i64} {
// CHECK-NEXT: llvm.mlir.global internal constant @text("x\00")
// CHECK-NEXT: llvm.func @puts(!llvm.ptr) -> i32
// CHECK-NEXT: func.func private @big(memref<8xf64>){{$}}
// CHECK-NEXT: func.func @small() {
// CHECK: llvm.mlir.addressof @text
// CHECK: func.func @main() {
// CHECK: call @big
// CHECK: call @small
// CHECK-NOT: module

// Below min-ops (4000 by default), or with one part, everything is one
// nested module, as it was.
// SMALL-LABEL: module attributes {matrix.test = 1 : i64} {
// SMALL-NEXT: module attributes {matrix.test = 1 : i64} {
// SMALL-NEXT: llvm.mlir.global internal constant @text
// SMALL-NEXT: llvm.func @puts
// SMALL-NEXT: func.func @big(
// SMALL: func.func @small() {
// SMALL: func.func @main() {
// SMALL-NOT: module

// Split and merged: every definition once, part by part, no declaration
// left.
// ROUND-LABEL: module attributes {matrix.test = 1 : i64} {
// ROUND-NEXT: func.func @big(%{{.*}}: memref<8xf64>) attributes {matrix.c_program} {
// ROUND: llvm.mlir.global internal constant @text
// ROUND-NEXT: llvm.func @puts
// ROUND-NEXT: func.func @small() {
// ROUND: func.func @main() {
// ROUND-NOT: func.func
// ROUND-NOT: module

module attributes {matrix.test = 1 : i64} {
  llvm.mlir.global internal constant @text("x\00") {addr_space = 0 : i32}
  llvm.func @puts(!llvm.ptr) -> i32
  func.func @big(%a: memref<8xf64>) attributes {matrix.c_program} {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %c8 = arith.constant 8 : index
    %one = arith.constant 1.0 : f64
    scf.for %i = %c0 to %c8 step %c1 {
      %x = memref.load %a[%i] : memref<8xf64>
      %y = arith.addf %x, %one : f64
      %z = arith.mulf %y, %y : f64
      %w = arith.subf %z, %one : f64
      memref.store %w, %a[%i] : memref<8xf64>
    }
    return
  }
  func.func @small() {
    %p = llvm.mlir.addressof @text : !llvm.ptr
    %r = llvm.call @puts(%p) : (!llvm.ptr) -> i32
    return
  }
  func.func @main() {
    %a = memref.alloc() : memref<8xf64>
    call @big(%a) : (memref<8xf64>) -> ()
    call @small() : () -> ()
    memref.dealloc %a : memref<8xf64>
    return
  }
}
