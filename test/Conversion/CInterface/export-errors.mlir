// RUN: matc-opt %s --split-input-file --matrix-export-c-interface --verify-diagnostics

// expected-error @below {{malformed 'matrix.c_interface' attribute}}
llvm.func @mat_f(%x: f64) -> f64 attributes {matrix.c_interface = {name = "f"}} {
  llvm.return %x : f64
}

// -----

// A precondition on a dimension that is not `?`.
// expected-error @below {{malformed 'matrix.c_interface' attribute}}
llvm.func @mat_f(%x: f64) -> f64 attributes {matrix.c_interface = {arg_names = ["x"], function_type = (f64) -> f64, name = "f", preconditions = array<i64: -1, 2>, result_dims = array<i64>}} {
  llvm.return %x : f64
}

// -----

// One origin for no precondition.
// expected-error @below {{malformed 'matrix.c_interface' attribute}}
llvm.func @mat_f(%x: f64) -> f64 attributes {matrix.c_interface = {arg_names = ["x"], function_type = (f64) -> f64, name = "f", precondition_origins = [{column = 1 : i64, line = 1 : i64, note = "", relation = "elementwise"}], preconditions = array<i64>, result_dims = array<i64>}} {
  llvm.return %x : f64
}

// -----

// A temporary of an odd number of sizes.
// expected-error @below {{malformed 'matrix.c_interface' attribute}}
llvm.func @mat_f(%x: f64) -> f64 attributes {matrix.c_interface = {arg_names = ["x"], function_type = (f64) -> f64, name = "f", preconditions = array<i64>, result_dims = array<i64>, temporaries = array<i64: 2>}} {
  llvm.return %x : f64
}

// -----

// Not the expanded-descriptor convention (a bare pointer for a matrix).
// expected-error @below {{the lowered signature is not the expanded memref descriptor convention the C entry point needs}}
llvm.func @mat_f(%a: !llvm.ptr) -> f64 attributes {matrix.c_interface = {arg_names = ["a"], function_type = (tensor<2x2xf64>) -> f64, name = "f", preconditions = array<i64>, result_dims = array<i64>}} {
  %z = llvm.mlir.constant(0.0 : f64) : f64
  llvm.return %z : f64
}


// -----

// The destination-passing variant named by matrix.c_into does not exist.
// expected-error @below {{the destination-passing variant 'mat_f.into' is missing or malformed}}
llvm.func @mat_f(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64)
    -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    attributes {matrix.c_into = "mat_f.into", matrix.c_interface = {arg_names = ["a"], function_type = (tensor<2x2xf64>) -> tensor<2x2xf64>, name = "f", preconditions = array<i64>, result_dims = array<i64: 2, 2>}} {
  %d = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  llvm.return %d : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
}

// -----

// It exists but does not take the result descriptor.
// expected-error @below {{the destination-passing variant 'mat_f.into' is missing or malformed}}
llvm.func @mat_f(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64)
    -> !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
    attributes {matrix.c_into = "mat_f.into", matrix.c_interface = {arg_names = ["a"], function_type = (tensor<2x2xf64>) -> tensor<2x2xf64>, name = "f", preconditions = array<i64>, result_dims = array<i64: 2, 2>}} {
  %d = llvm.mlir.poison : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  llvm.return %d : !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
}
llvm.func private @"mat_f.into"(%a0: !llvm.ptr, %a1: !llvm.ptr, %a2: i64, %a3: i64, %a4: i64, %a5: i64, %a6: i64) {
  llvm.return
}
