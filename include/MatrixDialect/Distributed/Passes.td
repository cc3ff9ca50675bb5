//===- Passes.td - Passes of the distributed pipeline ------*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `matc --ranks N` runs one Mat program on N MPI processes. Our passes are
// the Mat-specific policy (matrix-shard), the MPI program around the
// partitioned code (matrix-mpi-program), and two pieces upstream MLIR 22
// lacks below shard-partition: lowerings of the collectives that
// convert-shard-to-mpi leaves (matrix-lower-shard-collectives) and a fix for
// MPIToLLVM's element count of n-D buffers (matrix-flatten-mpi-buffers).
// See docs/distributed.md.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_DISTRIBUTED_PASSES_TD
#define MATRIX_DISTRIBUTED_PASSES_TD

include "mlir/Pass/PassBase.td"

def MatrixShard : Pass<"matrix-shard", "ModuleOp"> {
  let summary = "Decide which matrices of `main` are split across the MPI "
                "ranks and annotate the Linalg program with shard ops";
  let description = [{
    The Mat-specific sharding policy, run on Linalg on tensors (after
    elementwise fusion, with every Mat function inlined into `main`). It
    adds `shard.grid @matc_grid(shape = ranks)`, a 1-D grid of the MPI
    ranks, and gives every matrix value of `main` a layout: **split by
    rows** (`split_axes = [[0]]`: rank r holds rows `[r * m / N, (r + 1) *
    m / N)`) or **replicated** (every rank holds all of it). Only a matrix
    with static sizes and a row count divisible by `ranks` can be split.

    Each Linalg op gets a loop sharding, written as `shard.shard`
    annotations of its results and (`annotate_for_users`) of each operand:

    - the loop of the result's rows is split when the result has at least
      `min-elements` elements, or when an input already has those rows
      split (computing the result split is then free, gathering the input
      would not be). Each operand is split along the dimension that loop
      indexes (a transposed read needs columns: `[[], [0]]`), or replicated
      if it does not depend on it (the right operand of a product);
    - otherwise, when an input is split along a reduction loop (the `k` of
      a product, e.g. `ones(1, n) @ A` with `A` split), that loop is split:
      each rank multiplies its blocks and shard-partition sums the partial
      products with `shard.all_reduce`;
    - otherwise every operand is replicated.

    Every other op (matrix literals, `matrix.print`, casts) runs on every
    rank on whole matrices: its operands and results are replicated. Each
    use of a `tensor.empty` gets its own, in the layout of its user.
    Every value is annotated, so nothing is left for sharding-propagation.
    shard-partition then inserts the collectives that turn a value's layout
    into the one its user needs (`all_gather`, `all_to_all`, `all_slice`,
    `all_reduce`).

    Two rewrites work around shard-partition in LLVM 22:
    - it clones `linalg.index` unchanged, which would give each rank the row
      numbers of its block instead of the matrix's: a `linalg.generic` that
      reads the index of a split loop (`eye`, `iota`) gets it as an input
      instead, a replicated 1-D tensor of row numbers that partitioning
      slices;
    - it fails on non-splat tensor constants (`arith.constant`'s model
      partitions splats only), even replicated: a matrix literal becomes a
      read of a constant `memref.global` (as bufferization would make it),
      which is cloned on every rank.

    A `main` holding an op with regions other than Linalg's is left
    unannotated (a remark says so): it runs replicated on every rank, with
    the same output.

    ```mlir
    %0 = linalg.matmul ins(%a, %b : ...) outs(%init : ...) -> tensor<64x64xf64>
    // becomes, with ranks = 2 and min-elements <= 4096:
    %a_rows = shard.shard %a_split to %rows annotate_for_users : tensor<64x64xf64>
    %b_all = shard.shard %b_split to %replicated annotate_for_users : tensor<64x64xf64>
    %0 = linalg.matmul ins(%a_rows, %b_all : ...) outs(...) -> tensor<64x64xf64>
    %1 = shard.shard %0 to %rows : tensor<64x64xf64>
    ```
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"2",
           "Number of MPI processes the program is built for (the size of "
           "the 1-D grid)">,
    Option<"minElements", "min-elements", "int64_t", /*default=*/"65536",
           "Matrices with fewer elements stay replicated unless computed "
           "from split ones (default 65536, a 256 x 256 matrix)">,
  ];
  let dependentDialects = [
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::shard::ShardDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MatrixMPIProgram : Pass<"matrix-mpi-program", "ModuleOp"> {
  let summary = "Make the partitioned `main` an MPI program: init, process "
                "count check, printing on rank 0, finalize";
  let description = [{
    Run after shard-partition, on the per-rank program. In `main`:

    - `mpi.init` first, `mpi.finalize` before each return;
    - right after init, the number of processes is checked against the
      `ranks` the program was built for. It is counted with an
      `mpi.allreduce` (sum of one per rank), since LLVM 22 lowers no
      `mpi.comm_size`. On a mismatch rank 0 writes to stderr
      `error: this program was built for N MPI processes (matc --ranks N)
      but was started on M; run it with mpiexec -n N`, and every rank
      finalizes MPI and exits with status 1;
    - every `matrix.print` runs on rank 0 only (`scf.if` on
      `mpi.comm_rank`): its operand is replicated, so rank 0 prints exactly
      what the one-process program prints.

    It also sets the module's `mpi.dlti` attribute to MPICH's ABI
    (`#dlti.map<"MPI:Implementation" = "MPICH">`), which MPIToLLVM reads.
    Does nothing without a `shard.grid`.
  }];
  let options = [
    Option<"ranks", "ranks", "int64_t", /*default=*/"2",
           "Number of MPI processes the program is built for">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::DLTIDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::mpi::MPIDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def MatrixLowerShardCollectives
    : Pass<"matrix-lower-shard-collectives", "ModuleOp"> {
  let summary = "Lower shard.all_gather, all_to_all and all_slice to the "
                "mpi dialect";
  let description = [{
    LLVM 22's `convert-shard-to-mpi` lowers `shard.all_reduce` but none of
    the collectives shard-partition inserts to gather, transpose or slice a
    split matrix, and its `mpi` dialect has no allgather or alltoall (nor a
    lowering of `isend`, `irecv` or `wait`). These patterns lower them, on
    1-D grids, with what MPIToLLVM 22 does lower (`mpi.send`, `mpi.recv`,
    `mpi.comm_rank`):

    - `shard.all_gather` and `shard.all_to_all`: a pairwise exchange in N
      steps (N = the grid size): at step s rank r exchanges blocks with
      rank `(s - r) mod N`, an involution, so each step is a perfect
      matching; the lower rank of a pair sends first and the higher one
      receives first, which cannot deadlock however MPI buffers (the
      rank matched with itself copies locally). Each rank sends each other
      rank one block: (N - 1) blocks per rank, as MPICH's own allgather and
      alltoall. Blocks travel as contiguous row-major 1-D buffers; a gather
      or exchange along another dimension than 0 goes through a transposed
      staging tensor (`linalg.transpose`), as upstream's later
      `mpi.allgather` lowering does.
    - `shard.all_slice`: no communication; each rank takes its block with
      `tensor.extract_slice` at offset `rank * size`.

    The results are tensors (`bufferization.to_tensor` of the received
    buffers); one-shot bufferization and the buffer deallocation pipeline
    handle them like any other.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::mpi::MPIDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MatrixFlattenMPIBuffers : Pass<"matrix-flatten-mpi-buffers"> {
  let summary = "Pass n-D buffers to mpi.send, mpi.recv and mpi.allreduce "
                "as 1-D ones";
  let description = [{
    LLVM 22's MPIToLLVM takes the element count of a buffer from its first
    dimension only: `mpi.allreduce` of a `memref<4x8xf64>` reduces 4
    elements, not 32 (and `convert-shard-to-mpi` hands it such buffers).
    This pass collapses every contiguous n-D buffer operand of those ops to
    1-D (`memref.collapse_shape`), so that the count is the number of
    elements. A non-contiguous buffer is an error: MPI would need a derived
    datatype.

    ```mlir
    mpi.allreduce(%b, %b, MPI_SUM, %comm) : memref<4x8xf64>, memref<4x8xf64>
    // becomes
    %flat = memref.collapse_shape %b [[0, 1]] : memref<4x8xf64> into memref<32xf64>
    mpi.allreduce(%flat, %flat, MPI_SUM, %comm) : memref<32xf64>, memref<32xf64>
    ```
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MatrixEraseShardGrids : Pass<"matrix-erase-shard-grids", "ModuleOp"> {
  let summary = "Erase the shard.grid ops nothing refers to any more";
  let description = [{
    After `convert-shard-to-mpi`, the `shard.grid` symbol is left without
    users, and it has no translation to LLVM IR. Upstream pipelines remove
    it with `symbol-dce`, which would also remove other private symbols
    that matc keeps (the C interface's destination-passing variants, found
    by name); this pass erases unused grids only. A grid still in use is
    kept.
  }];
}

#endif // MATRIX_DISTRIBUTED_PASSES_TD
