//===- Passes.h - Passes of the distributed pipeline ------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `matc --ranks N`: the sharding policy, the MPI program, and the lowerings
// MLIR 22's shard and mpi dialects lack (see Passes.td and
// docs/distributed.md).
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_DISTRIBUTED_PASSES_H
#define MATRIXDIALECT_DISTRIBUTED_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MPI/IR/MPI.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Shard/IR/ShardDialect.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class DialectRegistry;
class RewritePatternSet;

namespace matrix {

/// The name of the 1-D grid of MPI ranks that matrix-shard creates.
inline constexpr llvm::StringLiteral kGridName = "matc_grid";

/// Registers memory effects for the mpi ops that LLVM 22 declares none for
/// (init, finalize, send, recv, allreduce): the ownership-based buffer
/// deallocation pass rejects ops with unknown effects. A tool running the
/// distributed pipeline needs them.
void registerMPIMemoryEffectModels(DialectRegistry &registry);

/// Adds the patterns of matrix-lower-shard-collectives: shard.all_gather,
/// shard.all_to_all and shard.all_slice on a 1-D grid, to mpi.send and
/// mpi.recv (pairwise exchange) and tensor.extract_slice.
void populateShardCollectivesToMPIPatterns(RewritePatternSet &patterns);

/// Adds the patterns of matrix-flatten-mpi-buffers: n-D contiguous buffer
/// operands of mpi.send, mpi.recv and mpi.allreduce collapsed to 1-D.
void populateFlattenMPIBuffersPatterns(RewritePatternSet &patterns);

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "MatrixDialect/Distributed/Passes.h.inc"

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_DISTRIBUTED_PASSES_H
