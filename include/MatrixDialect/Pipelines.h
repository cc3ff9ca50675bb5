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

#include "MatrixDialect/Target/MatmulModel.h"
#include "MatrixDialect/Target/Target.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/LLVM.h"

#include <optional>

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

/// How hard the pipeline works and for which machine, as `matc -O<n>
/// --threads <n> --target-cpu ...` set it.
struct LoweringOptions {
  /// 0: the plain lowering (Linalg -> affine loops), the reference that
  /// optimized code is checked against. 1 and up: the optimizing pipeline.
  unsigned optLevel = 2;
  /// Threads that run the outer tiles of the optimized code; 0 means all
  /// cores of the machine that runs it.
  unsigned numThreads = 0;
  /// The machine the code is for (Target.h): its model (MatmulModel.h) gives
  /// the tile sizes of the code generation schedule, its vector registers
  /// the widest masked access (matrix-split-masked-vectors). Unset: the
  /// host, resolved when the pipeline is built.
  std::optional<TargetDescription> target;
  /// Bytes of stack the packed tiles of one product may take per thread
  /// (MatmulModel.h).
  int64_t tileStackBytes = kDefaultTileStackBytes;
  /// Sizes replacing the model's for f32 or f64 products (tuning, tests).
  std::optional<MatmulTiles> matmulF32, matmulF64;

  /// The sizes the schedule gets: the model's for `target` (the host if
  /// unset), with the replacements above.
  CodegenSizes getCodegenSizes() const;
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
  /// Threads the LLVM stage lowers the program's functions on: from 2 up
  /// (and with one rank), `matrix-split-module` puts the functions into that
  /// many nested modules at its start, which MLIR's pass manager lowers in
  /// parallel, and `matrix-merge-modules` puts them back at its end. 0 or
  /// 1: one module throughout.
  unsigned codegenParts = 0;
  /// The fewest ops (nested ones counted) of a program split into parts
  /// (matrix-split-module's `min-ops`): below, splitting costs more than it
  /// saves.
  int64_t splitMinOps = 4000;
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
/// every stage up to the one it names), for `matc-opt`. Their options are
/// LoweringOptions: `opt-level` (default 2), `threads` (default 0),
/// `target-cpu` (default `host`), `target-triple`, `target-l1d`,
/// `target-l2`, `target-l3` (cache sizes, e.g. `48K`), `tile-stack-bytes`,
/// `matmul-f32` and `matmul-f64` (mr,nr,kc,mc,nc), `ranks` (default 1) and
/// `shard-min-elements` (default 65536).
void registerMatrixPipelines();

/// Registers in `registry` the dialects, external interface models, dialect
/// extensions and LLVM IR translations that the pipelines above use, and
/// nothing else (lib/Pipelines/Registration.cpp): what `matc` registers.
/// The Matrix dialect and matc's own extensions are not among them.
void registerPipelineDialects(DialectRegistry &registry);

/// Registers the upstream passes the pipelines name in their textual form
/// (and only those), so that the pipelines parse.
void registerPipelineUpstreamPasses();

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_PIPELINES_H
