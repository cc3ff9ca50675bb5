// RUN: matc-opt %s -split-input-file -verify-diagnostics
// Every verifier message of the Matrix dialect.

func.func @matmul_inner(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) {
  // expected-error @+1 {{cannot multiply f64[2, 3] by f64[2, 3]: inner dimensions 3 and 2 differ}}
  %0 = matrix.matmul %a, %b : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
  return
}

// -----

func.func @matmul_element_types(%a: tensor<2x3xf32>, %b: tensor<3x2xf64>) {
  // expected-error @+1 {{cannot multiply f32[2, 3] by f64[3, 2]: element types f32 and f64 differ}}
  %0 = matrix.matmul %a, %b : tensor<2x3xf32>, tensor<3x2xf64> -> tensor<2x2xf64>
  return
}

// -----

func.func @matmul_result(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>) {
  // expected-error @+1 {{result type f64[2, 5] does not match the expected f64[2, 4]}}
  %0 = matrix.matmul %a, %b : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x5xf64>
  return
}

// -----

// With a transpose flag the shapes are checked as the product reads them.
func.func @matmul_transpose_rhs(%a: tensor<2x3xf64>, %b: tensor<3x4xf64>) {
  // expected-error @+1 {{with the rhs transposed: cannot multiply f64[2, 3] by f64[4, 3]: inner dimensions 3 and 4 differ}}
  %0 = matrix.matmul %a, %b {transpose_rhs} : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
  return
}

// -----

func.func @matmul_transpose_lhs_result(%a: tensor<3x2xf64>, %b: tensor<3x4xf64>) {
  // expected-error @+1 {{result type f64[3, 4] does not match the expected f64[2, 4]}}
  %0 = matrix.matmul %a, %b {transpose_lhs} : tensor<3x2xf64>, tensor<3x4xf64> -> tensor<3x4xf64>
  return
}

// -----

func.func @matmul_transpose_both(%a: tensor<3x2xf64>, %b: tensor<3x4xf64>) {
  // expected-error @+1 {{with both operands transposed: cannot multiply f64[2, 3] by f64[4, 3]: inner dimensions 3 and 4 differ}}
  %0 = matrix.matmul %a, %b {transpose_lhs, transpose_rhs} : tensor<3x2xf64>, tensor<3x4xf64> -> tensor<2x3xf64>
  return
}

// -----

func.func @add_shapes(%a: tensor<2x3xf64>, %b: tensor<1x3xf64>) {
  // expected-error @+1 {{cannot add f64[2, 3] and f64[1, 3]: shapes differ}}
  %0 = matrix.add %a, %b : tensor<2x3xf64>, tensor<1x3xf64> -> tensor<2x3xf64>
  return
}

// -----

func.func @sub_element_types(%a: tensor<2x3xf64>, %s: f32) {
  // expected-error @+1 {{cannot subtract f64[2, 3] and f32: element types f64 and f32 differ}}
  %0 = matrix.sub %a, %s : tensor<2x3xf64>, f32 -> tensor<2x3xf64>
  return
}

// -----

func.func @mul_two_scalars(%s: f64) {
  // expected-error @+1 {{cannot multiply elementwise f64 and f64: at least one operand must be a matrix}}
  %0 = matrix.mul %s, %s : f64, f64 -> tensor<1x1xf64>
  return
}

// -----

func.func @transpose_result(%a: tensor<2x3xf64>) {
  // expected-error @+1 {{result type f64[2, 3] does not match the expected f64[3, 2]}}
  %0 = matrix.transpose %a : tensor<2x3xf64> -> tensor<2x3xf64>
  return
}

// -----

func.func @full_type(%s: f32) {
  // expected-error @+1 {{value type f32 does not match the element type f64 of the result}}
  %0 = matrix.full %s : f32 -> tensor<2x2xf64>
  return
}

// -----

func.func @eye_square() {
  // expected-error @+1 {{result must be square, got f64[2, 3]}}
  %0 = matrix.eye : tensor<2x3xf64>
  return
}

// -----

func.func @iota_dynamic() {
  // expected-error @+1 {{must be statically shaped 2-D tensor of f32 or f64}}
  %0 = matrix.iota : tensor<?x3xf64>
  return
}

// -----

func.func @rank(%a: tensor<2xf64>) {
  // expected-error @+1 {{must be 2D tensor of 32-bit float or 64-bit float values}}
  %0 = matrix.neg %a : tensor<2xf64>
  return
}
