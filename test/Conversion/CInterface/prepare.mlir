// RUN: matc-opt %s --split-input-file --matrix-prepare-c-interface | FileCheck %s

// Sizes are encoded as in SymbolicDim::encode: a constant as itself,
// dimension d of parameter p as -1 - (2p + d). a @ b needs a.cols (-2) ==
// b.rows (-3); the result is a.rows (-1) x b.cols (-4). Parameter names
// come from the NameLocs MLIRGen puts on block arguments. Each
// precondition has an origin: the relation, a note in Mat terms and the
// position of the operation needing it. `temporaries` lists the shape of
// every matrix the function computes (rows, cols, ...): here a @ b.

// CHECK-LABEL: func.func @mat_mm(
// CHECK-SAME: %[[FA:[^:]*]]: tensor<?x?xf64> {bufferization.writable = false}, %[[FB:[^:]*]]: tensor<?x?xf64> {bufferization.writable = false})
// CHECK-SAME: matrix.c_interface = {arg_names = ["a", "b"], function_type = (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>, name = "mm", precondition_origins = [{column = 8 : i64, line = [[#@LINE+22]] : i64, note = "the inner dimensions of f64[?, ?] @ f64[?, ?] must agree", relation = "matmul_inner"}], preconditions = array<i64: -2, -3>, result_dims = array<i64: -1, -4>, temporaries = array<i64: -1, -4>}
// CHECK-SAME: matrix.c_into = "mat_mm.into"
// The function itself allocates its result, of the sizes result_dims
// gives (a.rows x b.cols), and calls the variant: the body is compiled
// once, in the variant.
// CHECK: %[[ROWS:.*]] = tensor.dim %[[FA]], %c0
// CHECK: %[[COLS:.*]] = tensor.dim %[[FB]], %c1
// CHECK: %[[RES:.*]] = memref.alloc(%[[ROWS]], %[[COLS]]) {alignment = 64 : i64} : memref<?x?xf64>
// CHECK-NEXT: call @mat_mm.into(%[[FA]], %[[FB]], %[[RES]])
// CHECK-NEXT: %[[T:.*]] = bufferization.to_tensor %[[RES]] restrict writable
// CHECK-NEXT: return %[[T]] : tensor<?x?xf64>

// Its destination-passing variant: the same body, writing the result into
// the caller's buffer (one more argument) and returning nothing; LLVM must
// not inline it back into the function.
// CHECK-LABEL: func.func private @mat_mm.into(
// CHECK-SAME: %[[A:[^:]*]]: tensor<?x?xf64> {bufferization.writable = false}, %[[B:[^:]*]]: tensor<?x?xf64> {bufferization.writable = false}, %[[OUT:[^:]*]]: memref<?x?xf64>) attributes {passthrough = ["noinline"]} {
// CHECK-NOT: matrix.c_interface
// CHECK: %[[C:.*]] = matrix.matmul %[[A]], %[[B]]
// CHECK: bufferization.materialize_in_destination %[[C]] in restrict writable %[[OUT]] : (tensor<?x?xf64>, memref<?x?xf64>) -> ()
// CHECK-NEXT: return{{$}}
func.func @mat_mm(%a: tensor<?x?xf64> loc("a"), %b: tensor<?x?xf64> loc("b")) -> tensor<?x?xf64> {
  %c = matrix.matmul %a, %b : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64>
  return %c : tensor<?x?xf64>
}

// A call: the callee's precondition in the caller's terms (b.cols == c.rows
// for the outer product: -4 == -5), its result's sizes too; both origins
// are the product in @mat_mm, and the callee's temporaries are the
// caller's: a.rows x b.cols (-1, -4), then a.rows x c.cols (-1, -6).
// CHECK-LABEL: func.func @mat_chain(
// CHECK-SAME: arg_names = ["arg0", "arg1", "arg2"]
// CHECK-SAME: precondition_origins = [{column = 8 : i64, line = [[#@LINE-10]] : i64, note = "the inner dimensions of f64[?, ?] @ f64[?, ?] must agree", relation = "matmul_inner"}, {column = 8 : i64, line = [[#@LINE-10]] : i64,
// CHECK-SAME: preconditions = array<i64: -2, -3, -4, -5>, result_dims = array<i64: -1, -6>, temporaries = array<i64: -1, -4, -1, -6>}
func.func @mat_chain(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %c: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %ab = call @mat_mm(%a, %b) : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
  %abc = call @mat_mm(%ab, %c) : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
  return %abc : tensor<?x?xf64>
}

// A `?` given a fixed size (tensor.cast), elementwise ops with one fixed
// side: a.rows == 2 and a.cols == 3, each kept once; the two 2 x 3
// temporaries are one shape to check.
// CHECK-LABEL: func.func @mat_fixed(
// CHECK-SAME: precondition_origins = [{column = 8 : i64, line = [[#@LINE+3]] : i64, note = "a f32[?, ?] is used as f32[2, ?]", relation = "fixed_size"}, {column = 8 : i64, line = [[#@LINE+4]] : i64, note = "f32[2, ?] and f32[2, 3] must have the same shape", relation = "elementwise"}]
// CHECK-SAME: preconditions = array<i64: -1, 2, -2, 3>, result_dims = array<i64: 2, 3>, temporaries = array<i64: 2, 3>}
func.func @mat_fixed(%a: tensor<?x?xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %c = tensor.cast %a : tensor<?x?xf32> to tensor<2x?xf32>
  %s = matrix.add %c, %b : tensor<2x?xf32>, tensor<2x3xf32> -> tensor<2x3xf32>
  %t = matrix.sub %s, %a : tensor<2x3xf32>, tensor<?x?xf32> -> tensor<2x3xf32>
  return %t : tensor<2x3xf32>
}

// Transposed operands and scalars: a.T @ a needs nothing; a scalar result
// has no sizes.
// CHECK-LABEL: func.func @mat_gram(
// CHECK-SAME: preconditions = array<i64>, result_dims = array<i64: -2, -2>, temporaries = array<i64: -2, -1, -2, -2>}
func.func @mat_gram(%a: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %t = matrix.transpose %a : tensor<?x?xf64> -> tensor<?x?xf64>
  %g = matrix.matmul %t, %a : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64>
  return %g : tensor<?x?xf64>
}
// CHECK-LABEL: func.func @mat_axpy(
// CHECK-SAME: %{{[^:]*}}: f64, %{{[^:]*}}: f64)
// CHECK-SAME: function_type = (f64, f64) -> f64, name = "axpy", preconditions = array<i64>, result_dims = array<i64>, temporaries = array<i64>}
// CHECK-NOT: matrix.c_into
// CHECK-NOT: @mat_axpy.into
func.func @mat_axpy(%x: f64, %y: f64) -> f64 {
  %r = arith.addf %x, %y : f64
  return %r : f64
}

// Only public functions named mat_* are Mat functions.
// CHECK-LABEL: func.func private @mat_private(
// CHECK-NOT: matrix.c_interface
func.func private @mat_private(%a: tensor<2x2xf64>) -> tensor<2x2xf64> {
  return %a : tensor<2x2xf64>
}

// `main` is the top level: it is exported (matrix.c_program) only if it
// does something.
// CHECK-LABEL: func.func @main()
// CHECK-SAME: attributes {matrix.c_program}
func.func @main() {
  %a = matrix.eye : tensor<2x2xf64>
  matrix.print %a : tensor<2x2xf64>
  return
}

// -----

// CHECK-LABEL: func.func @main()
// CHECK-NOT: matrix.c_program
func.func @main() {
  return
}
