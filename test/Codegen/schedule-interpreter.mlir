// RUN: matc-opt %s --transform-preload-library=transform-library-paths=%matc_src_root/lib/Codegen/Schedule.mlir --transform-interpreter="entry-point=test_codegen debug-payload-root-tag=payload" | FileCheck %s

// The schedule is a plain transform-dialect library, with matc's own
// transform ops: matc-opt runs it with the
// upstream interpreter and its expensive checks (handle invalidation) on,
// which matrix-codegen turns off for compile time. The entry point and the
// packing sequences, which matrix-codegen generates from its sizes, are
// written out below (the sizes of --target-cpu=znver3: A packed 8 x 8 at a
// time). Two products where
// one result feeds the other and a transpose (the case where pattern sets
// applied to a whole function would fold the transpose into an unpack).

// The last k-block writes its register tiles into C itself
// (transform.matc.fuse_unpack_into_last_k_block): whole inside C, masked at
// its edges; nothing is unpacked.
// With 2 threads, the forall runs over blocks of rows computed from M: an
// even number of them, as few as MC = 474 rows each allows (ceil(M / 948)
// per thread), ceil(M / blocks) rows each rounded up to MR = 6, at most MC.
// CHECK-DAG: #[[PER_THREAD:.*]] = affine_map<()[s0] -> (s0 ceildiv 948, 1)>
// CHECK-DAG: #[[TIMES_2:.*]] = affine_map<()[s0] -> (s0 * 2)>
// CHECK-DAG: #[[DIVIDEND:.*]] = affine_map<()[s0, s1] -> (s0 + s1 * 2 - 1)>
// CHECK-DAG: #[[WHOLE_MR:.*]] = affine_map<()[s0] -> ((s0 ceildiv 6) * 6, 6)>
// CHECK-DAG: #[[AT_MOST_MC:.*]] = affine_map<()[s0] -> ({{474, s0|s0, 474}})>
// CHECK-LABEL: func.func @one_k
// CHECK: %[[M:.*]] = tensor.dim %arg0, %c0
// CHECK: %[[PER:.*]] = affine.max #[[PER_THREAD]]()[%[[M]]]
// CHECK: %[[BLOCKS:.*]] = affine.apply #[[TIMES_2]]()[%[[PER]]]
// CHECK: %[[SUM:.*]] = affine.apply #[[DIVIDEND]]()[%[[M]], %[[PER]]]
// CHECK: %[[EVEN:.*]] = arith.divui %[[SUM]], %[[BLOCKS]] : index
// CHECK: %[[WHOLE:.*]] = affine.max #[[WHOLE_MR]]()[%[[EVEN]]]
// CHECK: %[[ROWS:.*]] = affine.min #[[AT_MOST_MC]]()[%[[WHOLE]]]
// CHECK: %[[COUNT:.*]] = affine.apply #{{.*}}()[%[[M]], %[[ROWS]]]
// CHECK: scf.forall (%{{.*}}, %{{.*}}) in (%[[COUNT]], %{{.*}})
// CHECK: %[[MASK:.*]] = vector.create_mask %c16, %{{.*}} : vector<16x16xi1>
// CHECK-NEXT: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %[[MASK]] {in_bounds = [true, true]} : tensor<16x?xf32>, vector<16x16xf32>
// CHECK: vector.create_mask %{{.*}}, %{{.*}} : vector<16x16xi1>
// CHECK-NEXT: vector.transfer_read %{{.*}}[%c0, %c0], %{{.*}}, %{{.*}} {in_bounds = [true, true]} : tensor<?x?xf32>, vector<16x16xf32>
// CHECK: return

// CHECK-LABEL: func.func @chained
// CHECK: scf.forall
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}] {in_bounds = [true, true]} : vector<6x16xf32>, tensor<6x16xf32>
// CHECK: vector.transfer_write %{{.*}}, %{{.*}}[%{{.*}}, %{{.*}}], %{{.*}} {in_bounds = [true, true]} : vector<6x16xf32>, tensor<?x?xf32>
// CHECK-NOT: linalg.unpack
// CHECK: scf.forall
// CHECK: scf.forall
// CHECK: return
// The matrix-vector product: blocks of 4 rows, partial sums in vectors of
// 4 x 8 f64 across the loop over k, added up across the lanes per row.
// CHECK-LABEL: func.func @matrix_vector
// CHECK: scf.for {{.*}} -> (vector<4x8xf64>)
// CHECK-COUNT-4: vector.reduction <add>
// CHECK: scf.for {{.*}} -> (vector<1x8xf64>)
// CHECK-LABEL: func.func @three_columns
// CHECK: scf.for {{.*}} -> (vector<1x3x16xf32>)
// CHECK-COUNT-3: vector.reduction <add>
// The tiny static B: a row of C at a time, 3 multiply-adds of 5 f32.
// CHECK-LABEL: func.func @tiny_rhs
// CHECK: scf.forall
// CHECK: scf.for
// CHECK-COUNT-3: vector.fma {{.*}} : vector<5xf32>
// The vector-matrix product: a block of C per thread, whole tiles of 32
// f64 (transform.matc.thread_row_block: their number computed at run time,
// ceil(N / 2) rounded up to 32), its fill fused in; blocks of 8 rows of B
// (outer, the last one shorter), tiles of 32 f64 of C (inner, the last one
// masked), each kept in a vector across the rows of the block, one
// multiply-add by a broadcast element of x per row.
// CHECK-LABEL: func.func @vector_matrix
// CHECK: %[[COLS:.*]] = affine.min
// CHECK: %[[BLOCKS:.*]] = affine.apply #{{.*}}()[%{{.*}}, %[[COLS]]]
// CHECK: scf.forall (%{{.*}}) in (%[[BLOCKS]])
// CHECK: linalg.fill
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c8
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c32
// CHECK: vector.transfer_read {{.*}} {in_bounds = [true]} : tensor<32xf64>, vector<32xf64>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<32xf64>)
// CHECK: vector.broadcast %{{.*}} : f64 to vector<32xf64>
// CHECK: vector.fma {{.*}} : vector<32xf64>
// CHECK: scf.for %{{.*}} step %c32
// CHECK: vector.create_mask %{{.*}} : vector<32xi1>
// CHECK: vector.fma {{.*}} : vector<32xf64>
// CHECK: scf.for %{{.*}} step %c8
// CHECK: scf.for %{{.*}} step %c32
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<32xf64>)
// CHECK: return
// C not a fill (no fill to fuse): the same blocks and tiles.
// CHECK-LABEL: func.func @vector_matrix_into
// CHECK: scf.forall
// CHECK-NOT: linalg.fill
// CHECK: scf.for %{{.*}} step %c8
// CHECK: vector.fma {{.*}} : vector<32xf64>
// CHECK: return
// C of less than one tile (matc.vector_matrix_carried): as many lanes as
// its matc.vector_matrix_width map says (16, queried by
// transform.dlti.query), masked to L, read once, carried across all of k
// (one multiply-add per row of the matrix, no block loop, no thread
// block), written once.
// CHECK-LABEL: func.func @vector_matrix_carried
// CHECK-NOT: scf.forall
// CHECK: %[[M:.*]] = vector.create_mask %{{.*}} : vector<16xi1>
// CHECK: %[[C0:.*]] = vector.transfer_read %{{.*}}, %[[M]] {in_bounds = [true]} : tensor<?xf64>, vector<16xf64>
// CHECK: %[[C:.*]] = scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %[[C0]]) -> (vector<16xf64>)
// CHECK-NOT: vector.transfer_write
// CHECK: vector.fma {{.*}} : vector<16xf64>
// CHECK: scf.yield %{{.*}} : vector<16xf64>
// CHECK: vector.transfer_write %[[C]], %{{.*}}, %[[M]] {in_bounds = [true]} : vector<16xf64>, tensor<?xf64>
// CHECK: return
// Split along k: the 8 partial sums one 8 x 4 vector (4 f64 lanes here,
// masked to L), filled as one, carried across the loop over the blocks of
// 8 rows, each of them one multiply-add by a broadcast element of x per row;
// then C's one vector carried across the 8 rows of the partial sums and
// the last rows of the matrix.
// CHECK-LABEL: func.func @vector_matrix_split
// CHECK: vector.transfer_write %{{.*}} : vector<8x4xf64>, tensor<8x?xf64>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<8x4xf64>)
// CHECK-COUNT-8: vector.fma {{.*}} : vector<4xf64>
// CHECK: scf.yield %{{.*}} : vector<8x4xf64>
// CHECK: vector.transfer_write %{{.*}} : vector<4xf64>, tensor<?xf64>
// CHECK: scf.for %{{.*}} = %c0 to %c8 step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf64>)
// CHECK: arith.addf %{{.*}} : vector<4xf64>
// CHECK: scf.for %{{.*}} = %c0 to %{{.*}} step %c1 iter_args(%{{.*}} = %{{.*}}) -> (vector<4xf64>)
// CHECK: vector.fma {{.*}} : vector<4xf64>
// CHECK: return

module attributes {transform.target_tag = "payload"} {
  // B's K read off A, as matrix-outline-products writes every product
  // function: one SSA value for K, so the main loop of the packing of B
  // (16 rows of k at a time) reads whole rows (masked in the columns of the
  // last panel only), the rest loop masked in both.
  func.func @one_k(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f32
    %m = tensor.dim %a, %c0 : tensor<?x?xf32>
    %k = tensor.dim %a, %c1 : tensor<?x?xf32>
    %n = tensor.dim %b, %c1 : tensor<?x?xf32>
    %bk = tensor.extract_slice %b[0, 0] [%k, %n] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
    %e = tensor.empty(%m, %n) : tensor<?x?xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
    %d = linalg.matmul ins(%a, %bk : tensor<?x?xf32>, tensor<?x?xf32>)
                       outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    return %d : tensor<?x?xf32>
  }
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

  // A matrix-vector product as matrix-version-products leaves it (B and C
  // collapsed to vectors, tagged matc.dot): @tile_dot_rows and
  // @split_dot_k_f64 under the interpreter's handle checks.
  func.func @matrix_vector(%a: tensor<?x?xf64>, %x: tensor<?xf64>) -> tensor<?xf64> {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f64
    %m = tensor.dim %a, %c0 : tensor<?x?xf64>
    %e = tensor.empty(%m) : tensor<?xf64>
    %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?xf64>) -> tensor<?xf64>
    %y = linalg.generic {indexing_maps = [affine_map<(m, k) -> (m, k)>, affine_map<(m, k) -> (k)>,
                                          affine_map<(m, k) -> (m)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%a, %x : tensor<?x?xf64>, tensor<?xf64>) outs(%c : tensor<?xf64>)
        attrs = {matc.dot = "f64"} {
    ^bb0(%p: f64, %q: f64, %acc: f64):
      %prod = arith.mulf %p, %q fastmath<contract> : f64
      %sum = arith.addf %acc, %prod fastmath<contract> : f64
      linalg.yield %sum : f64
    } -> tensor<?xf64>
    return %y : tensor<?xf64>
  }

  // 3 columns, as matrix-version-products leaves them (B^T given):
  // @tile_dot_columns and @dot_columns_f32 under the handle checks.
  func.func @three_columns(%a: tensor<?x?xf32>, %bt: tensor<3x?xf32>) -> tensor<?x3xf32> {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %m = tensor.dim %a, %c0 : tensor<?x?xf32>
    %e = tensor.empty(%m) : tensor<?x3xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x3xf32>) -> tensor<?x3xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (n, k)>,
                                          affine_map<(m, n, k) -> (m, n)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %bt : tensor<?x?xf32>, tensor<3x?xf32>) outs(%c : tensor<?x3xf32>)
        attrs = {matc.dot_columns = "f32"} {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %prod = arith.mulf %p, %q fastmath<contract> : f32
      %sum = arith.addf %acc, %prod fastmath<contract> : f32
      linalg.yield %sum : f32
    } -> tensor<?x3xf32>
    return %y : tensor<?x3xf32>
  }

  // A tiny static B, as matrix-version-products leaves it (tagged
  // matc.tiny_rhs): @tiny_rhs_rows under the handle checks.
  func.func @tiny_rhs(%a: tensor<?x3xf32>, %b: tensor<3x5xf32>) -> tensor<?x5xf32> {
    %c0 = arith.constant 0 : index
    %zero = arith.constant 0.0 : f32
    %m = tensor.dim %a, %c0 : tensor<?x3xf32>
    %e = tensor.empty(%m) : tensor<?x5xf32>
    %c = linalg.fill ins(%zero : f32) outs(%e : tensor<?x5xf32>) -> tensor<?x5xf32>
    %y = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>,
                                          affine_map<(m, n, k) -> (m, n)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%a, %b : tensor<?x3xf32>, tensor<3x5xf32>) outs(%c : tensor<?x5xf32>)
        attrs = {matc.tiny_rhs = "f32"} {
    ^bb0(%p: f32, %q: f32, %acc: f32):
      %prod = arith.mulf %p, %q : f32
      %sum = arith.addf %acc, %prod : f32
      linalg.yield %sum : f32
    } -> tensor<?x5xf32>
    return %y : tensor<?x5xf32>
  }

  // A vector-matrix product (matrix-version-products' generic tagged
  // matc.vector_matrix): @schedule_vector_matrix under the handle checks.
  func.func @vector_matrix(%x: tensor<?xf64>, %b: tensor<?x?xf64>) -> tensor<?xf64> {
    %c1 = arith.constant 1 : index
    %zero = arith.constant 0.0 : f64
    %n = tensor.dim %b, %c1 : tensor<?x?xf64>
    %e = tensor.empty(%n) : tensor<?xf64>
    %c = linalg.fill ins(%zero : f64) outs(%e : tensor<?xf64>) -> tensor<?xf64>
    %y = linalg.generic {indexing_maps = [affine_map<(l, k) -> (k)>, affine_map<(l, k) -> (k, l)>,
                                          affine_map<(l, k) -> (l)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%x, %b : tensor<?xf64>, tensor<?x?xf64>) outs(%c : tensor<?xf64>)
        attrs = {matc.vector_matrix = "f64"} {
    ^bb0(%p: f64, %q: f64, %acc: f64):
      %prod = arith.mulf %p, %q : f64
      %sum = arith.addf %acc, %prod : f64
      linalg.yield %sum : f64
    } -> tensor<?xf64>
    return %y : tensor<?xf64>
  }

  func.func @vector_matrix_into(%x: tensor<?xf64>, %b: tensor<?x?xf64>, %c: tensor<?xf64>) -> tensor<?xf64> {
    %y = linalg.generic {indexing_maps = [affine_map<(l, k) -> (k)>, affine_map<(l, k) -> (k, l)>,
                                          affine_map<(l, k) -> (l)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%x, %b : tensor<?xf64>, tensor<?x?xf64>) outs(%c : tensor<?xf64>)
        attrs = {matc.vector_matrix = "f64"} {
    ^bb0(%p: f64, %q: f64, %acc: f64):
      %prod = arith.mulf %p, %q : f64
      %sum = arith.addf %acc, %prod : f64
      linalg.yield %sum : f64
    } -> tensor<?xf64>
    return %y : tensor<?xf64>
  }

  func.func @vector_matrix_carried(%x: tensor<?xf64>, %b: tensor<?x?xf64>, %c: tensor<?xf64>) -> tensor<?xf64> {
    %y = linalg.generic {indexing_maps = [affine_map<(l, k) -> (k)>, affine_map<(l, k) -> (k, l)>,
                                          affine_map<(l, k) -> (l)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%x, %b : tensor<?xf64>, tensor<?x?xf64>) outs(%c : tensor<?xf64>)
        attrs = {matc.vector_matrix_carried = "f64",
                 matc.vector_matrix_width = #dlti.map<"width" = 16 : i64>} {
    ^bb0(%p: f64, %q: f64, %acc: f64):
      %prod = arith.mulf %p, %q : f64
      %sum = arith.addf %acc, %prod : f64
      linalg.yield %sum : f64
    } -> tensor<?xf64>
    return %y : tensor<?xf64>
  }

  // A vector-matrix product split along k (matrix-version-products'
  // matc.vector_matrix_split and matc.vector_matrix_rest generics):
  // @schedule_vector_matrix_split and @schedule_vector_matrix_rest.
  func.func @vector_matrix_split(%x: tensor<?x8xf64>, %b: tensor<?x8x?xf64>, %c: tensor<?xf64>,
                                 %xt: tensor<?xf64>, %bt: tensor<?x?xf64>) -> tensor<?xf64> {
    %c2 = arith.constant 2 : index
    %zero = arith.constant 0.0 : f64
    %n = tensor.dim %b, %c2 : tensor<?x8x?xf64>
    %e = tensor.empty(%n) : tensor<8x?xf64>
    %p0 = linalg.fill ins(%zero : f64) outs(%e : tensor<8x?xf64>) -> tensor<8x?xf64>
    %p = linalg.generic {indexing_maps = [affine_map<(r, l, k) -> (k, r)>, affine_map<(r, l, k) -> (k, r, l)>,
                                          affine_map<(r, l, k) -> (r, l)>],
                         iterator_types = ["parallel", "parallel", "reduction"]}
        ins(%x, %b : tensor<?x8xf64>, tensor<?x8x?xf64>) outs(%p0 : tensor<8x?xf64>)
        attrs = {matc.vector_matrix_split = "f64"} {
    ^bb0(%u: f64, %v: f64, %acc: f64):
      %prod = arith.mulf %u, %v : f64
      %sum = arith.addf %acc, %prod : f64
      linalg.yield %sum : f64
    } -> tensor<8x?xf64>
    %ec = tensor.empty(%n) : tensor<?xf64>
    %c0 = linalg.fill ins(%zero : f64) outs(%ec : tensor<?xf64>) -> tensor<?xf64>
    %s = linalg.generic {indexing_maps = [affine_map<(l, r) -> (r, l)>, affine_map<(l, r) -> (l)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%p : tensor<8x?xf64>) outs(%c0 : tensor<?xf64>)
        attrs = {matc.vector_matrix_rest = "f64"} {
    ^bb0(%u: f64, %acc: f64):
      %sum = arith.addf %acc, %u : f64
      linalg.yield %sum : f64
    } -> tensor<?xf64>
    %y = linalg.generic {indexing_maps = [affine_map<(l, k) -> (k)>, affine_map<(l, k) -> (k, l)>,
                                          affine_map<(l, k) -> (l)>],
                         iterator_types = ["parallel", "reduction"]}
        ins(%xt, %bt : tensor<?xf64>, tensor<?x?xf64>) outs(%s : tensor<?xf64>)
        attrs = {matc.vector_matrix_rest = "f64"} {
    ^bb0(%u: f64, %v: f64, %acc: f64):
      %prod = arith.mulf %u, %v : f64
      %sum = arith.addf %acc, %prod : f64
      linalg.yield %sum : f64
    } -> tensor<?xf64>
    return %y : tensor<?xf64>
  }
}

module attributes {transform.with_named_sequence} {
  transform.named_sequence @matc_pack_matmul_f32(%mm: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %packed = transform.structured.pack %mm packed_sizes = [6, 16, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }
  transform.named_sequence @matc_pack_matmul_f64(%mm: !transform.any_op {transform.consumed}) -> !transform.any_op {
    %packed = transform.structured.pack %mm packed_sizes = [6, 8, 0] : (!transform.any_op) -> !transform.any_op
    transform.yield %packed : !transform.any_op
  }
  transform.named_sequence @schedule_all(%root: !transform.any_op {transform.consumed},
      %a0: !transform.param<i64> {transform.readonly}, %a1: !transform.param<i64> {transform.readonly},
      %a2: !transform.param<i64> {transform.readonly}, %a3: !transform.param<i64> {transform.readonly},
      %a4: !transform.param<i64> {transform.readonly}, %a5: !transform.param<i64> {transform.readonly},
      %a6: !transform.param<i64> {transform.readonly}, %a7: !transform.param<i64> {transform.readonly},
      %a8: !transform.param<i64> {transform.readonly}, %a9: !transform.param<i64> {transform.readonly},
      %a10: !transform.param<i64> {transform.readonly}, %a11: !transform.param<i64> {transform.readonly},
      %a12: !transform.param<i64> {transform.readonly}, %a13: !transform.param<i64> {transform.readonly},
      %a14: !transform.param<i64> {transform.readonly}, %a15: !transform.param<i64> {transform.readonly},
      %a16: !transform.param<i64> {transform.readonly}, %a17: !transform.param<i64> {transform.readonly},
      %a18: !transform.param<i64> {transform.readonly}, %a19: !transform.param<i64> {transform.readonly},
      %a20: !transform.param<i64> {transform.readonly}, %a21: !transform.param<i64> {transform.readonly},
      %a22: !transform.param<i64> {transform.readonly}, %a23: !transform.param<i64> {transform.readonly},
      %a24: !transform.param<i64> {transform.readonly})
  transform.named_sequence @matc_thread_rows(%root: !transform.any_op {transform.readonly}) {
    transform.yield
  }
  transform.named_sequence @matc_lower_transposes(%root: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %root {
      transform.apply_patterns.vector.lower_transpose lowering_strategy = "shuffle_16x16" avx2_lowering_strategy = true
    } : !transform.any_op
    transform.yield
  }
  transform.named_sequence @test_codegen(%root: !transform.any_op {transform.consumed}) {
    %mr32 = transform.param.constant 6 : i64 -> !transform.param<i64>
    %nr32 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %kc32 = transform.param.constant 320 : i64 -> !transform.param<i64>
    %mc32 = transform.param.constant 474 : i64 -> !transform.param<i64>
    // NC / NR micro-panels: 304 / 16, 192 / 8.
    %nc32 = transform.param.constant 19 : i64 -> !transform.param<i64>
    %pk32 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %pw32 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %mru32 = transform.param.constant 6 : i64 -> !transform.param<i64>
    %mr64 = transform.param.constant 6 : i64 -> !transform.param<i64>
    %nr64 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %kc64 = transform.param.constant 256 : i64 -> !transform.param<i64>
    %mc64 = transform.param.constant 324 : i64 -> !transform.param<i64>
    %nc64 = transform.param.constant 24 : i64 -> !transform.param<i64>
    %pk64 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %pw64 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %mru64 = transform.param.constant 6 : i64 -> !transform.param<i64>
    %vl32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    %vl64 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %lanes32 = transform.param.constant 8 : i64 -> !transform.param<i64>
    %lanes64 = transform.param.constant 4 : i64 -> !transform.param<i64>
    // The columns of a block of C: 16 NC.
    %ncb32 = transform.param.constant 4864 : i64 -> !transform.param<i64>
    %ncb64 = transform.param.constant 3072 : i64 -> !transform.param<i64>
    // The tiles of C of vector-matrix products: 2048 bits.
    %vmw32 = transform.param.constant 64 : i64 -> !transform.param<i64>
    %vmw64 = transform.param.constant 32 : i64 -> !transform.param<i64>
    // Two threads: the blocks of rows are computed at run time.
    %threads = transform.param.constant 2 : i64 -> !transform.param<i64>
    transform.include @schedule_all failures(propagate) (%root,
        %mr32, %nr32, %kc32, %mc32, %nc32, %pk32, %pw32, %mru32,
        %mr64, %nr64, %kc64, %mc64, %nc64, %pk64, %pw64, %mru64, %vl32, %vl64,
        %lanes32, %lanes64, %ncb32, %ncb64, %vmw32, %vmw64, %threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>) -> ()
    transform.yield
  }
}
