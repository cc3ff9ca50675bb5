//===- Pipelines.h - Lowering pipelines from Matrix to LLVM -----*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The one lowering pipeline that `matc` and `matc-opt` share, cut into the
// stages `matc --emit=` can stop after.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_PIPELINES_H
#define MATRIXDIALECT_PIPELINES_H

#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

namespace mlir {
namespace matrix {

/// The IR levels of the lowering, in order. Each stage's passes take the
/// module from the previous level to this one.
enum class LoweringStage {
  /// Matrix dialect on tensors, as MLIRGen builds it, canonicalized (and
  /// from -O1 up rewritten by `matrix-optimize`).
  Matrix,
  /// Linalg, tensor and arith on tensors.
  Linalg,
  /// Affine loops over memrefs, after one-shot bufferization and buffer
  /// deallocation. From -O1 up: tiled scf loops (an scf.parallel over the
  /// outer tiles unless numThreads is 1) around vector code, and scf loops
  /// for what the code generation schedule leaves.
  Affine,
  /// The LLVM dialect, ready for translation to LLVM IR.
  LLVM,
};

/// How hard the pipeline works, as `matc -O<n> --threads <n>` set it.
struct LoweringOptions {
  /// 0: the plain lowering (Linalg -> affine loops), the reference that
  /// optimized code is checked against. 1 and up: the optimizing pipeline.
  unsigned optLevel = 2;
  /// Threads that run the outer tiles of the optimized code; 0 means all
  /// cores of the machine that runs it.
  unsigned numThreads = 0;
  /// Width in bits of the target's vector registers, which picks the
  /// register tiles of the code generation schedule (lib/Codegen/
  /// Schedule.mlir): 512 for 32 AVX-512 registers (entry point
  /// `matc_codegen`), anything less for 16 registers of 256 bits
  /// (`matc_codegen_ymm`: AVX2, and the fallback for other targets).
  unsigned vectorBits = 512;
  /// MPI processes the program runs on (`matc --ranks`); 1: one process,
  /// no MPI. From 2 up, the Linalg stage inlines every function into `main`
  /// and partitions it over a 1-D grid of the ranks (matrix-shard, then
  /// upstream's sharding-propagation and shard-partition), and the later
  /// stages lower the collectives to the mpi dialect and that to MPI calls
  /// (docs/distributed.md).
  unsigned ranks = 1;
  /// With ranks > 1: matrices with fewer elements stay replicated
  /// (matrix-shard's `min-elements`).
  int64_t shardMinElements = 65536;
};

/// Appends to `pm` (anchored on builtin.module) the passes that lower a
/// module from the stage before `stage` to `stage`. LoweringStage::Matrix
/// adds canonicalization and, from -O1 up, `matrix-optimize` (the
/// Matrix-level rewrites by flop count).
void addLoweringStage(OpPassManager &pm, LoweringStage stage,
                      const LoweringOptions &options = {});

/// Appends every stage from Matrix up to and including `last`.
void buildMatrixLoweringPipeline(OpPassManager &pm,
                                 LoweringStage last = LoweringStage::LLVM,
                                 const LoweringOptions &options = {});

/// Registers the upstream passes the pipeline uses and the pipelines
/// `matrix-to-linalg`, `matrix-to-affine` and `matrix-to-llvm` (each runs
/// every stage up to the one it names), for `matc-opt`. Their options
/// `opt-level` (default 2), `threads` (default 0), `vector-bits`
/// (default 512), `ranks` (default 1) and `shard-min-elements` (default
/// 65536) are LoweringOptions.
void registerMatrixPipelines();

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_PIPELINES_H
