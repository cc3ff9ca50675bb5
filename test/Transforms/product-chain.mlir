// RUN: matc-opt %s --split-input-file --matrix-optimize | FileCheck %s
// lib/Transforms/ProductChain.cpp: product chains re-associated by the
// matrix-chain dynamic program (CLRS 15.2) on flop count, scalars and
// negations moved to the smallest matrix that keeps the sign of zeros.

// (a @ b) @ x, as Mat parses `a @ b @ x`: 2*100*100*100 + 2*100*100*1 =
// 2020000 flops. a @ (b @ x): 2 * 20000 = 40000.
// CHECK-LABEL: func.func @matrix_vector
// CHECK-SAME: (%[[A:.*]]: tensor<100x100xf64>, %[[B:.*]]: tensor<100x100xf64>, %[[X:.*]]: tensor<100x1xf64>)
// CHECK: %[[BX:.*]] = matrix.matmul %[[B]], %[[X]] : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
// CHECK: %[[R:.*]] = matrix.matmul %[[A]], %[[BX]] : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
// CHECK: return %[[R]]
func.func @matrix_vector(%a: tensor<100x100xf64>, %b: tensor<100x100xf64>, %x: tensor<100x1xf64>) -> tensor<100x1xf64> {
  %ab = matrix.matmul %a, %b : tensor<100x100xf64>, tensor<100x100xf64> -> tensor<100x100xf64>
  %r = matrix.matmul %ab, %x : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
  return %r : tensor<100x1xf64>
}

// -----

// The six-matrix example of CLRS 15.2 (dimensions 30, 35, 15, 5, 10, 20,
// 25), written left to right; the optimum is ((A1 (A2 A3)) ((A4 A5) A6)),
// 15125 multiply-adds.
// CHECK-LABEL: func.func @clrs
// CHECK-SAME: (%[[A1:[^:]*]]: tensor<30x35xf64>, %[[A2:[^:]*]]: tensor<35x15xf64>, %[[A3:[^:]*]]: tensor<15x5xf64>, %[[A4:[^:]*]]: tensor<5x10xf64>, %[[A5:[^:]*]]: tensor<10x20xf64>, %[[A6:[^:]*]]: tensor<20x25xf64>)
// CHECK: %[[A23:.*]] = matrix.matmul %[[A2]], %[[A3]]
// CHECK: %[[A123:.*]] = matrix.matmul %[[A1]], %[[A23]]
// CHECK: %[[A45:.*]] = matrix.matmul %[[A4]], %[[A5]]
// CHECK: %[[A456:.*]] = matrix.matmul %[[A45]], %[[A6]]
// CHECK: %[[R:.*]] = matrix.matmul %[[A123]], %[[A456]] : tensor<30x5xf64>, tensor<5x25xf64> -> tensor<30x25xf64>
// CHECK: return %[[R]]
func.func @clrs(%a1: tensor<30x35xf64>, %a2: tensor<35x15xf64>, %a3: tensor<15x5xf64>,
                %a4: tensor<5x10xf64>, %a5: tensor<10x20xf64>, %a6: tensor<20x25xf64>) -> tensor<30x25xf64> {
  %0 = matrix.matmul %a1, %a2 : tensor<30x35xf64>, tensor<35x15xf64> -> tensor<30x15xf64>
  %1 = matrix.matmul %0, %a3 : tensor<30x15xf64>, tensor<15x5xf64> -> tensor<30x5xf64>
  %2 = matrix.matmul %1, %a4 : tensor<30x5xf64>, tensor<5x10xf64> -> tensor<30x10xf64>
  %3 = matrix.matmul %2, %a5 : tensor<30x10xf64>, tensor<10x20xf64> -> tensor<30x20xf64>
  %4 = matrix.matmul %3, %a6 : tensor<30x20xf64>, tensor<20x25xf64> -> tensor<30x25xf64>
  return %4 : tensor<30x25xf64>
}

// -----

// Already optimal: left alone.
// CHECK-LABEL: func.func @optimal
// CHECK-SAME: (%[[A:.*]]: tensor<10x100xf64>, %[[B:.*]]: tensor<100x5xf64>, %[[C:.*]]: tensor<5x50xf64>)
// CHECK: %[[AB:.*]] = matrix.matmul %[[A]], %[[B]]
// CHECK: matrix.matmul %[[AB]], %[[C]]
func.func @optimal(%a: tensor<10x100xf64>, %b: tensor<100x5xf64>, %c: tensor<5x50xf64>) -> tensor<10x50xf64> {
  %ab = matrix.matmul %a, %b : tensor<10x100xf64>, tensor<100x5xf64> -> tensor<10x5xf64>
  %r = matrix.matmul %ab, %c : tensor<10x5xf64>, tensor<5x50xf64> -> tensor<10x50xf64>
  return %r : tensor<10x50xf64>
}

// -----

// An intermediate with another user is a factor, not part of the chain: it
// is computed once either way.
// CHECK-LABEL: func.func @shared_intermediate
// CHECK-SAME: (%[[A:.*]]: tensor<100x100xf64>, %[[B:.*]]: tensor<100x100xf64>, %[[X:.*]]: tensor<100x1xf64>)
// CHECK: %[[AB:.*]] = matrix.matmul %[[A]], %[[B]]
// CHECK: matrix.matmul %[[AB]], %[[X]]
// CHECK: matrix.print %[[AB]]
func.func @shared_intermediate(%a: tensor<100x100xf64>, %b: tensor<100x100xf64>, %x: tensor<100x1xf64>) -> tensor<100x1xf64> {
  %ab = matrix.matmul %a, %b : tensor<100x100xf64>, tensor<100x100xf64> -> tensor<100x100xf64>
  %r = matrix.matmul %ab, %x : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
  matrix.print %ab : tensor<100x100xf64>
  return %r : tensor<100x1xf64>
}

// -----

// A `?` dimension: the chain is left as written.
// CHECK-LABEL: func.func @dynamic
// CHECK: %[[AB:.*]] = matrix.matmul %arg0, %arg1
// CHECK: matrix.matmul %[[AB]], %arg2
func.func @dynamic(%a: tensor<100x?xf64>, %b: tensor<?x100xf64>, %x: tensor<100x1xf64>) -> tensor<100x1xf64> {
  %ab = matrix.matmul %a, %b : tensor<100x?xf64>, tensor<?x100xf64> -> tensor<100x100xf64>
  %r = matrix.matmul %ab, %x : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
  return %r : tensor<100x1xf64>
}

// -----

// Seen through transposes: (x.T @ (a @ b).T).T = a @ b @ x, re-associated as
// a @ (b @ x) with every transpose gone.
// CHECK-LABEL: func.func @through_transposes
// CHECK-SAME: (%[[A:.*]]: tensor<100x100xf32>, %[[B:.*]]: tensor<100x100xf32>, %[[X:.*]]: tensor<100x1xf32>)
// CHECK-NOT: matrix.transpose
// CHECK: %[[BX:.*]] = matrix.matmul %[[B]], %[[X]] : tensor<100x100xf32>, tensor<100x1xf32> -> tensor<100x1xf32>
// CHECK: %[[R:.*]] = matrix.matmul %[[A]], %[[BX]] : tensor<100x100xf32>, tensor<100x1xf32> -> tensor<100x1xf32>
// CHECK-NOT: matrix.transpose
// CHECK: return %[[R]]
func.func @through_transposes(%a: tensor<100x100xf32>, %b: tensor<100x100xf32>, %x: tensor<100x1xf32>) -> tensor<100x1xf32> {
  %ab = matrix.matmul %a, %b : tensor<100x100xf32>, tensor<100x100xf32> -> tensor<100x100xf32>
  %abt = matrix.transpose %ab : tensor<100x100xf32> -> tensor<100x100xf32>
  %xt = matrix.transpose %x : tensor<100x1xf32> -> tensor<1x100xf32>
  %p = matrix.matmul %xt, %abt : tensor<1x100xf32>, tensor<100x100xf32> -> tensor<1x100xf32>
  %r = matrix.transpose %p : tensor<1x100xf32> -> tensor<100x1xf32>
  return %r : tensor<100x1xf32>
}

// -----

// (2 * a) @ b with a and the result 1000x10 and b 10x10: scaling a costs
// 10000 flops, scaling b 100. A positive constant may go anywhere, so it
// moves to the smallest matrix, b.
// CHECK-LABEL: func.func @scalar_to_smaller_operand
// CHECK-SAME: (%[[A:.*]]: tensor<1000x10xf64>, %[[B:.*]]: tensor<10x10xf64>)
// CHECK: %[[TWO:.*]] = arith.constant 2.0
// CHECK: %[[SB:.*]] = matrix.mul %[[B]], %[[TWO]] : tensor<10x10xf64>, f64
// CHECK: %[[R:.*]] = matrix.matmul %[[A]], %[[SB]]
// CHECK: return %[[R]]
func.func @scalar_to_smaller_operand(%a: tensor<1000x10xf64>, %b: tensor<10x10xf64>) -> tensor<1000x10xf64> {
  %two = arith.constant 2.0 : f64
  %sa = matrix.mul %two, %a : f64, tensor<1000x10xf64> -> tensor<1000x10xf64>
  %r = matrix.matmul %sa, %b : tensor<1000x10xf64>, tensor<10x10xf64> -> tensor<1000x10xf64>
  return %r : tensor<1000x10xf64>
}

// -----

// (0.5 * a) @ b -> 0.5 * (a @ b) when the product is the smallest matrix;
// two constants are multiplied together and applied once.
// CHECK-LABEL: func.func @scalars_pulled_out
// CHECK-SAME: (%[[A:.*]]: tensor<10x1000xf64>, %[[B:.*]]: tensor<1000x10xf64>)
// CHECK: %[[C:.*]] = arith.constant 1.500000e+00 : f64
// CHECK: %[[P:.*]] = matrix.matmul %[[A]], %[[B]] : tensor<10x1000xf64>, tensor<1000x10xf64> -> tensor<10x10xf64>
// CHECK: %[[R:.*]] = matrix.mul %[[P]], %[[C]] : tensor<10x10xf64>, f64
// CHECK: return %[[R]]
func.func @scalars_pulled_out(%a: tensor<10x1000xf64>, %b: tensor<1000x10xf64>) -> tensor<10x10xf64> {
  %half = arith.constant 0.5 : f64
  %three = arith.constant 3.0 : f64
  %sa = matrix.mul %half, %a : f64, tensor<10x1000xf64> -> tensor<10x1000xf64>
  %sb = matrix.mul %b, %three : tensor<1000x10xf64>, f64 -> tensor<1000x10xf64>
  %r = matrix.matmul %sa, %sb : tensor<10x1000xf64>, tensor<1000x10xf64> -> tensor<10x10xf64>
  return %r : tensor<10x10xf64>
}

// -----

// s * (a @ b) with a positive constant s and a 1000x1000 result: s goes to
// the smaller operand.
// CHECK-LABEL: func.func @scalar_pushed_in
// CHECK-SAME: (%[[A:.*]]: tensor<1000x10xf64>, %[[B:.*]]: tensor<10x1000xf64>)
// CHECK: %[[SA:.*]] = matrix.mul %[[A]], %{{.*}} : tensor<1000x10xf64>, f64
// CHECK: %[[R:.*]] = matrix.matmul %[[SA]], %[[B]]
// CHECK: return %[[R]]
func.func @scalar_pushed_in(%a: tensor<1000x10xf64>, %b: tensor<10x1000xf64>) -> tensor<1000x1000xf64> {
  %c = arith.constant 0.25 : f64
  %p = matrix.matmul %a, %b : tensor<1000x10xf64>, tensor<10x1000xf64> -> tensor<1000x1000xf64>
  %r = matrix.mul %p, %c : tensor<1000x1000xf64>, f64 -> tensor<1000x1000xf64>
  return %r : tensor<1000x1000xf64>
}

// -----

// The sign of zero: a product accumulates from +0 and never yields -0, so
// (s * a) @ b prints 0 where s * (a @ b) prints -0 for a negative s. A
// scalar of unknown sign (or a negative constant, or a negation) below the
// topmost product stays below it (here on the smaller operand, b)...
// CHECK-LABEL: func.func @unknown_sign_stays_below
// CHECK-SAME: (%[[A:.*]]: tensor<10x1000xf64>, %[[B:.*]]: tensor<1000x1xf64>, %[[S:.*]]: f64)
// CHECK: %[[SB:.*]] = matrix.mul %[[B]], %[[S]] : tensor<1000x1xf64>, f64
// CHECK: %[[R:.*]] = matrix.matmul %[[A]], %[[SB]]
// CHECK: return %[[R]]
func.func @unknown_sign_stays_below(%a: tensor<10x1000xf64>, %b: tensor<1000x1xf64>, %s: f64) -> tensor<10x1xf64> {
  %sa = matrix.mul %s, %a : f64, tensor<10x1000xf64> -> tensor<10x1000xf64>
  %r = matrix.matmul %sa, %b : tensor<10x1000xf64>, tensor<1000x1xf64> -> tensor<10x1xf64>
  return %r : tensor<10x1xf64>
}

// -----

// ... and one above it stays at the result, even where an operand is
// smaller.
// CHECK-LABEL: func.func @negation_stays_on_top
// CHECK: %[[P:.*]] = matrix.matmul
// CHECK: %[[R:.*]] = matrix.neg %[[P]] : tensor<1000x1000xf64>
// CHECK: return %[[R]]
func.func @negation_stays_on_top(%a: tensor<1000x10xf64>, %b: tensor<10x1000xf64>) -> tensor<1000x1000xf64> {
  %p = matrix.matmul %a, %b : tensor<1000x10xf64>, tensor<10x1000xf64> -> tensor<1000x1000xf64>
  %r = matrix.neg %p : tensor<1000x1000xf64>
  return %r : tensor<1000x1000xf64>
}

// -----

// Negations below the topmost product combine: -(a) @ (-(b)) = a @ b, and
// the scalar of unknown sign above stays at the result.
// CHECK-LABEL: func.func @negations_cancel
// CHECK-SAME: (%[[A:.*]]: tensor<4x4xf64>, %[[B:.*]]: tensor<4x4xf64>, %[[S:.*]]: f64)
// CHECK-NOT: matrix.neg
// CHECK: %[[P:.*]] = matrix.matmul %[[A]], %[[B]]
// CHECK: %[[R:.*]] = matrix.mul %[[P]], %[[S]]
// CHECK: return %[[R]]
func.func @negations_cancel(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>, %s: f64) -> tensor<4x4xf64> {
  %na = matrix.neg %a : tensor<4x4xf64>
  %nb = matrix.neg %b : tensor<4x4xf64>
  %p = matrix.matmul %na, %nb : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %r = matrix.mul %s, %p : f64, tensor<4x4xf64> -> tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

// Negations that cancel across the topmost product: -((-a) @ b) prints -0
// where a @ b prints 0, so the chain is left alone.
// CHECK-LABEL: func.func @negations_across_levels
// CHECK: matrix.neg
// CHECK: matrix.matmul
// CHECK: matrix.neg
func.func @negations_across_levels(%a: tensor<4x4xf64>, %b: tensor<4x4xf64>) -> tensor<4x4xf64> {
  %na = matrix.neg %a : tensor<4x4xf64>
  %p = matrix.matmul %na, %b : tensor<4x4xf64>, tensor<4x4xf64> -> tensor<4x4xf64>
  %r = matrix.neg %p : tensor<4x4xf64>
  return %r : tensor<4x4xf64>
}

// -----

// A scaled factor with another user is a factor: its scaling is not moved.
// CHECK-LABEL: func.func @shared_scaled_factor
// CHECK: %[[SA:.*]] = matrix.mul
// CHECK: matrix.matmul %[[SA]], %arg1
// CHECK: matrix.print %[[SA]]
func.func @shared_scaled_factor(%a: tensor<10x1000xf64>, %b: tensor<1000x10xf64>) -> tensor<10x10xf64> {
  %two = arith.constant 2.0 : f64
  %sa = matrix.mul %two, %a : f64, tensor<10x1000xf64> -> tensor<10x1000xf64>
  %r = matrix.matmul %sa, %b : tensor<10x1000xf64>, tensor<1000x10xf64> -> tensor<10x10xf64>
  matrix.print %sa : tensor<10x1000xf64>
  return %r : tensor<10x10xf64>
}
