// RUN: matc-opt %s --split-input-file --transform-interpreter --canonicalize --cse --verify-diagnostics | FileCheck %s

// transform.matc.fuse_unpack_into_last_k_block on a loop over k-blocks of
// the form the schedule leaves: a packed block of C of 2 x 4 register tiles
// of 4 x 8, carried through a loop over blocks of 2 panels of columns (a
// slice of the block) and the loops over the tiles, each tile read into
// an accumulator and written back whole; then unpacked into C (%c, at most
// 8 x 32). In the last k-block each tile goes into C at (4 p, 8 (nb + q))
// instead (whole, or masked at the edges of C), the packed tile is not
// written, and the unpack is gone.
// CHECK-DAG: #[[ROW_MAP:.*]] = affine_map<(d0) -> (d0 * 4)>
// CHECK-DAG: #[[COL_MAP:.*]] = affine_map<(d0, d1) -> (d0 * 8 + d1 * 8)>
// CHECK-DAG: #[[ROWS_LEFT:.*]] = affine_map<(d0)[s0] -> (d0 * -4 + s0, 4)>
// CHECK-LABEL: func.func @k_blocks
// CHECK-SAME: %[[K:[a-z0-9]*]]: index, %[[C:[a-z0-9]*]]: tensor<?x?xf32>
// CHECK-DAG: %[[ROWS:.*]] = tensor.dim %[[C]], %c0
// CHECK-DAG: %[[COLS:.*]] = tensor.dim %[[C]], %c1
// CHECK-DAG: %[[EMPTY:.*]] = tensor.empty() : tensor<2x4x4x8xf32>
// CHECK: %[[R:.*]]:2 = scf.for %[[KB:[a-z0-9_]+]] = %c0 to %[[K]] step %c16 iter_args(%{{.*}} = %[[EMPTY]], %{{.*}} = %[[C]])
// CHECK: %[[NEXT:.*]] = arith.addi %[[KB]], %c16
// CHECK: %[[LAST:.*]] = arith.cmpi sge, %[[NEXT]], %[[K]]
// CHECK: scf.for %[[NB:[a-z0-9_]+]] = {{.*}} -> (tensor<2x4x4x8xf32>, tensor<?x?xf32>)
// CHECK: scf.for %[[P:[a-z0-9_]+]] = {{.*}} -> (tensor<2x2x4x8xf32>, tensor<?x?xf32>)
// CHECK: scf.for %[[Q:[a-z0-9_]+]] = {{.*}} iter_args(%[[BLOCK:[a-z0-9_]+]] = %{{.*}}, %[[DEST:[a-z0-9_]+]] = %{{.*}}) -> (tensor<2x2x4x8xf32>, tensor<?x?xf32>)
// CHECK: %[[ACC:.*]] = arith.addf
// CHECK: %[[ROW:.*]] = affine.apply #[[ROW_MAP]](%[[P]])
// CHECK: %[[COL:.*]] = affine.apply #[[COL_MAP]](%[[Q]], %[[NB]])
// CHECK: scf.if %[[LAST]] -> (tensor<2x2x4x8xf32>, tensor<?x?xf32>) {
// CHECK: scf.if %{{.*}} -> (tensor<?x?xf32>) {
// CHECK-NEXT: %[[WHOLE:.*]] = tensor.extract_slice %[[DEST]][%[[ROW]], %[[COL]]] [4, 8] [1, 1]
// CHECK-NEXT: %[[W:.*]] = vector.transfer_write %[[ACC]], %[[WHOLE]][%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<4x8xf32>
// CHECK-NEXT: tensor.insert_slice %[[W]] into %[[DEST]][%[[ROW]], %[[COL]]] [4, 8] [1, 1]
// CHECK: } else {
// CHECK-NEXT: %[[H:.*]] = affine.min #[[ROWS_LEFT]](%[[P]])[%[[ROWS]]]
// CHECK-NEXT: %[[WD:.*]] = affine.min
// CHECK-NEXT: %[[MASK:.*]] = vector.create_mask %[[H]], %[[WD]] : vector<4x8xi1>
// CHECK-NEXT: %[[PART:.*]] = tensor.extract_slice %[[DEST]][%[[ROW]], %[[COL]]] [%[[H]], %[[WD]]] [1, 1]
// CHECK-NEXT: %[[WM:.*]] = vector.transfer_write %[[ACC]], %[[PART]][%c0, %c0], %[[MASK]] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<?x?xf32>
// CHECK-NEXT: tensor.insert_slice %[[WM]] into %[[DEST]][%[[ROW]], %[[COL]]] [%[[H]], %[[WD]]] [1, 1]
// CHECK: scf.yield %[[BLOCK]], %{{.*}} : tensor<2x2x4x8xf32>, tensor<?x?xf32>
// CHECK-NEXT: } else {
// CHECK: vector.transfer_write %[[ACC]], %{{.*}} : vector<4x8xf32>, tensor<1x1x4x8xf32>
// CHECK: scf.yield %{{.*}}, %[[DEST]] : tensor<2x2x4x8xf32>, tensor<?x?xf32>
// CHECK: } {k_blocks}
// CHECK-NOT: linalg.unpack
// CHECK: return %[[R]]#1
func.func @k_blocks(%k: index, %c: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c4 = arith.constant 4 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %one = arith.constant dense<1.0> : vector<4x8xf32>
  %empty = tensor.empty() : tensor<2x4x4x8xf32>
  %r = scf.for %kb = %c0 to %k step %c16 iter_args(%blk = %empty) -> (tensor<2x4x4x8xf32>) {
    %n = scf.for %nb = %c0 to %c4 step %c2 iter_args(%bn = %blk) -> (tensor<2x4x4x8xf32>) {
      %cols = tensor.extract_slice %bn[0, %nb, 0, 0] [2, 2, 4, 8] [1, 1, 1, 1] : tensor<2x4x4x8xf32> to tensor<2x2x4x8xf32>
      %t = scf.for %p = %c0 to %c2 step %c1 iter_args(%bp = %cols) -> (tensor<2x2x4x8xf32>) {
        %u = scf.for %q = %c0 to %c2 step %c1 iter_args(%bq = %bp) -> (tensor<2x2x4x8xf32>) {
          %tile = tensor.extract_slice %bq[%p, %q, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<2x2x4x8xf32> to tensor<1x1x4x8xf32>
          %acc0 = vector.transfer_read %tile[%c0, %c0, %c0, %c0], %zero {in_bounds = [true, true]} : tensor<1x1x4x8xf32>, vector<4x8xf32>
          %acc = arith.addf %acc0, %one : vector<4x8xf32>
          %w = vector.transfer_write %acc, %tile[%c0, %c0, %c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<1x1x4x8xf32>
          %ins = tensor.insert_slice %w into %bq[%p, %q, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<1x1x4x8xf32> into tensor<2x2x4x8xf32>
          scf.yield %ins : tensor<2x2x4x8xf32>
        }
        scf.yield %u : tensor<2x2x4x8xf32>
      }
      %back = tensor.insert_slice %t into %bn[0, %nb, 0, 0] [2, 2, 4, 8] [1, 1, 1, 1] : tensor<2x2x4x8xf32> into tensor<2x4x4x8xf32>
      scf.yield %back : tensor<2x4x4x8xf32>
    }
    scf.yield %n : tensor<2x4x4x8xf32>
  } {k_blocks}
  %res = linalg.unpack %r inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %c : tensor<2x4x4x8xf32> -> tensor<?x?xf32>
  return %res : tensor<?x?xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    transform.matc.fuse_unpack_into_last_k_block %loop : !transform.any_op
    transform.yield
  }
}

// -----

// The loop's result is read by something else than an unpack: nothing
// changes.
func.func @no_unpack(%k: index) -> tensor<1x1x4x8xf32> {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %empty = tensor.empty() : tensor<1x1x4x8xf32>
  %r = scf.for %kb = %c0 to %k step %c16 iter_args(%blk = %empty) -> (tensor<1x1x4x8xf32>) {
    scf.yield %blk : tensor<1x1x4x8xf32>
  } {k_blocks}
  return %r : tensor<1x1x4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects a result that only a linalg.unpack of static MR x NR tiles into a 2-D tensor reads}}
    transform.matc.fuse_unpack_into_last_k_block %loop : !transform.any_op
    transform.yield
  }
}

// -----

// The carried block is read whole (here copied into another result), not
// only by register tiles: nothing changes, and the note says where it flows.
func.func @other_use(%k: index, %c: tensor<?x?xf32>, %x: tensor<1x1x4x8xf32>) -> (tensor<?x?xf32>, tensor<1x1x4x8xf32>) {
  %c0 = arith.constant 0 : index
  %c16 = arith.constant 16 : index
  %empty = tensor.empty() : tensor<1x1x4x8xf32>
  %r:2 = scf.for %kb = %c0 to %k step %c16 iter_args(%blk = %empty, %y = %x) -> (tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>) {
    // expected-note @below {{it reaches 'linalg.copy'}}
    %copy = linalg.copy ins(%blk : tensor<1x1x4x8xf32>) outs(%y : tensor<1x1x4x8xf32>) -> tensor<1x1x4x8xf32>
    scf.yield %blk, %copy : tensor<1x1x4x8xf32>, tensor<1x1x4x8xf32>
  } {k_blocks}
  %res = linalg.unpack %r#0 inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %c : tensor<1x1x4x8xf32> -> tensor<?x?xf32>
  return %res, %r#1 : tensor<?x?xf32>, tensor<1x1x4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects the carried block of C to reach only reads and whole register tiles written back in place}}
    transform.matc.fuse_unpack_into_last_k_block %loop : !transform.any_op
    transform.yield
  }
}

// -----

// The unpack's destination is computed after the loop (from its result):
// it cannot be carried through the loop, nothing changes.
func.func @late_destination(%k: index) -> tensor<4x8xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  %zero = arith.constant 0.0 : f32
  %empty = tensor.empty() : tensor<1x1x4x8xf32>
  %r = scf.for %kb = %c0 to %k step %c16 iter_args(%blk = %empty) -> (tensor<1x1x4x8xf32>) {
    %tile = tensor.extract_slice %blk[0, 0, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<1x1x4x8xf32> to tensor<1x1x4x8xf32>
    %acc = vector.transfer_read %tile[%c0, %c0, %c0, %c0], %zero {in_bounds = [true, true]} : tensor<1x1x4x8xf32>, vector<4x8xf32>
    %w = vector.transfer_write %acc, %tile[%c0, %c0, %c0, %c0] {in_bounds = [true, true]} : vector<4x8xf32>, tensor<1x1x4x8xf32>
    %ins = tensor.insert_slice %w into %blk[0, 0, 0, 0] [1, 1, 4, 8] [1, 1, 1, 1] : tensor<1x1x4x8xf32> into tensor<1x1x4x8xf32>
    scf.yield %ins : tensor<1x1x4x8xf32>
  } {k_blocks}
  %e = tensor.empty() : tensor<4x8xf32>
  %fill = linalg.fill ins(%zero : f32) outs(%e : tensor<4x8xf32>) -> tensor<4x8xf32>
  %res = linalg.unpack %r inner_dims_pos = [0, 1] inner_tiles = [4, 8] into %fill : tensor<1x1x4x8xf32> -> tensor<4x8xf32>
  return %res : tensor<4x8xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %loop = transform.structured.match ops{["scf.for"]} attributes{k_blocks} in %root : (!transform.any_op) -> !transform.any_op
    // expected-error @below {{expects the unpack's destination to be defined before the loop, or a slice of a tensor that is}}
    transform.matc.fuse_unpack_into_last_k_block %loop : !transform.any_op
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
    transform.matc.fuse_unpack_into_last_k_block %f : !transform.any_op
    transform.yield
  }
}
