// RUN: matc-opt %s --matrix-codegen=entry-point=matc_generalize | FileCheck %s
// RUN: matc-opt %s --matrix-codegen=entry-point=matc_generalize --linalg-fuse-elementwise-ops | FileCheck %s --check-prefix=FUSED
// RUN: not matc-opt %s --matrix-codegen=entry-point=no_such_sequence 2>&1 | FileCheck %s --check-prefix=MISSING

// The matc_generalize entry point: linalg.transpose becomes a linalg.generic
// with the permutation in its input map, so that elementwise fusion folds
// it into its consumer (no transposed copy is made).

// CHECK-LABEL: func.func @transpose_then_add
// CHECK-NOT: linalg.transpose
// CHECK: linalg.generic {indexing_maps = [#[[$TR:.*]], #[[$ID:.*]]]
// CHECK: linalg.generic

// FUSED-LABEL: func.func @transpose_then_add
// FUSED: %[[R:.*]] = linalg.generic
// FUSED-SAME: ins(%{{.*}}, %{{.*}} : tensor<?x?xf64>, tensor<?x?xf64>)
// FUSED: arith.addf
// FUSED-NOT: linalg.generic
// FUSED: return %[[R]]

// MISSING: error: matrix-codegen: no sequence 'no_such_sequence' in the schedule
func.func @transpose_then_add(%a: tensor<?x?xf64>, %b: tensor<?x?xf64>) -> tensor<?x?xf64> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf64>
  %n = tensor.dim %a, %c1 : tensor<?x?xf64>
  %e = tensor.empty(%m, %n) : tensor<?x?xf64>
  %t = linalg.transpose ins(%b : tensor<?x?xf64>) outs(%e : tensor<?x?xf64>) permutation = [1, 0]
  %r = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %t : tensor<?x?xf64>, tensor<?x?xf64>) outs(%e : tensor<?x?xf64>) {
  ^bb0(%x: f64, %y: f64, %out: f64):
    %0 = arith.addf %x, %y : f64
    linalg.yield %0 : f64
  } -> tensor<?x?xf64>
  return %r : tensor<?x?xf64>
}
