//===- SplitMaskedVectors.cpp - Register-wide masked vector accesses ------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-split-masked-vectors pass: masked (or possibly out-of-bounds)
// 1-D vector reads and writes wider than `max-bits` become several accesses
// of at most `max-bits`, so that LLVM's x86 back end never splits a masked
// load itself (LLVM 22 miscompiles some of those on AVX2 targets; see the
// pass description in Passes.td and test/Codegen/split-masked-vectors.mlir).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXSPLITMASKEDVECTORS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

namespace {
/// One access of a split: `width` elements from element `offset` on.
struct Piece {
  int64_t offset;
  int64_t width;
};

/// The pieces of a 1-D access of `type` at most `maxBits` wide each (the
/// last one narrower if the width does not divide), or none when `type`
/// needs no split: it is not 1-D and fixed-size, fits in `maxBits`, or its
/// element does not divide `maxBits`.
SmallVector<Piece> getPieces(VectorType type, int64_t maxBits) {
  if (type.getRank() != 1 || type.isScalable())
    return {};
  int64_t elementBits = type.getElementTypeBitWidth();
  int64_t elements = type.getNumElements();
  if (elementBits <= 0 || maxBits % elementBits != 0 ||
      elements * elementBits <= maxBits)
    return {};
  int64_t perPiece = maxBits / elementBits;
  SmallVector<Piece> pieces;
  for (int64_t offset = 0; offset < elements; offset += perPiece)
    pieces.push_back({offset, std::min(perPiece, elements - offset)});
  return pieces;
}

/// `indices` with `offset` added to the last one (the dimension a 1-D
/// access with a minor identity map runs along).
SmallVector<Value> offsetLastIndex(OpBuilder &builder, Location loc,
                                   ValueRange indices, int64_t offset) {
  SmallVector<Value> result(indices.begin(), indices.end());
  if (offset != 0) {
    Value step = arith::ConstantIndexOp::create(builder, loc, offset);
    result.back() = arith::AddIOp::create(builder, loc, result.back(), step);
  }
  return result;
}

/// Elements [offset, offset + width) of the 1-D `vector`; null for null.
Value slice(OpBuilder &builder, Location loc, Value vector, Piece piece) {
  if (!vector)
    return {};
  return vector::ExtractStridedSliceOp::create(builder, loc, vector,
                                               piece.offset, piece.width, 1);
}

/// Replaces the read `op` of `type` by the reads `readPiece` makes of the
/// pieces, inserted into one vector.
template <typename ReadPiece>
void replaceBySplitRead(PatternRewriter &rewriter, Operation *op,
                        VectorType type, ArrayRef<Piece> pieces,
                        ReadPiece readPiece) {
  Location loc = op->getLoc();
  Value result =
      arith::ConstantOp::create(rewriter, loc, rewriter.getZeroAttr(type));
  for (Piece piece : pieces) {
    Value part = readPiece(piece);
    result = vector::InsertStridedSliceOp::create(rewriter, loc, part, result,
                                                  piece.offset, 1);
  }
  rewriter.replaceOp(op, result);
}

/// Replaces the write `op` by the writes `writePiece` makes of the pieces.
template <typename WritePiece>
void replaceBySplitWrite(PatternRewriter &rewriter, Operation *op,
                         ArrayRef<Piece> pieces, WritePiece writePiece) {
  for (Piece piece : pieces)
    writePiece(piece);
  rewriter.eraseOp(op);
}

/// Whether a transfer needs masking when lowered: it has a mask or may run
/// out of bounds. Only 1-D transfers on memrefs along the last dimension
/// (minor identity map) are split.
bool isSplittableMaskedTransfer(VectorTransferOpInterface op) {
  return isa<MemRefType>(op.getShapedType()) &&
         op.getPermutationMap().isMinorIdentity() &&
         op.getPermutationMap().getNumResults() == 1 &&
         (op.getMask() || !op.isDimInBounds(0));
}

/// A pattern splitting accesses of `OpTy` wider than `maxBits`.
template <typename OpTy>
struct SplitPattern : OpRewritePattern<OpTy> {
  SplitPattern(MLIRContext *context, int64_t maxBits)
      : OpRewritePattern<OpTy>(context), maxBits(maxBits) {}
  int64_t maxBits;
};

struct SplitTransferRead : SplitPattern<vector::TransferReadOp> {
  using SplitPattern::SplitPattern;
  LogicalResult matchAndRewrite(vector::TransferReadOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Piece> pieces = getPieces(op.getVectorType(), maxBits);
    if (pieces.empty() || !isSplittableMaskedTransfer(op))
      return rewriter.notifyMatchFailure(op, "nothing to split");
    Location loc = op.getLoc();
    replaceBySplitRead(rewriter, op, op.getVectorType(), pieces, [&](Piece p) {
      return vector::TransferReadOp::create(
          rewriter, loc,
          VectorType::get({p.width}, op.getVectorType().getElementType()),
          op.getBase(), offsetLastIndex(rewriter, loc, op.getIndices(), p.offset),
          op.getPermutationMapAttr(), op.getPadding(),
          slice(rewriter, loc, op.getMask(), p), op.getInBoundsAttr());
    });
    return success();
  }
};

struct SplitTransferWrite : SplitPattern<vector::TransferWriteOp> {
  using SplitPattern::SplitPattern;
  LogicalResult matchAndRewrite(vector::TransferWriteOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Piece> pieces = getPieces(op.getVectorType(), maxBits);
    if (pieces.empty() || !isSplittableMaskedTransfer(op))
      return rewriter.notifyMatchFailure(op, "nothing to split");
    Location loc = op.getLoc();
    replaceBySplitWrite(rewriter, op, pieces, [&](Piece p) {
      vector::TransferWriteOp::create(
          rewriter, loc, slice(rewriter, loc, op.getVector(), p), op.getBase(),
          offsetLastIndex(rewriter, loc, op.getIndices(), p.offset),
          op.getPermutationMapAttr(), slice(rewriter, loc, op.getMask(), p),
          op.getInBoundsAttr());
    });
    return success();
  }
};

struct SplitMaskedLoad : SplitPattern<vector::MaskedLoadOp> {
  using SplitPattern::SplitPattern;
  LogicalResult matchAndRewrite(vector::MaskedLoadOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Piece> pieces = getPieces(op.getVectorType(), maxBits);
    if (pieces.empty())
      return rewriter.notifyMatchFailure(op, "nothing to split");
    Location loc = op.getLoc();
    replaceBySplitRead(rewriter, op, op.getVectorType(), pieces, [&](Piece p) {
      return vector::MaskedLoadOp::create(
          rewriter, loc,
          VectorType::get({p.width}, op.getVectorType().getElementType()),
          op.getBase(), offsetLastIndex(rewriter, loc, op.getIndices(), p.offset),
          slice(rewriter, loc, op.getMask(), p),
          slice(rewriter, loc, op.getPassThru(), p));
    });
    return success();
  }
};

struct SplitMaskedStore : SplitPattern<vector::MaskedStoreOp> {
  using SplitPattern::SplitPattern;
  LogicalResult matchAndRewrite(vector::MaskedStoreOp op,
                                PatternRewriter &rewriter) const override {
    SmallVector<Piece> pieces =
        getPieces(op.getValueToStore().getType(), maxBits);
    if (pieces.empty())
      return rewriter.notifyMatchFailure(op, "nothing to split");
    Location loc = op.getLoc();
    replaceBySplitWrite(rewriter, op, pieces, [&](Piece p) {
      vector::MaskedStoreOp::create(
          rewriter, loc, op.getBase(),
          offsetLastIndex(rewriter, loc, op.getIndices(), p.offset),
          slice(rewriter, loc, op.getMask(), p),
          slice(rewriter, loc, op.getValueToStore(), p));
    });
    return success();
  }
};

struct MatrixSplitMaskedVectors
    : matrix::impl::MatrixSplitMaskedVectorsBase<MatrixSplitMaskedVectors> {
  using MatrixSplitMaskedVectorsBase::MatrixSplitMaskedVectorsBase;
  void runOnOperation() override {
    if (maxBits <= 0) {
      getOperation()->emitError("matrix-split-masked-vectors: max-bits must "
                                "be positive, got ")
          << static_cast<int64_t>(maxBits);
      return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    patterns.add<SplitTransferRead, SplitTransferWrite, SplitMaskedLoad,
                 SplitMaskedStore>(&getContext(), maxBits);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
