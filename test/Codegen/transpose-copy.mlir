// RUN: matc-opt %s --matrix-version-products=max-elements=131072 --matrix-codegen="matmul-f32=12,32,256,516,512 matmul-f64=12,16,192,264,512 vector-bits=512 x86-avx=true" --canonicalize --cse | FileCheck %s

// A @ B.T small enough for the caches: the unpacked product reads a plain
// copy of B (matrix-version-products), which the schedule makes in blocks
// of 16 x 16 f32 (one vector register per row), each read whole and
// transposed in registers (shuffles), not column by column; the edges of a
// run-time size masked in B's columns. B's last rows (fewer than 16: the
// loop over them peeled) are copied one at a time, a row read as a vector
// (masked at its end) written to a column: no block masked in its rows,
// whose masked-off rows would be loads past the end of B.
// CHECK-LABEL: func.func @transposed_rhs
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[MASK:.*]] = vector.create_mask %{{.*}}, %{{.*}} : vector<16x16xi1>
// CHECK: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %[[MASK]] {{.*}} : tensor<16x?xf32>, vector<16x16xf32>
// CHECK-NOT: vector.gather
// CHECK: vector.shuffle
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>
// CHECK-NOT: vector.gather
// CHECK: scf.for
// CHECK: %[[ROW:.*]] = vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %{{.*}} {in_bounds = [true]} : tensor<1x?xf32>, vector<16xf32>
// CHECK: %[[COLUMN:.*]] = vector.shape_cast %[[ROW]] : vector<16xf32> to vector<16x1xf32>
// CHECK: vector.transfer_write %[[COLUMN]], {{.*}} : vector<16x1xf32>, tensor<?x1xf32>
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
