// RUN: matc-opt %s --matrix-version-products=max-elements=131072 --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512 vector-bits=512 x86-avx=true" --canonicalize --cse | FileCheck %s

// A @ B.T small enough for the caches: the unpacked product reads a plain
// copy of B (matrix-version-products), which the schedule makes in blocks
// of 16 x 16 f32 (one vector register per row), each read whole and
// transposed in registers (shuffles), not column by column; the edges of a
// run-time size masked.
// CHECK-LABEL: func.func @transposed_rhs
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<16x16xi1>
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %[[MASK]] {{.*}} : tensor<?x?xf32>, vector<16x16xf32>
// CHECK-NOT: vector.gather
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>
// CHECK-NOT: vector.gather
func.func @transposed_rhs(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
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

// An elementwise op reading an operand transposed (a.T * 2.0 + b, every
// size run-time) is tagged `matc.transpose` and `matc.transpose_rows` by
// matrix-codegen and computed in blocks of 64 rows split between the
// threads, each in blocks of 8 x 8 f64 read whole from a (the map (j, i))
// and transposed by shuffles, b's block read in place, not rows of vectors
// whose reads of a would gather a column each; both loops peeled: the last
// columns and rows one at a time (a row of a to a column, a column of a to
// a row), no block masked in its rows, whose masked-off rows would be
// loads past the end of a or stores past the end of C.
// CHECK-LABEL: func.func @elementwise_transposed
// CHECK-NOT: vector.gather
// CHECK: scf.forall
// CHECK: vector.transfer_read %{{.*}} : tensor<8x8xf64>, vector<8x8xf64>
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<8x8xf64>
// CHECK: vector.transfer_read {{.*}} : tensor<1x8xf64>, vector<8xf64>
// CHECK: vector.transfer_write {{.*}} : vector<8x1xf64>, tensor<8x1xf64>
// CHECK: vector.transfer_read {{.*}} : tensor<8x1xf64>, vector<8x1xf64>
// CHECK: vector.transfer_write {{.*}} : vector<8xf64>, tensor<1x8xf64>
// CHECK-NOT: vector.gather
// CHECK: return
func.func @elementwise_transposed(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f64
  %m = tensor.dim %b, %c0 : tensor<?x?xf64>
  %n = tensor.dim %b, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>,
                                        affine_map<(i, j) -> (i, j)>,
                                        affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf64>, tensor<?x?xf64>) outs(%e : tensor<?x?xf64>) {
  ^bb0(%x: f64, %y: f64, %o: f64):
    %s = arith.mulf %x, %two : f64
    %t = arith.addf %s, %y : f64
    linalg.yield %t : f64
  } -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}
