//===- Passes.h - Matrix dialect transformation passes ----------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `matrix-optimize` pass, its pattern sets, and the flop count that
// `matc --stats` prints.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_TRANSFORMS_PASSES_H
#define MATRIXDIALECT_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Pass/Pass.h"

#include <cstdint>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace mlir {
class RewritePatternSet;

namespace matrix {

/// Adds the exact product rewrites: `matmul(transpose(a), b)` ->
/// `matmul a, b {transpose_lhs}` (either operand, any shapes), and
/// `transpose(matmul(a, b))` -> `matmul b, a` with the transpose flags
/// swapped and toggled, when the product has no other user.
void populateMatmulTransposeFoldingPatterns(RewritePatternSet &patterns);

/// Adds the pattern that re-associates static product chains by the
/// matrix-chain dynamic program (CLRS 15.2) and applies their scalar factors
/// and negations to the smallest matrix. `flopsSaved`, when given, is
/// increased by the flops each rewrite removes.
void populateProductChainPatterns(RewritePatternSet &patterns,
                                  uint64_t *flopsSaved = nullptr,
                                  uint64_t *chainsRewritten = nullptr);

/// Static flop count of the Matrix-dialect ops under an operation. Units:
/// floating-point operations (a multiply or an add counts one), as the op
/// is written, counted once whatever the number of times it runs (a
/// function body counts once however often it is called). Counts saturate
/// at UINT64_MAX.
struct FlopCount {
  /// 2 * m * n * k per `matrix.matmul` of [m, k] @ [k, n].
  uint64_t matmul = 0;
  /// m * n per `matrix.add`, `sub`, `mul` and `neg` of an [m, n] result.
  uint64_t elementwise = 0;
  /// Elements copied by `matrix.transpose` (data movement, not flops).
  uint64_t transposedElements = 0;
  /// Ops left out of the counts because a dimension is `?`.
  uint64_t dynamicOps = 0;

  /// matmul + elementwise (saturating).
  uint64_t total() const;
};

/// Counts the Matrix-dialect ops nested under `root` (see FlopCount).
FlopCount countFlops(Operation *root);

/// Prints `count` on one line: "TOTAL flops (matmul M, elementwise E),
/// T transposed elements", plus the number of ops with a `?` dimension
/// when there are any.
void printFlopCount(llvm::raw_ostream &os, const FlopCount &count);

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "MatrixDialect/Transforms/Passes.h.inc"

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_TRANSFORMS_PASSES_H
