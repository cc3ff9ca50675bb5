//===- Arithmetic.cpp - Matrix arithmetic to Linalg -----------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// matrix.matmul -> linalg.fill + linalg.matmul, matrix.transpose ->
// linalg.transpose, elementwise ops -> linalg.generic. Every result is
// written into a fresh tensor.empty: no op reads the tensor it writes.
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

Value lowering::createEmptyTensor(
    OpBuilder &b, Location loc, RankedTensorType type,
    ArrayRef<std::pair<Value, int64_t>> sizeSources) {
  SmallVector<Value, 2> dynamicSizes;
  for (auto [dim, size] : llvm::enumerate(type.getShape()))
    if (ShapedType::isDynamic(size))
      dynamicSizes.push_back(tensor::DimOp::create(
          b, loc, sizeSources[dim].first, sizeSources[dim].second));
  return tensor::EmptyOp::create(b, loc, type.getShape(),
                                 type.getElementType(), dynamicSizes);
}

Value lowering::buildElementwiseGeneric(
    OpBuilder &b, Location loc, RankedTensorType type, ValueRange inputs,
    Value sizeSource,
    function_ref<Value(OpBuilder &, Location, ValueRange, Value, Value)>
        bodyBuilder) {
  MLIRContext *ctx = b.getContext();
  Value init = createEmptyTensor(b, loc, type,
                                 {{sizeSource, 0}, {sizeSource, 1}});
  AffineMap identity = AffineMap::getMultiDimIdentityMap(2, ctx);
  AffineMap broadcast = AffineMap::get(2, 0, {}, ctx);
  SmallVector<AffineMap> maps;
  for (Value input : inputs)
    maps.push_back(isa<RankedTensorType>(input.getType()) ? identity
                                                          : broadcast);
  maps.push_back(identity);
  SmallVector<utils::IteratorType> iterators(2, utils::IteratorType::parallel);
  auto generic = linalg::GenericOp::create(
      b, loc, type, inputs, init, maps, iterators,
      [&](OpBuilder &nb, Location nloc, ValueRange args) {
        Value i = linalg::IndexOp::create(nb, nloc, 0);
        Value j = linalg::IndexOp::create(nb, nloc, 1);
        Value result = bodyBuilder(nb, nloc, args.drop_back(), i, j);
        linalg::YieldOp::create(nb, nloc, result);
      });
  return generic.getResult(0);
}

namespace {

/// matrix.matmul -> linalg.matmul accumulating into a zero-filled tensor.
/// A `transpose_lhs`/`transpose_rhs` operand is read in place through
/// linalg.matmul's `indexing_maps` (lhs `(d0, d1, d2) -> (d2, d0)`, rhs
/// `-> (d1, d2)`), the form upstream uses instead of the former
/// linalg.matmul_transpose_a/b; the plain product keeps the default maps.
struct MatmulLowering : OpConversionPattern<MatmulOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatmulOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    RankedTensorType type = op.getType();
    bool transposeLhs = op.getTransposeLhs();
    bool transposeRhs = op.getTransposeRhs();
    Value init = createEmptyTensor(rewriter, loc, type,
                                   {{adaptor.getLhs(), transposeLhs ? 1 : 0},
                                    {adaptor.getRhs(), transposeRhs ? 0 : 1}});
    Value zero = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(type.getElementType()));
    Value acc = linalg::FillOp::create(rewriter, loc, zero, init).getResult(0);
    auto matmul = linalg::MatmulOp::create(
        rewriter, loc, ValueRange{adaptor.getLhs(), adaptor.getRhs()},
        ValueRange{acc});
    if (transposeLhs || transposeRhs) {
      // (m, n, k) iteration space: d0 = i, d1 = j, d2 = k.
      MLIRContext *ctx = rewriter.getContext();
      AffineExpr i, j, k;
      bindDims(ctx, i, j, k);
      auto map = [&](AffineExpr a, AffineExpr b) {
        return AffineMap::get(3, 0, {a, b}, ctx);
      };
      matmul.setIndexingMapsAttr(rewriter.getAffineMapArrayAttr(
          {transposeLhs ? map(k, i) : map(i, k),
           transposeRhs ? map(j, k) : map(k, j), map(i, j)}));
    }
    rewriter.replaceOp(op, matmul.getResult(0));
    return success();
  }
};

/// matrix.transpose -> linalg.transpose into a fresh tensor.
struct TransposeLowering : OpConversionPattern<TransposeOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(TransposeOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    Value input = adaptor.getInput();
    Value init = createEmptyTensor(rewriter, loc, op.getType(),
                                   {{input, 1}, {input, 0}});
    rewriter.replaceOp(op, linalg::TransposeOp::create(
                               rewriter, loc, input, init,
                               ArrayRef<int64_t>{1, 0})
                               .getResult()[0]);
    return success();
  }
};

/// Elementwise matrix op -> linalg.generic applying `ScalarOp` per element.
template <typename MatrixOp, typename ScalarOp>
struct ElementwiseLowering : OpConversionPattern<MatrixOp> {
  using OpConversionPattern<MatrixOp>::OpConversionPattern;
  LogicalResult
  matchAndRewrite(MatrixOp op, typename MatrixOp::Adaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    ValueRange operands = adaptor.getOperands();
    // Dynamic sizes come from the first matrix operand.
    Value sizeSource = *llvm::find_if(operands, [](Value v) {
      return isa<RankedTensorType>(v.getType());
    });
    rewriter.replaceOp(
        op, buildElementwiseGeneric(
                rewriter, op.getLoc(), op.getType(), operands, sizeSource,
                [](OpBuilder &b, Location loc, ValueRange args, Value, Value) {
                  return ScalarOp::create(b, loc, args).getResult();
                }));
    return success();
  }
};

} // namespace

void lowering::populateArithmeticPatterns(RewritePatternSet &patterns) {
  patterns.add<MatmulLowering, TransposeLowering,
               ElementwiseLowering<AddOp, arith::AddFOp>,
               ElementwiseLowering<SubOp, arith::SubFOp>,
               ElementwiseLowering<MulOp, arith::MulFOp>,
               ElementwiseLowering<NegOp, arith::NegFOp>>(
      patterns.getContext());
}
