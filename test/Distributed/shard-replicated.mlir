// RUN: matc-opt %s --matrix-shard='ranks=2 min-elements=1' -verify-diagnostics | FileCheck %s

// An op with regions the policy has no rule for: the program is left
// unannotated (it runs replicated on every rank, with the same output), and
// a remark says why.
// CHECK-LABEL: func.func @main
// CHECK-NOT: shard.
func.func @main() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %one = arith.constant 1.0 : f64
  %e = tensor.empty() : tensor<4x4xf64>
  %a = linalg.fill ins(%one : f64) outs(%e : tensor<4x4xf64>) -> tensor<4x4xf64>
  // expected-remark @below {{matrix-shard: 'scf.for' has no sharding rule; the program runs replicated on every rank}}
  %r = scf.for %i = %c0 to %c4 step %c1 iter_args(%t = %a) -> (tensor<4x4xf64>) {
    scf.yield %t : tensor<4x4xf64>
  }
  matrix.print %r : tensor<4x4xf64>
  return
}
