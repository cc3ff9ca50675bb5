//===- TransformOps.cpp - matc's transform-dialect extension --------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transform ops of TransformOps.td and the TransformDialectExtension
// that registers them, after mlir/examples/transform/Ch2 (MyExtension.cpp).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/TransformOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "llvm/Support/MathExtras.h"

#define GET_OP_CLASSES
#include "MatrixDialect/Codegen/TransformOps.cpp.inc"

using namespace mlir;

namespace {
class MatrixTransformExtension
    : public transform::TransformDialectExtension<MatrixTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MatrixTransformExtension)

  using Base::Base;

  void init() {
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "MatrixDialect/Codegen/TransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::matrix::registerMatrixTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<MatrixTransformExtension>();
}

//===----------------------------------------------------------------------===//
// ThreadRowBlockOp
//===----------------------------------------------------------------------===//

/// The one positive integer `param` holds, or a definite failure naming it.
static FailureOr<int64_t> getPositiveParam(transform::TransformState &state,
                                           Operation *op, Value param,
                                           StringRef name) {
  ArrayRef<Attribute> values = state.getParams(param);
  auto integer =
      values.size() == 1 ? dyn_cast<IntegerAttr>(values.front()) : nullptr;
  if (!integer || integer.getInt() < 1)
    return op->emitOpError() << "expects '" << name
                             << "' to hold one positive integer";
  return integer.getInt();
}

/// The rows per block of M rows (ThreadRowBlockOp's description): a
/// multiple of `threads` blocks, as few as `maxRows` allows.
static int64_t getThreadRowBlock(int64_t m, int64_t maxRows, int64_t multiple,
                                 int64_t threads) {
  int64_t blocks =
      threads * std::max<int64_t>(1, llvm::divideCeil(m, threads * maxRows));
  int64_t even = llvm::divideCeil(m, blocks);
  return std::min(maxRows,
                  std::max<int64_t>(multiple, llvm::alignTo(even, multiple)));
}

/// getThreadRowBlock as index arithmetic on a dynamic M, at the rewriter's
/// insertion point; the result is an affine.min whose constant upper bound
/// is `maxRows`.
static OpFoldResult buildThreadRowBlock(RewriterBase &rewriter, Location loc,
                                        OpFoldResult m, int64_t maxRows,
                                        int64_t multiple, int64_t threads) {
  MLIRContext *context = rewriter.getContext();
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
  AffineExpr s1 = rewriter.getAffineSymbolExpr(1);
  auto constant = [&](int64_t value) {
    return rewriter.getAffineConstantExpr(value);
  };
  // Blocks per thread: as few as maxRows allows, at least one (M = 0 must
  // divide by neither 0 nor make a step of 0).
  OpFoldResult perThread = affine::makeComposedFoldedAffineMax(
      rewriter, loc,
      AffineMap::get(0, 1, {s0.ceilDiv(threads * maxRows), constant(1)},
                     context),
      {m});
  OpFoldResult blocks = affine::makeComposedFoldedAffineApply(
      rewriter, loc, s0 * threads, {perThread});
  // ceil(M / blocks) = (M + blocks - 1) / blocks, not affine (the divisor
  // is not a constant); arith.ceildivui has no LLVM lowering.
  OpFoldResult dividend = affine::makeComposedFoldedAffineApply(
      rewriter, loc, s0 + s1 - 1, {m, blocks});
  Value even = arith::DivUIOp::create(
      rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, dividend),
      getValueOrCreateConstantIndexOp(rewriter, loc, blocks));
  OpFoldResult whole = affine::makeComposedFoldedAffineMax(
      rewriter, loc,
      AffineMap::get(0, 1, {s0.ceilDiv(multiple) * multiple, constant(multiple)},
                     context),
      {even});
  // At most maxRows, a bound the bufferization of the blocks can see
  // through (ValueBoundsOpInterface does not see through the division).
  return affine::makeComposedFoldedAffineMin(
      rewriter, loc, AffineMap::get(0, 1, {s0, constant(maxRows)}, context),
      {whole});
}

DiagnosedSilenceableFailure transform::ThreadRowBlockOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  FailureOr<int64_t> maxRows =
      getPositiveParam(state, *this, getMaxRows(), "max_rows");
  FailureOr<int64_t> multiple =
      getPositiveParam(state, *this, getMultiple(), "multiple");
  FailureOr<int64_t> threads =
      getPositiveParam(state, *this, getThreads(), "threads");
  if (failed(maxRows) || failed(multiple) || failed(threads))
    return DiagnosedSilenceableFailure::definiteFailure();
  if (*maxRows % *multiple != 0)
    return emitDefiniteFailure() << "expects 'max_rows' (" << *maxRows
                                 << ") to be a multiple of 'multiple' ("
                                 << *multiple << ")";

  SmallVector<Operation *> rowOps;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto tileable = dyn_cast<TilingInterface>(target);
    if (!tileable)
      return emitDefiniteFailure()
             << "expects a tileable target, got '" << target->getName()
             << "'";
    Location loc = target->getLoc();
    rewriter.setInsertionPoint(target);
    OpFoldResult rows = rewriter.getIndexAttr(*maxRows);
    if (*threads > 1) {
      // M, the first loop's size (tensor.dim of the target when dynamic).
      OpFoldResult m = tileable.getIterationDomain(rewriter).front().size;
      if (std::optional<int64_t> staticM = getConstantIntValue(m))
        rows = rewriter.getIndexAttr(
            getThreadRowBlock(*staticM, *maxRows, *multiple, *threads));
      else
        rows = buildThreadRowBlock(rewriter, loc, m, *maxRows, *multiple,
                                   *threads);
    }
    Value value = getValueOrCreateConstantIndexOp(rewriter, loc, rows);
    rowOps.push_back(value.getDefiningOp());
  }
  results.set(cast<OpResult>(getRows()), rowOps);
  return DiagnosedSilenceableFailure::success();
}

void transform::ThreadRowBlockOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  onlyReadsHandle(getMaxRowsMutable(), effects);
  onlyReadsHandle(getMultipleMutable(), effects);
  onlyReadsHandle(getThreadsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

void transform::ApplyUnrollTransposesPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  int64_t size = getSize();
  // The native shape of `op` if it is a transpose of the last two
  // dimensions of 32-bit elements, both multiples of `size` (and not both
  // `size`), the others 1.
  auto getSquareShape =
      [size](Operation *op) -> std::optional<SmallVector<int64_t>> {
    auto transpose = dyn_cast<vector::TransposeOp>(op);
    if (!transpose)
      return std::nullopt;
    VectorType type = transpose.getSourceVectorType();
    int64_t rank = type.getRank();
    if (rank < 2 || type.isScalable() || type.getElementTypeBitWidth() != 32 ||
        type.getNumElements() == size * size)
      return std::nullopt;
    SmallVector<int64_t> square(rank, 1);
    for (int64_t i = 0; i < rank; ++i) {
      int64_t expected = i < rank - 2 ? i : 2 * rank - 3 - i;
      if (transpose.getPermutation()[i] != expected)
        return std::nullopt;
      if (i < rank - 2 ? type.getDimSize(i) != 1
                       : type.getDimSize(i) % size != 0)
        return std::nullopt;
      if (i >= rank - 2)
        square[i] = size;
    }
    return square;
  };
  vector::populateVectorUnrollPatterns(
      patterns,
      vector::UnrollVectorOptions()
          .setFilterConstraint([getSquareShape](Operation *op) {
            return success(getSquareShape(op).has_value());
          })
          .setNativeShapeFn(getSquareShape));
}
