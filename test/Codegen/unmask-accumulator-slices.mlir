// RUN: matc-opt %s --split-input-file --transform-interpreter | FileCheck %s

// transform.apply_patterns.matc.unmask_accumulator_slices: the remainder
// of a dot product's k-range (the last K mod 8 elements, %r of them)
// updates its 4 x 8 partial sums whole: read unmasked, the new lanes
// selected by the mask, written unmasked; A's and B's reads stay masked.
// CHECK-LABEL: func.func @remainder
// CHECK-SAME: (%[[A:.*]]: tensor<4x?xf64>, %[[B:.*]]: tensor<?xf64>, %[[ACC:.*]]: tensor<4x8xf64>, %[[R:.*]]: index)
// CHECK: %[[WHOLE:.*]] = vector.transfer_read %[[ACC]][%c0, %c0], %{{.*}} {in_bounds = [true, true]} : tensor<4x8xf64>, vector<4x8xf64>
// CHECK: %[[M:.*]] = vector.create_mask %c4, %[[R]] : vector<4x8xi1>
// CHECK: vector.transfer_read %[[A]]{{.*}}, %[[M]] {in_bounds = [true, true]} : tensor<4x?xf64>, vector<4x8xf64>
// CHECK: %[[SUM:.*]] = arith.addf %[[WHOLE]], %{{.*}} : vector<4x8xf64>
// CHECK: %[[SEL:.*]] = arith.select %[[M]], %[[SUM]], %[[WHOLE]] : vector<4x8xi1>, vector<4x8xf64>
// CHECK: %[[W:.*]] = vector.transfer_write %[[SEL]], %[[ACC]][%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf64>, tensor<4x8xf64>
// CHECK-NOT: tensor.insert_slice
// CHECK: return %[[W]]
func.func @remainder(%a: tensor<4x?xf64>, %b: tensor<?xf64>, %acc: tensor<4x8xf64>, %r: index) -> tensor<4x8xf64> {
  %c0 = arith.constant 0 : index
  %c4 = arith.constant 4 : index
  %pad = arith.constant 0.0 : f64
  %s = tensor.extract_slice %acc[0, 0] [4, %r] [1, 1] : tensor<4x8xf64> to tensor<4x?xf64>
  %m = vector.create_mask %c4, %r : vector<4x8xi1>
  %va = vector.transfer_read %a[%c0, %c0], %pad, %m {in_bounds = [true, true]} : tensor<4x?xf64>, vector<4x8xf64>
  %mb = vector.create_mask %r : vector<8xi1>
  %vb = vector.transfer_read %b[%c0], %pad, %mb {in_bounds = [true]} : tensor<?xf64>, vector<8xf64>
  %bb = vector.broadcast %vb : vector<8xf64> to vector<4x8xf64>
  %m2 = vector.create_mask %c4, %r : vector<4x8xi1>
  %vs = vector.transfer_read %s[%c0, %c0], %pad, %m2 {in_bounds = [true, true]} : tensor<4x?xf64>, vector<4x8xf64>
  %p = arith.mulf %va, %bb : vector<4x8xf64>
  %sum = arith.addf %vs, %p : vector<4x8xf64>
  %w = vector.transfer_write %sum, %s[%c0, %c0], %m {in_bounds = [true, true]} : vector<4x8xf64>, tensor<4x?xf64>
  %u = tensor.insert_slice %w into %acc[0, 0] [4, %r] [1, 1] : tensor<4x?xf64> into tensor<4x8xf64>
  return %u : tensor<4x8xf64>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.matc.unmask_accumulator_slices
    } : !transform.any_op
    transform.yield
  }
}

// -----

// Left alone: a slice that does not start at 0; a mask that is not the
// slice's sizes; a tensor whose shape is not the vector's.
// CHECK-LABEL: func.func @left_alone
// CHECK-COUNT-3: tensor.insert_slice
// CHECK-NOT: arith.select
func.func @left_alone(%acc: tensor<4x8xf64>, %big: tensor<4x16xf64>, %x: vector<4x8xf64>, %r: index, %o: index)
    -> (tensor<4x8xf64>, tensor<4x8xf64>, tensor<4x16xf64>) {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %s1 = tensor.extract_slice %acc[0, %o] [4, %r] [1, 1] : tensor<4x8xf64> to tensor<4x?xf64>
  %m1 = vector.create_mask %c4, %r : vector<4x8xi1>
  %w1 = vector.transfer_write %x, %s1[%c0, %c0], %m1 {in_bounds = [true, true]} : vector<4x8xf64>, tensor<4x?xf64>
  %u1 = tensor.insert_slice %w1 into %acc[0, %o] [4, %r] [1, 1] : tensor<4x?xf64> into tensor<4x8xf64>
  %s2 = tensor.extract_slice %acc[0, 0] [4, %r] [1, 1] : tensor<4x8xf64> to tensor<4x?xf64>
  %m2 = vector.create_mask %c3, %r : vector<4x8xi1>
  %w2 = vector.transfer_write %x, %s2[%c0, %c0], %m2 {in_bounds = [true, true]} : vector<4x8xf64>, tensor<4x?xf64>
  %u2 = tensor.insert_slice %w2 into %acc[0, 0] [4, %r] [1, 1] : tensor<4x?xf64> into tensor<4x8xf64>
  %s3 = tensor.extract_slice %big[0, 0] [4, %r] [1, 1] : tensor<4x16xf64> to tensor<4x?xf64>
  %w3 = vector.transfer_write %x, %s3[%c0, %c0], %m1 {in_bounds = [true, true]} : vector<4x8xf64>, tensor<4x?xf64>
  %u3 = tensor.insert_slice %w3 into %big[0, 0] [4, %r] [1, 1] : tensor<4x?xf64> into tensor<4x16xf64>
  return %u1, %u2, %u3 : tensor<4x8xf64>, tensor<4x8xf64>, tensor<4x16xf64>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %f {
      transform.apply_patterns.matc.unmask_accumulator_slices
    } : !transform.any_op
    transform.yield
  }
}
