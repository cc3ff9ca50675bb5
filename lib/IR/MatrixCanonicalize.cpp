//===- MatrixCanonicalize.cpp - Exact simplifications of Matrix ops -------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Folders of the elementwise ops. They run at every optimization level
// (the `canonicalize` of the Matrix stage, and wherever an op is built with
// createOrFold), so each must be exact: the simplified program prints, bit
// for bit, what the original prints, for every input including -0, inf and
// nan. Rewrites that build new ops (`x - x -> zeros`, `a + full(v) ->
// a + v`) and the cost-based ones that may round differently
// (re-association, moving scalars) live in lib/Transforms
// (`matrix-optimize`, -O1 and up).
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

#include "mlir/IR/Matchers.h"
#include "mlir/IR/TypeUtilities.h"

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

bool mlir::matrix::isKnownWithoutNegativeZero(Value value) {
  auto notNegZero = [](const APFloat &v) { return !v.isNegZero(); };
  if (auto add = value.getDefiningOp<AddOp>())
    return isKnownWithoutNegativeZero(add.getLhs()) ||
           isKnownWithoutNegativeZero(add.getRhs());
  return allElementsSatisfy(value, notNegZero, /*throughNeg=*/false);
}

bool mlir::matrix::isKnownFinite(Value value) {
  return allElementsSatisfy(
      value, [](const APFloat &v) { return v.isFinite(); },
      /*throughNeg=*/true);
}

/// `x` when it can replace an elementwise op's result as is: a matrix of
/// exactly the result type.
static Value ifResultType(Value x, Operation *op) {
  return x.getType() == op->getResult(0).getType() ? x : Value();
}

/// The value of every element of an operand, when it is known to be one:
/// a scalar constant, a `matrix.full` of a constant, or a splat literal.
/// `attr` is the operand's constant attribute from the FoldAdaptor.
static std::optional<APFloat> getSplatValue(Value operand, Attribute attr) {
  if (auto scalar = dyn_cast_or_null<FloatAttr>(attr))
    return scalar.getValue();
  if (auto splat = dyn_cast_or_null<DenseFPElementsAttr>(attr);
      splat && splat.isSplat())
    return splat.getSplatValue<APFloat>();
  if (auto full = operand.getDefiningOp<FullOp>())
    return getConstantScalar(full.getValue());
  return std::nullopt;
}

static bool isPositiveZero(std::optional<APFloat> v) {
  return v && v->isPosZero();
}
static bool isNegativeZero(std::optional<APFloat> v) {
  return v && v->isNegZero();
}
static bool isOne(std::optional<APFloat> v) {
  return v && v->isExactlyValue(1.0);
}

//===----------------------------------------------------------------------===//
// Folders
//===----------------------------------------------------------------------===//

OpFoldResult AddOp::fold(FoldAdaptor adaptor) {
  // x + (-0) -> x always; x + (+0) -> x when x holds no -0. Either side; the
  // zero may be a scalar, zeros(m, n) or a splat literal.
  std::optional<APFloat> lhs = getSplatValue(getLhs(), adaptor.getLhs());
  std::optional<APFloat> rhs = getSplatValue(getRhs(), adaptor.getRhs());
  for (auto [x, zero] : {std::pair(getLhs(), rhs), std::pair(getRhs(), lhs)}) {
    if (isNegativeZero(zero) ||
        (isPositiveZero(zero) && isKnownWithoutNegativeZero(x)))
      if (Value result = ifResultType(x, *this))
        return result;
  }
  return {};
}

OpFoldResult SubOp::fold(FoldAdaptor adaptor) {
  // x - (+0) -> x, exact for every x. (x - (-0) is x + 0: not foldable.)
  if (isPositiveZero(getSplatValue(getRhs(), adaptor.getRhs())))
    return ifResultType(getLhs(), *this);
  return {};
}

OpFoldResult MulOp::fold(FoldAdaptor adaptor) {
  // x * 1 -> x and 1 * x -> x (scalar 1, ones(m, n), splat literal), exact
  // for every x.
  if (isOne(getSplatValue(getRhs(), adaptor.getRhs())))
    if (Value result = ifResultType(getLhs(), *this))
      return result;
  if (isOne(getSplatValue(getLhs(), adaptor.getLhs())))
    return ifResultType(getRhs(), *this);
  return {};
}
