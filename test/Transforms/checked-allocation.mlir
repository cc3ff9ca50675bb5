// RUN: matc-opt %s -matrix-checked-allocation | FileCheck %s

// The generic allocation functions get internal bodies: malloc with a null
// check that reports and exits, and free.

// CHECK-DAG: llvm.mlir.global external @stderr() {{.*}} : !llvm.ptr
// CHECK-DAG: llvm.mlir.global internal constant @matc.oom.message("error: out of memory: cannot allocate %llu bytes\0A\00")
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_alloc(
// CHECK-SAME: %[[SIZE:.*]]: i64) -> !llvm.ptr
// CHECK: %[[P:.*]] = llvm.call @malloc(%[[SIZE]])
// CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
// CHECK: %[[FAILED:.*]] = llvm.icmp "eq" %[[P]], %[[NULL]]
// CHECK: llvm.cond_br %[[FAILED]], ^[[OOM:.*]], ^[[OK:.*]]
// CHECK: ^[[OOM]]:
// CHECK: llvm.call @fprintf({{.*}}, %[[SIZE]])
// CHECK: llvm.call @exit
// CHECK: llvm.unreachable
// CHECK: ^[[OK]]:
// CHECK: llvm.return %[[P]]
// CHECK-LABEL: llvm.func internal @_mlir_memref_to_llvm_free(
// CHECK: llvm.call @free
llvm.func @_mlir_memref_to_llvm_alloc(i64) -> !llvm.ptr
llvm.func @_mlir_memref_to_llvm_free(!llvm.ptr)

// A function that is already defined is left alone.
// CHECK-LABEL: llvm.func @user
// CHECK-NEXT: llvm.return
llvm.func @user() {
  llvm.return
}
