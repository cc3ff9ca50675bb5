//===- Builtins.cpp - Matrix constants and builtins to Linalg -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// matrix.constant -> arith.constant, matrix.full -> linalg.fill,
// matrix.eye / matrix.iota -> linalg.generic over linalg.index.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::matrix;
using namespace mlir::matrix::lowering;

namespace {

struct ConstantLowering : OpConversionPattern<ConstantOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(ConstantOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    rewriter.replaceOpWithNewOp<arith::ConstantOp>(
        op, cast<TypedAttr>(op.getValue()));
    return success();
  }
};

struct FullLowering : OpConversionPattern<FullOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(FullOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Value init = createEmptyTensor(rewriter, op.getLoc(), op.getType(), {});
    rewriter.replaceOp(op, linalg::FillOp::create(rewriter, op.getLoc(),
                                                  adaptor.getValue(), init)
                               .getResult(0));
    return success();
  }
};

/// Converts an index to the floating-point type `type`.
static Value indexToFloat(OpBuilder &b, Location loc, Value index,
                          Type type) {
  Value asInt = arith::IndexCastUIOp::create(b, loc, b.getI64Type(), index);
  return arith::UIToFPOp::create(b, loc, type, asInt);
}

/// eye(n): element (i, j) is 1 if i == j, else 0.
struct EyeLowering : OpConversionPattern<EyeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(EyeOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Type elementType = op.getType().getElementType();
    rewriter.replaceOp(
        op, buildElementwiseGeneric(
                rewriter, op.getLoc(), op.getType(), {}, {},
                [&](OpBuilder &b, Location loc, ValueRange, Value i, Value j) {
                  Value onDiagonal = arith::CmpIOp::create(
                      b, loc, arith::CmpIPredicate::eq, i, j);
                  Value one = arith::ConstantOp::create(
                      b, loc, b.getFloatAttr(elementType, 1.0));
                  Value zero = arith::ConstantOp::create(
                      b, loc, b.getFloatAttr(elementType, 0.0));
                  return arith::SelectOp::create(b, loc, onDiagonal, one, zero)
                      .getResult();
                }));
    return success();
  }
};

/// iota(m, n): element (i, j) is i * n + j (row-major position).
struct IotaLowering : OpConversionPattern<IotaOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(IotaOp op, OpAdaptor,
                  ConversionPatternRewriter &rewriter) const override {
    RankedTensorType type = op.getType();
    rewriter.replaceOp(
        op, buildElementwiseGeneric(
                rewriter, op.getLoc(), type, {}, {},
                [&](OpBuilder &b, Location loc, ValueRange, Value i, Value j) {
                  Value cols =
                      arith::ConstantIndexOp::create(b, loc, type.getDimSize(1));
                  Value position = arith::AddIOp::create(
                      b, loc, arith::MulIOp::create(b, loc, i, cols), j);
                  return indexToFloat(b, loc, position,
                                      type.getElementType());
                }));
    return success();
  }
};

} // namespace

void lowering::populateBuiltinPatterns(RewritePatternSet &patterns) {
  patterns.add<ConstantLowering, FullLowering, EyeLowering, IotaLowering>(
      patterns.getContext());
}
