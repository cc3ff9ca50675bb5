//===- MatmulModel.h - Tile sizes from a model of the target ---*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The sizes of the code generation schedule (lib/Codegen/Schedule.mlir),
// computed from a TargetDescription by the analytical model of Low, Igual,
// Smith and Quintana-Orti, "Analytical Modeling Is Enough for
// High-Performance BLIS", ACM TOMS 43(2), 2016, adapted to matc's loop
// nest and its packed tiles on the stack (see MatmulModel.cpp).
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_TARGET_MATMULMODEL_H
#define MATRIXDIALECT_TARGET_MATMULMODEL_H

#include "MatrixDialect/Target/Target.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace mlir {
namespace matrix {

/// The tiles of a matrix product C[M, N] = A[M, K] B[K, N] (row-major C),
/// all in elements.
///
/// - `mr` x `nr`: the register tile of C, kept in vector registers across a
///   k-block; `nr` is a multiple of the vector length (B is read in rows of
///   `nr`, A broadcast one element per row of the tile).
/// - `kc`: the k-block; A and B are packed per k-block into micro-panels of
///   `mr` x `kc` and `kc` x `nr`.
/// - `mc`: the rows of a block of C, one iteration of the parallel loop (a
///   multiple of `mr`); its A block (`mc` x `kc`) is packed once per
///   k-block and lives on the stack of the thread computing it.
/// - `nc`: the columns of a block of B (`kc` x `nc`, a multiple of `nr`),
///   packed on the same stack, once per block of rows, k-block and block of
///   `nc` columns of C. The packed block of C (`mc` rows) is on the heap
///   unless it fits in the budget.
struct MatmulTiles {
  int64_t mr = 0, nr = 0, kc = 0, mc = 0, nc = 0;

  /// The stack budget the tiles count against, for elements of
  /// `elementBytes` bytes: `(mc * nc + mc * kc + kc * nc) * elementBytes`,
  /// the A and B blocks and the part of C one column block updates (an
  /// upper bound of the stack the packed blocks take).
  int64_t getStackBytes(unsigned elementBytes) const {
    return (mc * nc + mc * kc + kc * nc) * int64_t(elementBytes);
  }
  /// The stack the packed blocks of a product take per thread, at most,
  /// for a budget of `budgetBytes`: getStackBytes, capped by the budget
  /// (f64's taller blocks, step 6 of MatmulModel.cpp, fit it with their A
  /// and B blocks; what of C is on the stack is bounded by the budget,
  /// matrix-promote-tile-buffers).
  int64_t getStackBound(unsigned elementBytes, int64_t budgetBytes) const {
    return std::min(getStackBytes(elementBytes), budgetBytes);
  }
  /// The rows of the register tiles of unpacked products, which read the
  /// rows of A in place: at most 8 of them, whose addresses LLVM keeps in
  /// registers (with 12, measured on AVX-512, it spills and runs at half
  /// speed). matrix-codegen's schedule and matrix-version-products (a
  /// run-time M of exactly this many is one tile, B read once) use it.
  int64_t getUnpackedRows() const { return std::min<int64_t>(mr, 8); }
  /// `mr,nr,kc,mc,nc`, the syntax of the matrix-codegen pass options.
  std::string str() const;
};

/// Every size the code generation schedule takes, for one target.
struct CodegenSizes {
  MatmulTiles f32, f64;
  /// Elements per vector operation of elementwise ops (a row is processed
  /// in pieces of this many elements): 1024 bits' worth.
  int64_t elementwiseF32 = 32, elementwiseF64 = 16;
  /// Products whose A and B have at most this many elements together are
  /// computed without packing (matrix-version-products): L2 bytes / 16.
  int64_t unpackedMaxElements = 0;
  /// ... and whatever M, those whose B is static with at most this many
  /// elements (each such B shape gets a product function of its own,
  /// matrix-outline-products): L1 bytes / 16.
  int64_t unpackedMaxRhsElements = 0;
};

/// Default stack budget of the packed tiles of one product, per thread, in
/// bytes (see docs/c-interop.md, "Memory, stack and threads").
constexpr int64_t kDefaultTileStackBytes = 2304 * 1024;

/// Tiles from the 5 sizes `mr,nr,kc,mc,nc`. Errors: not 5 sizes, a size
/// below 1, mc not a multiple of mr or nc not a multiple of nr.
llvm::Expected<MatmulTiles> makeMatmulTiles(ArrayRef<int64_t> sizes);

/// makeMatmulTiles of a comma-separated list, e.g. `12,32,256,420,416`.
llvm::Expected<MatmulTiles> parseMatmulTiles(StringRef text);

/// The tiles of a product of elements of `elementBytes` bytes (4 or 8) on
/// `target`, whose packed tiles take at most `stackBytes` per thread, for
/// code that runs on `threads` threads (at least 1).
MatmulTiles computeMatmulTiles(const TargetDescription &target,
                               unsigned elementBytes,
                               int64_t stackBytes = kDefaultTileStackBytes,
                               unsigned threads = 1);

/// The sizes of every schedule for `target` and `threads` threads.
CodegenSizes computeCodegenSizes(const TargetDescription &target,
                                 int64_t stackBytes = kDefaultTileStackBytes,
                                 unsigned threads = 1);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_TARGET_MATMULMODEL_H
