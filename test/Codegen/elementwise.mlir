// RUN: matc-opt %s --matrix-codegen --canonicalize --cse | FileCheck %s

// The code generation schedule on elementwise ops (lib/Codegen/Schedule.mlir):
// scf.forall over blocks of 16 rows, then one row of 32 (f32) or 16 (f64)
// elements per vector operation: an unmasked main loop and a masked last
// step; a row of fewer columns, known statically, is one unmasked vector of
// its width (@schedule_narrow_rows). An op reading an operand transposed
// is tagged `matc.transpose` by matrix-codegen and computed in blocks of 64
// rows split between the threads, each in square blocks of 16 x 16 f32 (8 x
// 8 f64) read whole and transposed by shuffles (@schedule_transposed_copy),
// the last columns and rows of the copy one at a time.

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

// CHECK-LABEL: func.func @chain_f32
// CHECK: scf.forall ({{.*}}) in ({{.*}}) shared_outs({{.*}}) -> (tensor<?x?xf32>)
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c16
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c16
// CHECK: vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK: vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK: vector.shuffle
// CHECK: arith.subf {{.*}} : vector<16x16xf32>
// CHECK: vector.transfer_write {{.*}} : vector<16x16xf32>, tensor<16x16xf32>
// CHECK: scf.for %{{.*}} step %c1
// CHECK: arith.subf {{.*}} : vector<16x1xf32>
// CHECK: scf.forall.in_parallel
func.func @chain_f32(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %two = arith.constant 2.0 : f32
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  // a + b.T * 2 - a
  %r = linalg.generic {indexing_maps = [#id, #tr, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %0 = arith.mulf %y, %two : f32
    %1 = arith.addf %x, %0 : f32
    %2 = arith.subf %1, %x : f32
    linalg.yield %2 : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

// CHECK-LABEL: func.func @negate_f64
// CHECK: scf.forall
// CHECK: arith.negf {{.*}} : vector<16xf64>
func.func @negate_f64(%a: tensor<64x100xf64>) -> tensor<64x100xf64> {
  %e = tensor.empty() : tensor<64x100xf64>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x100xf64>) outs(%e : tensor<64x100xf64>) {
  ^bb0(%x: f64, %out: f64):
    %0 = arith.negf %x : f64
    linalg.yield %0 : f64
  } -> tensor<64x100xf64>
  return %r : tensor<64x100xf64>
}

// Rows of 8 f64 and of 20 f32: one vector of the row's width per row, no
// mask, no loop over columns. (Regression of compile time: a vector<16xf64>
// under a mask of 8 lanes cost LLVM's InstCombine 30% of its time.)
// CHECK-LABEL: func.func @narrow_f64
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-NOT: scf.for
// CHECK-NOT: vector.create_mask
// CHECK: arith.negf {{.*}} : vector<8xf64>
// CHECK: scf.forall.in_parallel
func.func @narrow_f64(%a: tensor<64x8xf64>) -> tensor<64x8xf64> {
  %e = tensor.empty() : tensor<64x8xf64>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<64x8xf64>) outs(%e : tensor<64x8xf64>) {
  ^bb0(%x: f64, %out: f64):
    %0 = arith.negf %x : f64
    linalg.yield %0 : f64
  } -> tensor<64x8xf64>
  return %r : tensor<64x8xf64>
}

// A static 20 columns with an operand read transposed: one block of 16
// columns, then 4 one at a time.
// CHECK-LABEL: func.func @narrow_f32
// CHECK: scf.forall
// CHECK: vector.transfer_read {{.*}} : tensor<16x16xf32>, vector<16x16xf32>
// CHECK: arith.addf {{.*}} : vector<16x16xf32>
// CHECK: scf.for %{{.*}} = %c0 to %c4 step %c1
// CHECK: arith.addf {{.*}} : vector<16x1xf32>
// CHECK: scf.forall.in_parallel
func.func @narrow_f32(%a: tensor<?x20xf32>, %b: tensor<20x?xf32>) -> tensor<?x20xf32> {
  %c0 = arith.constant 0 : index
  %m = tensor.dim %a, %c0 : tensor<?x20xf32>
  %e = tensor.empty(%m) : tensor<?x20xf32>
  %r = linalg.generic {indexing_maps = [#id, #tr, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a, %b : tensor<?x20xf32>, tensor<20x?xf32>) outs(%e : tensor<?x20xf32>) {
  ^bb0(%x: f32, %y: f32, %out: f32):
    %0 = arith.addf %x, %y : f32
    linalg.yield %0 : f32
  } -> tensor<?x20xf32>
  return %r : tensor<?x20xf32>
}

// At most 16 x 16: the plain lowering.
// CHECK-LABEL: func.func @small
// CHECK-NOT: scf.forall
// CHECK: linalg.generic
func.func @small(%a: tensor<4x16xf64>) -> tensor<4x16xf64> {
  %e = tensor.empty() : tensor<4x16xf64>
  %r = linalg.generic {indexing_maps = [#id, #id],
                       iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<4x16xf64>) outs(%e : tensor<4x16xf64>) {
  ^bb0(%x: f64, %out: f64):
    %0 = arith.negf %x : f64
    linalg.yield %0 : f64
  } -> tensor<4x16xf64>
  return %r : tensor<4x16xf64>
}
