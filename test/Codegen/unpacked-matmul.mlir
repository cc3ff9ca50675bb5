// RUN: matc-opt %s --matrix-version-products=max-elements=131072 --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512" --canonicalize --cse | FileCheck %s
// RUN: matc-opt %s --matrix-version-products=max-elements=131072 --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512 threads=2" --canonicalize --cse | FileCheck %s --check-prefix=ROWS
// RUN: matc-opt %s --matrix-version-products="max-elements=131072 vector-bits=512" --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512 vector-bits=512" --canonicalize --cse | FileCheck %s --check-prefix=NARROW

// A product small enough for the caches, with the unpacked schedule
// (lib/Codegen/Schedule.mlir): register tiles of 8 x 32 (8 rows of A read in
// place, at most 8 whatever MR) updating C in place, starting from zeros
// (the fill of C is fused into the tiles); 100 rows are 12 tiles of 8 and a
// tile of 4 rows (the last rows in tiles of 4, 2 and 1 rows), 70
// columns 2 tiles of 32 and a masked one of 6. No packing, no scf.forall.
// CHECK-LABEL: func.func @unpacked
// CHECK-NOT: linalg.pack
// CHECK-NOT: scf.forall
// CHECK: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x32xf32>
// CHECK: vector.constant_mask [8, 6] : vector<8x32xi1>
// CHECK: scf.for %{{.*}} = %c0 to %c96 step %c8
// CHECK: scf.for %{{.*}} = %c0 to %c64 step %c32
// CHECK: scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8x32xf32>)
// CHECK: vector.transfer_read {{.*}} : tensor<8x1xf32>, vector<8x1xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<1x32xf32>, vector<32xf32>
// CHECK-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// CHECK-NOT: vector.fma
// CHECK: scf.yield
// CHECK: vector.transfer_write {{.*}} : vector<8x32xf32>, tensor<8x32xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c37 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x32xf32>)
// CHECK-NOT: vector<8x32xi1>
// CHECK: return
func.func @unpacked(%a: tensor<100x37xf32>, %b: tensor<37x70xf32>) -> tensor<100x70xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<100x70xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<100x70xf32>) -> tensor<100x70xf32>
  %r = linalg.matmul ins(%a, %b : tensor<100x37xf32>, tensor<37x70xf32>)
                     outs(%c : tensor<100x70xf32>) -> tensor<100x70xf32>
  return %r : tensor<100x70xf32>
}

// With 2 threads: 2 blocks of 50 rows, an scf.forall iteration each, the
// fill of C fused into the block (its shared output is the empty tensor);
// in a block, 6 register tiles of 8 rows and one of 2.
// ROWS-LABEL: func.func @unpacked
// ROWS-NOT: linalg.fill
// ROWS: %[[EMPTY:.*]] = tensor.empty() : tensor<100x70xf32>
// ROWS: scf.forall (%{{.*}}) in (2) shared_outs(%{{.*}} = %[[EMPTY]]) -> (tensor<100x70xf32>)
// ROWS: tensor.extract_slice {{.*}} [50, 37] [1, 1] : tensor<100x37xf32> to tensor<50x37xf32>
// ROWS: scf.for %{{.*}} = %c0 to %c48 step %c8
// ROWS-COUNT-8: vector.fma {{.*}} : vector<32xf32>
// ROWS: scf.for {{.*}} -> (vector<2x32xf32>)
// ROWS: scf.forall.in_parallel

// Run-time rows: the last M mod 8 rows in tiles of 4, 2 and 1 rows (the
// loops of 4 and 2 run at most once); none is masked in its rows but the
// tile of 4, whose size (min(4, rows left)) the peeling does not simplify.
// CHECK-LABEL: func.func @dynamic_rows
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<8x32xf32>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<4x32xf32>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<2x32xf32>)
// CHECK: scf.for {{.*}} iter_args(%{{.*}} = %{{.*}}) -> (vector<1x32xf32>)
// CHECK-NOT: vector.create_mask {{.*}} : vector<8x
func.func @dynamic_rows(%a: tensor<?x37xf32>, %b: tensor<37x64xf32>) -> tensor<?x64xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x37xf32>
  %e = tensor.empty(%m) : tensor<?x64xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x64xf32>) -> tensor<?x64xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x37xf32>, tensor<37x64xf32>)
                     outs(%c : tensor<?x64xf32>) -> tensor<?x64xf32>
  return %r : tensor<?x64xf32>
}

// A static N of at most one vector (here 8 f64 with 512-bit vectors): the
// register tiles are 8 x 8, one vector a row, unmasked, instead of the
// model's NR of 16 masked down to 8 in every row.
// CHECK-LABEL: func.func @narrow
// NARROW-LABEL: func.func @narrow
// NARROW-NOT: vector<8x16xf64>
// NARROW: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<8x8xf64>
// NARROW: scf.for {{.*}} iter_args(%{{.*}} = %[[ZERO]]) -> (vector<8x8xf64>)
// NARROW-NOT: arith.select
// NARROW-COUNT-8: vector.fma {{.*}} : vector<8xf64>
// NARROW-NOT: vector.fma
// NARROW: scf.yield
// NARROW-NOT: vector<8x16xf64>
// NARROW: return
func.func @narrow(%a: tensor<?x8xf64>, %b: tensor<8x8xf64>, %m: index) -> tensor<?x8xf64> {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty(%m) : tensor<?x8xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x8xf64>) -> tensor<?x8xf64>
  %r = linalg.matmul ins(%a, %b : tensor<?x8xf64>, tensor<8x8xf64>)
                     outs(%c : tensor<?x8xf64>) -> tensor<?x8xf64>
  return %r : tensor<?x8xf64>
}
