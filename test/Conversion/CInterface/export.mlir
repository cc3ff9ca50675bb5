// RUN: matc-opt %s --split-input-file --matrix-export-c-interface | FileCheck %s
// RUN: matc-opt %s --split-input-file --matrix-export-c-interface=executable=true | FileCheck %s --check-prefix=EXE

// A lowered Mat function (expanded memref descriptors in and out) and the
// attribute matrix-prepare-c-interface put on it: a @ b with a.cols ==
// b.rows, result a.rows x b.cols. The body does not matter here.
llvm.func @mat_mm(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64,
                  %b0: !llvm.ptr, %b1: !llvm.ptr, %b2: i64, %b3: i64, %b4: i64, %b5: i64, %b6: i64)
    -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    attributes {matrix.c_interface = {arg_names = ["a", "b"],
      function_type = (tensor<?x?xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>,
      name = "mm", preconditions = array<i64: -2, -3>,
      result_dims = array<i64: -1, 3>}} {
  %d = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  llvm.return %d : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
}

// The Mat function becomes internal, under another name.
// CHECK-LABEL: llvm.func internal @mat_mm.impl(

// The C entry point: a, a_rows, a_cols, b, b_rows, result, result_rows.
// CHECK-LABEL: llvm.func @mat_mm(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr, %[[AR:[^:]*]]: i64, %[[AC:[^:]*]]: i64, %[[B:[^:]*]]: !llvm.ptr, %[[BR:[^:]*]]: i64, %[[OUT:[^:]*]]: !llvm.ptr, %[[OR:[^:]*]]: i64) -> i32
// Every size at least 1, then a.cols == b.rows, the expected result sizes.
// CHECK-DAG: %[[ONE:.*]] = llvm.mlir.constant(1 : i64) : i64
// CHECK-DAG: llvm.icmp "sge" %[[AR]], %[[ONE]]
// CHECK-DAG: llvm.icmp "sge" %[[AC]], %[[ONE]]
// CHECK-DAG: llvm.icmp "sge" %[[BR]], %[[ONE]]
// CHECK-DAG: llvm.icmp "sge" %[[OR]], %[[ONE]]
// CHECK-DAG: llvm.icmp "eq" %[[AC]], %[[BR]]
// CHECK-DAG: llvm.icmp "eq" %[[OR]], %[[AR]]
// CHECK: llvm.cond_br %{{.*}}, ^[[CALL:.*]], ^[[FAIL:.*]]
// Row-major descriptors: (ptr, ptr, 0, rows, cols, cols, 1).
// CHECK: ^[[CALL]]:
// CHECK: %[[D:.*]] = llvm.call @mat_mm.impl(%[[A]], %[[A]], %{{.*}}, %[[AR]], %[[AC]], %[[AC]], %{{.*}}, %[[B]], %[[B]], %{{.*}}, %[[BR]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: ^[[FAIL]]:
// CHECK-NEXT: %[[STATUS:.*]] = llvm.mlir.constant(1 : i32) : i32
// CHECK-NEXT: llvm.return %[[STATUS]] : i32
// The result's sizes are checked again, copied out, the buffer freed.
// CHECK: llvm.call @free
// CHECK: "llvm.intr.memcpy"(%[[OUT]],
// CHECK: llvm.call @free
// CHECK: llvm.return

// Scalars by value, a scalar result through a pointer.
llvm.func @mat_axpy(%x: f32, %y: f32) -> f32 attributes {matrix.c_interface = {arg_names = ["x", "y"], function_type = (f32, f32) -> f32, name = "axpy", preconditions = array<i64>, result_dims = array<i64>}} {
  llvm.return %x : f32
}
// CHECK-LABEL: llvm.func @mat_axpy(
// CHECK-SAME: %[[X:[^:]*]]: f32, %[[Y:[^:]*]]: f32, %[[R:[^:]*]]: !llvm.ptr) -> i32
// CHECK: %[[V:.*]] = llvm.call @mat_axpy.impl(%[[X]], %[[Y]])
// CHECK: llvm.store %[[V]], %[[R]] : f32, !llvm.ptr

// Everything else defined here becomes internal; `main` becomes
// `matc_main`, exported since the top level does something.
llvm.func @helper() {
  llvm.return
}
llvm.func @main() attributes {matrix.c_program} {
  llvm.call @helper() : () -> ()
  llvm.return
}
// CHECK-LABEL: llvm.func internal @helper()
// CHECK-LABEL: llvm.func @matc_main()
// CHECK-NOT: llvm.func @main

// An executable also gets `int main(void)`, which flushes stdout and
// returns 1 with a message on stderr if the output could not be written.
// EXE: llvm.mlir.global external @stdout() {{.*}} : !llvm.ptr
// EXE-LABEL: llvm.func @matc_main()
// EXE-LABEL: llvm.func @main() -> i32
// EXE: llvm.call @matc_main()
// EXE: %[[STREAM:.*]] = llvm.load %{{.*}} : !llvm.ptr -> !llvm.ptr
// EXE: %[[ZERO:.*]] = llvm.mlir.constant(0 : i32) : i32
// EXE: %[[FLUSHED:.*]] = llvm.call @fflush(%[[STREAM]])
// EXE: llvm.icmp "ne" %[[FLUSHED]], %[[ZERO]]
// EXE: %[[ERROR:.*]] = llvm.call @ferror(%[[STREAM]])
// EXE: llvm.icmp "ne" %[[ERROR]], %[[ZERO]]
// EXE: llvm.cond_br %{{.*}}, ^[[LOST:.*]], ^[[WRITTEN:.*]]
// EXE: ^[[LOST]]:
// EXE: llvm.call @write(
// EXE: %[[ONE:.*]] = llvm.mlir.constant(1 : i32) : i32
// EXE: llvm.return %[[ONE]] : i32
// EXE: ^[[WRITTEN]]:
// EXE: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// EXE: llvm.return %[[OK]] : i32

// -----

// A top level that does nothing: matc_main is internal.
llvm.func @main() {
  llvm.return
}
// CHECK-LABEL: llvm.func internal @matc_main()

// -----

// A function with a destination-passing variant (matrix.c_into): when the
// caller's result buffer overlaps no matrix argument, the entry point calls
// the variant on it; otherwise the function, and copies.
llvm.func @mat_tr(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64)
    -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    attributes {matrix.c_into = "mat_tr.into", matrix.c_interface = {arg_names = ["a"],
      function_type = (tensor<?x?xf32>) -> tensor<?x?xf32>, name = "tr",
      preconditions = array<i64>, result_dims = array<i64: -2, -1>}} {
  %d = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  llvm.return %d : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
}
llvm.func private @"mat_tr.into"(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64,
                                 %r0: !llvm.ptr, %r1: !llvm.ptr, %r2: i64, %r3: i64, %r4: i64, %r5: i64, %r6: i64) {
  llvm.return
}
llvm.func @main() {
  llvm.return
}
// CHECK-LABEL: llvm.func internal @mat_tr.impl(
// CHECK-LABEL: llvm.func @mat_tr(
// CHECK-SAME: %[[A:[^:]*]]: !llvm.ptr, %[[AR:[^:]*]]: i64, %[[AC:[^:]*]]: i64, %[[OUT:[^:]*]]: !llvm.ptr, %[[OR:[^:]*]]: i64, %[[OC:[^:]*]]: i64) -> i32
// CHECK: %[[FOUR:.*]] = llvm.mlir.constant(4 : i64) : i64
// CHECK: llvm.cond_br %{{.*}}, ^[[CALL:.*]], ^[[FAIL:.*]]
// CHECK: ^[[CALL]]:
// Byte ranges: 4-byte elements, result [out, out + OR * OC * 4), a [a, a + AR * AC * 4).
// CHECK: %[[ON:.*]] = llvm.mul %[[OR]], %[[OC]]
// CHECK: %[[OB:.*]] = llvm.mul %[[ON]], %[[FOUR]]
// CHECK: %[[OBEGIN:.*]] = llvm.ptrtoint %[[OUT]]
// CHECK: %[[OEND:.*]] = llvm.add %[[OBEGIN]], %[[OB]]
// CHECK: %[[AN:.*]] = llvm.mul %[[AR]], %[[AC]]
// CHECK: %[[AB:.*]] = llvm.mul %[[AN]], %[[FOUR]]
// CHECK: %[[ABEGIN:.*]] = llvm.ptrtoint %[[A]]
// CHECK: %[[AEND:.*]] = llvm.add %[[ABEGIN]], %[[AB]]
// CHECK: %[[BEFORE:.*]] = llvm.icmp "ule" %[[AEND]], %[[OBEGIN]]
// CHECK: %[[AFTER:.*]] = llvm.icmp "ule" %[[OEND]], %[[ABEGIN]]
// CHECK: %[[DISJOINT:.*]] = llvm.or %[[BEFORE]], %[[AFTER]]
// CHECK: %[[SEP:.*]] = llvm.and %{{.*}}, %[[DISJOINT]]
// CHECK: llvm.cond_br %[[SEP]], ^[[INTO:.*]], ^[[OWN:.*]]
// CHECK: ^[[INTO]]:
// CHECK: llvm.call @mat_tr.into(%[[A]], %[[A]], %{{.*}}, %[[AR]], %[[AC]], %[[AC]], %{{.*}}, %[[OUT]], %[[OUT]], %{{.*}}, %[[OR]], %[[OC]], %[[OC]], %{{.*}})
// CHECK-NEXT: %[[OK:.*]] = llvm.mlir.constant(0 : i32) : i32
// CHECK-NEXT: llvm.return %[[OK]] : i32
// CHECK: ^[[OWN]]:
// CHECK: llvm.call @mat_tr.impl(
// CHECK: "llvm.intr.memcpy"(%[[OUT]],
// CHECK: llvm.call @free
// CHECK-LABEL: llvm.func internal @mat_tr.into(
