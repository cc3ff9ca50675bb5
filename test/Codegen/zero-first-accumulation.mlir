// RUN: matc-opt %s --split-input-file --transform-interpreter --canonicalize --verify-diagnostics | FileCheck %s

// transform.matc.zero_first_accumulation on a loop over k-blocks of the
// form the schedule leaves (register tiles of 4 x 8 read into the
// accumulators of a loop over k, written back whole): in the first
// k-block each tile starts from zeros instead of its read, and the block
// of C is never filled.
// CHECK-LABEL: func.func @k_blocks
// CHECK-SAME: %[[K:[a-z0-9]*]]: index
// CHECK-NOT: linalg.fill
// CHECK-DAG: %[[ZERO:.*]] = arith.constant dense<0.000000e+00> : vector<4x8xf32>
// CHECK-DAG: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4x8xf32>
// CHECK: scf.for %[[KB:.*]] = %c0 to %[[K]] step %c16 iter_args(%{{.*}} = %[[EMPTY]])
// CHECK: %[[FIRST:.*]] = arith.cmpi eq, %[[KB]], %c0 : index
// CHECK: scf.for
// CHECK: %[[TILE:.*]] = tensor.extract_slice
// CHECK: %[[ACC:.*]] = scf.if %[[FIRST]] -> (vector<4x8xf32>) {
// CHECK-NEXT: scf.yield %[[ZERO]]
// CHECK-NEXT: } else {
// CHECK-NEXT: %[[READ:.*]] = vector.transfer_read %[[TILE]]
// CHECK-NEXT: scf.yield %[[READ]]
// CHECK: scf.for %{{.*}} iter_args(%{{.*}} = %[[ACC]])
// CHECK: vector.transfer_write
// CHECK: } {k_blocks}
func.func @k_blocks(%a: tensor<2x4x8xf32>, %k: index) -> tensor<2x4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant dense<1.0> : vector<4x8xf32>
  %empty = tensor.empty() : tensor<2x4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<2x4x8xf32>) -> tensor<2x4x8xf32>
  %r = scf.for %kb = %c0 to %k step %c16 iter_args(%c = %fill) -> (tensor<2x4x8xf32>) {
    %t = scf.for %m = %c0 to %c2 step %c1 iter_args(%cm = %c) -> (tensor<2x4x8xf32>) {
      %tile = tensor.extract_slice %cm[%m, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<2x4x8xf32> to tensor<1x4x8xf32>
      %acc0 = vector.transfer_read %tile[%c0, %c0, %c0], %zero {in_bounds = [true, true]} : tensor<1x4x8xf32>, vector<4x8xf32>
      %acc = scf.for %kk = %c0 to %c16 step %c1 iter_args(%v = %acc0) -> (vector<4x8xf32>) {
        %s = arith.addf %v, %one : vector<4x8xf32>
        scf.yield %s : vector<4x8xf32>
      }
      %w = vector.transfer_write %acc, %tile[%c0, %c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<1x4x8xf32>
      %ins = tensor.insert_slice %w into %cm[%m, 0, 0] [1, 4, 8] [1, 1, 1] : tensor<1x4x8xf32> into tensor<2x4x8xf32>
      scf.yield %ins : tensor<2x4x8xf32>
    }
    scf.yield %t : tensor<2x4x8xf32>
  } {k_blocks}
  return %r : tensor<2x4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    transform.matc.zero_first_accumulation %loop : !transform.any_op
    transform.yield
  }
}

// -----

// The block of C is read other than into the accumulators of a loop (here
// copied to another result): nothing changes, and the failure says what the
// block reaches.
func.func @other_read(%k: index) -> (tensor<4x8xf32>, vector<4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r:2 = scf.for %kb = %c0 to %k step %c16 iter_args(%c = %fill, %x = %fill) -> (tensor<4x8xf32>, tensor<4x8xf32>) {
    // expected-note @below {{it reaches 'vector.transfer_read'}}
    %v = vector.transfer_read %c[%c0, %c0], %zero {in_bounds = [true, true]} : tensor<4x8xf32>, vector<4x8xf32>
    %w = vector.transfer_write %v, %x[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<4x8xf32>
    scf.yield %c, %w : tensor<4x8xf32>, tensor<4x8xf32>
  } {k_blocks}
  %v = vector.transfer_read %r#1[%c0, %c0], %zero {in_bounds = [true, true]} : tensor<4x8xf32>, vector<4x8xf32>
  return %r#0, %v : tensor<4x8xf32>, vector<4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects the carried block of C to reach only accumulator reads and whole-tile writes}}
    transform.matc.zero_first_accumulation %loop : !transform.any_op
    transform.yield
  }
}

// -----

// No iter_arg starts from a zero fill (a fill of one).
func.func @not_zero(%k: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %one = arith.constant 1.0 : f32
  %empty = tensor.empty() : tensor<4x8xf32>
  // expected-note @below {{an iter_arg starts from 'linalg.fill'}}
  %fill = linalg.fill ins(%one : f32) outs(%empty : tensor<4x8xf32>) -> tensor<4x8xf32>
  %r = scf.for %kb = %c0 to %k step %c16 iter_args(%c = %fill) -> (tensor<4x8xf32>) {
    scf.yield %c : tensor<4x8xf32>
  } {k_blocks}
  return %r : tensor<4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects iter_args that start from a zero linalg.fill}}
    transform.matc.zero_first_accumulation %loop : !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_a_loop() {
  return
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %f = transform.structured.match ops{["func.func"]} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects an scf.for, got 'func.func'}}
    transform.matc.zero_first_accumulation %f : !transform.any_op
    transform.yield
  }
}
