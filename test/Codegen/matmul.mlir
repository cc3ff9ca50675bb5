// RUN: matc-opt %s --matrix-codegen --canonicalize --cse | FileCheck %s
// RUN: matc-opt %s --matrix-codegen=entry-point=matc_codegen_ymm --canonicalize --cse | FileCheck %s --check-prefix=YMM

// The code generation schedule on matrix products (lib/Codegen/Schedule.mlir).

// f32, run-time shapes: one scf.forall iteration per 256x128 tile of C; in
// it, a packed tile of C is zeroed, k runs by blocks of 128 with B packed
// into 16-wide panels per block (masked vector transfers pad with zeros),
// the register kernel keeps an 8x2x16 tile in registers across k (the loop
// carries the vector) and updates it with vector.fma on vector<16xf32>;
// the remaining rows (M mod 8) take a masked copy of the same kernel; the
// tile is unpacked into C.
// CHECK-LABEL: func.func @matmul_f32
// CHECK: %[[C:.*]] = scf.forall ({{.*}}) in ({{.*}}) shared_outs({{.*}}) -> (tensor<?x?xf32>)
// CHECK: tensor.empty({{.*}}) : tensor<?x?x16xf32>
// CHECK: scf.for %{{.*}} = %{{.*}} to %{{.*}} step %c128
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<16x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<1x?x16xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<8x2x16xf32>)
// CHECK-COUNT-16: vector.fma {{.*}} : vector<16xf32>
// CHECK: scf.yield
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: scf.forall.in_parallel
// CHECK: return %[[C]]
func.func @matmul_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// f64: vectors of 16 elements are two 512-bit registers, so the register
// tile is 8x1x16 (one panel), still 16 accumulator registers.
// CHECK-LABEL: func.func @matmul_f64
// CHECK: scf.forall
// CHECK: scf.for {{.*}} -> (vector<8x1x16xf64>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<16xf64>

// For 16 registers of 256 bits (matc_codegen_ymm): 6x1x16 f32 (12 ymm
// accumulators) and 2x1x16 f64 (8; 3 rows would need 12 accumulators, 4
// rows of B and a broadcast, one more than there are, and LLVM spills an
// accumulator); f64 tiles of 256 x 16 with k-blocks of 256: one packed
// panel of B per tile (32 KiB), which every pair of rows re-reads.
// YMM-LABEL: func.func @matmul_f32
// YMM: scf.for {{.*}} step %c128
// YMM: scf.for {{.*}} iter_args({{.*}}) -> (vector<6x1x16xf32>)
// YMM-COUNT-6: vector.fma {{.*}} : vector<16xf32>
// YMM-LABEL: func.func @matmul_f64
// YMM: scf.for {{.*}} step %c256
// YMM: scf.for {{.*}} -> (vector<2x1x16xf64>)
// YMM-COUNT-2: vector.fma {{.*}} : vector<16xf64>
// YMM-NOT: vector.fma {{.*}} : vector<16xf64>
// YMM: scf.yield
func.func @matmul_f64(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x?xf64>) -> tensor<?x?xf64>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>)
                     outs(%c : tensor<?x?xf64>) -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}

// a @ b.T with b stored [n, k] (the form matrix-optimize gives `a @ b.T`):
// the same kernel, B's panels packed from its rows.
// CHECK-LABEL: func.func @matmul_transposed_rhs
// CHECK: scf.forall
// CHECK: scf.for {{.*}} -> (vector<8x2x16xf32>)
// CHECK-COUNT-16: vector.fma {{.*}} : vector<16xf32>
func.func @matmul_transposed_rhs(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (i, k)>,
                                      affine_map<(i, j, k) -> (j, k)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// Static shapes that are not multiples of the tiles: 100 rows = 12 x 8 + 4
// (a masked register tile for the last 4), 70 columns padded to 5 panels.
// CHECK-LABEL: func.func @matmul_static_ragged
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c8
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: vector.constant_mask [4, 1] : vector<8x1xi1>
// CHECK: vector.fma {{.*}} : vector<16xf32>
// CHECK: return
func.func @matmul_static_ragged(%a: tensor<100x37xf32>, %b: tensor<37x70xf32>) -> tensor<100x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x70xf32>) -> tensor<100x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<100x37xf32>, tensor<37x70xf32>)
                     outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}

// Every loop of at most 16 iterations: left to the plain lowering.
// CHECK-LABEL: func.func @matmul_small
// CHECK-NOT: scf.forall
// CHECK: linalg.matmul
func.func @matmul_small(%a: tensor<3x5xf64>, %b: tensor<5x7xf64>) -> tensor<3x7xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<3x7xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<3x7xf64>) -> tensor<3x7xf64>
  %r = linalg.matmul ins(%a, %b : tensor<3x5xf64>, tensor<5x7xf64>)
                     outs(%c : tensor<3x7xf64>) -> tensor<3x7xf64>
  return %r : tensor<3x7xf64>
}
