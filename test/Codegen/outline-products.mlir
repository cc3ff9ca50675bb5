// RUN: matc-opt %s --split-input-file --matrix-outline-products | FileCheck %s

// Two products of one layout share one function; a product with B read
// transposed gets its own, whose matmul keeps the transposed indexing maps
// (regression: a bare ArrayAttr of maps given to MatmulOp::create binds to
// its `cast` parameter, and the function computed A B with B's rows as
// columns, writing past C). Static operands are cast to run-time shapes
// (B of 24 columns: no function of B's shape without static-rhs-elements).
// CHECK-LABEL: func.func @two_layouts
// CHECK-SAME: (%[[A:.*]]: tensor<35x11xf64>, %[[B:.*]]: tensor<11x24xf64>, %[[BT:.*]]: tensor<4x11xf64>)
// CHECK-NOT: linalg.matmul
// CHECK: %[[E1:.*]] = tensor.empty() : tensor<35x24xf64>
// CHECK-DAG: %[[DA:.*]] = tensor.cast %[[A]] : tensor<35x11xf64> to tensor<?x?xf64>
// CHECK-DAG: %[[DB:.*]] = tensor.cast %[[B]] : tensor<11x24xf64> to tensor<?x?xf64>
// CHECK-DAG: %[[D1:.*]] = tensor.cast %[[E1]] : tensor<35x24xf64> to tensor<?x?xf64>
// CHECK: %[[R1:.*]] = call @matc.product.f64.nn(%[[DA]], %[[DB]], %[[D1]])
// CHECK: tensor.cast %[[R1]] : tensor<?x?xf64> to tensor<35x24xf64>
// CHECK: call @matc.product.f64.nn(
// CHECK: call @matc.product.f64.nt(
// CHECK-NOT: linalg.matmul
// CHECK: return

// CHECK-LABEL: func.func private @matc.product.f64.nn
// CHECK-SAME: (%[[PA:.*]]: tensor<?x?xf64>, %[[PB:.*]]: tensor<?x?xf64>, %[[OUT:.*]]: tensor<?x?xf64>) -> tensor<?x?xf64>
// CHECK-SAME: attributes {matc.product, passthrough = ["noinline"]}
// CHECK: %[[ZERO:.*]] = arith.constant 0.000000e+00 : f64
// CHECK: %[[C:.*]] = linalg.fill ins(%[[ZERO]] : f64) outs(%[[OUT]] : tensor<?x?xf64>)
// B's K read off A (one SSA value for K: the packing of B peels whole in k,
// lib/Codegen/Schedule.mlir), a slice of all of B.
// CHECK-DAG: %[[K:.*]] = tensor.dim %[[PA]], %c1
// CHECK-DAG: %[[N:.*]] = tensor.dim %[[PB]], %c1
// CHECK: %[[SB:.*]] = tensor.extract_slice %[[PB]][0, 0] [%[[K]], %[[N]]] [1, 1]
// CHECK: %[[R:.*]] = linalg.matmul ins(%[[PA]], %[[SB]] : tensor<?x?xf64>, tensor<?x?xf64>) outs(%[[C]] : tensor<?x?xf64>)
// CHECK: return %[[R]]

// CHECK-LABEL: func.func private @matc.product.f64.nt
// CHECK: linalg.matmul indexing_maps = [#{{.*}}, #[[TMAP:.*]], #{{.*}}] ins
// CHECK-NOT: func.func private @matc.product
func.func @two_layouts(%a: tensor<35x11xf64>, %b: tensor<11x24xf64>,
                       %bt: tensor<4x11xf64>)
    -> (tensor<35x24xf64>, tensor<35x24xf64>, tensor<35x4xf64>) {
  %zero = arith.constant 0.0 : f64
  %e1 = tensor.empty() : tensor<35x24xf64>
  %c1 = linalg.fill ins(%zero : f64) outs(%e1 : tensor<35x24xf64>) -> tensor<35x24xf64>
  %r1 = linalg.matmul ins(%a, %b : tensor<35x11xf64>, tensor<11x24xf64>)
                      outs(%c1 : tensor<35x24xf64>) -> tensor<35x24xf64>
  %e2 = tensor.empty() : tensor<35x24xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<35x24xf64>) -> tensor<35x24xf64>
  %r2 = linalg.matmul ins(%a, %b : tensor<35x11xf64>, tensor<11x24xf64>)
                      outs(%c2 : tensor<35x24xf64>) -> tensor<35x24xf64>
  %e3 = tensor.empty() : tensor<35x4xf64>
  %c3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<35x4xf64>) -> tensor<35x4xf64>
  %r3 = linalg.matmul
      indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                       affine_map<(m, n, k) -> (n, k)>,
                       affine_map<(m, n, k) -> (m, n)>]
      ins(%a, %bt : tensor<35x11xf64>, tensor<4x11xf64>)
      outs(%c3 : tensor<35x4xf64>) -> tensor<35x4xf64>
  return %r1, %r2, %r3 : tensor<35x24xf64>, tensor<35x24xf64>, tensor<35x4xf64>
}

// -----

// A tiny product (all loops static and at most 16 long) calls a function
// of its own shape, every operand static (M x K x N in the name). Kept
// inline: an init other than zeros (an accumulation); an element type
// without a variant.
// CHECK-LABEL: func.func @kept
// CHECK: call @matc.product.f32.nn.s16x16x16(%{{.*}}, %{{.*}}, %{{.*}}) : (tensor<16x16xf32>, tensor<16x16xf32>, tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK-COUNT-2: linalg.matmul
// CHECK-NOT: call
// CHECK: func.func private @matc.product.f32.nn.s16x16x16(%{{.*}}: tensor<16x16xf32>, %{{.*}}: tensor<16x16xf32>, %{{.*}}: tensor<16x16xf32>) -> tensor<16x16xf32>
// CHECK: linalg.fill
// CHECK: linalg.matmul
// CHECK-NOT: func.func private @matc.product
func.func @kept(%a: tensor<16x16xf32>, %x: tensor<?x?xf32>, %acc: tensor<?x?xf32>,
                %i: tensor<32x32xi32>)
    -> (tensor<16x16xf32>, tensor<?x?xf32>, tensor<32x32xi32>) {
  %zero = arith.constant 0.0 : f32
  %izero = arith.constant 0 : i32
  %e = tensor.empty() : tensor<16x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<16x16xf32>) -> tensor<16x16xf32>
  %r = linalg.matmul ins(%a, %a : tensor<16x16xf32>, tensor<16x16xf32>)
                     outs(%c : tensor<16x16xf32>) -> tensor<16x16xf32>
  %s = linalg.matmul ins(%x, %x : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%acc : tensor<?x?xf32>) -> tensor<?x?xf32>
  %ie = tensor.empty() : tensor<32x32xi32>
  %ic = linalg.fill ins(%izero : i32) outs(%ie : tensor<32x32xi32>) -> tensor<32x32xi32>
  %t = linalg.matmul ins(%i, %i : tensor<32x32xi32>, tensor<32x32xi32>)
                     outs(%ic : tensor<32x32xi32>) -> tensor<32x32xi32>
  return %r, %s, %t : tensor<16x16xf32>, tensor<?x?xf32>, tensor<32x32xi32>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-outline-products=static-rhs-elements=64 | FileCheck %s --check-prefix=SMALLB
// A static B of at most static-rhs-elements elements keeps its shape in a
// function of its own, A and C ? x K and ? x N there; a larger one, or a B
// read transposed, goes to the function with run-time sizes.
// CHECK-LABEL: func.func @small_rhs
// SMALLB-LABEL: func.func @small_rhs
// SMALLB: call @matc.product.f32.nn.b8x8({{.*}}) : (tensor<?x8xf32>, tensor<8x8xf32>, tensor<?x8xf32>) -> tensor<?x8xf32>
// SMALLB: call @matc.product.f32.nn({{.*}}) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// SMALLB-LABEL: func.func private @matc.product.f32.nn.b8x8
// SMALLB-SAME: (%{{.*}}: tensor<?x8xf32>, %{{.*}}: tensor<8x8xf32>, %{{.*}}: tensor<?x8xf32>) -> tensor<?x8xf32>
// SMALLB: linalg.matmul {{.*}} -> tensor<?x8xf32>
func.func @small_rhs(%a: tensor<?x8xf32>, %b: tensor<8x8xf32>, %m: index,
                     %big: tensor<8x16xf32>) -> (tensor<?x8xf32>, tensor<?x16xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x8xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x8xf32>) -> tensor<?x8xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x8xf32>)
                     outs(%c : tensor<?x8xf32>) -> tensor<?x8xf32>
  %e2 = tensor.empty(%m) : tensor<?x16xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x16xf32>) -> tensor<?x16xf32>
  %s = linalg.matmul ins(%a, %big : tensor<?x8xf32>, tensor<8x16xf32>)
                     outs(%c2 : tensor<?x16xf32>) -> tensor<?x16xf32>
  return %r, %s : tensor<?x8xf32>, tensor<?x16xf32>
}

// -----

// A static B with fewer columns than a multiple of 8 (here 8 x 1): a tiny
// B, a function of B's shape that matrix-version-products leaves to the
// plain loops. Regression: that function, computed by the unpacked
// schedule with a run-time M, corrupted the heap on AVX-512 for N = 1
// (difftest --ranks 2, seed 128: `A4.T @ eye(37) @ ... ` with A4 37 x 1);
// it then went to the function of run-time sizes. A matrix-vector product
// with a run-time K (B ? x 1, neither operand transposed) calls a function
// of its own (B and C ? x 1), which matrix-version-products gives the
// schedule's dot products; with a transposed A (`a.T @ v`, a
// vector-matrix product), a function of its own too (`.tn.n1`), which
// matrix-version-products gives the schedule's vector-matrix products.
// CHECK-LABEL: func.func @narrow_rhs
// SMALLB-LABEL: func.func @narrow_rhs
// SMALLB: call @matc.product.f32.nn.b8x1({{.*}}) : (tensor<?x8xf32>, tensor<8x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
// SMALLB: call @matc.product.f32.nn.n1({{.*}}) : (tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
// SMALLB: call @matc.product.f32.tn.n1({{.*}}) : (tensor<?x?xf32>, tensor<?x1xf32>, tensor<?x1xf32>) -> tensor<?x1xf32>
// SMALLB-LABEL: func.func private @matc.product.f32.nn.n1
// SMALLB-SAME: (%[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?x1xf32>, %{{.*}}: tensor<?x1xf32>) -> tensor<?x1xf32>
// SMALLB: linalg.matmul ins(%[[A]], %{{.*}} : tensor<?x?xf32>, tensor<?x1xf32>) {{.*}} -> tensor<?x1xf32>
func.func @narrow_rhs(%a: tensor<?x8xf32>, %b: tensor<8x1xf32>, %ad: tensor<?x?xf32>,
                      %v: tensor<?x1xf32>, %m: index)
    -> (tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x1xf32>) -> tensor<?x1xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf32>, tensor<8x1xf32>)
                     outs(%c : tensor<?x1xf32>) -> tensor<?x1xf32>
  %e1 = tensor.empty(%m) : tensor<?x1xf32>
  %c1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %s = linalg.matmul ins(%ad, %v : tensor<?x?xf32>, tensor<?x1xf32>)
                     outs(%c1 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %e2 = tensor.empty(%m) : tensor<?x1xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x1xf32>) -> tensor<?x1xf32>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%ad, %v : tensor<?x?xf32>, tensor<?x1xf32>)
         outs(%c2 : tensor<?x1xf32>) -> tensor<?x1xf32>
  return %r, %s, %t : tensor<?x1xf32>, tensor<?x1xf32>, tensor<?x1xf32>
}

// -----

// One row of C (M = 1, x @ b and x.T @ b, a vector-matrix product; x @
// b.T, dot products of the rows of B) with a B of run-time sizes, or
// static and larger than static-rhs-elements: a function of one row
// (`.m1`: A 1 x ? or ? x 1, C 1 x ?) per layout, shared by both; a small static B keeps its function of B's shape (A ? x K
// there: matrix-version-products gives it the unpacked schedule).
// Regression (MATC_VERIFY_EACH, difftest seed 30): a first version named
// the function of a small static B `.m1` too, and its calls had the types
// of the other.
// CHECK-LABEL: func.func @row_of_c
// SMALLB-LABEL: func.func @row_of_c
// SMALLB: call @matc.product.f64.nn.m1({{.*}}) : (tensor<1x?xf64>, tensor<?x?xf64>, tensor<1x?xf64>) -> tensor<1x?xf64>
// SMALLB: call @matc.product.f64.tn.m1({{.*}}) : (tensor<?x1xf64>, tensor<?x?xf64>, tensor<1x?xf64>) -> tensor<1x?xf64>
// SMALLB: call @matc.product.f64.nn.m1({{.*}}) : (tensor<1x?xf64>, tensor<?x?xf64>, tensor<1x?xf64>) -> tensor<1x?xf64>
// SMALLB: call @matc.product.f64.nn.b2x32({{.*}}) : (tensor<?x2xf64>, tensor<2x32xf64>, tensor<?x32xf64>) -> tensor<?x32xf64>
// SMALLB: call @matc.product.f64.nt.m1({{.*}}) : (tensor<1x?xf64>, tensor<?x?xf64>, tensor<1x?xf64>) -> tensor<1x?xf64>
// SMALLB-LABEL: func.func private @matc.product.f64.nn.m1
// SMALLB-SAME: (%{{.*}}: tensor<1x?xf64>, %{{.*}}: tensor<?x?xf64>, %{{.*}}: tensor<1x?xf64>) -> tensor<1x?xf64>
// SMALLB: linalg.matmul {{.*}} -> tensor<1x?xf64>
// SMALLB-LABEL: func.func private @matc.product.f64.tn.m1
// SMALLB-SAME: (%{{.*}}: tensor<?x1xf64>, %{{.*}}: tensor<?x?xf64>, %{{.*}}: tensor<1x?xf64>) -> tensor<1x?xf64>
func.func @row_of_c(%x: tensor<1x?xf64>, %xt: tensor<?x1xf64>, %b: tensor<?x?xf64>,
                    %x8: tensor<1x8xf64>, %big: tensor<8x64xf64>, %x2: tensor<1x2xf64>,
                    %small: tensor<2x32xf64>, %n: index)
    -> (tensor<1x?xf64>, tensor<1x?xf64>, tensor<1x64xf64>, tensor<1x32xf64>, tensor<1x?xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%n) : tensor<1x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<1x?xf64>) -> tensor<1x?xf64>
  %r = linalg.matmul ins(%x, %b : tensor<1x?xf64>, tensor<?x?xf64>)
                     outs(%c : tensor<1x?xf64>) -> tensor<1x?xf64>
  %e2 = tensor.empty(%n) : tensor<1x?xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<1x?xf64>) -> tensor<1x?xf64>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%xt, %b : tensor<?x1xf64>, tensor<?x?xf64>)
         outs(%c2 : tensor<1x?xf64>) -> tensor<1x?xf64>
  %e3 = tensor.empty() : tensor<1x64xf64>
  %c3 = linalg.fill ins(%zero : f64) outs(%e3 : tensor<1x64xf64>) -> tensor<1x64xf64>
  %w = linalg.matmul ins(%x8, %big : tensor<1x8xf64>, tensor<8x64xf64>)
                     outs(%c3 : tensor<1x64xf64>) -> tensor<1x64xf64>
  %e4 = tensor.empty() : tensor<1x32xf64>
  %c4 = linalg.fill ins(%zero : f64) outs(%e4 : tensor<1x32xf64>) -> tensor<1x32xf64>
  %s = linalg.matmul ins(%x2, %small : tensor<1x2xf64>, tensor<2x32xf64>)
                     outs(%c4 : tensor<1x32xf64>) -> tensor<1x32xf64>
  %e5 = tensor.empty(%n) : tensor<1x?xf64>
  %c5 = linalg.fill ins(%zero : f64) outs(%e5 : tensor<1x?xf64>) -> tensor<1x?xf64>
  %d = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (m, k)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%x, %b : tensor<1x?xf64>, tensor<?x?xf64>)
         outs(%c5 : tensor<1x?xf64>) -> tensor<1x?xf64>
  return %r, %t, %w, %s, %d : tensor<1x?xf64>, tensor<1x?xf64>, tensor<1x64xf64>, tensor<1x32xf64>, tensor<1x?xf64>
}

// -----

// A tiny static B (K, N <= 16, N not a multiple of 8) with a run-time M
// calls a function of B's shape (A ? x K, C ? x N), which
// matrix-version-products leaves to the plain loops.
// Regression: it went to the function of run-time sizes, packed, 70x
// slower than NumPy for 200000 x 3 @ 3 x 3 (points @ r) on Zen 4.
// CHECK-LABEL: func.func @tiny_rhs
// CHECK: call @matc.product.f64.nn.b3x3({{.*}}) : (tensor<?x3xf64>, tensor<3x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
// CHECK: call @matc.product.f64.tn.b3x3({{.*}}) : (tensor<3x?xf64>, tensor<3x3xf64>, tensor<?x3xf64>) -> tensor<?x3xf64>
// CHECK-LABEL: func.func private @matc.product.f64.nn.b3x3
// CHECK: linalg.matmul ins(%{{.*}}, %{{.*}} : tensor<?x3xf64>, tensor<3x3xf64>) {{.*}} -> tensor<?x3xf64>
func.func @tiny_rhs(%p: tensor<?x3xf64>, %pt: tensor<3x?xf64>, %r: tensor<3x3xf64>, %m: index)
    -> (tensor<?x3xf64>, tensor<?x3xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%m) : tensor<?x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x3xf64>) -> tensor<?x3xf64>
  %x = linalg.matmul ins(%p, %r : tensor<?x3xf64>, tensor<3x3xf64>)
                     outs(%c : tensor<?x3xf64>) -> tensor<?x3xf64>
  %e2 = tensor.empty(%m) : tensor<?x3xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<?x3xf64>) -> tensor<?x3xf64>
  %y = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%pt, %r : tensor<3x?xf64>, tensor<3x3xf64>)
         outs(%c2 : tensor<?x3xf64>) -> tensor<?x3xf64>
  return %x, %y : tensor<?x3xf64>, tensor<?x3xf64>
}

// -----

// A tiny C from a long k-range with A read transposed (the Gram matrix
// a.T @ a of a ? x 3 a) calls a function of C's shape (A ? x M, B ? x N or
// N x ?, C M x N), which matrix-version-products leaves to the plain loops
// with k outermost. Regression: it went to the function of run-time sizes,
// 0.5x NumPy for 200000 x 3 on Zen 4.
// CHECK-LABEL: func.func @tiny_result
// CHECK: call @matc.product.f64.tn.c3x3({{.*}}) : (tensor<?x3xf64>, tensor<?x3xf64>, tensor<3x3xf64>) -> tensor<3x3xf64>
// CHECK: call @matc.product.f64.tt.c3x2({{.*}}) : (tensor<?x3xf64>, tensor<2x?xf64>, tensor<3x2xf64>) -> tensor<3x2xf64>
// CHECK-LABEL: func.func private @matc.product.f64.tn.c3x3
// CHECK: linalg.matmul indexing_maps = {{.*}} ins(%{{.*}}, %{{.*}} : tensor<?x3xf64>, tensor<?x3xf64>) {{.*}} -> tensor<3x3xf64>
func.func @tiny_result(%a: tensor<?x3xf64>, %b: tensor<2x?xf64>)
    -> (tensor<3x3xf64>, tensor<3x2xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x3xf64>) -> tensor<3x3xf64>
  %g = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (k, n)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %a : tensor<?x3xf64>, tensor<?x3xf64>)
         outs(%c : tensor<3x3xf64>) -> tensor<3x3xf64>
  %e2 = tensor.empty() : tensor<3x2xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<3x2xf64>) -> tensor<3x2xf64>
  %t = linalg.matmul
         indexing_maps = [affine_map<(m, n, k) -> (k, m)>,
                          affine_map<(m, n, k) -> (n, k)>,
                          affine_map<(m, n, k) -> (m, n)>]
         ins(%a, %b : tensor<?x3xf64>, tensor<2x?xf64>)
         outs(%c2 : tensor<3x2xf64>) -> tensor<3x2xf64>
  return %g, %t : tensor<3x3xf64>, tensor<3x2xf64>
}

// -----

// RUN: matc-opt %s --split-input-file --matrix-outline-products="narrow-f32=32 narrow-f64=16" | FileCheck %s --check-prefix=NARROW
// A B read in place with a static N, a multiple of 8 of at most narrow-f32
// (narrow-f64) columns, keeps N in a function of its own N (A ? x ?, B and
// C ? x N): matrix-version-products computes it unpacked whatever M. An N
// beyond the bound, not a multiple of 8, or a B read transposed goes to the
// function with run-time sizes.
// CHECK-LABEL: func.func @narrow_n
// NARROW-LABEL: func.func @narrow_n
// NARROW: call @matc.product.f32.nn.n16({{.*}}) : (tensor<?x?xf32>, tensor<?x16xf32>, tensor<?x16xf32>) -> tensor<?x16xf32>
// NARROW: call @matc.product.f32.nn({{.*}}) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// NARROW: call @matc.product.f32.nn({{.*}}) : (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// NARROW: call @matc.product.f64.nn.n16({{.*}}) : (tensor<?x?xf64>, tensor<?x16xf64>, tensor<?x16xf64>) -> tensor<?x16xf64>
// NARROW-LABEL: func.func private @matc.product.f32.nn.n16
// NARROW-SAME: (%[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?x16xf32>, %{{.*}}: tensor<?x16xf32>) -> tensor<?x16xf32>
// NARROW: %[[K:.*]] = tensor.dim %[[A]], %c1
// NARROW: %[[SB:.*]] = tensor.extract_slice %[[B]][0, 0] [%[[K]], 16] [1, 1] : tensor<?x16xf32> to tensor<?x16xf32>
// NARROW: linalg.matmul ins(%[[A]], %[[SB]] : tensor<?x?xf32>, tensor<?x16xf32>) {{.*}} -> tensor<?x16xf32>
// NARROW-LABEL: func.func private @matc.product.f64.nn.n16
func.func @narrow_n(%a: tensor<?x?xf32>, %v: tensor<?x16xf32>, %w: tensor<?x40xf32>,
                    %u: tensor<?x12xf32>, %ad: tensor<?x?xf64>, %vd: tensor<?x16xf64>,
                    %m: index)
    -> (tensor<?x16xf32>, tensor<?x40xf32>, tensor<?x12xf32>, tensor<?x16xf64>) {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m) : tensor<?x16xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x16xf32>) -> tensor<?x16xf32>
  %r = linalg.matmul ins(%a, %v : tensor<?x?xf32>, tensor<?x16xf32>)
                     outs(%c : tensor<?x16xf32>) -> tensor<?x16xf32>
  %e2 = tensor.empty(%m) : tensor<?x40xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x40xf32>) -> tensor<?x40xf32>
  %s = linalg.matmul ins(%a, %w : tensor<?x?xf32>, tensor<?x40xf32>)
                     outs(%c2 : tensor<?x40xf32>) -> tensor<?x40xf32>
  %e3 = tensor.empty(%m) : tensor<?x12xf32>
  %c3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<?x12xf32>) -> tensor<?x12xf32>
  %t = linalg.matmul ins(%a, %u : tensor<?x?xf32>, tensor<?x12xf32>)
                     outs(%c3 : tensor<?x12xf32>) -> tensor<?x12xf32>
  %zd = arith.constant 0.0 : f64
  %e4 = tensor.empty(%m) : tensor<?x16xf64>
  %c4 = linalg.fill ins(%zd : f64) outs(%e4 : tensor<?x16xf64>) -> tensor<?x16xf64>
  %x = linalg.matmul ins(%ad, %vd : tensor<?x?xf64>, tensor<?x16xf64>)
                     outs(%c4 : tensor<?x16xf64>) -> tensor<?x16xf64>
  return %r, %s, %t, %x : tensor<?x16xf32>, tensor<?x40xf32>, tensor<?x12xf32>, tensor<?x16xf64>
}

// -----

// A read transposed, every size run-time: few columns of C (2 <= N <= 8
// without narrow-*, narrow-f64 - 1 = 15 with it, and N < M; K >= 32) are computed
// as the rows of C^T = B^T A^T by a call with the operands swapped into a
// new N x M tensor, copied transposed into C; with B read transposed too,
// also few rows (1 <= M <= 8, and M < N), and C^T = b @ a is a call of the
// general function of neither operand transposed, made here. The other
// branch calls the function as it is. Each branch computes into a new
// empty tensor of its own (tagged, so that CSE keeps them apart): one
// from before the scf.if, yielded by a branch, would be copied for the
// ownership-based deallocation. Both branches of `a.T @ b` call the
// one @matc.product.f64.tn.
// CHECK-LABEL: func.func @transposed_lhs
// CHECK-SAME: (%[[A:.*]]: tensor<?x?xf64>, %[[B:.*]]: tensor<?x?xf64>, %[[BT:.*]]: tensor<?x?xf64>)
// CHECK: tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x?xf64>
// CHECK: %[[M:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[N:.*]] = tensor.dim %[[B]], %c1
// CHECK: %[[N2:.*]] = arith.cmpi uge, %[[N]], %c2
// CHECK: %[[N8:.*]] = arith.cmpi ule, %[[N]], %c8
// CHECK: %[[NR:.*]] = arith.andi %[[N2]], %[[N8]]
// CHECK: %[[NM:.*]] = arith.cmpi ult, %[[N]], %[[M]]
// CHECK: %[[FEW:.*]] = arith.andi %[[NR]], %[[NM]]
// CHECK: %[[K:.*]] = tensor.dim %[[A]], %c0
// CHECK: %[[LONG:.*]] = arith.cmpi uge, %[[K]], %c32
// CHECK: %[[FEW_LONG:.*]] = arith.andi %[[FEW]], %[[LONG]]
// CHECK: %[[R:.*]] = scf.if %[[FEW_LONG]] -> (tensor<?x?xf64>) {
// CHECK:   %[[ET:.*]] = tensor.empty(%[[N]], %[[M]]) : tensor<?x?xf64>
// CHECK:   %[[CT:.*]] = func.call @matc.product.f64.tn(%[[B]], %[[A]], %[[ET]])
// CHECK:   %[[D:.*]] = tensor.empty(%[[M]], %[[N]]) {matc.branch_destination} : tensor<?x?xf64>
// CHECK:   %[[TR:.*]] = linalg.generic {{.*}} ins(%[[CT]] : tensor<?x?xf64>) outs(%[[D]] : tensor<?x?xf64>) attrs =  {matc.transpose = "f64", matc.transpose_rows}
// CHECK:   scf.yield %[[TR]]
// CHECK: } else {
// CHECK:   %[[D2:.*]] = tensor.empty(%[[M]], %[[N]]) {matc.branch_destination} : tensor<?x?xf64>
// CHECK:   %[[C:.*]] = func.call @matc.product.f64.tn(%[[A]], %[[B]], %[[D2]])
// CHECK:   scf.yield %[[C]]
// CHECK: }
// CHECK: %[[MT:.*]] = tensor.dim %[[A]], %c1
// CHECK: %[[NT:.*]] = tensor.dim %[[BT]], %c0
// CHECK: arith.cmpi ult, %[[NT]], %[[MT]]
// `a.T @ b.T`'s few rows: M <= N too (M == N == 4 along a long K as b @ a
// reads both operands in place; `a.T @ b.T` a transposed copy of all of b).
// CHECK: arith.cmpi ule, %[[MT]], %[[NT]]
// CHECK: arith.ori
// CHECK: scf.if
// CHECK:   func.call @matc.product.f64.nn(%[[BT]], %[[A]], %{{.*}})
// CHECK:   matc.transpose = "f64"
// CHECK: } else {
// CHECK:   func.call @matc.product.f64.tt(%[[A]], %[[BT]], %{{.*}})
// CHECK-LABEL: func.func private @matc.product.f64.tn(
// CHECK: linalg.matmul indexing_maps = [#[[KM:.*]], #[[KN:.*]], #{{.*}}]
// CHECK-LABEL: func.func private @matc.product.f64.tt(
// CHECK-LABEL: func.func private @matc.product.f64.nn(
// CHECK: linalg.matmul ins
// NARROW-LABEL: func.func @transposed_lhs
// NARROW: %[[C15:.*]] = arith.constant 15 : index
// NARROW: arith.cmpi ule, %{{.*}}, %[[C15]] : index
// NARROW: %[[C8:.*]] = arith.constant 8 : index
// NARROW: arith.cmpi ule, %{{.*}}, %[[C8]] : index
func.func @transposed_lhs(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>, %bt: tensor<?x?xf64>)
    -> (tensor<?x?xf64>, tensor<?x?xf64>) {
  %zero = arith.constant 0.0 : f64
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c1 : tensor<?x?xf64>
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (k, j)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
      outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  %nt = tensor.dim %bt, %c0 : tensor<?x?xf64>
  %e2 = tensor.empty(%m, %nt) : tensor<?x?xf64>
  %c2 = linalg.fill ins(%zero : f64) outs(%e2 : tensor<?x?xf64>) -> tensor<?x?xf64>
  %s = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (j, k)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %bt : tensor<?x?xf64>, tensor<?x?xf64>)
      outs(%c2 : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r, %s : tensor<?x?xf64>, tensor<?x?xf64>
}
