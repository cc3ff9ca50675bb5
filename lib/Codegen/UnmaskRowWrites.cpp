//===- UnmaskRowWrites.cpp - Rows narrower in memory than in registers ----===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-unmask-row-writes pass: a 2-D vector write whose mask keeps
// the first w of W columns of every row, into a contiguous block of rows w
// elements long, becomes unmasked 1-D writes of W elements, row after row,
// each overwriting the columns past w of the one before; rows whose W
// elements would run past the block are written w wide. See the pass
// description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXUNMASKROWWRITES
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

namespace {
struct UnmaskRowWrite : OpRewritePattern<vector::TransferWriteOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    VectorType vectorType = op.getVectorType();
    auto memrefType = dyn_cast<MemRefType>(op.getBase().getType());
    if (!memrefType || vectorType.getRank() != 2 ||
        vectorType.isScalable() || !op.getMask())
      return rewriter.notifyMatchFailure(op, "not a masked 2-D memref write");
    if (!op.getPermutationMap().isMinorIdentity())
      return rewriter.notifyMatchFailure(op, "not a minor identity map");
    auto mask = op.getMask().getDefiningOp<vector::ConstantMaskOp>();
    int64_t rows = vectorType.getDimSize(0);
    int64_t width = vectorType.getDimSize(1);
    if (!mask || mask.getMaskDimSizes()[0] != rows)
      return rewriter.notifyMatchFailure(op, "not a mask of whole rows");
    int64_t kept = mask.getMaskDimSizes()[1];
    if (kept <= 0 || kept >= width)
      return rewriter.notifyMatchFailure(op, "the mask keeps no column or all");
    // The block written must be exactly the last two dimensions of the
    // memref, `rows` x `kept`, contiguous: each row's columns past `kept`
    // are then the next row's first ones.
    int64_t rank = memrefType.getRank();
    if (memrefType.getDimSize(rank - 2) != rows ||
        memrefType.getDimSize(rank - 1) != kept ||
        !isZeroInteger(op.getIndices()[rank - 2]) ||
        !isZeroInteger(op.getIndices()[rank - 1]))
      return rewriter.notifyMatchFailure(op, "not a whole rows x kept block");
    SmallVector<int64_t> strides;
    int64_t offset;
    if (failed(memrefType.getStridesAndOffset(strides, offset)) ||
        strides[rank - 1] != 1 || strides[rank - 2] != kept)
      return rewriter.notifyMatchFailure(op, "the block is not contiguous");

    Location loc = op.getLoc();
    SmallVector<ReassociationIndices> groups;
    for (int64_t d = 0; d < rank - 2; ++d)
      groups.push_back({d});
    groups.push_back({rank - 2, rank - 1});
    Value flat = memref::CollapseShapeOp::create(rewriter, loc, op.getBase(),
                                                 groups);
    SmallVector<Value> indices(op.getIndices().drop_back(2));
    indices.push_back(Value());
    for (int64_t row = 0; row < rows; ++row) {
      Value vector = vector::ExtractOp::create(rewriter, loc, op.getVector(),
                                               ArrayRef<int64_t>{row});
      // A row whose `width` elements would pass the end of the block is
      // written `kept` wide.
      bool whole = row * kept + width <= rows * kept;
      if (!whole)
        vector = vector::ExtractStridedSliceOp::create(rewriter, loc, vector,
                                                       0, kept, 1);
      indices.back() =
          arith::ConstantIndexOp::create(rewriter, loc, row * kept);
      vector::TransferWriteOp::create(
          rewriter, loc, vector, flat, indices,
          AffineMapAttr::get(AffineMap::getMinorIdentityMap(
              rank - 1, 1, rewriter.getContext())),
          /*mask=*/Value(), rewriter.getBoolArrayAttr({true}));
    }
    rewriter.eraseOp(op);
    return success();
  }
};

struct MatrixUnmaskRowWrites
    : matrix::impl::MatrixUnmaskRowWritesBase<MatrixUnmaskRowWrites> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<UnmaskRowWrite>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
