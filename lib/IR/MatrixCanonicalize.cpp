//===- MatrixCanonicalize.cpp - Exact simplifications of Matrix ops -------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Folders and canonicalization patterns of the elementwise ops. They run at
// every optimization level (the `canonicalize` of the Matrix stage), so each
// must be exact: the simplified program prints, bit for bit, what the
// original prints, for every input including -0, inf and nan. The cost-based
// rewrites that may round differently (re-association, moving scalars) live
// in lib/Transforms (`matrix-optimize`).
//
// IEEE 754 facts the decisions rest on (round to nearest, the only mode Mat
// uses):
//   x - (+0) == x  and  x + (-0) == x   for every x, -0 included;
//   x + (+0) == x  except for x == -0, where the sum is +0;
//   x * 1    == x  for every x (a NaN stays a NaN);
//   x - x    == +0 for finite x, but nan for x = inf or nan.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Ops.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"

using namespace mlir;
using namespace mlir::matrix;

//===----------------------------------------------------------------------===//
// What is known about every element of a value
//===----------------------------------------------------------------------===//

/// The float constant `value` is, if it is one (a scalar `arith.constant`).
static std::optional<APFloat> getConstantScalar(Value value) {
  FloatAttr attr;
  if (matchPattern(value, m_Constant(&attr)))
    return attr.getValue();
  return std::nullopt;
}

/// True when every element of the matrix (or the scalar) `value` satisfies
/// `pred`, as far as can be seen from the ops that produce it: literals,
/// `full` of a constant, `iota` and `eye`, and, when `throughNeg` holds,
/// negations; transposes always. `iota` and `eye` elements are non-negative
/// integers below 2^40 (finite in f32 and f64); they are judged by probing
/// +0 and 1, so `pred` must be a property all such integers share with
/// those two (finiteness, not being -0).
static bool allElementsSatisfy(Value value,
                               llvm::function_ref<bool(const APFloat &)> pred,
                               bool throughNeg) {
  if (std::optional<APFloat> scalar = getConstantScalar(value))
    return pred(*scalar);
  Operation *def = value.getDefiningOp();
  if (!def)
    return false;
  if (auto constant = dyn_cast<ConstantOp>(def)) {
    auto dense = dyn_cast<DenseFPElementsAttr>(constant.getValue());
    return dense && llvm::all_of(dense.getValues<APFloat>(), pred);
  }
  if (auto full = dyn_cast<FullOp>(def))
    return allElementsSatisfy(full.getValue(), pred, throughNeg);
  if (isa<IotaOp, EyeOp>(def)) {
    // Elements are 0 (positive zero), 1, 2, ...: probe the two kinds.
    const llvm::fltSemantics &sem =
        cast<FloatType>(getElementTypeOrSelf(value)).getFloatSemantics();
    return pred(APFloat::getZero(sem)) && pred(APFloat::getOne(sem));
  }
  if (auto transpose = dyn_cast<TransposeOp>(def))
    return allElementsSatisfy(transpose.getInput(), pred, throughNeg);
  if (auto neg = dyn_cast<NegOp>(def); neg && throughNeg)
    return allElementsSatisfy(neg.getInput(), pred, throughNeg);
  return false;
}

/// True when no element of `value` can be -0. A sum is -0 only when both
/// addends are -0 (round to nearest), so one such side is enough.
static bool isKnownWithoutNegativeZero(Value value) {
  auto notNegZero = [](const APFloat &v) { return !v.isNegZero(); };
  if (auto add = value.getDefiningOp<AddOp>())
    return isKnownWithoutNegativeZero(add.getLhs()) ||
           isKnownWithoutNegativeZero(add.getRhs());
  return allElementsSatisfy(value, notNegZero, /*throughNeg=*/false);
}

/// True when every element of `value` is finite (no inf, no nan).
static bool isKnownFinite(Value value) {
  return allElementsSatisfy(
      value, [](const APFloat &v) { return v.isFinite(); },
      /*throughNeg=*/true);
}

/// `x` when it can replace an elementwise op's result as is: a matrix of
/// exactly the result type.
static Value ifResultType(Value x, Operation *op) {
  return x.getType() == op->getResult(0).getType() ? x : Value();
}

static bool isPositiveZero(Attribute attr) {
  auto f = dyn_cast_or_null<FloatAttr>(attr);
  return f && f.getValue().isPosZero();
}
static bool isNegativeZero(Attribute attr) {
  auto f = dyn_cast_or_null<FloatAttr>(attr);
  return f && f.getValue().isNegZero();
}
static bool isOne(Attribute attr) {
  auto f = dyn_cast_or_null<FloatAttr>(attr);
  return f && f.getValue().isExactlyValue(1.0);
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + (-0) -> x always; x + (+0) -> x when x holds no -0. Either side.
  for (auto [x, zero] : {std::pair(getLhs(), adaptor.getRhs()),
                         std::pair(getRhs(), adaptor.getLhs())}) {
    if (isNegativeZero(zero) ||
        (isPositiveZero(zero) && isKnownWithoutNegativeZero(x)))
      if (Value result = ifResultType(x, *this))
        return result;
  }
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x - (+0) -> x, exact for every x. (x - (-0) is x + 0: not foldable.)
  if (isPositiveZero(adaptor.getRhs()))
    return ifResultType(getLhs(), *this);
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  // x * 1 -> x and 1 * x -> x, exact for every x.
  if (isOne(adaptor.getRhs()))
    return ifResultType(getLhs(), *this);
  if (isOne(adaptor.getLhs()))
    return ifResultType(getRhs(), *this);
  return {};
}

//===----------------------------------------------------------------------===//
// Canonicalization patterns
//===----------------------------------------------------------------------===//

namespace {

/// `a OP full(v)` -> `a OP v` (and `full(v) OP a` -> `v OP a`): the filled
/// matrix is replaced by its scalar, broadcast, so it is never
/// materialized. Each element computes the same `a[i, j] OP v`. Applies
/// when the other operand is a matrix of exactly the result type (so the
/// result type is unchanged).
template <typename OpTy>
struct FullOperandToScalar : OpRewritePattern<OpTy> {
  using OpRewritePattern<OpTy>::OpRewritePattern;
  LogicalResult matchAndRewrite(OpTy op,
                                PatternRewriter &rewriter) const override {
    Value lhs = op.getLhs(), rhs = op.getRhs();
    if (auto full = rhs.getDefiningOp<FullOp>(); full && ifResultType(lhs, op))
      rhs = full.getValue();
    else if (auto full = lhs.getDefiningOp<FullOp>();
             full && ifResultType(rhs, op))
      lhs = full.getValue();
    else
      return rewriter.notifyMatchFailure(op, "no matrix.full operand");
    rewriter.replaceOpWithNewOp<OpTy>(op, op.getType(), lhs, rhs);
    return success();
  }
};

/// `x - x` -> `zeros` when every element of `x` is known finite. Not for
/// other `x`: `inf - inf` and `nan - nan` are nan (IEEE and NumPy alike).
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

void AddOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FullOperandToScalar<AddOp>>(context);
}

void SubOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FullOperandToScalar<SubOp>, SubSelfOfFinite>(context);
}

void MulOp::getCanonicalizationPatterns(RewritePatternSet &results,
                                        MLIRContext *context) {
  results.add<FullOperandToScalar<MulOp>>(context);
}
