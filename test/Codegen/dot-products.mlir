// RUN: matc-opt %s --split-input-file --matrix-version-products=max-elements=131072 --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512" --canonicalize --cse | FileCheck %s
// RUN: matc-opt %s --split-input-file --matrix-version-products=max-elements=131072 --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512 threads=2" --canonicalize --cse | FileCheck %s --check-prefix=THREADS

// A matrix-vector product (matrix-version-products: a 2-D linalg.generic
// tagged matc.dot) as dot products (Schedule.mlir's @tile_dot_rows): rows
// of A in blocks of 4, k by 16 f32 (512 bits) in a vector<4x16xf32> of
// partial sums carried by the loop (the main loop unmasked, the last
// K mod 16 elements masked: A's and B's reads, the partial sums kept whole
// under a select, transform.apply_patterns.matc.unmask_accumulator_slices),
// B's 16 elements read once and broadcast to the
// 4 rows, multiply-adds LLVM may contract, then each row's partial sums
// added up across the lanes. The last M mod 4 rows one at a time, in
// vector<16xf32>. No packing. With 2 threads, one block of rows per thread.
// CHECK-LABEL: func.func @matrix_vector
// CHECK-NOT: scf.forall
// CHECK-NOT: linalg.pack
// CHECK: %[[K:.*]] = tensor.dim %{{.*}}, %c1
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c4
// CHECK: %[[MAIN:.*]] = scf.for %{{.*}} = %c0 to %[[KMAIN:.*]] step %c16 iter_args(%{{.*}} = %{{.*}}) -> (vector<4x16xf32>)
// CHECK: %[[AR:.*]] = vector.transfer_read {{.*}} {in_bounds = [true, true]} : tensor<4x16xf32>, vector<4x16xf32>
// CHECK: %[[BR:.*]] = vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<16xf32>, vector<16xf32>
// CHECK: %[[BB:.*]] = vector.broadcast %[[BR]] : vector<16xf32> to vector<4x16xf32>
// CHECK: arith.mulf %[[AR]], %[[BB]] fastmath<contract> : vector<4x16xf32>
// CHECK: arith.addf {{.*}} fastmath<contract> : vector<4x16xf32>
// CHECK: %[[REST:.*]] = scf.for %{{.*}} = %[[KMAIN]] to %[[K]] step %c16 iter_args(%[[ACC:.*]] = %[[MAIN]]) -> (vector<4x16xf32>)
// CHECK: %[[MASK:.*]] = vector.create_mask %c4, %{{.*}} : vector<4x16xi1>
// CHECK: %[[SUM:.*]] = arith.addf %[[ACC]], %{{.*}} fastmath<contract> : vector<4x16xf32>
// CHECK: %[[SEL:.*]] = arith.select %[[MASK]], %[[SUM]], %[[ACC]] : vector<4x16xi1>, vector<4x16xf32>
// CHECK: scf.yield %[[SEL]]
// CHECK-COUNT-4: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// CHECK: scf.for %{{.*}} step %c4
// CHECK: scf.for %{{.*}} step %c1
// CHECK: scf.for %{{.*}} step %c16 iter_args(%{{.*}}) -> (vector<1x16xf32>)
// CHECK: vector.reduction <add>, %{{.*}} : vector<16xf32> into f32
// THREADS-LABEL: func.func @matrix_vector
// THREADS: scf.forall (%{{.*}}) in (2)
// THREADS: -> (vector<4x16xf32>)
func.func @matrix_vector(%a: tensor<?x?xf32>, %v: tensor<?x1xf32>) -> tensor<?x1xf32> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %e = tensor.empty(%m) : tensor<?x1xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x1xf32>) -> tensor<?x1xf32>
  %r = linalg.matmul ins(%a, %v : tensor<?x?xf32>, tensor<?x1xf32>)
                     outs(%c : tensor<?x1xf32>) -> tensor<?x1xf32>
  return %r : tensor<?x1xf32>
}

// -----

// f64: k by 8 elements (512 bits).
// CHECK-LABEL: func.func @matrix_vector_f64
// CHECK: scf.for %{{.*}} step %c8 iter_args(%{{.*}}) -> (vector<4x8xf64>)
// CHECK: arith.mulf {{.*}} fastmath<contract> : vector<4x8xf64>
// CHECK-COUNT-4: vector.reduction <add>, %{{.*}} : vector<8xf64> into f64
func.func @matrix_vector_f64(%a: tensor<?x?xf64>, %v: tensor<?x1xf64>) -> tensor<?x1xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%m) : tensor<?x1xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x1xf64>) -> tensor<?x1xf64>
  %r = linalg.matmul ins(%a, %v : tensor<?x?xf64>, tensor<?x1xf64>)
                     outs(%c : tensor<?x1xf64>) -> tensor<?x1xf64>
  return %r : tensor<?x1xf64>
}

// -----

// 2 to 7 columns (matrix-version-products: B^T copied, tagged
// matc.transpose, and a 3-D linalg.generic tagged matc.dot_columns;
// Schedule.mlir's @tile_dot_columns): B^T by square blocks of 8 x 8
// transposed in registers, then one row of A at a time, k by 8 f64 in a
// vector<1x3x8xf64> of partial sums (A's 8 elements broadcast to the 3
// rows of B^T), the last K mod 8 masked, and 3 sums across the lanes.
// CHECK-LABEL: func.func @three_columns
// CHECK: vector.shuffle {{.*}} : vector<64xf64>, vector<64xf64>
// CHECK: scf.for %{{.*}} step %c1
// CHECK: scf.for %{{.*}} step %c8 iter_args(%{{.*}}) -> (vector<1x3x8xf64>)
// CHECK: %[[AR:.*]] = vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<1x8xf64>, vector<8xf64>
// CHECK: %[[BR:.*]] = vector.transfer_read {{.*}} {in_bounds = [true, true]} : tensor<3x8xf64>, vector<3x8xf64>
// CHECK: %[[AB:.*]] = vector.broadcast %[[AR]] : vector<8xf64> to vector<3x8xf64>
// CHECK: arith.mulf %[[AB]], %[[BR]] fastmath<contract> : vector<3x8xf64>
// CHECK: vector.create_mask %c3, %{{.*}} : vector<3x8xi1>
// CHECK-COUNT-3: vector.reduction <add>, %{{.*}} : vector<8xf64> into f64
// THREADS-LABEL: func.func @three_columns
// THREADS: scf.forall (%{{.*}}) in (2)
// THREADS: -> (vector<1x3x8xf64>)
func.func @three_columns(%a: tensor<?x?xf64>, %b: tensor<?x3xf64>) -> tensor<?x3xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %e = tensor.empty(%m) : tensor<?x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x3xf64>) -> tensor<?x3xf64>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf64>, tensor<?x3xf64>)
                     outs(%c : tensor<?x3xf64>) -> tensor<?x3xf64>
  return %r : tensor<?x3xf64>
}

// -----

// A tiny static B and a run-time M (matrix-version-products: tagged
// matc.tiny_rhs; Schedule.mlir's @tiny_rhs_rows): B read once into
// registers before the loop, then one row of C at a time, a vector of 3
// f64 made of 3 multiply-adds of a broadcast element of A and a row of B,
// its fill folded into the first; the rows split between the threads.
// CHECK-LABEL: func.func @tiny_rhs
// CHECK: %[[B:.*]] = vector.transfer_read %arg1[%c0, %c0], %{{.*}} {in_bounds = [true, true]} : tensor<3x3xf64>, vector<3x3xf64>
// CHECK: scf.for %{{.*}} step %c1
// CHECK: %[[A:.*]] = vector.transfer_read {{.*}} : tensor<1x3xf64>, vector<3xf64>
// CHECK: %[[B0:.*]] = vector.extract %[[B]][0] : vector<3xf64> from vector<3x3xf64>
// CHECK: %[[A0:.*]] = vector.extract %[[A]][0] : f64 from vector<3xf64>
// CHECK: %[[A0S:.*]] = vector.broadcast %[[A0]] : f64 to vector<3xf64>
// CHECK: vector.fma %[[B0]], %[[A0S]], %cst : vector<3xf64>
// CHECK-COUNT-2: vector.fma {{.*}} : vector<3xf64>
// CHECK: vector.transfer_write {{.*}} : vector<3xf64>, tensor<1x3xf64>
// CHECK-NOT: linalg.
// CHECK: return
// THREADS-LABEL: func.func @tiny_rhs
// THREADS: scf.forall (%{{.*}}) in (2)
// THREADS: scf.for %{{.*}} step %c1
// THREADS-COUNT-3: vector.fma {{.*}} : vector<3xf64>
func.func @tiny_rhs(%p: tensor<?x3xf64>, %r: tensor<3x3xf64>) -> tensor<?x3xf64> {
  %c0 = arith.constant 0 : index
  %zero = arith.constant 0.0 : f64
  %m = tensor.dim %p, %c0 : tensor<?x3xf64>
  %e = tensor.empty(%m) : tensor<?x3xf64>
  %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?x3xf64>) -> tensor<?x3xf64>
  %y = linalg.matmul ins(%p, %r : tensor<?x3xf64>, tensor<3x3xf64>)
                     outs(%c : tensor<?x3xf64>) -> tensor<?x3xf64>
  return %y : tensor<?x3xf64>
}
