//===- TransposeFolding.cpp - Transposes read in place by products --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Both rewrites are exact: a transposed operand is read with swapped
// indices instead of copied, and (a @ b).T computes
// sum_k b[k, j] * a[i, k] for element (j, i), the same products (IEEE
// multiplication commutes) summed over k in the same order as a @ b.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Ops.h"
#include "MatrixDialect/Transforms/Passes.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::matrix;

namespace {

/// `matmul(transpose(a), b)` -> `matmul a, b {transpose_lhs}`, and likewise
/// for the rhs; an operand already flagged goes back to plain
/// (`transpose(x)` flagged is `x`). The transpose stays only if it has other
/// users. Works for any shapes, `?` included.
struct FoldTransposeIntoMatmul : OpRewritePattern<MatmulOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(MatmulOp op,
                                PatternRewriter &rewriter) const override {
    auto lhsTranspose = op.getLhs().getDefiningOp<TransposeOp>();
    auto rhsTranspose = op.getRhs().getDefiningOp<TransposeOp>();
    if (!lhsTranspose && !rhsTranspose)
      return rewriter.notifyMatchFailure(op, "no transposed operand");
    rewriter.modifyOpInPlace(op, [&] {
      if (lhsTranspose) {
        op.getLhsMutable().assign(lhsTranspose.getInput());
        op.setTransposeLhs(!op.getTransposeLhs());
      }
      if (rhsTranspose) {
        op.getRhsMutable().assign(rhsTranspose.getInput());
        op.setTransposeRhs(!op.getTransposeRhs());
      }
    });
    return success();
  }
};

/// `transpose(matmul(a, b))` -> `matmul(b, a)` with the flags swapped and
/// toggled: (op(a) @ op(b)).T = op(b).T @ op(a).T. Only when the product has
/// no other user, so it is computed once either way.
struct TransposeOfMatmul : OpRewritePattern<TransposeOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(TransposeOp op,
                                PatternRewriter &rewriter) const override {
    auto matmul = op.getInput().getDefiningOp<MatmulOp>();
    if (!matmul || !matmul->hasOneUse())
      return rewriter.notifyMatchFailure(op, "not the only user of a product");
    rewriter.replaceOpWithNewOp<MatmulOp>(
        op, op.getType(), matmul.getRhs(), matmul.getLhs(),
        /*transpose_lhs=*/!matmul.getTransposeRhs(),
        /*transpose_rhs=*/!matmul.getTransposeLhs());
    return success();
  }
};

} // namespace

void mlir::matrix::populateMatmulTransposeFoldingPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FoldTransposeIntoMatmul, TransposeOfMatmul>(
      patterns.getContext());
}
