//===- Passes.h - Matrix dialect transformation passes ----------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `matrix-optimize` pass and its pattern sets.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_TRANSFORMS_PASSES_H
#define MATRIXDIALECT_TRANSFORMS_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;

namespace matrix {

/// Adds the exact product rewrites: `matmul(transpose(a), b)` ->
/// `matmul a, b {transpose_lhs}` (either operand, any shapes), and
/// `transpose(matmul(a, b))` -> `matmul b, a` with the transpose flags
/// swapped and toggled, when the product has no other user.
void populateMatmulTransposeFoldingPatterns(RewritePatternSet &patterns);

/// Adds the exact elementwise rewrites that build new ops: `a OP full(v)` ->
/// `a OP v` (scalar broadcast, for add, sub and mul), and `x - x` -> `zeros`
/// when every element of `x` is known finite.
void populateElementwiseSimplifyPatterns(RewritePatternSet &patterns);

/// Adds the pattern that re-associates static product chains by the
/// matrix-chain dynamic program (CLRS 15.2) and applies their scalar factors
/// and negations to the smallest matrix, when that lowers the chain's flop
/// count (see FlopCount.h).
void populateProductChainPatterns(RewritePatternSet &patterns);

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "MatrixDialect/Transforms/Passes.h.inc"

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_TRANSFORMS_PASSES_H
