//===- ElementwiseSimplify.cpp - Elementwise rewrites that build ops ------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Exact simplifications of elementwise ops that need new ops, so they are
// patterns of `matrix-optimize` (-O1 and up) rather than folders (which run
// at -O0 too; see lib/IR/MatrixCanonicalize.cpp). Both leave every printed
// value unchanged.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Ops.h"
#include "MatrixDialect/Transforms/Passes.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::matrix;

namespace {

/// `a OP full(v)` -> `a OP v` (and `full(v) OP a` -> `v OP a`): the filled
/// matrix becomes its scalar, broadcast, so it is never materialized. Every
/// element computes the same `a[i, j] OP v`. Applies when the other operand
/// is a matrix of exactly the result type (so the result type is kept).
/// After it, the folders see `x + 0`, `x - 0`, `x * 1` with a scalar.
template <typename OpTy> struct FullOperandToScalar : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op.getLhs(), rhs = op.getRhs();
    Type type = op.getType();
    if (auto full = rhs.getDefiningOp<FullOp>(); full && lhs.getType() == type)
      rhs = full.getValue();
    else if (auto full = lhs.getDefiningOp<FullOp>();
             full && rhs.getType() == type)
      lhs = full.getValue();
    else
      return rewriter.notifyMatchFailure(op, "no matrix.full operand");
    rewriter.replaceOpWithNewOp<OpTy>(op, type, lhs, rhs);
    return success();
  }
};

/// `x - x` -> `zeros` when every element of `x` is known finite: then each
/// `x[i, j] - x[i, j]` is exactly +0. Not for other `x`: `inf - inf` and
/// `nan - nan` are nan (IEEE and NumPy alike), and a rewrite must not change
/// what the program prints.
struct SubSelfOfFinite : OpRewritePattern<SubOp> {
  using OpRewritePattern::OpRewritePattern;
  LogicalResult matchAndRewrite(SubOp op,
                                PatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    if (op.getLhs() != op.getRhs() || !type.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "not x - x of a static shape");
    if (!isKnownFinite(op.getLhs()))
      return rewriter.notifyMatchFailure(op, "x may hold inf or nan");
    Value zero = arith::ConstantOp::create(
        rewriter, op.getLoc(), rewriter.getZeroAttr(type.getElementType()));
    rewriter.replaceOpWithNewOp<FullOp>(op, type, zero);
    return success();
  }
};

} // namespace

void mlir::matrix::populateElementwiseSimplifyPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FullOperandToScalar<AddOp>, FullOperandToScalar<SubOp>,
               FullOperandToScalar<MulOp>, SubSelfOfFinite>(
      patterns.getContext());
}
