// RUN: mlir-opt %s --transform-preload-library=transform-library-paths=%matc_src_root/lib/Codegen/Schedule.mlir --transform-interpreter=entry-point=matc_codegen | FileCheck %s

// The schedule is a plain transform-dialect library: upstream mlir-opt runs
// it too, with the interpreter's expensive checks (handle invalidation) on,
// which matrix-codegen turns off for compile time. Two products where one
// result feeds the other and a transpose (the case where pattern sets
// applied to a whole function would fold the transpose into an unpack).

// CHECK-LABEL: func.func @chained
// CHECK-COUNT-3: scf.forall
// CHECK: return
func.func @chained(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %d = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
  %et = tensor.empty(%n, %m) : tensor<?x?xf32>
  %t = linalg.generic {indexing_maps = [affine_map<(i, j) -> (j, i)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%d : tensor<?x?xf32>) outs(%et : tensor<?x?xf32>) {
  ^bb0(%x: f32, %out: f32):
    linalg.yield %x : f32
  } -> tensor<?x?xf32>
  %e2 = tensor.empty(%n, %n) : tensor<?x?xf32>
  %c2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%t, %d : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%c2 : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %t, %r : tensor<?x?xf32>, tensor<?x?xf32>
}
