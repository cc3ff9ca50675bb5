// RUN: matc-opt %s --split-input-file --matrix-prepare-c-interface --verify-diagnostics

// A `?` size that comes from no parameter: the C entry point could not
// check it.
func.func @mat_opaque(%a: tensor<?x2xf64>) -> tensor<?x2xf64> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %a, %c0 : tensor<?x2xf64>
  %e = tensor.empty(%n) : tensor<?x2xf64>
  // expected-error @below {{cannot trace the sizes of a '?' dimension to the parameters of the function}}
  %s = matrix.add %e, %a : tensor<?x2xf64>, tensor<?x2xf64> -> tensor<?x2xf64>
  return %s : tensor<?x2xf64>
}

// -----

// Two known sizes that differ (MLIRGen reports these first, in Mat terms).
func.func @mat_mm(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %c = matrix.matmul %a, %b : tensor<?x?xf64>, tensor<?x?xf64> -> tensor<?x?xf64>
  return %c : tensor<?x?xf64>
}
func.func @mat_bad(%a: tensor<2x3xf64>, %b: tensor<2x3xf64>) -> tensor<?x?xf64> {
  %x = tensor.cast %a : tensor<2x3xf64> to tensor<?x?xf64>
  %y = tensor.cast %b : tensor<2x3xf64> to tensor<?x?xf64>
  // expected-error @below {{shape mismatch in this call: a dimension of size 3 meets one of size 2}}
  %c = call @mat_mm(%x, %y) : (tensor<?x?xf64>, tensor<?x?xf64>) -> tensor<?x?xf64>
  return %c : tensor<?x?xf64>
}
