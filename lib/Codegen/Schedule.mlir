// The code generation schedule matc applies to Linalg on tensors from -O1
// up: a transform-dialect library (mlir/docs/Dialects/Transform.md) with two
// entry points that the `matrix-codegen` pass runs.
//
//   @matc_generalize  turns linalg.transpose into linalg.generic, so that
//                     `linalg-fuse-elementwise-ops` folds a transpose that
//                     feeds an elementwise op into that op's indexing map.
//   @matc_codegen     tiles, packs and vectorizes every matrix product and
//                     every 2-D elementwise op (one schedule per kind and
//                     element type, picked by the matchers below), except
//                     those whose loops all run at most 16 times.
//
// The sizes are not in this file: they come from the target's model
// (lib/Target/MatmulModel.cpp), and the matrix-codegen pass generates
// @matc_codegen, which binds them as transform params and calls
// @schedule_all, and the two sequences declared below that pack a product
// (transform.structured.pack takes static sizes only).
//
// Matrix product, after Goto and van de Geijn, "Anatomy of high-performance
// matrix multiplication" (TOMS 2008), the BLIS loop nest (Van Zee and van de
// Geijn, TOMS 2015) and the MLIR structured codegen of Vasilache et al.
// (arXiv 2202.03293):
//   - the product is packed by MR x NR (data tiling, as linalg.mmt4d):
//     A [M, K] -> [M/MR, K, MR] (micro-panels of MR rows, one column of MR
//     elements per step of k), B [K, N] -> [N/NR, K, NR] (micro-panels of NR
//     columns), C [M, N] -> [M/MR, N/NR, MR, NR], each zero-padded at the
//     edges of M and N, whatever the layout of the operands (transposed
//     operands are packed from where they are);
//   - C is computed in blocks of MC rows and all columns (one scf.forall
//     iteration, the unit of multi-threading; with T threads, blocks of
//     ceil(M / T) rows when that is fewer, computed at run time by
//     transform.matc.thread_row_block) held packed between k-blocks; the
//     first k-block starts its register tiles from zeros
//     (transform.matc.zero_first_accumulation), so the packed block is
//     never zero-filled, as BLIS's micro-kernel does not read C when beta
//     is zero, and the last one writes them into C itself
//     (transform.matc.fuse_unpack_into_last_k_block), so the packed block
//     is never unpacked, as BLIS's micro-kernel stores its tile to C;
//   - k runs by KC-blocks; per block, the block of A (MC x KC) is packed
//     once, then the columns run by NC-blocks, the block of B (KC x NC)
//     packed per column block: A is packed once in all and B once per
//     block of rows (Goto's order; BLIS's loops 3 to 5 with the roles of A
//     and B swapped, as matc's vectors run along N); a micro-panel of A
//     stays in the L1 while the micro-panels of B stream past it from the
//     L2;
//   - the register kernel is one MR x NR tile of C, its accumulators kept in
//     vector registers across the KC-block, updated by one outer product
//     (vector.fma on rows of NR) per step of k. Every register tile is
//     whole (the packing pads), so there is one kernel per element type;
//     the remainders of M and N cost only the padding, and those of K none.
// Products whose operands fit in the caches are computed unpacked
// (@schedule_unpacked_matmul), and products of fewer than 8 columns as dot
// products of the rows of A along k (@tile_dot_rows for N = 1,
// @tile_dot_columns): packing would copy all of A for a few columns.
module attributes {transform.with_named_sequence} {
  //===--------------------------------------------------------------------===//
  // Matchers
  //===--------------------------------------------------------------------===//

  /// A linalg.matmul or 2-D linalg.generic whose loops all have static trip
  /// counts of at most 16: tiling, packing and vector code would not pay
  /// off (and would cost compile time), the plain loops are kept.
  transform.named_sequence @match_small(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul", "linalg.generic"] : !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
      %small = transform.param.constant 16 : i64 -> !transform.param<i64>
      %d0 = transform.match.structured.dim %s[0] : (!transform.any_op) -> !transform.param<i64>
      %d1 = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      %d2 = transform.match.structured.dim %s[-1] : (!transform.any_op) -> !transform.param<i64>
      // Dynamic sizes are negative.
      transform.match.param.cmpi ge %d0, %zero : !transform.param<i64>
      transform.match.param.cmpi ge %d1, %zero : !transform.param<i64>
      transform.match.param.cmpi ge %d2, %zero : !transform.param<i64>
      transform.match.param.cmpi le %d0, %small : !transform.param<i64>
      transform.match.param.cmpi le %d1, %small : !transform.param<i64>
      transform.match.param.cmpi le %d2, %small : !transform.param<i64>
    }
    transform.yield %op : !transform.any_op
  }

  /// A linalg.matmul (any indexing maps: transposed operands are read in
  /// place) on 32-bit floats.
  transform.named_sequence @match_matmul_f32(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %c = transform.match.structured.init %s[0] : (!transform.any_op) -> !transform.any_value
      %w = transform.match.structured.elemental_bitwidth %c : (!transform.any_value) -> !transform.param<i64>
      %w32 = transform.param.constant 32 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %w, %w32 : !transform.param<i64>
    }
    transform.yield %op : !transform.any_op
  }

  /// A linalg.matmul on 64-bit floats.
  transform.named_sequence @match_matmul_f64(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.match.operation_name %op ["linalg.matmul"] : !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %c = transform.match.structured.init %s[0] : (!transform.any_op) -> !transform.any_value
      %w = transform.match.structured.elemental_bitwidth %c : (!transform.any_value) -> !transform.param<i64>
      %w64 = transform.param.constant 64 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %w, %w64 : !transform.param<i64>
    }
    transform.yield %op : !transform.any_op
  }

  /// A linalg.fill of a packed tile of C ([M/MR, N/NR, MR, NR]). A fill that
  /// a product reads as an operand (`zeros(m, n) @ b`) stays 2-D and is
  /// left to the plain lowering.
  transform.named_sequence @match_packed_fill(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    transform.match.operation_name %op ["linalg.fill"] : !transform.any_op
    transform.match.structured %op : !transform.any_op {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %four = transform.param.constant 4 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %rank, %four : !transform.param<i64>
    }
    transform.yield %op : !transform.any_op
  }

  /// A 2-D linalg.generic whose loops are all parallel (fused elementwise
  /// expressions, transposes, iota, eye). Yields the op and the bitwidth of
  /// its element type.
  transform.named_sequence @match_parallel_2d(%op: !transform.any_op {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>) {
    transform.match.operation_name %op ["linalg.generic"] : !transform.any_op
    %bits = transform.match.structured %op : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %rank = transform.match.structured.rank %s : (!transform.any_op) -> !transform.param<i64>
      %two = transform.param.constant 2 : i64 -> !transform.param<i64>
      transform.match.param.cmpi eq %rank, %two : !transform.param<i64>
      transform.match.structured.dim %s[all] {parallel} : !transform.any_op
      %c = transform.match.structured.init %s[0] : (!transform.any_op) -> !transform.any_value
      %w = transform.match.structured.elemental_bitwidth %c : (!transform.any_value) -> !transform.param<i64>
      transform.match.structured.yield %w : !transform.param<i64>
    }
    transform.yield %op, %bits : !transform.any_op, !transform.param<i64>
  }

  /// An elementwise op (see @match_parallel_2d) on f32.
  transform.named_sequence @match_elementwise_f32(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %m, %bits = transform.include @match_parallel_2d failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>)
    %w32 = transform.param.constant 32 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %bits, %w32 : !transform.param<i64>
    transform.yield %op : !transform.any_op
  }

  /// An elementwise op (see @match_parallel_2d) on f64.
  transform.named_sequence @match_elementwise_f64(%op: !transform.any_op {transform.readonly})
      -> !transform.any_op {
    %m, %bits = transform.include @match_parallel_2d failures(propagate) (%op)
        : (!transform.any_op) -> (!transform.any_op, !transform.param<i64>)
    %w64 = transform.param.constant 64 : i64 -> !transform.param<i64>
    transform.match.param.cmpi eq %bits, %w64 : !transform.param<i64>
    transform.yield %op : !transform.any_op
  }

  //===--------------------------------------------------------------------===//
  // Schedules
  //===--------------------------------------------------------------------===//

  /// Packs a matrix product on f32 (on f64) by MR x NR: generated by the
  /// matrix-codegen pass with the model's sizes. Returns the packed product
  /// (a linalg.generic between linalg.pack and linalg.unpack ops).
  transform.named_sequence @matc_pack_matmul_f32(%mm: !transform.any_op {transform.consumed})
      -> !transform.any_op
  transform.named_sequence @matc_pack_matmul_f64(%mm: !transform.any_op {transform.consumed})
      -> !transform.any_op

  /// Splits each unpacked product of `%root` tagged `matc.unpacked_long_k`
  /// (by matrix-version-products: a long k-range) into one block of rows per
  /// thread, an scf.forall iteration each, for @schedule_unpacked_matmul to
  /// tile (generated by the matrix-codegen pass, which knows the number of
  /// threads; nothing with one thread).
  transform.named_sequence @matc_thread_rows(%root: !transform.any_op {transform.readonly})

  /// Lowers vector.transpose (of the packing of A, and of B stored
  /// transposed) to shuffles: transposes of 32-bit elements are first split
  /// into square ones of a vector register's length
  /// (transform.apply_patterns.matc.unroll_transposes: B^T's 32 x 16 into two
  /// 16 x 16), then 16 x 16 ones lower to the AVX-512 shuffle network, 8 x 8
  /// ones to the AVX2 one where the target has AVX2 (generated by the
  /// matrix-codegen pass, which knows the target).
  transform.named_sequence @matc_lower_transposes(%root: !transform.any_op {transform.readonly})

  /// Makes a packed operand contiguous per micro-panel: a pack whose tiled
  /// dimension is the second of its source ([K, N] for B stored plainly,
  /// [K, M] for A stored transposed) gets its outer dimensions swapped, so
  /// that the packed tensor is [panels, K, width] whatever the operand's
  /// layout.
  transform.named_sequence @panel_major(%pack: !transform.any_op {transform.readonly}) {
    %k_major = transform.structured.match ops{["linalg.pack"]}
        attributes{inner_dims_pos = array<i64: 1>} in %pack
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %k_major : !transform.any_op {
    ^bb0(%p: !transform.any_op):
      %product = transform.get_consumers_of_result %p[0] : (!transform.any_op) -> !transform.any_op
      transform.structured.pack_transpose %p with_compute_op(%product) outer_perm = [1, 0]
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// Vectorizes the packing of an A block (the producer of the packed
  /// product's operand 0, a linalg.pack, or a linalg.fill when A is one):
  /// per micro-panel, `%kstep` steps of k at a time into vectors of `%kstep`
  /// x `%width` (`%width` >= MR: the rows past MR are masked off), the main
  /// loop unmasked in k. A stored plainly is read in rows and transposed in
  /// registers: with `%kstep` = `%width` = the vector length of f32 (16 with
  /// AVX-512, 8 with AVX2) the transposes are square and lower to the
  /// shuffle networks of @matc_lower_transposes; A stored transposed needs
  /// none.
  transform.named_sequence @vectorize_a_block_pack(
      %block: !transform.any_op {transform.consumed}, %kstep: !transform.param<i64> {transform.readonly},
      %width: !transform.param<i64> {transform.readonly}) {
    %tiled, %loop_p, %loop_k = transform.structured.tile_using_for %block tile_sizes [1, %kstep]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %loop_kf = transform.cast %loop_k : !transform.any_op to !transform.op<"scf.for">
    transform.include @peel_if_ragged failures(propagate) (%loop_kf)
        : (!transform.op<"scf.for">) -> ()
    %tiles = transform.structured.match ops{["linalg.pack", "linalg.fill"]} in %loop_p
        : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %tiles vector_sizes [1, %kstep, %width]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  /// Vectorizes the packing of a B block (operand 1): 16 steps of k by NR
  /// columns at a time, the main loop unmasked in k (when the k-size of the
  /// block is one SSA value: B's K read off A, as matrix-outline-products
  /// writes the product functions). For B stored plainly
  /// ([K, N], the pack tiles its dimension 1) the loop over k is the outer
  /// one, so that the block is read row after row (16 rows at a time, the
  /// panels in turn), not down the columns of one panel: with a large,
  /// power-of-two leading dimension, going down a panel touches a new page
  /// and a new set of the caches at every row. For B stored transposed
  /// ([N, K], of A @ B.T) the same argument puts the loop over the panels
  /// outside: each panel is NR rows of B^T read along k, NR sequential
  /// streams, where k outside would touch a line of every row of the block
  /// (NC rows, NC pages apart with a power-of-two leading dimension) at each
  /// step (measured on Zen 4, f32 at n = 2048, 1 thread: the packing of B
  /// took 11% of the product's time with k outside).
  transform.named_sequence @vectorize_b_block_pack(
      %block: !transform.any_op {transform.readonly}, %nr: !transform.param<i64> {transform.readonly},
      %tile: !transform.any_op {transform.readonly}) {
    %transposed = transform.structured.match ops{["linalg.pack"]}
        attributes{inner_dims_pos = array<i64: 0>} in %block
        : (!transform.any_op) -> !transform.any_op
    %plain_pack = transform.structured.match ops{["linalg.pack"]}
        attributes{inner_dims_pos = array<i64: 1>} in %block
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{["linalg.fill"]} in %block
        : (!transform.any_op) -> !transform.any_op
    %plain = transform.merge_handles %plain_pack, %fill : !transform.any_op
    %tiled, %loop_k, %loop_p = transform.structured.tile_using_for %plain tile_sizes [1, 16]
        interchange = [1, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %tiled_t, %loop_pt, %loop_kt = transform.structured.tile_using_for %transposed tile_sizes [1, 16]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // The peeled copy of the tile is found again by this tag.
    %all = transform.merge_handles %tiled, %tiled_t : !transform.any_op
    transform.annotate %all "matc.pack_b" : !transform.any_op
    %loops_k = transform.merge_handles %loop_k, %loop_kt : !transform.any_op
    // The size of the tile's rows of B, min(min(K - k, 16), K - k), merged
    // into the min(K - k, 16) of the loop, so that peeling finds it whole
    // (16) in the main loop: there the reads are unmasked in k.
    transform.apply_patterns to %tile {
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    transform.apply_cse to %tile : !transform.any_op
    transform.include @peel_each_if_ragged failures(propagate) (%loops_k)
        : (!transform.any_op) -> ()
    %tiles = transform.structured.match ops{["linalg.pack", "linalg.fill"]}
        attributes{matc.pack_b} in %tile : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %tiles vector_sizes [1, 16, %nr]
        : !transform.any_op, !transform.param<i64>
    transform.yield
  }

  /// The schedule of a packed matrix product (see the top of the file):
  /// blocks of C of MC rows and `%ncb` columns, KC-blocks of k with the A block
  /// packed once per k-block, NC-blocks of columns (`%nc_panels` = NC / NR
  /// micro-panels) with the B block packed per column block, MR x NR
  /// register tiles; the A blocks packed `%pack_k` steps of k by `%pack_w`
  /// rows at a time (see @vectorize_a_block_pack).
  transform.named_sequence @schedule_packed_matmul(
      %packed: !transform.any_op {transform.readonly},
      %mr: !transform.param<i64> {transform.readonly}, %nr: !transform.param<i64> {transform.readonly},
      %kc: !transform.param<i64> {transform.readonly}, %mc: !transform.param<i64> {transform.readonly},
      %nc_panels: !transform.param<i64> {transform.readonly}, %pack_k: !transform.param<i64> {transform.readonly},
      %pack_w: !transform.param<i64> {transform.readonly}, %ncb: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) -> !transform.any_op {
    %func = transform.get_parent_op %packed {isolated_from_above} : (!transform.any_op) -> !transform.any_op
    %unpack = transform.get_consumers_of_result %packed[0] : (!transform.any_op) -> !transform.any_op
    %pack_a = transform.get_producer_of_operand %packed[0] : (!transform.any_op) -> !transform.any_op
    %pack_b = transform.get_producer_of_operand %packed[1] : (!transform.any_op) -> !transform.any_op
    transform.include @panel_major failures(propagate) (%pack_a) : (!transform.any_op) -> ()
    transform.include @panel_major failures(propagate) (%pack_b) : (!transform.any_op) -> ()
    %product = transform.get_producer_of_operand %unpack[0] : (!transform.any_op) -> !transform.any_op
    %pack_a2 = transform.get_producer_of_operand %product[0] : (!transform.any_op) -> !transform.any_op
    %pack_b2 = transform.get_producer_of_operand %product[1] : (!transform.any_op) -> !transform.any_op
    %pack_c = transform.get_producer_of_operand %product[2] : (!transform.any_op) -> !transform.any_op
    %fill = transform.get_producer_of_operand %pack_c[0] : (!transform.any_op) -> !transform.any_op
    // One constant zero for the fill and the padding of C, so that
    // pack(fill) folds below.
    transform.apply_cse to %func : !transform.any_op

    // One block of C of MC rows and `%ncb` columns (NCB, a multiple of NR
    // well above NC: usually all of N) per scf.forall iteration (the unit
    // of multi-threading): tile the unpack, fuse the product and the
    // packing of A and B into it.
    // With several threads, the blocks have ceil(M / threads) rows (a
    // multiple of MR), at most MC, computed at run time: a product of fewer
    // than threads x MC rows still keeps every thread busy.
    %rows = transform.matc.thread_row_block %unpack max_rows(%mc) multiple(%mr) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> !transform.any_op
    %unpack_t, %forall = transform.structured.tile_using_forall %unpack tile_sizes [%rows, %ncb]
        : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %product_t, %forall_1 = transform.structured.fuse_into_containing_op %product into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pack_b_t, %forall_2 = transform.structured.fuse_into_containing_op %pack_b2 into %forall_1
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %pack_a_t, %forall_3 = transform.structured.fuse_into_containing_op %pack_a2 into %forall_2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // KC-blocks of k, with A and B packed per block (before the packing of
    // C is fused, which would be fused into every k-block). The packing of
    // the whole operands left in the block for its tensor.dim uses dies
    // once they are resolved.
    %product_k, %loop_k = transform.structured.fuse %product_t tile_sizes [0, 0, %kc, 0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    // Found again once the kernel is vectorized (@finish_k_blocks).
    transform.annotate %loop_k "matc.k_blocks" : !transform.any_op
    transform.apply_patterns to %forall_3 {
      transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims
    } : !transform.any_op
    // The packing of C and the fill into the block too (the tensor.dim of
    // the fill that the packing of C leaves resolved first).
    %pack_c_t, %forall_4 = transform.structured.fuse_into_containing_op %pack_c into %forall_3
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.apply_patterns to %forall_4 {
      transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims
    } : !transform.any_op
    %fill_t, %forall_5 = transform.structured.fuse_into_containing_op %fill into %forall_4
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    // The packed block of C starts as zeros (the packing of C and the fill
    // are fused into the block above): fold pack(fill) into a fill of the
    // block. Patterns only apply inside the thread's block, where no handle
    // is at stake.
    transform.apply_patterns to %forall_5 {
      transform.apply_patterns.tensor.fold_into_pack_and_unpack
      transform.apply_patterns.canonicalization
    } : !transform.any_op

    // NC-blocks of columns inside the k-block, the B block (KC x NC)
    // packed per column block, the A block (MC x KC) once per k-block for
    // all of them (Goto's loop order: A is packed once in all, B once per
    // block of rows).
    %block_a = transform.get_producer_of_operand %product_k[0] : (!transform.any_op) -> !transform.any_op
    %block_b_k = transform.get_producer_of_operand %product_k[1] : (!transform.any_op) -> !transform.any_op
    %product_j, %loop_j = transform.structured.tile_using_for %product_k
        tile_sizes [0, %nc_panels, 0, 0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    %block_b, %loop_j_1 = transform.structured.fuse_into_containing_op %block_b_k into %loop_j
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)

    // Register tiles: one MR x NR tile of C, one step of k: the loops over
    // the micro-panels of A (outer) and B, then k.
    %kernel, %loop_m, %loop_n, %loop_kk = transform.structured.tile_using_for %product_j
        tile_sizes [1, 1, 1, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    // One SSA value for the k-size of the block: the size of the B block
    // (min(K of A, K of B, ...) of the k-fuse) and that of the A block
    // (tensor.dim of its packing, resolved) meet once the duplicate dims
    // of A are CSE'd and the mins merged; the packing of B then loops to a
    // bound its peeling can reason about (@vectorize_b_block_pack).
    transform.apply_cse to %forall_5 : !transform.any_op
    transform.apply_patterns to %forall_5 {
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.memref.resolve_ranked_shaped_type_result_dims
    } : !transform.any_op
    transform.apply_cse to %forall_5 : !transform.any_op
    transform.structured.vectorize %kernel vector_sizes [1, 1, 1, %mr, %nr]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>

    transform.include @vectorize_b_block_pack failures(propagate) (%block_b, %nr, %forall_5)
        : (!transform.any_op, !transform.param<i64>, !transform.any_op) -> ()
    transform.include @vectorize_a_block_pack failures(propagate) (%block_a, %pack_k, %pack_w)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()

    // The unpacking of the block of C is left to @finish_k_blocks (its
    // last k-block writes C itself), and so is the fill
    // (@finish_k_blocks drops it where it can); the caller tags the
    // unpack with its element type.
    %unpack_c = transform.structured.match ops{["linalg.unpack"]} in %forall_5
        : (!transform.any_op) -> !transform.any_op
    transform.yield %unpack_c : !transform.any_op
  }

  /// A block of rows of an elementwise op with fewer than `%vl` columns,
  /// known statically: one row per vector operation, a vector of the row's
  /// own width (a row of 8 f64 is one vector<8xf64>, not a vector<16xf64>
  /// under a mask: LLVM's InstCombine spent 30% of its time on the masked
  /// shuffles of such rows in issue 13's small functions, and LLVM -O2 took
  /// 13% less time on them after this, for the same machine code). Fails
  /// (silenceably, before changing anything) on other ops.
  transform.named_sequence @schedule_narrow_rows(
      %r: !transform.any_op {transform.consumed}, %vl: !transform.param<i64> {transform.readonly},
      %no_runtime_unroll: !transform.any_param {transform.readonly}) {
    %cols = transform.match.structured %r : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %c = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %c : !transform.param<i64>
    }
    // A dynamic size is negative.
    %zero = transform.param.constant 0 : i64 -> !transform.param<i64>
    transform.match.param.cmpi gt %cols, %zero : !transform.param<i64>
    transform.match.param.cmpi lt %cols, %vl : !transform.param<i64>
    %row, %loop = transform.structured.tile_using_for %r tile_sizes [1, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %loop "loop_annotation" = %no_runtime_unroll
        : !transform.any_op, !transform.any_param
    transform.structured.vectorize %row : !transform.any_op
    transform.yield
  }

  transform.named_sequence @schedule_elementwise(
      %op: !transform.any_op {transform.consumed}, %vl: !transform.param<i64> {transform.readonly}) {
    // Rows of 16 per scf.forall iteration, then one row of %vl elements per
    // vector operation: the main part unmasked, the last one masked.
    %rows, %forall = transform.structured.tile_using_forall %op tile_sizes [16, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %no_runtime_unroll = transform.param.constant
        #llvm.loop_annotation<unroll = <runtimeDisable = true>> -> !transform.any_param
    // A row of fewer than %vl columns, known statically, is one vector of
    // its own width instead (@schedule_narrow_rows). Rows left as
    // linalg.generic (dynamic or wide) take the path below.
    transform.sequence %rows : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      transform.include @schedule_narrow_rows failures(propagate) (%r, %vl, %no_runtime_unroll)
          : (!transform.any_op, !transform.param<i64>, !transform.any_param) -> ()
    }
    %wide = transform.structured.match ops{["linalg.generic"]} in %forall
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %wide : !transform.any_op {
    ^bb0(%w: !transform.any_op):
      %row, %loop_i, %loop_j = transform.structured.tile_using_for %w tile_sizes [1, %vl]
          : (!transform.any_op, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op, !transform.op<"scf.for">)
      // Both loops are kept from LLVM's runtime unrolling (the annotation
      // becomes llvm.loop.unroll.runtime.disable on the back edge, through
      // scf-to-cf): their bodies are whole vector rows already, and LLVM's
      // unrolled copy of 4 with its rest loop doubled the outlined OpenMP
      // body of a small function (144 instructions against 71 after LLVM
      // -O2). Measured on a 2-core AVX-512 Xeon, issue 13's 300 small
      // functions: `opt -O2` + `llc -O2` 11.2 s against 8.2 s, matc -O2 -c
      // 15.5 s against 13.9 s; elementwise speed 0.96-1.13x the unrolled
      // code (64 .. 2048, f32 and f64, 1 thread).
      transform.annotate %loop_i "loop_annotation" = %no_runtime_unroll
          : !transform.any_op, !transform.any_param
      transform.annotate %loop_j "loop_annotation" = %no_runtime_unroll
          : !transform.op<"scf.for">, !transform.any_param
      transform.include @peel_if_ragged failures(propagate) (%loop_j)
          : (!transform.op<"scf.for">) -> ()
      %tiles = transform.structured.match ops{["linalg.generic"]} in %loop_i
          : (!transform.any_op) -> !transform.any_op
      transform.structured.vectorize %tiles vector_sizes [1, %vl]
          : !transform.any_op, !transform.param<i64>
    }
    transform.yield
  }

  /// The schedule of a product small enough for the caches (generalized and
  /// tagged `matc.unpacked` by matrix-version-products, which keeps the
  /// matchers above off it): register tiles of
  /// `%mr` x NR (the generated entry passes at most 8 rows: LLVM must keep
  /// the address of every row of A in a register) read from A and B where
  /// they are (A broadcast element by element, B in rows of NR), starting
  /// from the fill of C where C is one, updating C in place; the main tiles unmasked (the loops
  /// over them peeled), the last row and column of tiles masked. No packing;
  /// with more than one thread, products with a long k-range come in one
  /// block of rows per thread (@matc_thread_rows), each tiled as above.
  transform.named_sequence @schedule_unpacked_matmul(
      %mm: !transform.any_op {transform.consumed},
      %mr: !transform.param<i64> {transform.readonly}, %nr: !transform.param<i64> {transform.readonly}) {
    %func = transform.get_parent_op %mm {isolated_from_above} : (!transform.any_op) -> !transform.any_op
    // Tiled with the fill of C fused into the tiles (through the loops'
    // iter_args): a register tile starts from zeros, not from a pass of the
    // fill over C.
    %t, %lm_any, %ln_any = transform.structured.fuse %mm tile_sizes [%mr, %nr, 0]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %t "matc.unpacked" : !transform.any_op
    %lm = transform.cast %lm_any : !transform.any_op to !transform.op<"scf.for">
    %ln = transform.cast %ln_any : !transform.any_op to !transform.op<"scf.for">
    // The fill of the register tile of C (when C is a fill; operands that
    // are fills get fused too and stay plain).
    transform.sequence %t : !transform.any_op failures(suppress) {
    ^bb0(%tile: !transform.any_op):
      %tile_fill = transform.get_producer_of_operand %tile[2] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %tile_fill ["linalg.fill"] : !transform.any_op
      transform.annotate %tile_fill "matc.unpacked" : !transform.any_op
    }
    transform.include @peel_if_ragged failures(propagate) (%ln) : (!transform.op<"scf.for">) -> ()
    // The last rows (fewer than %mr) of products tagged
    // `matc.unpacked_long_k` (matrix-version-products: a long k-range) in
    // register tiles of 4, 2 and 1 rows (each present or not), not in one
    // tile masked in its rows, which tests each row at every step of k.
    transform.sequence %lm : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      %last = transform.structured.match ops{["linalg.generic"]}
          attributes{matc.unpacked, matc.unpacked_long_k} in %rest
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %last : !transform.any_op {
      ^bb0(%one: !transform.any_op):
        transform.include @last_rows_by_4 failures(propagate) (%one) : (!transform.any_op) -> ()
      }
    }
    transform.apply_patterns to %func {
      transform.apply_patterns.linalg.tiling_canonicalization
    } : !transform.any_op
    %c4 = transform.param.constant 4 : i64 -> !transform.param<i64>
    %c2 = transform.param.constant 2 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %fills4 = transform.structured.match ops{["linalg.fill"]}
        attributes{matc.unpacked_rows = 4 : i64} in %func : (!transform.any_op) -> !transform.any_op
    %tiles4 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked_rows = 4 : i64} in %func : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_unpacked failures(propagate) (%fills4, %tiles4, %c4, %nr)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %fills2 = transform.structured.match ops{["linalg.fill"]}
        attributes{matc.unpacked_rows = 2 : i64} in %func : (!transform.any_op) -> !transform.any_op
    %tiles2 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked_rows = 2 : i64} in %func : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_unpacked failures(propagate) (%fills2, %tiles2, %c2, %nr)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %fills1 = transform.structured.match ops{["linalg.fill"]}
        attributes{matc.unpacked_rows = 1 : i64} in %func : (!transform.any_op) -> !transform.any_op
    %tiles1 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked_rows = 1 : i64} in %func : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_unpacked failures(propagate) (%fills1, %tiles1, %c1, %nr)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %fills = transform.structured.match ops{["linalg.fill"]} attributes{matc.unpacked} in %func
        : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %fills vector_sizes [%mr, %nr]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    %all = transform.structured.match ops{["linalg.generic"]} attributes{matc.unpacked} in %func
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %all : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %k, %lk = transform.structured.tile_using_for %one tile_sizes [0, 0, 1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.structured.vectorize %k vector_sizes [%mr, %nr, 1]
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield
  }

  /// Matrix-vector products (matrix-version-products' `matc.dot` = "f32"
  /// or "f64": C (M x 1) = A (M x K) B (K x 1), A row-major): each element
  /// of C is the dot product of a row of A, contiguous in memory, and B's
  /// column. The rows run in blocks of 4 (the last M mod 4 one by one), the
  /// fill of C fused in; per block, k runs `%kv` elements at a time
  /// (upstream tile_reduction_using_for: partial sums in a 4 x 1 x %kv
  /// tensor, one vector per row, added up across its lanes once per block
  /// by the combining linalg.reduce), the main loop over k whole, the last
  /// K mod %kv elements masked (@split_dot_k). The row tiles are annotated
  /// `matc.dot_rows` = 4 or 1. `%kv` is 512 bits of elements
  /// (one AVX-512 register, two AVX2 ones): a row of A streams through
  /// one vector register, so that the loads of A, not the adds, bound it.
  transform.named_sequence @tile_dot_rows(%mv: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly}) {
    %c4 = transform.param.constant 4 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    // One block of rows per thread (ceil(M / threads) rows), the fill of C
    // fused in.
    %block, %forall = transform.structured.tile_using_forall %mv num_threads [%threads, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.sequence %forall : !transform.any_op failures(suppress) {
    ^bb0(%f: !transform.any_op):
      %fill = transform.get_producer_of_operand %f[0] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %fill ["linalg.fill"] : !transform.any_op
      %fused, %loop = transform.structured.fuse_into_containing_op %fill into %f
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %t, %lm_any = transform.structured.fuse %block tile_sizes [4, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.annotate %t "matc.dot_rows" = %c4 : !transform.any_op, !transform.param<i64>
    transform.annotate %t "matc.dot_tile" : !transform.any_op
    %lm = transform.cast %lm_any : !transform.any_op to !transform.op<"scf.for">
    transform.sequence %lm : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      %last = transform.structured.match ops{["linalg.generic"]}
          attributes{matc.dot_tile} in %rest : (!transform.any_op) -> !transform.any_op
      %t1, %l1 = transform.structured.fuse %last tile_sizes [1, 0]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.annotate %t1 "matc.dot_rows" = %c1 : !transform.any_op, !transform.param<i64>
    }
    transform.yield
  }

  /// The remainders of the dot products' k-ranges in `%parent`, once
  /// vectorized: their partial sums read and written whole under a select
  /// (transform.apply_patterns.matc.unmask_accumulator_slices, on masked
  /// transfers, not on vector.mask ops), not masked.
  transform.named_sequence @unmask_dot_remainder(%parent: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %parent {
      transform.apply_patterns.vector.lower_masked_transfers
    } : !transform.any_op
    transform.apply_patterns to %parent {
      transform.apply_patterns.matc.unmask_accumulator_slices
    } : !transform.any_op
    transform.yield
  }

  /// The split of k of @tile_dot_rows for one tile of `%rows` rows
  /// (`%tile`'s ops after tile_reduction_using_for, per element type below:
  /// it takes static sizes only): the loop over k peeled, the partial
  /// products vectorized in both loops (unmasked in the main one), then the
  /// fill of the partial sums, the combining reduction across the lanes and
  /// the fill of the tile of C.
  transform.named_sequence @split_dot_k(%split: !transform.any_op {transform.readonly},
      %combine: !transform.any_op {transform.consumed},
      %fill: !transform.any_op {transform.consumed},
      %loop: !transform.any_op {transform.readonly},
      %rows: !transform.param<i64> {transform.readonly},
      %kv: !transform.param<i64> {transform.readonly}) {
    transform.annotate %split "matc.dot_split" : !transform.any_op
    %parent = transform.get_parent_op %loop : (!transform.any_op) -> !transform.any_op
    %lf = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.include @peel_if_ragged failures(propagate) (%lf)
        : (!transform.op<"scf.for">) -> ()
    %splits = transform.structured.match attributes{matc.dot_split} in %parent
        : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %splits vector_sizes [%rows, %kv]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.include @unmask_dot_remainder failures(propagate) (%parent)
        : (!transform.any_op) -> ()
    transform.sequence %combine : !transform.any_op failures(suppress) {
    ^bb0(%c: !transform.any_op):
      %tile_fill = transform.get_producer_of_operand %c[1] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %tile_fill ["linalg.fill"] : !transform.any_op
      transform.structured.vectorize %tile_fill vector_sizes [%rows]
          : !transform.any_op, !transform.param<i64>
    }
    transform.structured.vectorize %combine : !transform.any_op
    transform.structured.vectorize %fill : !transform.any_op
    transform.yield
  }
  transform.named_sequence @split_dot_k_f32(%tile: !transform.any_op {transform.consumed},
      %rows: !transform.param<i64> {transform.readonly}) {
    %kv = transform.param.constant 16 : i64 -> !transform.param<i64>
    %fill, %split, %combine, %loop = transform.structured.tile_reduction_using_for %tile
        by tile_sizes = [0, 16]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @split_dot_k failures(propagate) (%split, %combine, %fill, %loop, %rows, %kv)
        : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  transform.named_sequence @split_dot_k_f64(%tile: !transform.any_op {transform.consumed},
      %rows: !transform.param<i64> {transform.readonly}) {
    %kv = transform.param.constant 8 : i64 -> !transform.param<i64>
    %fill, %split, %combine, %loop = transform.structured.tile_reduction_using_for %tile
        by tile_sizes = [0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @split_dot_k failures(propagate) (%split, %combine, %fill, %loop, %rows, %kv)
        : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  /// Products of 2 to 7 columns (matrix-version-products'
  /// `matc.dot_columns` = "f32" or "f64": C (M x N) = A (M x K) times the
  /// transposed copy B^T (N x K), N static): per row of A, its dot
  /// products with the N rows of B^T, `%kv` elements of k at a time
  /// (tile_reduction_using_for: partial sums in a 1 x N x %kv tensor, N
  /// vectors), added up across the lanes at the end (@split_dot_k). One
  /// row at a time: the N partial sums, A's vector and B^T's N vectors fit
  /// in 16 registers of 256 bits for N up to 4, and A is read once either
  /// way. Returns the row tile and N.
  transform.named_sequence @tile_dot_columns(%op: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly})
      -> (!transform.any_op, !transform.param<i64>) {
    %n = transform.match.structured %op : (!transform.any_op) -> !transform.param<i64> {
    ^bb0(%s: !transform.any_op):
      %c = transform.match.structured.dim %s[1] : (!transform.any_op) -> !transform.param<i64>
      transform.match.structured.yield %c : !transform.param<i64>
    }
    %block, %forall = transform.structured.tile_using_forall %op num_threads [%threads, 0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.any_op)
    transform.sequence %forall : !transform.any_op failures(suppress) {
    ^bb0(%f: !transform.any_op):
      %fill = transform.get_producer_of_operand %f[0] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %fill ["linalg.fill"] : !transform.any_op
      %fused, %loop = transform.structured.fuse_into_containing_op %fill into %f
          : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    }
    %row, %lm = transform.structured.fuse %block tile_sizes [1, 0, 0]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield %row, %n : !transform.any_op, !transform.param<i64>
  }
  /// @split_dot_k for the one-row tiles of @tile_dot_columns: partial
  /// products in vectors of 1 x %n x %kv, the tile of C 1 x %n.
  transform.named_sequence @split_dot_columns_k(%split: !transform.any_op {transform.readonly},
      %combine: !transform.any_op {transform.consumed},
      %fill: !transform.any_op {transform.consumed},
      %loop: !transform.any_op {transform.readonly},
      %n: !transform.param<i64> {transform.readonly},
      %kv: !transform.param<i64> {transform.readonly}) {
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    transform.annotate %split "matc.dot_split" : !transform.any_op
    %parent = transform.get_parent_op %loop : (!transform.any_op) -> !transform.any_op
    %lf = transform.cast %loop : !transform.any_op to !transform.op<"scf.for">
    transform.include @peel_if_ragged failures(propagate) (%lf)
        : (!transform.op<"scf.for">) -> ()
    %splits = transform.structured.match attributes{matc.dot_split} in %parent
        : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %splits vector_sizes [%c1, %n, %kv]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>
    transform.include @unmask_dot_remainder failures(propagate) (%parent)
        : (!transform.any_op) -> ()
    transform.sequence %combine : !transform.any_op failures(suppress) {
    ^bb0(%c: !transform.any_op):
      %tile_fill = transform.get_producer_of_operand %c[1] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %tile_fill ["linalg.fill"] : !transform.any_op
      transform.structured.vectorize %tile_fill vector_sizes [%c1, %n]
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }
    transform.structured.vectorize %combine : !transform.any_op
    transform.structured.vectorize %fill : !transform.any_op
    transform.yield
  }
  transform.named_sequence @dot_columns_f32(%op: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly}) {
    %kv = transform.param.constant 16 : i64 -> !transform.param<i64>
    %row, %n = transform.include @tile_dot_columns failures(propagate) (%op, %threads)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    %fill, %split, %combine, %loop = transform.structured.tile_reduction_using_for %row
        by tile_sizes = [0, 0, 16]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @split_dot_columns_k failures(propagate) (%split, %combine, %fill, %loop, %n, %kv)
        : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
  transform.named_sequence @dot_columns_f64(%op: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly}) {
    %kv = transform.param.constant 8 : i64 -> !transform.param<i64>
    %row, %n = transform.include @tile_dot_columns failures(propagate) (%op, %threads)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    %fill, %split, %combine, %loop = transform.structured.tile_reduction_using_for %row
        by tile_sizes = [0, 0, 8]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op)
    transform.include @split_dot_columns_k failures(propagate) (%split, %combine, %fill, %loop, %n, %kv)
        : (!transform.any_op, !transform.any_op, !transform.any_op, !transform.any_op,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  /// Products of a tiny static B (matrix-version-products'
  /// `matc.tiny_rhs`: K and N at most 16, N not a multiple of 8, M large:
  /// `points @ rotation`): the rows split between the threads and taken one
  /// at a time (@tile_dot_columns), each row of C (1 x N) a vector computed
  /// by K multiply-adds of a broadcast element of A and a row of B, B's K
  /// rows read once, before the loop (hoisted by
  /// @hoist_and_lower_contractions), the fill of C into the same vector.
  /// The plain loops instead zeroed C in a pass of its own and left LLVM
  /// the rows of stride N, behind run-time alias tests of C and A:
  /// 100000 x 3 @ 3 x 3 f64 0.44 ms against NumPy's 0.12-0.15 (Zen 4).
  transform.named_sequence @tiny_rhs_rows(%op: !transform.any_op {transform.consumed},
      %threads: !transform.param<i64> {transform.readonly}) {
    %row, %n = transform.include @tile_dot_columns failures(propagate) (%op, %threads)
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.param<i64>)
    transform.sequence %row : !transform.any_op failures(suppress) {
    ^bb0(%r: !transform.any_op):
      %fill = transform.get_producer_of_operand %r[2] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %fill ["linalg.fill"] : !transform.any_op
      transform.structured.vectorize %fill : !transform.any_op
    }
    transform.structured.vectorize %row : !transform.any_op
    transform.yield
  }

  /// Vector-matrix products of a C of at most one vector, split along k
  /// (matrix-version-products' `matc.vector_matrix_split` = "f32" or
  /// "f64": partial sums P (8 x L) += x (K / 8 x 8) times the matrix viewed
  /// as K / 8 x 8 x L, loops r, l, ko): ko tiled by 1, the innermost loop,
  /// P's 8 x `%lanes` vector (masked to L) carried in registers across it
  /// (@hoist_and_lower_contractions), one multiply-add per row r and step:
  /// 8 independent chains; P's fill one vector of the same shape.
  transform.named_sequence @schedule_vector_matrix_split(%op: !transform.any_op {transform.consumed},
      %lanes: !transform.param<i64> {transform.readonly}) {
    %rows = transform.param.constant 8 : i64 -> !transform.param<i64>
    %fill = transform.get_producer_of_operand %op[2] : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %fill vector_sizes [%rows, %lanes]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    %step, %lk = transform.structured.tile_using_for %op tile_sizes [0, 0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %step vector_sizes [%rows, %lanes, 1]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  /// The rest of a vector-matrix product split along k
  /// (`matc.vector_matrix_rest`: C (L) = its init + the sum of the 8 rows
  /// of the partial sums, then + the last K mod 8 rows of the matrix scaled
  /// by x; loops l, k), and the vector-matrix products of a C under one
  /// tile (`matc.vector_matrix_carried`, `%lanes` C's width in registers):
  /// k tiled by 1, C's `%lanes` elements (one vector, or several; masked to
  /// L) carried across it; the fill of C, if C is one (the init of the sum,
  /// its operand 1), of the same width.
  transform.named_sequence @schedule_vector_matrix_rest(%op: !transform.any_op {transform.consumed},
      %lanes: !transform.param<i64> {transform.readonly}) {
    transform.sequence %op : !transform.any_op failures(suppress) {
    ^bb0(%o: !transform.any_op):
      // (Empty for a block argument.)
      %p = transform.get_producer_of_operand %o[1] : (!transform.any_op) -> !transform.any_op
      transform.foreach %p : !transform.any_op {
      ^bb1(%fill: !transform.any_op):
        transform.match.operation_name %fill ["linalg.fill"] : !transform.any_op
        transform.structured.vectorize %fill vector_sizes [%lanes]
            : !transform.any_op, !transform.param<i64>
      }
    }
    %step, %lk = transform.structured.tile_using_for %op tile_sizes [0, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.structured.vectorize %step vector_sizes [%lanes, 1]
        : !transform.any_op, !transform.param<i64>
    transform.yield
  }

  /// The generics of the vector-matrix products split along k of one
  /// element type: `%split` (@schedule_vector_matrix_split) and `%rest`
  /// (@schedule_vector_matrix_rest), in vectors of `%lanes` elements.
  transform.named_sequence @schedule_vector_matrix_splits(%split: !transform.any_op {transform.consumed},
      %rest: !transform.any_op {transform.consumed},
      %lanes: !transform.param<i64> {transform.readonly}) {
    transform.foreach %split : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_vector_matrix_split failures(propagate) (%op, %lanes)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    transform.foreach %rest : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_vector_matrix_rest failures(propagate) (%op, %lanes)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    transform.yield
  }

  /// Vector-matrix products (matrix-version-products'
  /// `matc.vector_matrix` = "f32" or "f64": c (L) += x (K) times a
  /// row-major matrix (K x L), loops l, k): c as a sum of the matrix's rows
  /// scaled by the elements of x (axpy updates, as BLAS's gemv of a
  /// transposed matrix): one block of c's elements per thread (whole
  /// tiles), the fill of c fused in; per block, k runs in blocks of 8 rows
  /// (outer), each block updating c `%w` elements at a time (inner), those
  /// elements kept in registers across the 8 rows (the loop over them, k
  /// tiled by 1, is the innermost; @hoist_and_lower_contractions hoists c
  /// out of it): the matrix streams in 8 rows at once, each read in order,
  /// and c stays in the L1. The loops over the blocks of k and the tiles
  /// of c peeled: the main tiles unmasked, the last tile of c masked in l,
  /// the last block of k a shorter loop. (Blocks of 16 rows took twice the
  /// time on Zen 4: 16 rows of a power-of-two length share an L1 set.)
  transform.named_sequence @schedule_vector_matrix(%op: !transform.any_op {transform.consumed},
      %w: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) {
    // Blocks of whole tiles of c, ceil(L / threads) elements rounded up to
    // a tile (computed at run time): a c of at most one tile is one block
    // (matrix-omp-if-multiple-iterations then forks no thread), and two
    // threads never share a cache line of c. (Blocks of ceil(L / threads)
    // gave a c of 2 to 32 f64 elements a block per thread, each thread
    // reading every row of the matrix, and 1.2-3.4x the time of one thread:
    // x @ b of 200000 x 2 to 200000 x 32 f64, Zen 4.) The bound on a block
    // is only there for the op: c has no buffer per block.
    %big = transform.param.constant 1073741824 : i64 -> !transform.param<i64>
    %cols = transform.matc.thread_row_block %op max_rows(%big) multiple(%w) threads(%threads)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>, !transform.param<i64>)
        -> !transform.any_op
    // The fill of c, if c is one (else an empty handle), fused into the
    // blocks.
    %fill = transform.sequence %op : (!transform.any_op) -> !transform.any_op failures(suppress) {
    ^bb0(%o: !transform.any_op):
      // (Empty for a block argument.)
      %p = transform.get_producer_of_operand %o[2] : (!transform.any_op) -> !transform.any_op
      %f = transform.foreach %p : !transform.any_op -> !transform.any_op {
      ^bb1(%q: !transform.any_op):
        transform.match.operation_name %q ["linalg.fill"] : !transform.any_op
        transform.yield %q : !transform.any_op
      }
      transform.yield %f : !transform.any_op
    }
    %block, %forall = transform.structured.tile_using_forall %op tile_sizes [%cols, 0]
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fused, %forall_fused = transform.structured.fuse_into_containing_op %fill into %forall
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %tile, %lk, %ll = transform.structured.tile_using_for %block tile_sizes [%w, 8]
        interchange = [1, 0]
        : (!transform.any_op, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.annotate %ll "matc.vector_matrix_tiles" : !transform.any_op
    // (Tiling keeps no attribute of the op; peeling copies them.)
    transform.annotate %tile "matc.vector_matrix_tile" : !transform.any_op
    %lkf = transform.cast %lk : !transform.any_op to !transform.op<"scf.for">
    transform.include @peel_if_ragged failures(propagate) (%lkf)
        : (!transform.op<"scf.for">) -> ()
    %tile_loops = transform.structured.match ops{["scf.for"]}
        attributes{matc.vector_matrix_tiles} in %forall_fused
        : (!transform.any_op) -> !transform.any_op
    transform.include @peel_each_if_ragged failures(propagate) (%tile_loops)
        : (!transform.any_op) -> ()
    %tiles = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_tile} in %forall_fused
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %tiles : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %row, %lr = transform.structured.tile_using_for %one tile_sizes [0, 1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.structured.vectorize %row vector_sizes [%w, 1]
          : !transform.any_op, !transform.param<i64>
    }
    transform.yield
  }

  /// The last rows of an unpacked product (`%op`, fewer than MR rows) in
  /// register tiles of 4, then 2, then 1 rows: `%op` tiled by 4 rows with
  /// the fill of C fused in (@tile_last_rows), the loop peeled, the rows
  /// left (if any) by 2, and so on. The tiles and their fills are tagged
  /// `matc.unpacked_rows` = 4, 2 or 1 for @vectorize_unpacked.
  transform.named_sequence @last_rows_by_4(%op: !transform.any_op {transform.consumed}) {
    %tag = transform.param.constant 4 : i64 -> !transform.param<i64>
    %loop = transform.include @tile_last_rows failures(propagate) (%op, %tag)
        : (!transform.any_op, !transform.param<i64>) -> !transform.op<"scf.for">
    transform.sequence %loop : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      %left = transform.structured.match ops{["linalg.generic"]} attributes{matc.unpacked} in %rest
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %left : !transform.any_op {
      ^bb0(%one: !transform.any_op):
        transform.include @last_rows_by_2 failures(propagate) (%one) : (!transform.any_op) -> ()
      }
    }
    transform.yield
  }
  transform.named_sequence @last_rows_by_2(%op: !transform.any_op {transform.consumed}) {
    %tag = transform.param.constant 2 : i64 -> !transform.param<i64>
    %loop = transform.include @tile_last_rows failures(propagate) (%op, %tag)
        : (!transform.any_op, !transform.param<i64>) -> !transform.op<"scf.for">
    transform.sequence %loop : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
      %left = transform.structured.match ops{["linalg.generic"]} attributes{matc.unpacked} in %rest
          : (!transform.any_op) -> !transform.any_op
      transform.foreach %left : !transform.any_op {
      ^bb0(%one: !transform.any_op):
        %tag1 = transform.param.constant 1 : i64 -> !transform.param<i64>
        %loop1 = transform.include @tile_last_rows failures(propagate) (%one, %tag1)
            : (!transform.any_op, !transform.param<i64>) -> !transform.op<"scf.for">
      }
    }
    transform.yield
  }

  /// Tiles `%op` by `%rows` rows with the fill of C fused in, tags the tile
  /// and the fill `matc.unpacked_rows` = `%rows`; returns the loop.
  transform.named_sequence @tile_last_rows(%op: !transform.any_op {transform.consumed},
      %rows: !transform.param<i64> {transform.readonly}) -> !transform.op<"scf.for"> {
    %tile, %loop = transform.structured.fuse %op tile_sizes [%rows, 0, 0]
        : (!transform.any_op, !transform.param<i64>) -> (!transform.any_op, !transform.op<"scf.for">)
    transform.annotate %tile "matc.unpacked_rows" = %rows : !transform.any_op, !transform.param<i64>
    transform.sequence %tile : !transform.any_op failures(suppress) {
    ^bb0(%t: !transform.any_op):
      %fill = transform.get_producer_of_operand %t[2] : (!transform.any_op) -> !transform.any_op
      transform.match.operation_name %fill ["linalg.fill"] : !transform.any_op
      transform.annotate %fill "matc.unpacked_rows" = %rows : !transform.any_op, !transform.param<i64>
    }
    transform.yield %loop : !transform.op<"scf.for">
  }

  /// Vectorizes register tiles of `%rows` x `%nr` of unpacked products
  /// (`%fills` of C and `%products`), as @schedule_unpacked_matmul does
  /// those of MR rows.
  transform.named_sequence @vectorize_unpacked(%fills: !transform.any_op {transform.consumed},
      %products: !transform.any_op {transform.consumed},
      %rows: !transform.param<i64> {transform.readonly}, %nr: !transform.param<i64> {transform.readonly}) {
    transform.structured.vectorize %fills vector_sizes [%rows, %nr]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.foreach %products : !transform.any_op {
    ^bb0(%one: !transform.any_op):
      %k, %lk = transform.structured.tile_using_for %one tile_sizes [0, 0, 1]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.structured.vectorize %k vector_sizes [%rows, %nr, 1]
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    }
    transform.yield
  }

  /// Leaves `%op` to the plain lowering.
  transform.named_sequence @keep(%op: !transform.any_op {transform.readonly}) {
    transform.yield
  }

  /// Peels the last, partial iteration off `%loop` into a loop of its own,
  /// so that the main loop runs whole steps only. loop.peel fails (and
  /// nothing needs doing) when the step statically divides the trip count.
  transform.named_sequence @peel_if_ragged(
      %loop: !transform.op<"scf.for"> {transform.consumed}) {
    transform.sequence %loop : !transform.op<"scf.for"> failures(suppress) {
    ^bb0(%l: !transform.op<"scf.for">):
      %main, %rest = transform.loop.peel %l
          : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
    }
    transform.yield
  }

  /// @peel_if_ragged on each loop of `%loops` (scf.for ops), in order.
  transform.named_sequence @peel_each_if_ragged(%loops: !transform.any_op {transform.readonly}) {
    transform.foreach %loops : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      %lf = transform.cast %l : !transform.any_op to !transform.op<"scf.for">
      transform.include @peel_if_ragged failures(propagate) (%lf)
          : (!transform.op<"scf.for">) -> ()
    }
    transform.yield
  }

  /// Cleans up after the schedules above, once for the whole module (each
  /// pattern set costs its construction; per op, they would dominate the
  /// compile time): hoists the vector accumulators out of the loops over k,
  /// lowers vector.contract to vector.outerproduct, then to vector.fma, and
  /// masked and permuted transfers to plain ones.
  transform.named_sequence @hoist_and_lower_contractions(
      %root: !transform.any_op {transform.readonly}) {
    transform.apply_patterns to %root {
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_masked_transfers
    } : !transform.any_op
    transform.apply_patterns to %root {
      transform.apply_patterns.canonicalization
      transform.apply_patterns.linalg.tiling_canonicalization
      transform.apply_patterns.tensor.fold_tensor_empty
    } : !transform.any_op
    %loops = transform.structured.match ops{["scf.for"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.apply_licm to %loops : !transform.any_op
    // Twice: the first round hoists the tensor slices, the second the vector
    // transfers of the slices.
    transform.foreach %loops : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    }
    transform.foreach %loops : !transform.any_op {
    ^bb0(%l: !transform.any_op):
      transform.loop.hoist_loop_invariant_subsets %l : !transform.any_op
    }
    transform.apply_patterns to %root {
      transform.apply_patterns.vector.reduction_to_contract
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    } : !transform.any_op
    transform.apply_patterns to %root {
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"
    } : !transform.any_op
    transform.include @matc_lower_transposes failures(propagate) (%root)
        : (!transform.any_op) -> ()
    transform.yield
  }

  /// Unpacks the blocks of C of `%unpacks` (linalg.unpack ops of packed
  /// products whose last k-block could not write C itself) one register
  /// tile of `%mr` x `%nr` at a time, masked at the edges of C.
  transform.named_sequence @vectorize_unpacks(%unpacks: !transform.any_op {transform.consumed},
      %mr: !transform.param<i64> {transform.readonly}, %nr: !transform.param<i64> {transform.readonly}) {
    transform.foreach %unpacks : !transform.any_op {
    ^bb0(%unpack: !transform.any_op):
      %func = transform.get_parent_op %unpack {isolated_from_above}
          : (!transform.any_op) -> !transform.any_op
      %unpack_t, %loops:2 = transform.structured.tile_using_for %unpack tile_sizes [%mr, %nr]
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
          -> (!transform.any_op, !transform.any_op, !transform.any_op)
      // Found again after peeling, which copies it.
      transform.annotate %unpack_t "matc.unpack_tile" : !transform.any_op
      // The loops over the tiles peeled (the inner ones first): only the
      // last row and column of tiles are masked (a masked store is 42
      // micro-ops on Zen 1-3).
      %unpack_loops = transform.merge_handles %loops#1, %loops#0 : !transform.any_op
      transform.include @peel_each_if_ragged failures(propagate) (%unpack_loops)
          : (!transform.any_op) -> ()
      %tiles = transform.structured.match ops{["linalg.unpack"]} attributes{matc.unpack_tile} in %func
          : (!transform.any_op) -> !transform.any_op
      transform.structured.vectorize %tiles vector_sizes [1, 1, %mr, %nr]
          : !transform.any_op, !transform.param<i64>, !transform.param<i64>
      transform.apply_patterns to %func {
        transform.apply_patterns.vector.transfer_permutation_patterns
        transform.apply_patterns.vector.lower_masked_transfers
        transform.apply_patterns.vector.cast_away_vector_leading_one_dim
        transform.apply_patterns.canonicalization
      } : !transform.any_op
    }
    transform.yield
  }

  /// The packed products' k-blocks, once their accumulators are hoisted
  /// out of the loops over k (each loop over the k-blocks, tagged
  /// `matc.k_blocks` by @schedule_packed_matmul):
  ///   - the first k-block starts its register tiles from zeros instead of
  ///     a zero-filled block of C (transform.matc.zero_first_accumulation);
  ///   - the last one writes its register tiles into C itself instead of
  ///     the packed block of C, whose unpacking goes
  ///     (transform.matc.fuse_unpack_into_last_k_block).
  /// A block whose loop does not have the expected form keeps its fill,
  /// tiled by register tiles and vectorized here (its shape is static
  /// then), or its unpacking (the unpacks @schedule_packed_matmul returned,
  /// tagged `matc.unpack_f32` or `matc.unpack_f64` by @schedule_all),
  /// vectorized by @vectorize_unpacks.
  transform.named_sequence @finish_k_blocks(%root: !transform.any_op {transform.readonly},
      %mr32: !transform.param<i64> {transform.readonly}, %nr32: !transform.param<i64> {transform.readonly},
      %mr64: !transform.param<i64> {transform.readonly}, %nr64: !transform.param<i64> {transform.readonly}) {
    %k_blocks = transform.structured.match ops{["scf.for"]} attributes{matc.k_blocks} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %k_blocks : !transform.any_op {
    ^bb0(%k_loop: !transform.any_op):
      transform.sequence %k_loop : !transform.any_op failures(suppress) {
      ^bb1(%l: !transform.any_op):
        transform.matc.zero_first_accumulation %l : !transform.any_op
      }
      transform.sequence %k_loop : !transform.any_op failures(suppress) {
      ^bb1(%l: !transform.any_op):
        transform.matc.fuse_unpack_into_last_k_block %l : !transform.any_op
      }
    }
    %fills = transform.collect_matching @match_packed_fill in %root
        : (!transform.any_op) -> !transform.any_op
    %fills_t, %fills_l:2 = transform.structured.tile_using_for %fills tile_sizes [1, 1]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.structured.vectorize %fills_t : !transform.any_op
    %unpacks32 = transform.structured.match ops{["linalg.unpack"]} attributes{matc.unpack_f32} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_unpacks failures(propagate) (%unpacks32, %mr32, %nr32)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    %unpacks64 = transform.structured.match ops{["linalg.unpack"]} attributes{matc.unpack_f64} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.include @vectorize_unpacks failures(propagate) (%unpacks64, %mr64, %nr64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }

  //===--------------------------------------------------------------------===//
  // Entry points
  //===--------------------------------------------------------------------===//

  transform.named_sequence @matc_generalize(%root: !transform.any_op {transform.readonly}) {
    %transposes = transform.structured.match ops{["linalg.transpose"]} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.structured.generalize %transposes : (!transform.any_op) -> !transform.any_op
    transform.yield
  }

  /// Tags `%op` with the schedule to apply (the matcher that chose this
  /// action says which). foreach_match runs its actions during its walk of
  /// the payload, where rewriting would break the walk: the schedules run
  /// afterwards, on the tagged ops.
  transform.named_sequence @tag_matmul_f32(%op: !transform.any_op {transform.readonly}) {
    %tag = transform.param.constant "matmul_f32" -> !transform.any_param
    transform.annotate %op "matc.codegen" = %tag : !transform.any_op, !transform.any_param
    transform.yield
  }
  transform.named_sequence @tag_matmul_f64(%op: !transform.any_op {transform.readonly}) {
    %tag = transform.param.constant "matmul_f64" -> !transform.any_param
    transform.annotate %op "matc.codegen" = %tag : !transform.any_op, !transform.any_param
    transform.yield
  }
  transform.named_sequence @tag_elementwise_f32(%op: !transform.any_op {transform.readonly}) {
    %tag = transform.param.constant "elementwise_f32" -> !transform.any_param
    transform.annotate %op "matc.codegen" = %tag : !transform.any_op, !transform.any_param
    transform.yield
  }
  transform.named_sequence @tag_elementwise_f64(%op: !transform.any_op {transform.readonly}) {
    %tag = transform.param.constant "elementwise_f64" -> !transform.any_param
    transform.annotate %op "matc.codegen" = %tag : !transform.any_op, !transform.any_param
    transform.yield
  }

  /// A transposed copy (a linalg.generic tagged `matc.transpose` and
  /// `matc.transpose_rows`: two parallel loops over the copy's rows i and
  /// columns j, inputs read at (j, i), or at (i, j) for those in place; by
  /// matrix-codegen for an elementwise op reading an operand transposed, by
  /// matrix-outline-products for its copies of C^T) in square blocks of `%w` x `%w` (a vector register's lanes), read whole
  /// and transposed in registers. Both loops are peeled when ragged: the
  /// last columns of the copy (fewer than `%w` rows of the source) are
  /// copied one at a time, a row of the source read as a vector written to
  /// a column, and the last rows one at a time likewise, not as blocks
  /// masked in their rows, whose masked-off rows are loads past the end of
  /// the source, or stores past the end of the copy (on AMD's Zen 4, an
  /// assist each when they reach an unmapped page: a 4 x 1000 f64 source
  /// took 80 us, against 1 us row by row).
  transform.named_sequence @schedule_transposed_copy(
      %op: !transform.any_op {transform.consumed},
      %w: !transform.param<i64> {transform.readonly}) {
    // The tiles keep this mark: the blocks left at the end are this op's.
    transform.annotate %op "matc.transpose_block" : !transform.any_op
    %func = transform.get_parent_op %op {isolated_from_above}
        : (!transform.any_op) -> !transform.any_op
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %t, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [%w, %w]
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>)
        -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // (No loop when the size is static and at most `%w`: foreach over none.)
    transform.foreach %l1 : !transform.any_op {
    ^bb0(%l1a: !transform.any_op):
      %l1f = transform.cast %l1a : !transform.any_op to !transform.op<"scf.for">
      transform.sequence %l1f : !transform.op<"scf.for"> failures(suppress) {
      ^bb0(%l: !transform.op<"scf.for">):
        %main, %rest = transform.loop.peel %l
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
        // (No rest when the loop had one partial iteration: none.)
        transform.foreach %rest : !transform.any_op {
        ^bb0(%r: !transform.any_op):
          %last = transform.structured.match ops{["linalg.generic"]} in %r
              : (!transform.any_op) -> !transform.any_op
          %row, %lr = transform.structured.tile_using_for %last tile_sizes [0, 1]
              : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          transform.structured.vectorize %row vector_sizes [%w, %c1]
              : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        }
      }
    }
    // Likewise the copy's last rows (the source's last columns), each a
    // row of the copy written whole from a column of the source, not a
    // block whose masked-off rows are writes past the end of the copy.
    transform.foreach %l0 : !transform.any_op {
    ^bb0(%l0a: !transform.any_op):
      %l0f = transform.cast %l0a : !transform.any_op to !transform.op<"scf.for">
      transform.sequence %l0f : !transform.op<"scf.for"> failures(suppress) {
      ^bb0(%l: !transform.op<"scf.for">):
        %main, %rest = transform.loop.peel %l
            : (!transform.op<"scf.for">) -> (!transform.any_op, !transform.any_op)
        // (No rest when the loop had one partial iteration: none.)
        transform.foreach %rest : !transform.any_op {
        ^bb0(%r: !transform.any_op):
          %last = transform.structured.match ops{["linalg.generic"]}
              attributes{matc.transpose_block} in %r
              : (!transform.any_op) -> !transform.any_op
          %row, %lr = transform.structured.tile_using_for %last tile_sizes [1, 0]
              : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
          transform.structured.vectorize %row vector_sizes [%c1, %w]
              : !transform.any_op, !transform.param<i64>, !transform.param<i64>
        }
      }
    }
    // The whole blocks (every block, when the loops were not peeled).
    %blocks = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.transpose_block} in %func
        : (!transform.any_op) -> !transform.any_op
    transform.structured.vectorize %blocks vector_sizes [%w, %w]
        : !transform.any_op, !transform.param<i64>, !transform.param<i64>
    transform.yield
  }

  /// Tags every op of `%root` with the schedule it gets (see the tag_*
  /// sequences above) and applies them: matrix products packed by the
  /// generated @matc_pack_matmul_* sequences, then blocks of MC rows of C,
  /// KC-blocks of k, NC-blocks of columns (NCP = NC / NR micro-panels) and
  /// MR x NR register tiles, for f32 and f64, in blocks of C of MC x NCB;
  /// elementwise ops with vectors of VL elements; vector-matrix products in
  /// tiles of C of VMW elements, or split along k in vectors of LANES
  /// elements.
  transform.named_sequence @schedule_all(%root: !transform.any_op {transform.consumed},
      %mr32: !transform.param<i64> {transform.readonly}, %nr32: !transform.param<i64> {transform.readonly},
      %kc32: !transform.param<i64> {transform.readonly}, %mc32: !transform.param<i64> {transform.readonly},
      %ncp32: !transform.param<i64> {transform.readonly}, %pk32: !transform.param<i64> {transform.readonly},
      %pw32: !transform.param<i64> {transform.readonly}, %mru32: !transform.param<i64> {transform.readonly},
      %mr64: !transform.param<i64> {transform.readonly}, %nr64: !transform.param<i64> {transform.readonly},
      %kc64: !transform.param<i64> {transform.readonly}, %mc64: !transform.param<i64> {transform.readonly},
      %ncp64: !transform.param<i64> {transform.readonly}, %pk64: !transform.param<i64> {transform.readonly},
      %pw64: !transform.param<i64> {transform.readonly}, %mru64: !transform.param<i64> {transform.readonly},
      %vl32: !transform.param<i64> {transform.readonly}, %vl64: !transform.param<i64> {transform.readonly},
      %lanes32: !transform.param<i64> {transform.readonly}, %lanes64: !transform.param<i64> {transform.readonly},
      %ncb32: !transform.param<i64> {transform.readonly}, %ncb64: !transform.param<i64> {transform.readonly},
      %vmw32: !transform.param<i64> {transform.readonly}, %vmw64: !transform.param<i64> {transform.readonly},
      %threads: !transform.param<i64> {transform.readonly}) {
    // The copies of B^T matrix-version-products makes for unpacked
    // products of a transposed B, in the product functions: square blocks
    // of a vector register's lanes (16 x 16 f32, 8 x 8 f64 on AVX-512),
    // read whole and transposed in registers (by @matc_lower_transposes at
    // the end), not column by column. (Not peeled as
    // @schedule_transposed_copy peels: the copies into the carried block of
    // B^T of matrix-version-products' few columns then went through a
    // temporary per block after bufferization.)
    %c16 = transform.param.constant 16 : i64 -> !transform.param<i64>
    %c8 = transform.param.constant 8 : i64 -> !transform.param<i64>
    // Elementwise ops that read an operand transposed (tagged by
    // matrix-codegen) and the transposed copies of C^T made by
    // matrix-outline-products, outside the product functions
    // (`matc.transpose_rows`): blocks of 64 rows split between the threads
    // (an scf.forall, as the other elementwise ops' blocks of 16 rows), each
    // computed by @schedule_transposed_copy.
    %trr32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.transpose = "f32", matc.transpose_rows} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %trr32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %rows, %forall = transform.structured.tile_using_forall %op tile_sizes [64, 0]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.include @schedule_transposed_copy failures(propagate) (%rows, %c16)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %trr64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.transpose = "f64", matc.transpose_rows} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %trr64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %rows, %forall = transform.structured.tile_using_forall %op tile_sizes [64, 0]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
      transform.include @schedule_transposed_copy failures(propagate) (%rows, %c8)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %tr32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.transpose = "f32"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %tr32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [16, 16]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      transform.structured.vectorize %t vector_sizes [16, 16] : !transform.any_op
    }
    %tr64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.transpose = "f64"} in %root
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %tr64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %t, %l0, %l1 = transform.structured.tile_using_for %op tile_sizes [8, 8]
          : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
      transform.structured.vectorize %t vector_sizes [8, 8] : !transform.any_op
    }
    %tagged = transform.foreach_match in %root
        @match_small -> @keep,
        @match_matmul_f32 -> @tag_matmul_f32,
        @match_matmul_f64 -> @tag_matmul_f64,
        @match_elementwise_f32 -> @tag_elementwise_f32,
        @match_elementwise_f64 -> @tag_elementwise_f64
        : (!transform.any_op) -> !transform.any_op

    %mm32 = transform.structured.match ops{["linalg.matmul"]}
        attributes{matc.codegen = "matmul_f32"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mm32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %packed = transform.include @matc_pack_matmul_f32 failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      %unpack = transform.include @schedule_packed_matmul failures(propagate)
          (%packed, %mr32, %nr32, %kc32, %mc32, %ncp32, %pk32, %pw32, %ncb32, %threads)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>) -> !transform.any_op
      transform.annotate %unpack "matc.unpack_f32" : !transform.any_op
    }
    %mm64 = transform.structured.match ops{["linalg.matmul"]}
        attributes{matc.codegen = "matmul_f64"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mm64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %packed = transform.include @matc_pack_matmul_f64 failures(propagate) (%op)
          : (!transform.any_op) -> !transform.any_op
      %unpack = transform.include @schedule_packed_matmul failures(propagate)
          (%packed, %mr64, %nr64, %kc64, %mc64, %ncp64, %pk64, %pw64, %ncb64, %threads)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>) -> !transform.any_op
      transform.annotate %unpack "matc.unpack_f64" : !transform.any_op
    }

    %ew32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.codegen = "elementwise_f32"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %ew32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_elementwise failures(propagate) (%op, %vl32)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %ew64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.codegen = "elementwise_f64"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %ew64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_elementwise failures(propagate) (%op, %vl64)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }

    // The products matrix-version-products tagged, last: the producers of
    // their operands are vector code by now, so that the tiling that fuses
    // the fill of C into their register tiles fuses nothing else.
    transform.include @matc_thread_rows failures(propagate) (%tagged)
        : (!transform.any_op) -> ()
    // Matrix-vector products: dot products of rows of A (@tile_dot_rows).
    %c4 = transform.param.constant 4 : i64 -> !transform.param<i64>
    %c1 = transform.param.constant 1 : i64 -> !transform.param<i64>
    %dots32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    %dots64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    %dots = transform.merge_handles %dots32, %dots64 : !transform.any_op
    transform.foreach %dots : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @tile_dot_rows failures(propagate) (%op, %threads)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %dot32_4 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot = "f32", matc.dot_rows = 4 : i64} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %dot32_4 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @split_dot_k_f32 failures(propagate) (%op, %c4)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %dot32_1 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot = "f32", matc.dot_rows = 1 : i64} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %dot32_1 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @split_dot_k_f32 failures(propagate) (%op, %c1)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %dot64_4 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot = "f64", matc.dot_rows = 4 : i64} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %dot64_4 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @split_dot_k_f64 failures(propagate) (%op, %c4)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %dot64_1 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot = "f64", matc.dot_rows = 1 : i64} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %dot64_1 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @split_dot_k_f64 failures(propagate) (%op, %c1)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    // Products of 2 to 7 columns: dot products of each row of A with the
    // columns of B (@tile_dot_columns).
    %cols32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot_columns = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    transform.foreach %cols32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @dot_columns_f32 failures(propagate) (%op, %threads)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    %cols64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.dot_columns = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    transform.foreach %cols64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @dot_columns_f64 failures(propagate) (%op, %threads)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    // Products of a tiny static B: a row of C at a time (@tiny_rhs_rows).
    %tiny32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.tiny_rhs = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    %tiny64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.tiny_rhs = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    %tiny = transform.merge_handles %tiny32, %tiny64 : !transform.any_op
    transform.foreach %tiny : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @tiny_rhs_rows failures(propagate) (%op, %threads)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    // Vector-matrix products: axpy updates of C by the rows of the matrix
    // (@schedule_vector_matrix), 2048 bits of C at a time.
    %vm32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    transform.foreach %vm32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_vector_matrix failures(propagate) (%op, %vmw32, %threads)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    %vm64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    transform.foreach %vm64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_vector_matrix failures(propagate) (%op, %vmw64, %threads)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    // Vector-matrix products of a C under one tile of 2048 bits
    // (matrix-version-products' `matc.vector_matrix_carried`): C in
    // registers across all of k (@schedule_vector_matrix_rest), as wide as
    // its `matc.vector_matrix_width` map says (whole vectors, masked to C's
    // length).
    %vmc32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_carried = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    %vmc64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_carried = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    %vmc = transform.merge_handles %vmc32, %vmc64 : !transform.any_op
    transform.foreach %vmc : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      %width = transform.dlti.query ["width"] at %op
          : (!transform.any_op) -> !transform.param<i64>
      transform.include @schedule_vector_matrix_rest failures(propagate) (%op, %width)
          : (!transform.any_op, !transform.param<i64>) -> ()
    }
    // Vector-matrix products of a C of one vector, split along k into 8
    // rows of partial sums (@schedule_vector_matrix_splits).
    %vms32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_split = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    %vmr32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_rest = "f32"} in %tagged : (!transform.any_op) -> !transform.any_op
    transform.include @schedule_vector_matrix_splits failures(propagate) (%vms32, %vmr32, %lanes32)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> ()
    %vms64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_split = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    %vmr64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.vector_matrix_rest = "f64"} in %tagged : (!transform.any_op) -> !transform.any_op
    transform.include @schedule_vector_matrix_splits failures(propagate) (%vms64, %vmr64, %lanes64)
        : (!transform.any_op, !transform.any_op, !transform.param<i64>) -> ()
    %mmu32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked = "f32"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mmu32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_unpacked_matmul failures(propagate) (%op, %mru32, %nr32)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    %mmu64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked = "f64"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mmu64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_unpacked_matmul failures(propagate) (%op, %mru64, %nr64)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    // Products whose N fits in one vector: register tiles one vector wide.
    %mmn32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked = "f32_narrow"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mmn32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_unpacked_matmul failures(propagate) (%op, %mru32, %lanes32)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    // f32 products whose N fits in half a vector: register tiles half a
    // vector wide (the lanes of an f64 vector), unmasked for N = 8 on
    // AVX-512.
    %mmh32 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked = "f32_narrow_half"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mmh32 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_unpacked_matmul failures(propagate) (%op, %mru32, %lanes64)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    %mmn64 = transform.structured.match ops{["linalg.generic"]}
        attributes{matc.unpacked = "f64_narrow"} in %tagged
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %mmn64 : !transform.any_op {
    ^bb0(%op: !transform.any_op):
      transform.include @schedule_unpacked_matmul failures(propagate) (%op, %mru64, %lanes64)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>) -> ()
    }
    transform.include @hoist_and_lower_contractions failures(propagate) (%tagged)
        : (!transform.any_op) -> ()
    transform.include @finish_k_blocks failures(propagate) (%tagged, %mr32, %nr32, %mr64, %nr64)
        : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
           !transform.param<i64>, !transform.param<i64>) -> ()
    transform.yield
  }
}
