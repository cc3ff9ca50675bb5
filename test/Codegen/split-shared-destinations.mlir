// RUN: matc-opt %s --split-input-file --matrix-split-shared-destinations | FileCheck %s

// One tensor.empty and one fill of it, merged by CSE, are the destinations
// of three ops: each op but one gets its own clones, placed just before it;
// every destination then has one use.
// CHECK-LABEL: func.func @shared
// CHECK: %[[E0:.*]] = tensor.empty() : tensor<8x8xf64>
// CHECK-NEXT: %[[E1:.*]] = tensor.empty() : tensor<8x8xf64>
// CHECK-NEXT: %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[E1]] :
// CHECK-NEXT: %[[E2:.*]] = tensor.empty() : tensor<8x8xf64>
// CHECK-NEXT: %[[Z2:.*]] = linalg.fill ins(%{{.*}} : f64) outs(%[[E2]] :
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[Z2]] :
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[Z1]] :
// CHECK-NEXT: linalg.generic {{.*}} outs(%[[E0]] :
func.func @shared(%a: tensor<8x8xf64>, %b: tensor<8x8xf64>)
    -> (tensor<8x8xf64>, tensor<8x8xf64>, tensor<8x8xf64>) {
  %zero = arith.constant 0.0 : f64
  %e = tensor.empty() : tensor<8x8xf64>
  %z = linalg.fill ins(%zero : f64) outs(%e : tensor<8x8xf64>) -> tensor<8x8xf64>
  %p = linalg.matmul ins(%a, %b : tensor<8x8xf64>, tensor<8x8xf64>)
                     outs(%z : tensor<8x8xf64>) -> tensor<8x8xf64>
  %q = linalg.matmul ins(%p, %b : tensor<8x8xf64>, tensor<8x8xf64>)
                     outs(%z : tensor<8x8xf64>) -> tensor<8x8xf64>
  %s = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}
      ins(%q : tensor<8x8xf64>) outs(%e : tensor<8x8xf64>) {
  ^bb0(%x: f64, %o: f64):
    %y = arith.addf %x, %x : f64
    linalg.yield %y : f64
  } -> tensor<8x8xf64>
  return %p, %q, %s : tensor<8x8xf64>, tensor<8x8xf64>, tensor<8x8xf64>
}

// -----

// Run-time sizes: the clones take the same size operands; the product in
// the loop and the one before it have destinations of their own.
// CHECK-LABEL: func.func @dynamic
// CHECK-SAME: (%[[A:[^:]*]]: tensor<?x?xf32>, %[[M:[^:]*]]: index, %[[N:[^:]*]]: index
// CHECK: %[[E0:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK-NEXT: %[[Z0:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E0]] :
// CHECK-NEXT: %[[E1:.*]] = tensor.empty(%[[M]], %[[N]]) : tensor<?x?xf32>
// CHECK-NEXT: %[[Z1:.*]] = linalg.fill ins(%{{.*}} : f32) outs(%[[E1]] :
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[Z1]] :
// CHECK-NEXT: scf.for
// CHECK-NEXT: linalg.matmul {{.*}} outs(%[[Z0]] :
func.func @dynamic(%a: tensor<?x?xf32>, %m: index, %n: index, %steps: index)
    -> (tensor<?x?xf32>, tensor<?x?xf32>) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %p = linalg.matmul ins(%a, %a : tensor<?x?xf32>, tensor<?x?xf32>)
                     outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = scf.for %i = %c0 to %steps step %c1 iter_args(%x = %p) -> tensor<?x?xf32> {
    %q = linalg.matmul ins(%x, %a : tensor<?x?xf32>, tensor<?x?xf32>)
                       outs(%z : tensor<?x?xf32>) -> tensor<?x?xf32>
    scf.yield %q : tensor<?x?xf32>
  }
  return %p, %r : tensor<?x?xf32>, tensor<?x?xf32>
}
