//===- TransformOps.td - matc's transform-dialect extension -*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transform ops matc adds to the upstream transform dialect, for its
// code generation schedule (lib/Codegen/Schedule.mlir). Each is a policy
// the upstream ops cannot express; everything else in the schedule is
// upstream.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_CODEGEN_TRANSFORMOPS
#define MATRIX_CODEGEN_TRANSFORMOPS

include "mlir/Dialect/Transform/IR/TransformDialect.td"
include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/OpBase.td"

def ThreadRowBlockOp : Op<Transform_Dialect, "matc.thread_row_block",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "The rows of C per block of a multi-threaded product, at run time";
  let description = [{
    For each payload op of `target`, a tileable op (TilingInterface) whose
    first loop runs over the M rows of a product's C (the linalg.unpack of
    a packed product; or over the elements of a vector-matrix product's C,
    Schedule.mlir's @schedule_vector_matrix, whose blocks of C the threads
    share likewise), creates just before it the index computation of

        blocks = threads * max(1, ceilDiv(M, threads * max_rows))
        rows   = min(max_rows, max(multiple, roundUp(ceilDiv(M, blocks), multiple)))

    and returns a handle to the op that yields `rows` (an affine.min, or an
    arith.constant when M is static or `threads` is 1, where rows is
    `max_rows`). `rows` is the tile size of the scf.forall whose iterations
    the threads share: M splits into a multiple of `threads` blocks of
    nearly equal size, as few as `max_rows` (the model's MC for `threads`
    threads, which bounds the packed blocks on each thread's stack)
    allows. MC alone gave a 256-row product one block (one busy thread of
    two) and a 384-row f64 product three (one thread doing two).
    `rows` is a positive multiple of `multiple` (MR: packed micro-panels
    stay whole) at most `max_rows`, a constant upper bound that the
    bufferization of the blocks finds (ValueBoundsOpInterface).

    `max_rows`, `multiple` and `threads` are params holding one positive
    integer each, `max_rows` a multiple of `multiple`. A target that is not
    tileable, or params that break these rules, are a definite failure.
    The target is only read; the payload gains ops before it.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target,
                       TransformParamTypeInterface:$max_rows,
                       TransformParamTypeInterface:$multiple,
                       TransformParamTypeInterface:$threads);
  let results = (outs TransformHandleTypeInterface:$rows);
  let assemblyFormat = [{
    $target `max_rows` `(` $max_rows `)` `multiple` `(` $multiple `)`
    `threads` `(` $threads `)` attr-dict `:` functional-type(operands, results)
  }];
}

def ZeroFirstAccumulationOp : Op<Transform_Dialect,
    "matc.zero_first_accumulation",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "Starts the first k-block of a product from zeros, not a fill";
  let description = [{
    For each payload op of `target`, an scf.for over the k-blocks of a
    packed product (on tensors, its register kernel vectorized and its
    accumulators hoisted out of the loop over k) whose iter_args carry the
    packed block of C from a `linalg.fill` of zero (directly, or through a
    `tensor.extract_slice` of all of it whose result is inserted back
    whole): in the loop's first iteration every register tile starts from
    a zero vector instead of its read (each `vector.transfer_read` of a
    tile of the carried block whose vector initializes an scf.for, the
    loop over k of the kernel, is put in the else branch of an `scf.if`
    on the induction variable being the lower bound), and the loop starts
    from the fill's destination (a `tensor.empty`) instead of the filled
    block. The packed block of C is then neither zero-filled (a pass over
    MC x N elements per block of rows) nor read in the first k-block, as
    BLIS's and OpenBLAS's micro-kernels do not read C when beta is zero
    (Van Zee and van de Geijn, "BLIS", TOMS 2015).

    This relies on what tiling guarantees, and checks what it can: each
    iteration writes every tile of the block (the tile loops of a tiled
    linalg op cover its iteration domain), and the carried block flows only
    through scf.for iter_args, `tensor.extract_slice`, `tensor.insert_slice`,
    accumulator reads, whole-tile unmasked `vector.transfer_write`s,
    `tensor.dim` and `scf.yield`. The loop must run at least once (a
    k-range of at least one element: Mat's dimensions are positive, which
    every entry point checks). A loop none of whose iter_args starts from a
    zero fill, or whose block flows elsewhere, is left unchanged, a
    silenceable failure whose note says where it flows; a target that is
    not an scf.for is a definite failure. The handle is only read.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def FuseUnpackIntoLastKBlockOp : Op<Transform_Dialect,
    "matc.fuse_unpack_into_last_k_block",
    [DeclareOpInterfaceMethods<TransformOpInterface>,
     DeclareOpInterfaceMethods<MemoryEffectsOpInterface>]> {
  let summary = "The last k-block writes its register tiles into C itself";
  let description = [{
    For each payload op of `target`, an scf.for over the k-blocks of a
    packed product (on tensors, its register kernel vectorized and its
    accumulators hoisted, as transform.matc.zero_first_accumulation
    expects) one of whose results only a `linalg.unpack` reads, which
    unpacks the packed block of C ([M/MR, N/NR, MR, NR], inner_dims_pos
    [0, 1], no outer permutation, static MR and NR) into a 2-D
    destination: in the loop's last iteration (induction variable + step
    >= upper bound) each register tile is written into the destination at
    rows [p * MR, p * MR + MR) and columns [q * NR, q * NR + NR), (p, q) its
    place in the packed block, instead of into the packed block; tiles
    that cross the edge of the destination are written under a mask
    (`vector.create_mask` of the rows and columns left), the others whole.
    The destination is carried through the loops between the k-block loop
    and each write as one more iter_arg; the unpack is erased and its
    result replaced by the k-block loop's new result. This is BLIS's
    micro-kernel storing its tile of C straight to C (Van Zee and van de
    Geijn, "BLIS", TOMS 2015): the packed block of C is neither written in
    the last k-block nor read back to unpack it (with one k-block, K <= KC,
    it is not touched at all).

    The rewrite relies on what tiling guarantees: the loop runs at least
    once and its last iteration writes every tile of the block. It checks
    that the carried block flows only through scf.for iter_args,
    `tensor.extract_slice`, `tensor.insert_slice`, `vector.transfer_read`,
    `tensor.dim`, `scf.yield` and whole-tile, unmasked
    `vector.transfer_write`s of MR x NR vectors into a 1 x 1 x MR x NR
    slice that is inserted back where it was taken, found from the loop's
    iter_arg through slices and iter_args alone, each inside scf.for ops
    only; and that the unpack's destination is, or can be moved to be,
    defined before the loop. Otherwise nothing changes: a silenceable
    failure whose note says what was found. A target that is not an scf.for
    is a definite failure. The handle is only read.
  }];
  let arguments = (ins TransformHandleTypeInterface:$target);
  let assemblyFormat = "$target attr-dict `:` type($target)";
}

def ApplyUnrollTransposesPatternsOp : Op<Transform_Dialect,
    "apply_patterns.matc.unroll_transposes",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Splits 2-D transposes of 32-bit elements into square ones";
  let description = [{
    Collects upstream's vector unrolling patterns
    (`vector::populateVectorUnrollPatterns`, VectorUnroll.cpp), restricted
    to `vector.transpose` ops of 32-bit elements that swap the last two
    dimensions (any others of size 1), with the native shape `size` x
    `size` there: a transpose of vector<(a*size)x(b*size)xT> becomes a * b
    transposes of vector<size x size x T> between
    `vector.extract_strided_slice` and `vector.insert_strided_slice`.
    Transposes whose sizes are not multiples of `size`, or already square of
    `size`, are left alone. With `size` the number of 32-bit elements in
    a vector register (16 for AVX-512, 8 for AVX2), each piece lowers to the
    shuffle network of `apply_patterns.vector.lower_transpose`
    (`shuffle_16x16`, or the AVX2 8 x 8 one), where a larger transpose, say
    the 32 x 16 of packing B^T into 32-wide panels, would lower to one
    generic shuffle of 512 elements, which LLVM turns into element
    inserts and spills (measured on an AMD EPYC Zen 5, f32 `a @ b.T` at
    n = 2048, 1 thread: 95 -> 87.5 ms, `a @ b` 85 ms; the AVX2 code of
    `--target-cpu=znver3` on the same machine: 182 -> 166 ms). `size` must
    be positive (the op's verifier).
  }];
  let arguments = (ins ConfinedAttr<I64Attr, [IntPositive]>:$size);
  let assemblyFormat = "`size` `=` $size attr-dict";
}

def ApplyUnmaskAccumulatorSlicesPatternsOp : Op<Transform_Dialect,
    "apply_patterns.matc.unmask_accumulator_slices",
    [DeclareOpInterfaceMethods<PatternDescriptorOpInterface>]> {
  let summary = "Updates the leading part of a vector-sized tensor whole, "
                "under a select";
  let description = [{
    Collects one pattern, for the remainder of a vectorized reduction tile
    (the last K mod kv elements of k of Schedule.mlir's dot products): a
    `tensor.insert_slice` of a masked `vector.transfer_write` into a slice
    `[0, ..][s0, ..]` (unit strides) of a tensor `%acc` whose static shape
    is the written vector's, the write's mask a `vector.create_mask` of the
    slice's sizes `s0, ..`, at indices 0, in bounds, with the identity map,
    into `tensor.extract_slice %acc` with the same offsets, sizes and
    strides:

    ```mlir
    %s = tensor.extract_slice %acc[0, 0] [4, %r] [1, 1] : tensor<4x8xf64> to tensor<4x?xf64>
    %m = vector.create_mask %c4, %r : vector<4x8xi1>
    %v = vector.transfer_read %s[%c0, %c0], %pad, %m {in_bounds = [true, true]} : ...
    %w = vector.transfer_write %x, %s[%c0, %c0], %m {in_bounds = [true, true]} : ...
    %u = tensor.insert_slice %w into %acc[0, 0] [4, %r] [1, 1] : ...
    // becomes
    %a = vector.transfer_read %acc[%c0, %c0], %pad {in_bounds = [true, true]} : tensor<4x8xf64>, vector<4x8xf64>
    %y = arith.select %m, %x, %a : vector<4x8xi1>, vector<4x8xf64>
    %u = vector.transfer_write %y, %acc[%c0, %c0] {in_bounds = [true, true]} : vector<4x8xf64>, tensor<4x8xf64>
    ```

    and each read of `%s` like `%v` (same mask, indices 0, in bounds,
    identity map) becomes `%a`: the lanes the mask drops are read and
    written back unchanged. The same values, without the masked store of
    the partial sums followed by a whole read of them in the combining
    reduction, which no store-to-load forwarding serves (Zen 4: 37% of a
    100000 x 3 @ 3 x 1 product's time at that read). Anything else is left
    alone.
  }];
  let assemblyFormat = "attr-dict";
}

#endif // MATRIX_CODEGEN_TRANSFORMOPS
