// RUN: matc-opt %s --split-input-file --transform-interpreter --verify-diagnostics | FileCheck %s

// transform.matc.thread_row_block: the rows per block of a product's C
// shared by threads, computed before the target. M dynamic, 2 threads, at
// most 96 rows, a multiple of 8: an even number of blocks, as few as 96 rows
// allow, of ceil(M / blocks) rows rounded up to 8.
// CHECK-DAG: #[[PER_THREAD:.*]] = affine_map<()[s0] -> (s0 ceildiv 192, 1)>
// CHECK-DAG: #[[TIMES_2:.*]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-DAG: #[[DIVIDEND:.*]] = affine_map<()[s0, s1] -> (s0 + s1 * 2 - 1)>
// CHECK-DAG: #[[WHOLE:.*]] = affine_map<()[s0] -> ((s0 ceildiv 8) * 8, 8)>
// CHECK-DAG: #[[AT_MOST:.*]] = affine_map<()[s0] -> (s0, 96)>
// CHECK-LABEL: func.func @dynamic_rows
// CHECK-SAME: (%[[C:.*]]: tensor<?x16xf32>
// CHECK: %[[M:.*]] = tensor.dim %[[C]], %{{.*}} : tensor<?x16xf32>
// CHECK: %[[PER:.*]] = affine.max #[[PER_THREAD]]()[%[[M]]]
// CHECK: %[[BLOCKS:.*]] = affine.apply #[[TIMES_2]]()[%[[PER]]]
// CHECK: %[[SUM:.*]] = affine.apply #[[DIVIDEND]]()[%[[M]], %[[PER]]]
// CHECK: %[[EVEN:.*]] = arith.divui %[[SUM]], %[[BLOCKS]] : index
// CHECK: %[[ROUNDED:.*]] = affine.max #[[WHOLE]]()[%[[EVEN]]]
// CHECK: %[[ROWS:.*]] = affine.min #[[AT_MOST]]()[%[[ROUNDED]]] {rows}
// CHECK-NEXT: linalg.unpack
func.func @dynamic_rows(%c: tensor<?x16xf32>, %packed: tensor<?x2x8x8xf32>) -> tensor<?x16xf32> {
  %u = linalg.unpack %packed inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %c
      : tensor<?x2x8x8xf32> -> tensor<?x16xf32>
  return %u : tensor<?x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 96 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 2 : i64 -> !transform.param<i64>
    %rows = transform.matc.thread_row_block %unpack max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    // Shows which op the handle holds.
    transform.annotate %rows "rows" : !transform.any_op
    transform.yield
  }
}

// -----

// M static: the rows fold to a constant (100 rows, 2 threads, at most 96
// per block: 2 blocks of 50, rounded up to 56).
// CHECK-LABEL: func.func @static_rows
// CHECK-NEXT: arith.constant 56 : index
// CHECK-NEXT: linalg.unpack
func.func @static_rows(%c: tensor<100x16xf32>, %packed: tensor<13x2x8x8xf32>) -> tensor<100x16xf32> {
  %u = linalg.unpack %packed inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %c
      : tensor<13x2x8x8xf32> -> tensor<100x16xf32>
  return %u : tensor<100x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 96 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 2 : i64 -> !transform.param<i64>
    %rows = transform.matc.thread_row_block %unpack max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

// M static, 250 rows: 2 blocks per thread (96 rows at most), 4 blocks of 63
// rounded up to 64.
// CHECK-LABEL: func.func @two_blocks_per_thread
// CHECK-NEXT: arith.constant 64 : index
func.func @two_blocks_per_thread(%c: tensor<250x16xf32>, %packed: tensor<32x2x8x8xf32>) -> tensor<250x16xf32> {
  %u = linalg.unpack %packed inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %c
      : tensor<32x2x8x8xf32> -> tensor<250x16xf32>
  return %u : tensor<250x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 96 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 2 : i64 -> !transform.param<i64>
    %rows = transform.matc.thread_row_block %unpack max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

// One thread: max_rows, whatever M.
// CHECK-LABEL: func.func @one_thread
// CHECK-NEXT: arith.constant 96 : index
// CHECK-NEXT: linalg.unpack
func.func @one_thread(%c: tensor<?x16xf32>, %packed: tensor<?x2x8x8xf32>) -> tensor<?x16xf32> {
  %u = linalg.unpack %packed inner_dims_pos = [0, 1] inner_tiles = [8, 8] into %c
      : tensor<?x2x8x8xf32> -> tensor<?x16xf32>
  return %u : tensor<?x16xf32>
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %unpack = transform.structured.match ops{["linalg.unpack"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 96 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 1 : i64 -> !transform.param<i64>
    %rows = transform.matc.thread_row_block %unpack max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @not_tileable(%x: index) -> index {
  return %x : index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 96 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{expects a tileable target, got 'func.return'}}
    %rows = transform.matc.thread_row_block %ret max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @bad_sizes(%x: index) -> index {
  return %x : index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 100 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 2 : i64 -> !transform.param<i64>
    // expected-error @below {{expects 'max_rows' (100) to be a multiple of 'multiple' (8)}}
    %rows = transform.matc.thread_row_block %ret max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}

// -----

func.func @no_threads(%x: index) -> index {
  return %x : index
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %ret = transform.structured.match ops{["func.return"]} in %root : (!transform.any_op) -> !transform.any_op
    %max = transform.param.constant 96 : i64 -> !transform.param<i64>
    %mr = transform.param.constant 8 : i64 -> !transform.param<i64>
    %threads = transform.param.constant 0 : i64 -> !transform.param<i64>
    // expected-error @below {{expects 'threads' to hold one positive integer}}
    %rows = transform.matc.thread_row_block %ret max_rows(%max) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> !transform.any_op
    transform.yield
  }
}
