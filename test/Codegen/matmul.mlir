// RUN: matc-opt %s --split-input-file --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512" --canonicalize --cse | FileCheck %s
// RUN: matc-opt %s --split-input-file --matrix-codegen="matmul-f32=6,16,320,516,304 matmul-f64=6,8,256,516,192 vector-bits=256 x86-avx=true" --canonicalize --cse | FileCheck %s --check-prefix=YMM

// The code generation schedule on matrix products (lib/Codegen/Schedule.mlir)
// with the sizes matc's model gives (lib/Target/MatmulModel.cpp) for
// --target-cpu=sapphirerapids (prefix CHECK, 32 registers of 512 bits) and
// --target-cpu=znver3 (prefix YMM, 16 of 256 bits); mr,nr,kc,mc,nc per type.

// f32, run-time shapes: one scf.forall iteration per 516x512 tile of C; in
// it, a packed tile of C ([43][16][12][32]), never zero-filled: in the first
// k-block each register tile starts from zeros instead of its read
// (transform.matc.zero_first_accumulation); k runs by blocks of 256 with A packed into micro-panels of 12 rows
// ([.][256][12], read 16 x 16 at a time, the rows past 12 and past the edge
// of M masked off, transposed by the 16 x 16 shuffle network: 64
// vector.shuffle) and B into micro-panels of 32 columns ([.][256][32]); the
// register kernel keeps a 12 x 32 tile in registers across the k-block (the
// loop carries the vector) and updates it with 12 vector.fma on
// vector<32xf32> per step of k; there is no other kernel (no remainder: the
// packing pads). In the last k-block the register tile goes into C itself,
// not into the packed tile (transform.matc.fuse_unpack_into_last_k_block):
// whole, or masked where it crosses the edge of C; nothing is unpacked.
// CHECK-LABEL: func.func @matmul_f32
// CHECK: %[[C:.*]] = scf.forall ({{.*}}) in ({{.*}}) shared_outs(%[[OUT:.*]] = {{.*}}) -> (tensor<?x?xf32>)
// CHECK: %[[BLOCK:.*]] = tensor.empty({{.*}}) : tensor<?x?x12x32xf32>
// CHECK-NOT: vector.transfer_write
// CHECK: %[[DEST:.*]] = tensor.extract_slice %[[OUT]]
// CHECK: %[[KBLOCKS:.*]]:2 = scf.for %[[KB:.*]] = %c0 to %[[K:.*]] step %c256 iter_args(%{{.*}} = %[[BLOCK]], %{{.*}} = %[[DEST]])
// CHECK-DAG: %[[NEXT:.*]] = arith.addi %[[KB]], %c256
// CHECK-DAG: %[[LAST:.*]] = arith.cmpi sge, %[[NEXT]], %[[K]]
// CHECK-DAG: %[[FIRST:.*]] = arith.cmpi eq, %[[KB]], %c0
// CHECK: tensor.empty({{.*}}) : tensor<?x?x12xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<16x16xf32>
// CHECK-COUNT-64: vector.shuffle
// B stored plainly is packed row after row: the loop over k outside, the
// one over the panels inside.
// CHECK: tensor.empty({{.*}}) : tensor<?x?x32xf32>
// CHECK-NEXT: scf.for {{.*}} step %c16 iter_args({{.*}}) -> (tensor<?x?x32xf32>)
// CHECK: scf.for {{.*}} step %c1 iter_args({{.*}}) -> (tensor<?x?x32xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<16x32xf32>
// CHECK: scf.if %[[FIRST]] -> (vector<12x32xf32>)
// CHECK: } else {
// CHECK-NEXT: vector.transfer_read {{.*}} : tensor<1x1x12x32xf32>, vector<12x32xf32>
// CHECK: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x1x12x32xf32>)
// CHECK-COUNT-12: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK: scf.if %[[LAST]] -> (tensor<?x?x12x32xf32>, tensor<?x?xf32>)
// CHECK: scf.if {{.*}} -> (tensor<?x?xf32>)
// CHECK: vector.transfer_write {{.*}} {in_bounds = [true, true]} : vector<12x32xf32>, tensor<12x32xf32>
// CHECK: } else {
// CHECK: %[[MASK:.*]] = vector.create_mask {{.*}} : vector<12x32xi1>
// CHECK: vector.transfer_write {{.*}}, %[[MASK]] {in_bounds = [true, true]} : vector<12x32xf32>, tensor<?x?xf32>
// CHECK: } else {
// CHECK: vector.transfer_write {{.*}} : vector<12x32xf32>, tensor<1x1x12x32xf32>
// CHECK-NOT: vector.fma
// CHECK-NOT: linalg.unpack
// CHECK: scf.forall.in_parallel
// CHECK-NEXT: tensor.parallel_insert_slice %[[KBLOCKS]]#1 into %[[OUT]]
// CHECK: return %[[C]]

// For 16 registers of 256 bits: 6 x 16 (12 ymm accumulators), k-blocks of
// 320, tiles of 516 x 304; A packed 8 x 8 at a time, transposed by the AVX
// network (x86vector: shuffles and vblendps).
// YMM-LABEL: func.func @matmul_f32
// YMM: tensor.empty({{.*}}) : tensor<?x?x6x16xf32>
// YMM: scf.for {{.*}} step %c320
// YMM: vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<8x8xf32>
// YMM: llvm.inline_asm {{.*}}"vblendps
// YMM: scf.for {{.*}} iter_args({{.*}}) -> (vector<1x1x6x16xf32>)
// YMM-COUNT-6: vector.fma {{.*}} : vector<16xf32>
// YMM-NOT: vector.fma
// YMM: scf.yield
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

// -----

// f64: 12 x 16 (two registers of 512 bits per row: 24 accumulators), kc 192;
// for 256 bits 6 x 8, kc 256.
// CHECK-LABEL: func.func @matmul_f64
// CHECK: scf.forall
// CHECK: scf.for {{.*}} step %c192
// CHECK: scf.for {{.*}} -> (vector<1x1x12x16xf64>)
// CHECK-COUNT-12: vector.fma {{.*}} : vector<16xf64>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// YMM-LABEL: func.func @matmul_f64
// YMM: scf.for {{.*}} step %c256
// YMM: scf.for {{.*}} -> (vector<1x1x6x8xf64>)
// YMM-COUNT-6: vector.fma {{.*}} : vector<8xf64>
// YMM-NOT: vector.fma
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

// -----

// a @ b.T with b stored [n, k] (the form matrix-optimize gives `a @ b.T`):
// the same kernel; B's micro-panels are packed from its rows, 32 rows x 16
// steps of k at a time, transposed in registers by two 16 x 16 shuffle
// networks (matc.unroll_transposes), as A's are when A is stored plainly.
// CHECK-LABEL: func.func @matmul_transposed_rhs
// CHECK: scf.forall
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<16x16xf32>
// CHECK-COUNT-64: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// B^T is packed a panel at a time (32 rows of B^T read along k): the loop
// over the panels outside.
// CHECK: tensor.empty({{.*}}) : tensor<?x?x32xf32>
// CHECK-NEXT: scf.for {{.*}} step %c1 iter_args({{.*}}) -> (tensor<?x?x32xf32>)
// CHECK: scf.for {{.*}} step %c16 iter_args({{.*}}) -> (tensor<?x?x32xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<?x?xf32>, vector<32x16xf32>
// CHECK-COUNT-128: vector.shuffle {{.*}} : vector<16xf32>, vector<16xf32>
// CHECK-NOT: vector<512xf32>
// CHECK: scf.for {{.*}} -> (vector<1x1x12x32xf32>)
// CHECK-COUNT-12: vector.fma {{.*}} : vector<32xf32>
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

// -----

// a.T @ b with a stored [k, m] (`a.T @ b` after matrix-optimize): A's
// micro-panels are packed from its rows, without a transpose.
// CHECK-LABEL: func.func @matmul_transposed_lhs
// CHECK: scf.forall
// CHECK-NOT: vector.shuffle
// CHECK: scf.for {{.*}} -> (vector<1x1x12x32xf32>)
// CHECK-COUNT-12: vector.fma {{.*}} : vector<32xf32>
func.func @matmul_transposed_lhs(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c1 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul indexing_maps = [affine_map<(i, j, k) -> (k, i)>,
                                      affine_map<(i, j, k) -> (k, j)>,
                                      affine_map<(i, j, k) -> (i, j)>]
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
      outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// -----

// Static shapes that are not multiples of the tiles: 100 rows are 9 micro-
// panels of 12 (the last padded with zeros by masked reads), 70 columns 3
// of 32, 37 steps of k; one cache tile, so no scf.forall. Still one kernel.
// CHECK-LABEL: func.func @matmul_static_ragged
// CHECK-NOT: scf.forall
// CHECK: tensor.empty() : tensor<9x3x12x32xf32>
// CHECK: tensor.empty() : tensor<9x37x12xf32>
// CHECK: tensor.empty() : tensor<3x37x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args({{.*}}) -> (vector<1x1x12x32xf32>)
// CHECK-COUNT-12: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
// CHECK: return
func.func @matmul_static_ragged(%a: tensor<100x37xf32>, %b: tensor<37x70xf32>) -> tensor<100x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x70xf32>) -> tensor<100x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<100x37xf32>, tensor<37x70xf32>)
                     outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}

// -----

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
