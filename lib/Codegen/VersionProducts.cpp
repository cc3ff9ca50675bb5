//===- VersionProducts.cpp - Unpacked or packed schedule, by size ---------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-version-products pass (Passes.td): products whose operands
// fit in the caches are tagged for the unpacked schedule of
// lib/Codegen/Schedule.mlir, behind a run-time test of their sizes when
// they are not static.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/DLTI/DLTI.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Linalg/Transforms/Transforms.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXVERSIONPRODUCTS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using matrix::castTo;
using matrix::createTransposedCopy;
using matrix::kMinDotProductDepth;

/// The schedule's tag of the unpacked products of `type`'s element type, or
/// "" for element types it does not schedule.
static StringRef getUnpackedTag(RankedTensorType type) {
  if (type.getElementType().isF32())
    return "f32";
  if (type.getElementType().isF64())
    return "f64";
  return "";
}

/// `size` `predicate` `bound` (an index constant), an i1.
static Value compareToConstant(OpBuilder &builder, Location loc,
                               arith::CmpIPredicate predicate, Value size,
                               int64_t bound) {
  return arith::CmpIOp::create(
      builder, loc, predicate, size,
      arith::ConstantIndexOp::create(builder, loc, bound));
}

/// `matmul` as a linalg.generic tagged `matc.unpacked = TAG`: the schedule's
/// matchers for products (linalg.matmul) leave it alone. With a k-range
/// that is run-time or longer than 16, it is also tagged
/// `matc.unpacked_long_k`: the schedule splits its rows between the threads
/// and computes its last rows (M mod MR) in tiles of 4, 2 and 1 rows rather
/// than in one tile masked in its rows, which tests each row at every step
/// of k (measured on AVX-512: 6-9% of the product at n = 127 to 204). With a
/// short k-range a row is too little work for either to pay for its compile
/// time (measured: 0.21 s -> 0.32 s for one function of two 8 x 8 products).
/// With `vectorBits` > 0 and a static N of at most one vector of elements,
/// the tag gets the suffix "_narrow" (register tiles one vector wide); an
/// f32 N of at most half a vector, "_narrow_half" (register tiles half a
/// vector wide, the lanes of an f64 vector: N = 8 on AVX-512 in ymm
/// registers, not in zmm ones masked to their lower half, which costs a
/// blend after every multiply-add; measured on Zen 4, 256 x 256 @ 256 x 8
/// from Python: 43 us, against 20 us for 16 columns). With `narrowColumns`,
/// the suffix "_narrow" whatever N (a run-time N tested to be at most one
/// vector: MatrixVersionProducts::versionNarrowColumns). Returns the
/// result of the tagged op (that of `matmul` if it could not be
/// generalized).
static Value tagUnpacked(linalg::MatmulOp matmul, StringRef tag,
                         int64_t vectorBits, bool narrowColumns = false) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  bool longK = ranges.size() == 3 &&
               (ShapedType::isDynamic(ranges[2]) || ranges[2] > 16);
  auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
  int64_t lanes =
      vectorBits / std::max<int64_t>(
                       1, resultType.getElementType().getIntOrFloatBitWidth());
  std::string fullTag = tag.str();
  if (narrowColumns)
    fullTag += "_narrow";
  else if (ranges.size() == 3 && !ShapedType::isDynamic(ranges[1]) &&
           ranges[1] <= lanes)
    fullTag += tag == "f32" && 2 * ranges[1] <= lanes ? "_narrow_half"
                                                      : "_narrow";
  IRRewriter rewriter(matmul);
  FailureOr<linalg::GenericOp> generic =
      linalg::generalizeNamedOp(rewriter, matmul);
  if (failed(generic))
    return matmul.getResult(0);
  (*generic)->setAttr("matc.unpacked", rewriter.getStringAttr(fullTag));
  if (longK)
    (*generic)->setAttr("matc.unpacked_long_k", rewriter.getUnitAttr());
  return (*generic)->getResult(0);
}

// Declared in Passes.h.
Value matrix::createTransposedCopy(OpBuilder &builder, Location loc,
                                   Value value, StringRef tag,
                                   Value destination) {
  MLIRContext *context = builder.getContext();
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<OpFoldResult> sizes = {
      tensor::getMixedSize(builder, loc, value, 1),
      tensor::getMixedSize(builder, loc, value, 0)};
  Value empty = destination ? destination
                            : tensor::EmptyOp::create(builder, loc, sizes,
                                                      type.getElementType())
                                  .getResult();
  AffineExpr d0, d1;
  bindDims(context, d0, d1);
  SmallVector<AffineMap> maps = {AffineMap::get(2, 0, {d1, d0}, context),
                                 AffineMap::getMultiDimIdentityMap(2, context)};
  SmallVector<utils::IteratorType> parallel(2, utils::IteratorType::parallel);
  auto transpose = linalg::GenericOp::create(
      builder, loc, empty.getType(), ValueRange{value}, ValueRange{empty},
      maps, parallel, [](OpBuilder &b, Location l, ValueRange args) {
        linalg::YieldOp::create(b, l, args[0]);
      });
  transpose->setAttr("matc.transpose", builder.getStringAttr(tag));
  return transpose.getResult(0);
}

// Declared in Passes.h.
Value matrix::castTo(OpBuilder &builder, Location loc, Value value, Type type) {
  if (value.getType() == type)
    return value;
  return tensor::CastOp::create(builder, loc, type, value);
}

/// `init`, the destination of a product's C, made again at `builder`'s
/// point: when it is a linalg.fill, a new fill of the same value on
/// `reshape` of the fill's destination (the destination itself when
/// `reshape` is null); otherwise `reshape` of `init` (or `init`). Each
/// branch of a test that computes C makes its fill again so that either
/// computes into C's buffer: a fill outside, read in both, costs the scf.if
/// a buffer of its own after bufferization (the product functions then no
/// longer write C in place).
static Value remakeDestination(OpBuilder &builder, Location loc, Value init,
                               function_ref<Value(Value)> reshape = nullptr) {
  auto reshaped = [&](Value value) { return reshape ? reshape(value) : value; };
  if (auto fill = init.getDefiningOp<linalg::FillOp>())
    return linalg::FillOp::create(builder, loc, fill.getInputs()[0],
                                  reshaped(fill.getDpsInits()[0]))
        .getResult(0);
  return reshaped(init);
}

/// `init`, the destination of a product whose C has a unit dimension,
/// collapsed to a vector (no copy: the layouts are the same); a fill of it
/// is made again on the collapsed destination of the fill.
static Value collapseDestination(OpBuilder &builder, Location loc,
                                 Value init) {
  return remakeDestination(builder, loc, init, [&](Value value) -> Value {
    return tensor::CollapseShapeOp::create(builder, loc, value,
                                           ReassociationIndices{0, 1});
  });
}

/// A linalg.generic computing `out` += `lhs` * `rhs` over `maps` and
/// `iterators`, its multiply-adds marked `contract` (LLVM's FMAs, as the
/// other products' vector.fma), tagged `tagName` = `tag`.
static linalg::GenericOp
createMultiplyAdd(OpBuilder &builder, Location loc, Value lhs, Value rhs,
                  Value out, ArrayRef<AffineMap> maps,
                  ArrayRef<utils::IteratorType> iterators, StringRef tagName,
                  StringRef tag) {
  auto generic = linalg::GenericOp::create(
      builder, loc, out.getType(), ValueRange{lhs, rhs}, ValueRange{out}, maps,
      iterators, [](OpBuilder &b, Location l, ValueRange args) {
        auto contract = arith::FastMathFlagsAttr::get(
            b.getContext(), arith::FastMathFlags::contract);
        Value product =
            arith::MulFOp::create(b, l, args[0], args[1], contract);
        linalg::YieldOp::create(
            b, l,
            ValueRange{arith::AddFOp::create(b, l, args[2], product, contract)});
      });
  generic->setAttr(tagName, builder.getStringAttr(tag));
  return generic;
}

/// Replaces `matmul` by `result`, expanded back to its type from a vector of
/// C's `length` elements when `unitDim` (0 or 1) is set; erases the fill
/// C was, when nothing else uses it. Returns the replacement.
static Value replaceProduct(OpBuilder &builder, linalg::MatmulOp matmul,
                            Value result, std::optional<unsigned> unitDim,
                            OpFoldResult length) {
  Location loc = matmul.getLoc();
  if (unitDim) {
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    SmallVector<OpFoldResult> shape(2, builder.getIndexAttr(1));
    shape[1 - *unitDim] = length;
    SmallVector<ReassociationIndices> toVector = {{0, 1}};
    result = tensor::ExpandShapeOp::create(builder, loc, resultType, result,
                                           toVector, shape);
  }
  Operation *oldInit = matmul.getDpsInits()[0].getDefiningOp();
  matmul.getResult(0).replaceAllUsesWith(result);
  matmul.erase();
  if (oldInit && isa<linalg::FillOp>(oldInit) && oldInit->use_empty())
    oldInit->erase();
  return result;
}

/// How a product whose C is one row or column is computed from a matrix
/// and a vector x (rewriteAsVectorProduct).
enum class VectorProductForm {
  /// Dot products of the rows of a matrix L x K (row-major, contiguous in
  /// k) with x: a generic (l parallel, k reduction; maps (l, k), (k), (l))
  /// on (matrix, x), tagged `matc.dot`, as linalg.matvec.
  DotProducts,
  /// A sum of the rows of a matrix K x L scaled by the elements of x (axpy
  /// updates, as BLAS's gemv of a transposed matrix): a generic (l
  /// parallel, k reduction; maps (k), (k, l), (l)) on (x, matrix), tagged
  /// `matc.vector_matrix`.
  RowSums,
};

/// The rows of partial sums a vector-matrix product of a C of one vector
/// is split along k into (createRowSums): 8 independent chains of
/// multiply-adds, enough to cover a multiply-add's latency (4 cycles on Zen
/// 3 to Zen 5) at two per cycle.
static constexpr int64_t kSplitRows = 8;

/// `out` (L) + x (K) times `matrix` (K x L, row-major), the sum of the
/// matrix's rows scaled by the elements of x, as linalg.generic ops tagged
/// for the schedule (Schedule.mlir, @schedule_vector_matrix and
/// @schedule_vector_matrix_split), on tensors of element type `tag`.
///
/// With `lanes` > 0, L at most one vector of `lanes` elements (static, or
/// tested at run time by an scf.if) and K not statically shorter than R =
/// kSplitRows, it is split along k: the first K - K mod R rows viewed as
/// (K / R) x R x L and x as (K / R) x R (expanded, no copies), into
/// partial sums P (R x L) += x[ko, r] matrix[ko, r, l] (loops r, l
/// parallel, ko reduction; tagged `matc.vector_matrix_split` = TAG), then
/// C = out + the sum of P's rows + the last K mod R rows of the matrix
/// scaled by x (two generics, loops l, k, tagged `matc.vector_matrix_rest`
/// = TAG). The schedule keeps P in R vector registers across ko: 8 chains
/// of multiply-adds. Unsplit, C's one vector is one chain along all of k,
/// reloaded from memory every 8 rows: from Python, Zen 5, 1 thread, 1 x
/// 200000 @ 200000 x N, N = 2 to 16 (f32), 2 to 8 (f64): 0.5-1.6 ms,
/// 2.1-5.9x NumPy; split, 0.10-0.24 ms, 0.54-1.25x.
///
/// Otherwise (L wider, a K shorter than R, or `lanes` 0) one generic (loops
/// l, k; maps (k), (k, l), (l)) tagged `matc.vector_matrix` = TAG; with
/// `lanes` > 0 and L below one tile of C (matrix::kVectorMatrixTileBits;
/// static, or tested at run time), tagged `matc.vector_matrix_carried` =
/// TAG, C's width in registers in its attribute `matc.vector_matrix_width`
/// (`#dlti.map<"width" = W : i64>`).
///
/// (Splitting a C of 2 or 4 vectors in 4 or 2 rows of partial sums gave
/// wrong f64 results on AVX-512 (an element of the matrix outside the mask
/// added into C; f32 was right): not done.)
static Value createRowSums(OpBuilder &builder, Location loc, Value x,
                           Value matrix, Value out, StringRef tag,
                           int64_t lanes) {
  MLIRContext *context = builder.getContext();
  AffineExpr l, k;
  bindDims(context, l, k);
  SmallVector<AffineMap> rowSumMaps = {AffineMap::get(2, 0, {k}, context),
                                       AffineMap::get(2, 0, {k, l}, context),
                                       AffineMap::get(2, 0, {l}, context)};
  SmallVector<utils::IteratorType> rowSumIterators = {
      utils::IteratorType::parallel, utils::IteratorType::reduction};
  auto matrixType = cast<RankedTensorType>(matrix.getType());
  Type element = matrixType.getElementType();
  int64_t depth = matrixType.getDimSize(0), width = matrixType.getDimSize(1);
  // An scf.if on `condition` computing C by `thenCompute` or `elseCompute`,
  // C's destination made again in each branch (remakeDestination).
  auto fill = out.getDefiningOp<linalg::FillOp>();
  auto versionOn = [&,
                    init = out](OpBuilder &b, Value condition,
                                function_ref<Value(OpBuilder &)> thenCompute,
                                function_ref<Value(OpBuilder &)> elseCompute) {
    auto ifOp = scf::IfOp::create(b, loc, init.getType(), condition,
                                  /*withElseRegion=*/true);
    auto branch = [&](OpBuilder nb, function_ref<Value(OpBuilder &)> compute) {
      Value branchOut = out = remakeDestination(nb, loc, init);
      scf::YieldOp::create(nb, loc, compute(nb));
      // (Unused when `compute` versions again, with fills of its own.)
      if (Operation *branchFill = branchOut.getDefiningOp<linalg::FillOp>())
        if (branchFill->use_empty())
          branchFill->erase();
    };
    branch(ifOp.getThenBodyBuilder(), thenCompute);
    branch(ifOp.getElseBodyBuilder(), elseCompute);
    return ifOp.getResult(0);
  };
  // Unsplit: one generic, or, with `lanes` > 0, for a C of less than one
  // tile of matrix::kVectorMatrixTileBits, tagged
  // `matc.vector_matrix_carried`: C in registers across all of k, masked to
  // L (@schedule_vector_matrix_rest), as wide as its attribute
  // `matc.vector_matrix_width` (a DLTI map, `width` elements, whole
  // vectors, which the schedule queries): a static L its own vectors; a
  // run-time one the fewest of 2, 4, 8 ... vectors (up to the tile) that
  // hold it, each behind a test of L. Scheduled as the wider ones, in
  // blocks of 8 rows of the matrix, that tile was masked, stored and
  // loaded again every 8 rows, the masked-off lanes past C's end: from
  // Python, Zen 5, 1 thread, 1 x 200000 @ 200000 x N, f64 N = 9 to 24:
  // 0.66-2.5 ms (NumPy 0.42-1.43), 5.8-15.5 ms when C ended a mapping
  // (masked stores reaching into an unmapped page); AVX2 code (znver3) f32
  // N = 9 to 24 and f64 N = 5 to 24: 1.4-4.4 ms (NumPy 0.18-1.3), 11-30 ms
  // when C ended a mapping. At the tile's width, a C of 2 vectors computed
  // 4 masked ones per row (f64 N = 12, 1.40 -> 0.79 ms at 2 vectors, NumPy
  // 0.49). (A C of whole tiles and a last one as two generics read the
  // matrix twice: f64 N = 40 and 70 1.5-1.9x slower. A C of one tile or
  // more carried whole, its k-loop unrolled by 8 or not, took 1.6-2.5x the
  // time of the whole tiles when the matrix came from memory, 0.6-0.8x
  // from the caches: f64 N = 32, 64 from 200000 rows.)
  int64_t tileWidth =
      matrix::kVectorMatrixTileBits / element.getIntOrFloatBitWidth();
  auto wholeTiles = [&](OpBuilder &b) -> Value {
    return createMultiplyAdd(b, loc, x, matrix, out, rowSumMaps,
                             rowSumIterators, "matc.vector_matrix", tag)
        .getResult(0);
  };
  auto carried = [&](OpBuilder &b, int64_t carriedWidth) -> Value {
    linalg::GenericOp generic =
        createMultiplyAdd(b, loc, x, matrix, out, rowSumMaps, rowSumIterators,
                          "matc.vector_matrix_carried", tag);
    generic->setAttr(
        "matc.vector_matrix_width",
        MapAttr::get(context, {DataLayoutEntryAttr::get(
                                  b.getStringAttr("width"),
                                  b.getI64IntegerAttr(carriedWidth))}));
    return generic.getResult(0);
  };
  // From `carriedWidth` elements up, doubling: L <= carriedWidth (L < the
  // tile's width at the last) ? carried : the next; whole tiles beyond.
  std::function<Value(OpBuilder &, int64_t)> carriedFrom =
      [&](OpBuilder &b, int64_t carriedWidth) -> Value {
    bool last = carriedWidth >= tileWidth;
    int64_t bound = last ? tileWidth : carriedWidth;
    Value fits = compareToConstant(
        b, loc, last ? arith::CmpIPredicate::ult : arith::CmpIPredicate::ule,
        tensor::DimOp::create(b, loc, matrix, 1), bound);
    return versionOn(
        b, fits, [&](OpBuilder &nb) { return carried(nb, bound); },
        [&](OpBuilder &nb) {
          return last ? wholeTiles(nb) : carriedFrom(nb, 2 * carriedWidth);
        });
  };
  // `narrowest`: the fewest elements of C carried (one vector, or two when
  // L is known to be more than one).
  auto unsplit = [&](OpBuilder &b, int64_t narrowest) -> Value {
    if (lanes <= 0)
      return wholeTiles(b);
    if (!ShapedType::isDynamic(width))
      return width < tileWidth
                 ? carried(b, llvm::divideCeil(width, lanes) * lanes)
                 : wholeTiles(b);
    return carriedFrom(b, narrowest);
  };
  if (lanes <= 0 || (!ShapedType::isDynamic(width) && width > lanes) ||
      (!ShapedType::isDynamic(depth) && depth < kSplitRows)) {
    Value result = unsplit(builder, lanes);
    if (fill && fill->use_empty())
      fill->erase();
    return result;
  }
  auto split = [&](OpBuilder &b) -> Value {
    OpFoldResult kSize = tensor::getMixedSize(b, loc, matrix, 0);
    OpFoldResult lSize = tensor::getMixedSize(b, loc, matrix, 1);
    AffineExpr s0;
    bindSymbols(context, s0);
    OpFoldResult blocks = affine::makeComposedFoldedAffineApply(
        b, loc, s0.floorDiv(kSplitRows), {kSize});
    OpFoldResult splitK = affine::makeComposedFoldedAffineApply(
        b, loc, s0 * kSplitRows, {blocks});
    OpFoldResult restK =
        affine::makeComposedFoldedAffineApply(b, loc, s0 % kSplitRows, {kSize});
    OpFoldResult zero = b.getIndexAttr(0), one = b.getIndexAttr(1);
    OpFoldResult rows = b.getIndexAttr(kSplitRows);
    // x (K / R) x R and the matrix (K / R) x R x L: the first K - K mod R
    // elements and rows, expanded (no copies).
    Value xHead =
        tensor::ExtractSliceOp::create(b, loc, x, {zero}, {splitK}, {one});
    int64_t staticBlocks =
        getConstantIntValue(blocks).value_or(ShapedType::kDynamic);
    Value xBlocks = tensor::ExpandShapeOp::create(
        b, loc, RankedTensorType::get({staticBlocks, kSplitRows}, element),
        xHead, {{0, 1}}, SmallVector<OpFoldResult>{blocks, rows});
    Value matrixHead = tensor::ExtractSliceOp::create(
        b, loc, matrix, {zero, zero}, {splitK, lSize}, {one, one});
    Value matrixBlocks = tensor::ExpandShapeOp::create(
        b, loc,
        RankedTensorType::get({staticBlocks, kSplitRows, width}, element),
        matrixHead, {{0, 1}, {2}},
        SmallVector<OpFoldResult>{blocks, rows, lSize});
    // P = 0, P[r, l] += x[ko, r] matrix[ko, r, l].
    Value empty =
        tensor::EmptyOp::create(b, loc, {rows, lSize}, element).getResult();
    Value zeroElement =
        arith::ConstantOp::create(b, loc, element, b.getZeroAttr(element));
    Value partials =
        linalg::FillOp::create(b, loc, zeroElement, empty).getResult(0);
    AffineExpr r, ll, ko;
    bindDims(context, r, ll, ko);
    partials = createMultiplyAdd(b, loc, xBlocks, matrixBlocks, partials,
                                 {AffineMap::get(3, 0, {ko, r}, context),
                                  AffineMap::get(3, 0, {ko, r, ll}, context),
                                  AffineMap::get(3, 0, {r, ll}, context)},
                                 {utils::IteratorType::parallel,
                                  utils::IteratorType::parallel,
                                  utils::IteratorType::reduction},
                                 "matc.vector_matrix_split", tag)
                   .getResult(0);
    // C = out + the sum of P's rows (loops l, r) ...
    auto sum = linalg::GenericOp::create(
        b, loc, out.getType(), ValueRange{partials}, ValueRange{out},
        {AffineMap::get(2, 0, {k, l}, context),
         AffineMap::get(2, 0, {l}, context)},
        rowSumIterators, [](OpBuilder &nb, Location nl, ValueRange args) {
          linalg::YieldOp::create(
              nb, nl,
              ValueRange{arith::AddFOp::create(nb, nl, args[1], args[0])});
        });
    sum->setAttr("matc.vector_matrix_rest", b.getStringAttr(tag));
    // ... + the last K mod R rows scaled by x (none for a static K of a
    // multiple of R).
    if (isConstantIntValue(restK, 0))
      return sum.getResult(0);
    Value xTail =
        tensor::ExtractSliceOp::create(b, loc, x, {splitK}, {restK}, {one});
    Value matrixTail = tensor::ExtractSliceOp::create(
        b, loc, matrix, {splitK, zero}, {restK, lSize}, {one, one});
    return createMultiplyAdd(b, loc, xTail, matrixTail, sum.getResult(0),
                             rowSumMaps, rowSumIterators,
                             "matc.vector_matrix_rest", tag)
        .getResult(0);
  };
  if (!ShapedType::isDynamic(width))
    return split(builder);
  // L <= lanes at run time; the unsplit product in the other branch.
  Value fits =
      compareToConstant(builder, loc, arith::CmpIPredicate::ule,
                        tensor::DimOp::create(builder, loc, matrix, 1), lanes);
  Value result = versionOn(builder, fits, split,
                           [&](OpBuilder &b) { return unsplit(b, 2 * lanes); });
  if (fill && fill->use_empty())
    fill->erase();
  return result;
}

/// Replaces `matmul`, whose C is one column (`unitDim` = 1: M x 1) or one
/// row (`unitDim` = 0: 1 x N), by its vector product of `form` from
/// `matrix` and `vector` (1 x K or K x 1), tagged `TAG`: on the vector and
/// C collapsed to vectors ([K], [L]; no copies, the layouts are the same),
/// its result expanded back to C's shape (with a unit dimension the
/// vectorizer would read the vector element by element); C keeps its
/// fill. Row sums of a C of at most `lanes` elements are split along k
/// (createRowSums). Returns the replacement.
static Value rewriteAsVectorProduct(linalg::MatmulOp matmul, StringRef tag,
                                    Value matrix, Value vector,
                                    unsigned unitDim, VectorProductForm form,
                                    int64_t lanes) {
  OpBuilder builder(matmul);
  Location loc = matmul.getLoc();
  MLIRContext *context = builder.getContext();
  Value x = tensor::CollapseShapeOp::create(builder, loc, vector,
                                            ReassociationIndices{0, 1});
  Value out = collapseDestination(builder, loc, matmul.getDpsInits()[0]);
  Value result;
  if (form == VectorProductForm::RowSums) {
    result = createRowSums(builder, loc, x, matrix, out, tag, lanes);
  } else {
    AffineExpr l, k;
    bindDims(context, l, k);
    result = createMultiplyAdd(builder, loc, matrix, x, out,
                               {AffineMap::get(2, 0, {l, k}, context),
                                AffineMap::get(2, 0, {k}, context),
                                AffineMap::get(2, 0, {l}, context)},
                               {utils::IteratorType::parallel,
                                utils::IteratorType::reduction},
                               "matc.dot", tag)
                 .getResult(0);
  }
  return replaceProduct(
      builder, matmul, result, unitDim,
      tensor::getMixedSize(builder, loc, matrix,
                           form == VectorProductForm::DotProducts ? 0 : 1));
}

/// Replaces `matmul`, computed as dot products (N =
/// matrix::getDotProductColumns(matmul) > 0), by a linalg.generic tagged for
/// the schedule's dot products, C's fill kept:
/// - N = 1, a matrix-vector product: rewriteAsVectorProduct, the dot
///   products of the rows of A with B;
/// - N = 2 .. 7: on a transposed copy of B (B^T [N, K], rows contiguous in
///   k; K N element moves against M K N multiply-adds), a 3-D generic (m, n
///   parallel, k reduction) tagged `matc.dot_columns = TAG`.
static void rewriteAsDotProducts(linalg::MatmulOp matmul, StringRef tag,
                                 int64_t n) {
  Value lhs = matmul.getDpsInputs()[0], rhs = matmul.getDpsInputs()[1];
  if (n == 1) {
    rewriteAsVectorProduct(matmul, tag, lhs, rhs, /*unitDim=*/1,
                           VectorProductForm::DotProducts, /*lanes=*/0);
    return;
  }
  OpBuilder builder(matmul);
  Location loc = matmul.getLoc();
  MLIRContext *context = builder.getContext();
  Value transposed = createTransposedCopy(builder, loc, rhs, tag);
  AffineExpr m, j, k;
  bindDims(context, m, j, k);
  SmallVector<AffineMap> maps = {AffineMap::get(3, 0, {m, k}, context),
                                 AffineMap::get(3, 0, {j, k}, context),
                                 AffineMap::get(3, 0, {m, j}, context)};
  linalg::GenericOp dot = createMultiplyAdd(
      builder, loc, lhs, transposed, matmul.getDpsInits()[0], maps,
      {utils::IteratorType::parallel, utils::IteratorType::parallel,
       utils::IteratorType::reduction},
      "matc.dot_columns", tag);
  replaceProduct(builder, matmul, dot.getResult(0), std::nullopt, {});
}

/// `matmul`, or, when it reads B transposed ([N, K]), a product that reads
/// instead a plain copy of it (B^T, [K, N]), which replaces it: the
/// unpacked schedule reads rows of B, and the columns of a transposed B
/// would be gathers. The copy is a linalg.generic tagged
/// `matc.transpose = "f32"` (or "f64"), which the schedule computes in
/// square blocks of vector registers transposed by shuffles: K x N element
/// moves against the product's M x N x K multiply-adds.
static linalg::MatmulOp readRhsPlain(linalg::MatmulOp matmul) {
  if (!matrix::isProductOperandTransposed(matmul, 1))
    return matmul;
  OpBuilder builder(matmul);
  Location loc = matmul.getLoc();
  MLIRContext *context = builder.getContext();
  Value transpose = createTransposedCopy(
      builder, loc, matmul.getDpsInputs()[1],
      getUnpackedTag(cast<RankedTensorType>(matmul.getResult(0).getType())));
  AffineExpr d0, d1, d2;
  bindDims(context, d0, d1, d2);
  SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
  maps[1] = AffineMap::get(3, 0, {d2, d1}, context);
  auto plain = linalg::MatmulOp::create(
      builder, loc, matmul.getResultTypes(),
      ValueRange{matmul.getDpsInputs()[0], transpose},
      matmul.getDpsInits(),
      ArrayRef<NamedAttribute>{builder.getNamedAttr(
          "indexing_maps", builder.getAffineMapArrayAttr(maps))});
  matmul.getResult(0).replaceAllUsesWith(plain.getResult(0));
  matmul.erase();
  return plain;
}

/// The most rows of A (M) for which a product is computed unpacked
/// whatever K and N: each register tile of C then covers all of M, so B is
/// read once, in place, as packing would read it to copy it; packing
/// costs its copy of B (K N moves against M K N multiply-adds) and, for
/// fewer rows than a packed register tile, multiply-adds of padding. From
/// a new user, Zen 4, 1 thread, f64: a (1 x 1) @ b (1 x 400000) of run-time
/// sizes took 292 ms packed (NumPy 1.8 ms). Likewise the most columns of B
/// (N) when N is known only at run time and A is read transposed (a static
/// N below 8, and a run-time one of at most 8 with A in place, are
/// computed as dot products): A is read once (1000 x 1000 @ 1000 x 3: 0.93
/// -> 0.63 ms, NumPy 0.69, before the dot products).
static constexpr int64_t kMaxUnpackedRowsOrColumns = 4;

/// The most rows of A (M) for which a few columns of a run-time N are
/// computed in register tiles, not in blocks of dot products
/// (MatrixVersionProducts::versionFewColumns): each block copies B's
/// columns transposed (K x 4 moves, written and read again), for so few
/// rows most of the work, where the register tiles read B in place
/// (unpacked: M <= kMaxUnpackedRowsOrColumns, or one register tile of
/// rows, `unpacked-rows-f32`/`-f64`) or pack it once. Measured on Zen 5, 1
/// thread, from Python, a general `a @ b` (NumPy in parentheses): f64 4 x
/// 200000 @ 200000 x 4 1023 -> 499 us (481), x 8 3188 -> 907 us (1034),
/// 8 x 200000 @ 200000 x 8 5471 -> 1862 us (1619); f32 8 x 100000 @ 100000
/// x 16 1551 -> 338 us (521).
static constexpr int64_t kMaxRowsInRegisterTiles = 8;

/// Columns of C per block of the products of a few columns of run-time N
/// (MatrixVersionProducts::versionFewColumns), and the most columns (rows
/// of C with B read transposed; columns when the target's register tile
/// width is not given: MatrixVersionProducts::getMaxDotColumns).
static constexpr int64_t kDotColumnBlock = 4;
static constexpr int64_t kMaxDotColumns = 8;
/// The most columns computed in blocks of dot products whatever the size of
/// A: two blocks, two passes over A (MatrixVersionProducts::
/// versionFewColumns; more need A in the last-level cache).
static constexpr int64_t kMaxDotColumnsFromMemory = 2 * kDotColumnBlock;

/// The shortest k-range of a few rows of C computed as dot products when B
/// is read transposed (versionFewColumns with `rowsOfC`): one vector of the
/// schedule's dot products (512 bits: 16 f32, 8 f64), shorter than the
/// kMinDotProductDepth of the other dot products, whose alternative is
/// register tiles read in place, because this one's is the unpacked
/// schedule on a transposed copy of all of B (K N element moves, written
/// and read again). Measured on Zen 5, 1 thread, from Python, a general
/// `a @ b.T` of M x K and N x K, N = 200000, against NumPy: f64 M = 4, K =
/// 16 11.5 -> 1.4-1.6 ms (NumPy 1.35), K = 8 4.8 -> 1.1-1.3 ms (0.65);
/// f32 K = 16 3.5 -> 1.1-1.2 ms (1.0-1.1); but f32 M = 8, K = 8, half a
/// vector, 1.2 -> 3.0-5.1 ms (0.63), f64 M = 2, K = 1 0.36 -> 1.2 ms.
static int64_t getMinRowsOfCDepth(StringRef tag) {
  return 512 / (tag == "f32" ? 32 : 64);
}

namespace {
struct MatrixVersionProducts
    : matrix::impl::MatrixVersionProductsBase<MatrixVersionProducts> {
  using MatrixVersionProductsBase::MatrixVersionProductsBase;

  /// The number the next versioned product's destination gets.
  int64_t nextProduct = 0;

  /// The elements of `tag`'s type in one vector register (`vector-bits`),
  /// 0 when the target's vectors are not given.
  int64_t getLanes(StringRef tag) const {
    return vectorBits / (tag == "f32" ? 32 : 64);
  }

  void runOnOperation() override {
    if (maxElements <= 0)
      return;
    SmallVector<linalg::MatmulOp> products;
    getOperation()->walk([&](linalg::MatmulOp matmul) {
      if (matmul.hasPureTensorSemantics())
        products.push_back(matmul);
    });
    for (linalg::MatmulOp matmul : products)
      version(matmul);
  }

  /// Tags `matmul`, or a copy of it behind a test of its sizes.
  void version(linalg::MatmulOp matmul) {
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    StringRef tag = getUnpackedTag(resultType);
    if (tag.empty())
      return;
    SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
    // Left to the plain lowering: every loop static and at most 16.
    if (llvm::all_of(ranges, matrix::isTinyLoopRange))
      return;
    // As a linalg.generic: for a tiny C from a long k-range (A read
    // transposed), the plain loops with k outermost (A and B read row by
    // row once, C in registers); for a tiny static B (a few multiply-adds
    // per row of A, whatever M), tagged `matc.tiny_rhs = TAG`: the schedule
    // (@tiny_rhs_rows) splits its rows between the threads and computes
    // one row of C at a time in a vector, B in registers.
    bool tinyResult = matrix::isTinyResultProduct(matmul);
    // One element of C from a long k-range with A read transposed (`x.T @
    // y`, x and y K x 1): one dot product (x as the one row of a 1 x K
    // matrix), not the plain loops' chain of scalar multiply-adds (from a
    // new user, Zen 4, f64, K = 100000: 84 us, NumPy 18 us).
    if (tinyResult && ranges[0] == 1 && ranges[1] == 1) {
      OpBuilder builder(matmul);
      Value dot = computeUnitColumn(builder, matmul, tag, getLanes(tag));
      replaceProduct(builder, matmul, dot, std::nullopt, {});
      return;
    }
    if (tinyResult || matrix::isTinyRhsProduct(matmul)) {
      IRRewriter rewriter(matmul);
      FailureOr<linalg::GenericOp> generic =
          linalg::generalizeNamedOp(rewriter, matmul);
      if (succeeded(generic) && tinyResult)
        (void)linalg::interchangeGenericOp(rewriter, *generic, {2, 0, 1});
      else if (succeeded(generic))
        (*generic)->setAttr("matc.tiny_rhs", rewriter.getStringAttr(tag));
      return;
    }
    // N known only at run time: one column of C (N = 1) computed as a
    // vector product behind a test, more than half a vector of columns up
    // to one in register tiles one vector wide behind another
    // (versionNarrowColumns), and a few columns (getMaxDotColumns) as
    // dot products behind another when they are rows of A (A in place) and
    // M is not static at most 4 (then B is read once in place as it is);
    // likewise one row of C with M known only at run time when A is read
    // transposed and N is not a static 1 (a vector product already), or A
    // is not and B is read transposed or N is run-time too; a few rows when
    // B is read transposed and A is not (the dot products of B's rows with
    // A's). The rest goes on with `matmul`, now in the tests' other
    // branches. One row or column along any k-range (a short one is one
    // masked step per element of C, still far less than the register tiles
    // of a vector of columns masked to one: from Python, Zen 4, f64, 1
    // thread, a general product given 100000 x 3 @ 3 x 1: 779 -> 168 us,
    // 5000 x 8 @ 8 x 1: 50 -> 12 us, NumPy 85 and 13); a few only along one
    // of kMinDotProductDepth or more (a static one; a run-time one is tested
    // too): 20000 x 4 @ 4 x 4 as dot products took 584 us, 183 in register
    // tiles (NumPy 41); a few rows of C from B read transposed along one of
    // a vector or more (getMinRowsOfCDepth).
    bool ta = matrix::isProductOperandTransposed(matmul, 0);
    bool tb = matrix::isProductOperandTransposed(matmul, 1);
    bool longK = ShapedType::isDynamic(ranges[2]) ||
                 ranges[2] >= kMinDotProductDepth;
    bool rowsOfCDepth = ShapedType::isDynamic(ranges[2]) ||
                        ranges[2] >= getMinRowsOfCDepth(tag);
    if (longK && ta && ShapedType::isDynamic(ranges[0]) &&
        (ShapedType::isDynamic(ranges[1]) || ranges[1] == 1))
      versionOneDotProduct(matmul, tag);
    if (ShapedType::isDynamic(ranges[1]))
      versionUnitColumn(matmul, tag);
    bool unitRow =
        ShapedType::isDynamic(ranges[0]) &&
        (ta ? ranges[1] != 1 : tb || ShapedType::isDynamic(ranges[1]));
    // One row of C from B read transposed before a few columns: B's rows
    // are its dot products as they are, where the blocks of columns copy
    // them (all of B for one row: from Python, Zen 5, f64, 1 thread, 1 x
    // 200000 @ (4 x 200000).T 306 us, NumPy 103).
    bool unitRowFirst = unitRow && tb && !ta;
    if (unitRowFirst)
      versionUnitRow(matmul, tag);
    bool manyRows =
        ShapedType::isDynamic(ranges[0]) || ranges[0] > kMaxRowsInRegisterTiles;
    if (ShapedType::isDynamic(ranges[1]) && manyRows)
      versionNarrowColumns(matmul, tag);
    if (longK && ShapedType::isDynamic(ranges[1]) && !ta && manyRows)
      versionFewColumns(matmul, tag);
    if (unitRow) {
      if (!unitRowFirst)
        versionUnitRow(matmul, tag);
      if (rowsOfCDepth && tb && !ta)
        versionFewColumns(matmul, tag, /*rowsOfC=*/true);
    }
    // One row of C from B read transposed (`x @ b.T`): the dot products of
    // the rows of B with x.
    if (matrix::isRowDotProduct(matmul)) {
      rewriteAsVectorProduct(matmul, tag, matmul.getDpsInputs()[1],
                             matmul.getDpsInputs()[0], /*unitDim=*/0,
                             VectorProductForm::DotProducts, /*lanes=*/0);
      return;
    }
    // One row or column of C from the rows of a matrix: axpy updates, the
    // matrix streamed row by row.
    if (matrix::isVectorMatrixProduct(matmul)) {
      // For a row of C (M = 1) the matrix is B and x is A; for a column,
      // the other way round.
      bool rowOfC = ranges[0] == 1;
      rewriteAsVectorProduct(matmul, tag, matmul.getDpsInputs()[rowOfC ? 1 : 0],
                             matmul.getDpsInputs()[rowOfC ? 0 : 1],
                             /*unitDim=*/rowOfC ? 0 : 1,
                             VectorProductForm::RowSums, getLanes(tag));
      return;
    }
    // Fewer columns than 8: dot products of the rows of A in place,
    // whatever its size (packing would copy all of A for a few columns).
    if (int64_t n = matrix::getDotProductColumns(matmul)) {
      rewriteAsDotProducts(matmul, tag, n);
      return;
    }
    OpBuilder builder(matmul);
    int64_t m = ranges[0], n = ranges[1], k = ranges[2];
    // A narrow static B (at most NR columns): only B need fit, not A.
    int64_t narrow = tag == "f32" ? narrowF32 : narrowF64;
    bool narrowB = !ShapedType::isDynamic(n) && n <= narrow;
    // Decided here when every size that counts is static.
    if (!ShapedType::isDynamic(k) && !ShapedType::isDynamic(n) &&
        (narrowB || !ShapedType::isDynamic(m))) {
      if ((narrowB ? 0 : m * k) + k * n <= maxElements)
        tagUnpacked(readRhsPlain(matmul), tag, vectorBits);
      return;
    }
    // A small static B stays in the L1 whatever M, and B is read once
    // whatever its size for a few rows of A (at most
    // kMaxUnpackedRowsOrColumns, or one register tile's: the tiles of 4, 2
    // and 1 rows below a whole one read B once each, and more than once
    // from memory is slower than packing it: f64 7 x 20000 @ 20000 x 300,
    // Zen 5, 10.2 ms unpacked, 4.8 packed): no packed version.
    int64_t unpackedRows = tag == "f32" ? unpackedRowsF32 : unpackedRowsF64;
    if ((!ShapedType::isDynamic(k) && !ShapedType::isDynamic(n) &&
         k * n <= maxRhsElements) ||
        (!ShapedType::isDynamic(m) &&
         (m <= kMaxUnpackedRowsOrColumns || m == unpackedRows))) {
      tagUnpacked(readRhsPlain(matmul), tag, vectorBits);
      return;
    }
    // M K + K N <= max-elements (K N with a narrow B), from the operands'
    // sizes.
    Location loc = matmul.getLoc();
    Value mSize = narrowB ? Value() : getLoopSize(builder, matmul, 0);
    Value nSize = getLoopSize(builder, matmul, 1),
          kSize = getLoopSize(builder, matmul, 2);
    Value mk =
        narrowB ? Value() : arith::MulIOp::create(builder, loc, mSize, kSize);
    Value elements = arith::MulIOp::create(builder, loc, kSize, nSize);
    if (mk)
      elements = arith::AddIOp::create(builder, loc, mk, elements);
    Value limit = arith::ConstantIndexOp::create(builder, loc, maxElements);
    Value small = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                        elements, limit);
    // Or M <= kMaxUnpackedRowsOrColumns or M == unpackedRows, or N as few.
    Value few =
        arith::ConstantIndexOp::create(builder, loc, kMaxUnpackedRowsOrColumns);
    if (ShapedType::isDynamic(m)) {
      Value rows = mSize ? mSize : getLoopSize(builder, matmul, 0);
      small = arith::OrIOp::create(
          builder, loc, small,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule, rows,
                                few));
      if (unpackedRows > kMaxUnpackedRowsOrColumns)
        small = arith::OrIOp::create(
            builder, loc, small,
            arith::CmpIOp::create(
                builder, loc, arith::CmpIPredicate::eq, rows,
                arith::ConstantIndexOp::create(builder, loc, unpackedRows)));
    }
    if (ShapedType::isDynamic(n))
      small = arith::OrIOp::create(
          builder, loc, small,
          arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::ule,
                                nSize, few));
    // Or N at most NR (when given) with K N within the limit: only B need
    // fit, as for a narrow static B (a run-time N of at most one vector
    // takes versionNarrowColumns' tiles first). From Python, Zen 5, 1
    // thread, a general `a @ b` of n x n @ n x N, packed before (NumPy in
    // parentheses): f64 N = 16, n = 256 35.6 -> 20.2 us (39.6), n = 1024
    // 624 -> 326 (690); N = 12 35.2 -> 19.7 (22.4), 593 -> 332 (678); f32
    // N = 24 25.1 -> 19.7 (25.6), 437 -> 319 (422). AVX2 code (znver3),
    // f64 N = 8: 34.4 -> 20.5 (41.5), 591 -> 335 (668).
    if (ShapedType::isDynamic(n) && narrow > 0) {
      Value columns =
          isColumnCountIn(builder, loc, nSize, /*fewest=*/0, narrow, tag);
      Value narrowN = arith::AndIOp::create(
          builder, loc, columns, isRhsWithinLimit(builder, loc, kSize, nSize));
      small = arith::OrIOp::create(builder, loc, small, narrowN);
    }
    auto ifOp = scf::IfOp::create(builder, loc, resultType, small,
                                  /*withElseRegion=*/true);
    // A fill of C goes into both branches, on a destination of its own
    // made before the scf.if: whichever branch runs computes into it, so
    // that the scf.if needs no buffer of its own after bufferization (which
    // the alloca scopes of the packed tiles could not hold). CSE would merge
    // the destinations of same-sized products (and bufferization then copy
    // in the branches): each gets the product's number.
    Value init = matmul.getDpsInits()[0];
    auto fill = init.getDefiningOp<linalg::FillOp>();
    auto empty =
        fill ? fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>() : nullptr;
    Value destination;
    if (fill && empty) {
      builder.setInsertionPoint(ifOp);
      destination = builder.clone(*empty)->getResult(0);
      destination.getDefiningOp()->setAttr(
          "matc.product", builder.getI64IntegerAttr(nextProduct++));
    }
    auto remakeFill = [&](OpBuilder &builder) {
      return remakeDestination(builder, loc, init,
                               [&](Value) { return destination; });
    };
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    IRMapping mapping;
    if (destination)
      mapping.map(init, remakeFill(builder));
    auto unpacked = cast<linalg::MatmulOp>(builder.clone(*matmul, mapping));
    auto yield = scf::YieldOp::create(builder, loc, unpacked->getResult(0));
    matmul.getResult(0).replaceAllUsesWith(ifOp.getResult(0));
    Block &elseBlock = ifOp.getElseRegion().front();
    builder.setInsertionPointToEnd(&elseBlock);
    if (destination)
      matmul.getDpsInitsMutable()[0].set(remakeFill(builder));
    matmul->moveBefore(&elseBlock, elseBlock.end());
    builder.setInsertionPointToEnd(&elseBlock);
    scf::YieldOp::create(builder, loc, matmul.getResult(0));
    tagUnpacked(readRhsPlain(unpacked), tag, vectorBits);
    (void)yield;
  }

  /// Moves `matmul`, whose N is known only at run time, into the else
  /// branch of an scf.if on N == 1 whose then branch computes the same
  /// product with B cast to one column (K x 1, or 1 x K read transposed)
  /// as a vector product of A (rewriteAsVectorProduct), C cast to M x 1 and
  /// its fill made again there:
  /// - A in place (M x K): the dot products of A's rows with B;
  /// - A read transposed (K x M), M not static 1: the rows of A scaled by
  ///   B's elements (axpy updates);
  /// - A read transposed with M = 1 (K x 1): one dot product, A as 1 x K.
  /// The other schedules would compute one column in register tiles of a
  /// vector of columns masked to one: from Python, Zen 4, f64, 1 thread, a
  /// `def mm(a: f64[?, ?], b: f64[?, ?])` given 1000 x 1000 @ 1000 x 1 took
  /// 0.63 ms (NumPy 0.11), and `x @ b` (x 1 x 4000000, b 4000000 x 1,
  /// through the function of one row of C, `.m1`) 12.7 ms (NumPy 1.4).
  void versionUnitColumn(linalg::MatmulOp matmul, StringRef tag) {
    OpBuilder builder(matmul);
    versionBy(matmul, isUnitLoop(builder, matmul, 1), [&](OpBuilder &builder) {
      return computeUnitColumn(builder, matmul, tag, getLanes(tag));
    });
  }

  /// Moves `matmul`, A read transposed, M known only at run time and N too
  /// (or a static 1), into the else branch of an scf.if on M == N == 1 (and
  /// K >= kMinDotProductDepth), whose then branch computes its one element
  /// as one dot product (A cast to K x 1, read as a 1 x K matrix; B cast to
  /// a column): the general `x.T @ y` of K x 1 vectors, and `a.T @ x` (x: T[?,
  /// 1]) given an `a` of one column. Otherwise N == 1 would take A's rows (of
  /// one element each) scaled by B's (axpy updates, a masked load of one
  /// lane per element): from a new user, Zen 4, 1 thread, f64, K = 20000: 65
  /// us (NumPy 3.9 us; `x @ y.T` 4.7 us); `a.T @ x`, Zen 5, K = 300000, f64
  /// 174 us (NumPy 65), f32 167 us (NumPy 28): row sums split along k, 8
  /// masked loads of one lane per 8 elements.
  void versionOneDotProduct(linalg::MatmulOp matmul, StringRef tag) {
    OpBuilder builder(matmul);
    Location loc = matmul.getLoc();
    Value both =
        arith::AndIOp::create(builder, loc, isUnitLoop(builder, matmul, 0),
                              isUnitLoop(builder, matmul, 1));
    versionBy(matmul, andLongK(builder, matmul, both), [&](OpBuilder &builder) {
      return computeUnitColumn(builder, matmul, tag, getLanes(tag),
                               /*unitRow=*/true);
    });
  }

  /// Moves `matmul`, whose M is known only at run time, into the else
  /// branch of an scf.if on M == 1, whose then branch computes it with A
  /// cast to one row (1 x K; read transposed, K x 1: the same layout) and
  /// C to 1 x N as for a static `x @ b`: with B read transposed (N x K) the
  /// dot products of B's rows with A's row (`matc.dot` on B), with B in
  /// place (K x N) B's rows scaled by A's elements (`matc.vector_matrix` on
  /// B, axpy updates, B streamed row by row once). The unpacked schedule's
  /// register tiles of C walk B down its columns instead, a page per step
  /// of k when a row of B is 4 KiB or more: from Python, Zen 4, f64, 1
  /// thread, a general a @ b given 1 x 5000 @ 5000 x 5000 took 24 ms (NumPy
  /// 10.5). With B read transposed, they read a transposed copy of B, made
  /// in blocks of a register's lanes masked down to K rows, whose
  /// masked-off rows are stores far past the copy's end: from Python, Zen
  /// 5, f64, 1 thread, `a.T @ b.T` given a 1 x 1 and b 100000 x 1 took
  /// 16.9 ms (NumPy 0.09).
  void versionUnitRow(linalg::MatmulOp matmul, StringRef tag) {
    OpBuilder builder(matmul);
    versionBy(matmul, isUnitLoop(builder, matmul, 0), [&](OpBuilder &builder) {
      return computeUnitRow(builder, matmul, tag, getLanes(tag));
    });
  }

  /// The then branch of versionUnitRow: `matmul` with A one row; B's rows
  /// scaled by it split along k for at most `lanes` columns
  /// (createRowSums).
  static Value computeUnitRow(OpBuilder &builder, linalg::MatmulOp matmul,
                              StringRef tag, int64_t lanes) {
    Location loc = matmul.getLoc();
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    Type element = resultType.getElementType();
    Value lhs = matmul.getDpsInputs()[0], rhs = matmul.getDpsInputs()[1];
    // A read transposed is K x M: its one column is the row.
    bool ta = matrix::isProductOperandTransposed(matmul, 0);
    SmallVector<int64_t> rowShape(
        cast<RankedTensorType>(lhs.getType()).getShape());
    rowShape[ta ? 1 : 0] = 1;
    Value row =
        castTo(builder, loc, lhs, RankedTensorType::get(rowShape, element));
    auto product = cloneWithUnitDim(builder, matmul, row, rhs, {0});
    Value result =
        rewriteAsVectorProduct(product, tag, rhs, row, /*unitDim=*/0,
                               matrix::isProductOperandTransposed(matmul, 1)
                                   ? VectorProductForm::DotProducts
                                   : VectorProductForm::RowSums,
                               lanes);
    builder.setInsertionPointAfterValue(result);
    return castTo(builder, loc, result, resultType);
  }

  /// A copy of `matmul` on `lhs` and `rhs` whose C has one row (`dims`
  /// {0}), one column ({1}) or one element ({0, 1}): C cast to that shape,
  /// its fill made again on it.
  static linalg::MatmulOp cloneWithUnitDim(OpBuilder &builder,
                                           linalg::MatmulOp matmul, Value lhs,
                                           Value rhs, ArrayRef<unsigned> dims) {
    Location loc = matmul.getLoc();
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    SmallVector<int64_t> outShape(resultType.getShape());
    for (unsigned dim : dims)
      outShape[dim] = 1;
    auto outType = RankedTensorType::get(outShape, resultType.getElementType());
    Value out = remakeDestination(
        builder, loc, matmul.getDpsInits()[0],
        [&](Value value) { return castTo(builder, loc, value, outType); });
    return linalg::MatmulOp::create(
        builder, loc, TypeRange{outType}, ValueRange{lhs, rhs}, ValueRange{out},
        ArrayRef<NamedAttribute>{
            builder.getNamedAttr("indexing_maps", matmul.getIndexingMaps())});
  }

  /// The then branch of versionUnitColumn: `matmul` with B one column;
  /// with `unitRow`, A's one column too (versionOneDotProduct: one element
  /// of C, A read transposed). A's rows scaled by B's elements (A read
  /// transposed) are split along k for at most `lanes` rows of C
  /// (createRowSums).
  static Value computeUnitColumn(OpBuilder &builder, linalg::MatmulOp matmul,
                                 StringRef tag, int64_t lanes,
                                 bool unitRow = false) {
    Location loc = matmul.getLoc();
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    Type element = resultType.getElementType();
    bool ta = matrix::isProductOperandTransposed(matmul, 0);
    bool tb = matrix::isProductOperandTransposed(matmul, 1);
    Value lhs = matmul.getDpsInputs()[0], rhs = matmul.getDpsInputs()[1];
    // B's K read off A by a slice (matrix-outline-products): the column is
    // cast from the whole of B instead, a contiguous buffer that collapses
    // to a vector in place (the slice, of a row stride unknown statically,
    // would be copied); the vector product takes its K from A.
    if (auto slice = rhs.getDefiningOp<tensor::ExtractSliceOp>())
      if (slice.getSourceType().getRank() == 2 &&
          slice.getType().getRank() == 2 && slice.hasZeroOffset() &&
          slice.hasUnitStride())
        rhs = slice.getSource();
    // With `unitRow` (versionOneDotProduct), A read transposed is K x 1.
    if (unitRow)
      lhs = castTo(builder, loc, lhs,
                   RankedTensorType::get({ShapedType::kDynamic, 1}, element));
    SmallVector<int64_t> columnShape(
        cast<RankedTensorType>(rhs.getType()).getShape());
    columnShape[tb ? 0 : 1] = 1;
    Value column =
        castTo(builder, loc, rhs, RankedTensorType::get(columnShape, element));
    auto product = cloneWithUnitDim(builder, matmul, lhs, column,
                                    unitRow ? ArrayRef<unsigned>{0, 1}
                                            : ArrayRef<unsigned>{1});
    builder.setInsertionPoint(product);
    Value matrix = lhs;
    VectorProductForm form = VectorProductForm::DotProducts;
    if (ta && (unitRow || resultType.getDimSize(0) == 1)) {
      // A K x 1 as the one row of a 1 x K matrix (the same layout).
      Value k = tensor::CollapseShapeOp::create(builder, loc, lhs,
                                                ReassociationIndices{0, 1});
      SmallVector<ReassociationIndices> toMatrix = {{0, 1}};
      matrix = tensor::ExpandShapeOp::create(
          builder, loc,
          RankedTensorType::get({1, ShapedType::kDynamic}, element), k,
          toMatrix,
          SmallVector<OpFoldResult>{
              builder.getIndexAttr(1),
              tensor::getMixedSize(builder, loc, lhs, 0)});
    } else if (ta) {
      form = VectorProductForm::RowSums;
    }
    Value result = rewriteAsVectorProduct(product, tag, matrix, column,
                                          /*unitDim=*/1, form, lanes);
    builder.setInsertionPointAfterValue(result);
    return castTo(builder, loc, result, resultType);
  }

  /// Moves `matmul`, whose N is known only at run time, into the else
  /// branch of an scf.if on max(lanes / 2, kDotColumnBlock) < N <= lanes
  /// (one vector of its element type; isColumnCountIn), K N <= max-elements
  /// and, for a run-time M, M > kMaxRowsInRegisterTiles, whose then branch
  /// computes it unpacked in register tiles one vector wide (tagged
  /// "_narrow"), masked to N: what a static N of at most one vector gets
  /// (only B need fit in the caches; A is read in place whatever M). The
  /// other branches would compute it in blocks of 4 columns of dot products
  /// (versionFewColumns, one pass over A per block), or packed in register
  /// tiles of NR columns (the model's: 2 vectors), half of them or more
  /// masked off. Half a vector or less stays with the dot products (f32 N =
  /// 8, AVX-512, n = 256: 13.5 us in 2 blocks, 17.0 in tiles of 16 lanes).
  /// From Python, Zen 5, 1 thread, a general `a @ b` given n x n @ n x N,
  /// before and after in the same process (NumPy in parentheses): f32 N =
  /// 16, n = 256 20.9 -> 13.4 us (17.2), n = 1024 339 -> 226 (275); f64 N =
  /// 8 19.2 -> 13.6 (15.5), 372 -> 228 (462); 2 threads, f32 N = 16 33.7 ->
  /// 11.5 (46.2), 285 -> 135 (599). AVX2 code (znver3), f32 N = 16: 26.0 ->
  /// 20.3 (26.3), 434 -> 316 (432). Compile time: 0.11 s more per product
  /// of a run-time N (`-O2 -c`, 1.03 -> 1.26 s for two).
  void versionNarrowColumns(linalg::MatmulOp matmul, StringRef tag) {
    int64_t lanes = getLanes(tag);
    int64_t fewest = std::max<int64_t>(lanes / 2, kDotColumnBlock);
    if (lanes <= fewest)
      return;
    OpBuilder builder(matmul);
    Location loc = matmul.getLoc();
    Value n = getLoopSize(builder, matmul, 1);
    Value columns = isColumnCountIn(builder, loc, n, fewest, lanes, tag);
    Value narrow = arith::AndIOp::create(
        builder, loc, columns,
        isRhsWithinLimit(builder, loc, getLoopSize(builder, matmul, 2), n));
    if (ShapedType::isDynamic(matmul.getStaticLoopRanges()[0]))
      narrow = arith::AndIOp::create(
          builder, loc, narrow,
          compareToConstant(builder, loc, arith::CmpIPredicate::ugt,
                            getLoopSize(builder, matmul, 0),
                            kMaxRowsInRegisterTiles));
    versionBy(matmul, narrow, [&](OpBuilder &builder) -> Value {
      IRMapping mapping;
      Value init = matmul.getDpsInits()[0];
      mapping.map(init, remakeDestination(builder, loc, init));
      auto copy = cast<linalg::MatmulOp>(builder.clone(*matmul, mapping));
      return tagUnpacked(readRhsPlain(copy), tag, vectorBits,
                         /*narrowColumns=*/true);
    });
  }

  /// Whether the run-time N `n` of a product of `tag`'s element type is
  /// above `fewest` and at most `most` (an i1) and, where masked vector
  /// operations are not native (vector-bits below 512: AVX2, without mask
  /// registers, masks loads and stores by instructions of their own and
  /// each masked multiply-add by a blend), a multiple of the vector: the
  /// register tiles it is tested for then run unmasked. From
  /// Python, AVX2 code (znver3) on Zen 5, 1 thread, a general `a @ b` of
  /// n x n @ n x N: masked to N, f32 N = 12 in tiles of 16 columns took
  /// 79 us (n = 256) and 1285 us (n = 1024) against 26 and 440 packed, f64
  /// N = 6 in tiles of 8 57 and 934 against 34 and 583; unmasked, f64 N = 8
  /// 20.5 and 329 against 33.5 and 571.
  Value isColumnCountIn(OpBuilder &builder, Location loc, Value n,
                        int64_t fewest, int64_t most, StringRef tag) const {
    Value above =
        compareToConstant(builder, loc, arith::CmpIPredicate::ugt, n, fewest);
    Value below =
        compareToConstant(builder, loc, arith::CmpIPredicate::ule, n, most);
    Value in = arith::AndIOp::create(builder, loc, above, below);
    int64_t lanes = getLanes(tag);
    if (vectorBits >= 512 || lanes <= 1)
      return in;
    Value rest = arith::RemUIOp::create(
        builder, loc, n, arith::ConstantIndexOp::create(builder, loc, lanes));
    return arith::AndIOp::create(
        builder, loc, in,
        compareToConstant(builder, loc, arith::CmpIPredicate::eq, rest, 0));
  }

  /// Whether B's K x N elements (run-time sizes `k` and `n`) are at most
  /// max-elements, an i1: B fits the caches, the condition of the unpacked
  /// schedule for a narrow N (A is then read in place whatever M).
  Value isRhsWithinLimit(OpBuilder &builder, Location loc, Value k,
                         Value n) const {
    return compareToConstant(builder, loc, arith::CmpIPredicate::ule,
                             arith::MulIOp::create(builder, loc, k, n),
                             maxElements);
  }

  /// The most columns of a run-time N computed in blocks of dot products
  /// (versionFewColumns): half the width of the packed schedule's register
  /// tile (narrow-f32, narrow-f64: the model's NR; 8 when not given), at
  /// least one block. Beyond, a register tile along N is more than half
  /// full; below, more than half its lanes are masked, and a block of 4
  /// columns of dot products reads A once for 4 of them. From Python, Zen 4
  /// (NR 32 f32, 16 f64), 1 thread, a general product given 1000 x 1000 @
  /// 1000 x N, f32: N = 12 0.65x -> 1.1x NumPy, N = 16 0.55x -> 0.7x; f64 N
  /// = 12, 16 as blocks (3, 4 passes over A) were 0.9x and 0.7x of the
  /// register tiles' speed.
  int64_t getMaxDotColumns(StringRef tag) const {
    return matrix::getMaxDotColumns(tag == "f32" ? narrowF32 : narrowF64);
  }

  /// Moves `matmul`, whose N is known only at run time, A not read
  /// transposed, into the else branch of an scf.if on N <= 8
  /// (getMaxDotColumns), whose then branch computes C
  /// in blocks of 4 columns (kDotColumnBlock; an scf.for over them), each
  /// as the dot products of the rows of A with the rows of its block of
  /// B^T padded with zero rows to 4 (the schedule's transposed copy of the
  /// block of B, written into the padded block; B read transposed is B^T
  /// already, copied in), into 4 columns whose first ones are copied into
  /// C: one static `matc.dot_columns` product of 4 columns, at most 3 of
  /// them zeros (per block: 4 K element moves and 4 M of C's, against M K 4
  /// multiply-adds). The other schedules would compute them in register
  /// tiles of one or two vectors of columns, masked to N: from Python,
  /// Zen 4, 1 thread, a general `def mm(a: T[?, ?], b: T[?, ?])` given
  /// n x n @ n x N, N = 2 .. 8: f64 256 43-44 us (NumPy 8-20), 1000
  /// 629-1120 us (NumPy 502-705); f32 256 49 us (NumPy 4-11), 1000 715-847
  /// us (NumPy 200-332).
  ///
  /// With `rowsOfC`, the mirror image for a few rows of C (M <= 8) when B
  /// is read transposed (`a @ b.T`, B N x K) and A is not: C^T = B A^T is
  /// the product of a few columns of B (N x K) and A (M x K, its rows the
  /// block's rows as they are), and each block of 4 columns of C^T is copied
  /// transposed (the schedule's transposed copy) into rows j .. j + w of C.
  /// The unpacked schedule would read a transposed copy of all of B: from a
  /// new user, Zen 4, 1 thread, f64, 2 x 4096 @ (4096 x 4096).T 139 ms
  /// (NumPy 13 ms).
  ///
  /// Each block of columns reads all of A, so that without `rowsOfC` more
  /// than two blocks (N > 8, f32) need an A of at most
  /// `few-columns-max-lhs-bytes` bytes (the last-level cache; tested at run
  /// time unless M and K are static): beyond, every block reads it from
  /// memory, and the packed schedule, which reads it once (and copies it),
  /// is faster. Zen 5, 1 thread, from Python: f32 16 x 200000 @ 200000 x
  /// 16 12.6 ms in 4 blocks, 4.8 ms packed; 1000 x 4000 @ 4000 x 16 4.4
  /// -> 2.9 ms; but f64 1000 x 4000 @ 4000 x 8 4.2 ms in 2 blocks, 5.5
  /// packed.
  void versionFewColumns(linalg::MatmulOp matmul, StringRef tag,
                         bool rowsOfC = false) {
    int64_t mostColumns = rowsOfC ? kMaxDotColumns : getMaxDotColumns(tag);
    int64_t mostLhsElements = maxFewColumnsLhsBytes / (tag == "f32" ? 4 : 8);
    SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
    // Whether A's size is tested at run time (more than two blocks).
    bool limitLhs = !rowsOfC && maxFewColumnsLhsBytes > 0 &&
                    mostColumns > kMaxDotColumnsFromMemory;
    if (limitLhs && !ShapedType::isDynamic(ranges[0]) &&
        !ShapedType::isDynamic(ranges[2])) {
      if (ranges[0] * ranges[2] > mostLhsElements)
        mostColumns = kMaxDotColumnsFromMemory;
      limitLhs = false;
    }
    OpBuilder builder(matmul);
    Location loc = matmul.getLoc();
    Value n = getLoopSize(builder, matmul, rowsOfC ? 0 : 1);
    auto atMost = [&](Value size, int64_t most) -> Value {
      return compareToConstant(builder, loc, arith::CmpIPredicate::ule, size,
                               most);
    };
    Value few = atMost(n, mostColumns);
    // More rows than kMaxRowsInRegisterTiles (the caller leaves a static M
    // of at most as many alone).
    if (!rowsOfC && ShapedType::isDynamic(ranges[0]))
      few = arith::AndIOp::create(
          builder, loc, few,
          compareToConstant(builder, loc, arith::CmpIPredicate::ugt,
                            getLoopSize(builder, matmul, 0),
                            kMaxRowsInRegisterTiles));
    if (limitLhs) {
      // Two blocks at most, or A within the limit.
      Value lhsElements =
          arith::MulIOp::create(builder, loc, getLoopSize(builder, matmul, 0),
                                getLoopSize(builder, matmul, 2));
      Value twoBlocks = atMost(n, kMaxDotColumnsFromMemory);
      Value smallLhs = atMost(lhsElements, mostLhsElements);
      few = arith::AndIOp::create(
          builder, loc, few,
          arith::OrIOp::create(builder, loc, twoBlocks, smallLhs));
    }
    versionBy(
        matmul,
        andLongK(builder, matmul, few,
                 rowsOfC ? getMinRowsOfCDepth(tag) : kMinDotProductDepth),
        [&](OpBuilder &builder) -> Value {
          auto resultType =
              cast<RankedTensorType>(matmul.getResult(0).getType());
          Type element = resultType.getElementType();
          bool tb = matrix::isProductOperandTransposed(matmul, 1);
          Value lhs = matmul.getDpsInputs()[0], rhs = matmul.getDpsInputs()[1];
          OpFoldResult k = tensor::getMixedSize(builder, loc, lhs, 1);
          // The rows of C^T for rowsOfC: B's; then A gives the block's rows.
          if (rowsOfC) {
            std::swap(lhs, rhs);
            tb = true;
          }
          OpFoldResult m = tensor::getMixedSize(builder, loc, lhs, 0);
          OpFoldResult width = builder.getIndexAttr(kDotColumnBlock);
          Value zero = arith::ConstantOp::create(
              builder, loc, builder.getFloatAttr(element, 0.0));
          Value init = matmul.getDpsInits()[0];
          if (auto fill = init.getDefiningOp<linalg::FillOp>())
            init = fill.getDpsInits()[0];
          auto zeros = [&](OpBuilder &builder, Value empty) {
            return linalg::FillOp::create(builder, loc, zero, empty)
                .getResult(0);
          };
          // The padded block of B^T, zeroed once: a block of fewer than 4
          // columns leaves the rows of the block before it (or zeros) in its
          // last rows, whose dot products go to columns of C it never copies.
          Value block =
              zeros(builder, tensor::EmptyOp::create(
                                 builder, loc,
                                 SmallVector<OpFoldResult>{width, k}, element));
          Value padded = tensor::EmptyOp::create(
              builder, loc, SmallVector<OpFoldResult>{m, width}, element);
          Value first = arith::ConstantIndexOp::create(builder, loc, 0);
          Value step =
              arith::ConstantIndexOp::create(builder, loc, kDotColumnBlock);
          auto loop = scf::ForOp::create(
              builder, loc, first, n, step, ValueRange{init, block, padded},
              [&](OpBuilder &builder, Location loc, Value j,
                  ValueRange carried) {
                Value c = carried[0], block = carried[1], padded = carried[2];
                // The columns j .. j + w of C, w = min(4, N - j).
                AffineExpr d0, d1;
                bindDims(builder.getContext(), d0, d1);
                OpFoldResult w = affine::makeComposedFoldedAffineMin(
                    builder, loc,
                    AffineMap::get(
                        2, 0,
                        {builder.getAffineConstantExpr(kDotColumnBlock),
                         d0 - d1},
                        builder.getContext()),
                    {n, j});
                OpFoldResult zeroIndex = builder.getIndexAttr(0);
                SmallVector<OpFoldResult> unit(2, builder.getIndexAttr(1));
                SmallVector<OpFoldResult> origin = {zeroIndex, zeroIndex};
                SmallVector<OpFoldResult> rowsOfBlock = {w, k};
                // B's columns j .. j + w (rows, read transposed).
                Value columnsOfB =
                    tb ? tensor::ExtractSliceOp::create(
                             builder, loc, rhs,
                             SmallVector<OpFoldResult>{j, zeroIndex},
                             rowsOfBlock, unit)
                             .getResult()
                       : tensor::ExtractSliceOp::create(
                             builder, loc, rhs,
                             SmallVector<OpFoldResult>{zeroIndex, j},
                             SmallVector<OpFoldResult>{k, w}, unit)
                             .getResult();
                Value rows =
                    tb ? columnsOfB
                       : createTransposedCopy(builder, loc, columnsOfB, tag,
                                              tensor::ExtractSliceOp::create(
                                                  builder, loc, block, origin,
                                                  rowsOfBlock, unit));
                block = tensor::InsertSliceOp::create(
                    builder, loc, rows, block, origin, rowsOfBlock, unit);
                MLIRContext *context = builder.getContext();
                AffineExpr i, jj, l;
                bindDims(context, i, jj, l);
                SmallVector<AffineMap> maps = {
                    AffineMap::get(3, 0, {i, l}, context),
                    AffineMap::get(3, 0, {jj, l}, context),
                    AffineMap::get(3, 0, {i, jj}, context)};
                linalg::GenericOp dot = createMultiplyAdd(
                    builder, loc, lhs, block, zeros(builder, padded), maps,
                    {utils::IteratorType::parallel,
                     utils::IteratorType::parallel,
                     utils::IteratorType::reduction},
                    "matc.dot_columns", tag);
                SmallVector<OpFoldResult> columnsOfC = {m, w};
                SmallVector<OpFoldResult> atJ = {zeroIndex, j};
                Value computed = tensor::ExtractSliceOp::create(
                    builder, loc, dot.getResult(0), origin, columnsOfC, unit);
                if (rowsOfC) {
                  // Rows j .. j + w of C, C^T's columns transposed.
                  SmallVector<OpFoldResult> rowsOfC = {w, m};
                  SmallVector<OpFoldResult> atRow = {j, zeroIndex};
                  Value destination = tensor::ExtractSliceOp::create(
                      builder, loc, c, atRow, rowsOfC, unit);
                  Value copy = createTransposedCopy(builder, loc, computed, tag,
                                                    destination);
                  c = tensor::InsertSliceOp::create(builder, loc, copy, c,
                                                    atRow, rowsOfC, unit);
                } else {
                  Value destination = tensor::ExtractSliceOp::create(
                      builder, loc, c, atJ, columnsOfC, unit);
                  Value copy = linalg::CopyOp::create(builder, loc, computed,
                                                      destination)
                                   .getResult(0);
                  c = tensor::InsertSliceOp::create(builder, loc, copy, c, atJ,
                                                    columnsOfC, unit);
                }
                scf::YieldOp::create(builder, loc,
                                     ValueRange{c, block, dot.getResult(0)});
              });
          return castTo(builder, loc, loop.getResult(0), resultType);
        });
  }

  /// `condition`, and K >= `minDepth` when K is known only at run time.
  static Value andLongK(OpBuilder &builder, linalg::MatmulOp matmul,
                        Value condition,
                        int64_t minDepth = kMinDotProductDepth) {
    if (!ShapedType::isDynamic(matmul.getStaticLoopRanges()[2]))
      return condition;
    Location loc = matmul.getLoc();
    Value least = arith::ConstantIndexOp::create(builder, loc, minDepth);
    Value longK = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::uge,
                                        getLoopSize(builder, matmul, 2), least);
    return arith::AndIOp::create(builder, loc, condition, longK);
  }

  /// Moves `matmul` into the else branch of an scf.if on `condition`, whose
  /// then branch computes its result by `computeThen` (a value of its type,
  /// built in that branch).
  static void versionBy(linalg::MatmulOp matmul, Value condition,
                        function_ref<Value(OpBuilder &)> computeThen) {
    OpBuilder builder(matmul);
    Location loc = matmul.getLoc();
    auto ifOp = scf::IfOp::create(builder, loc, matmul.getResult(0).getType(),
                                  condition, /*withElseRegion=*/true);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value result = computeThen(builder);
    builder.setInsertionPointToEnd(&ifOp.getThenRegion().front());
    scf::YieldOp::create(builder, loc, result);
    matmul.getResult(0).replaceAllUsesWith(ifOp.getResult(0));
    Block &elseBlock = ifOp.getElseRegion().front();
    matmul->moveBefore(&elseBlock, elseBlock.end());
    builder.setInsertionPointToEnd(&elseBlock);
    scf::YieldOp::create(builder, loc, matmul.getResult(0));
  }

  /// Whether loop `dim` (m, n or k) of `matmul` has one iteration, an i1.
  static Value isUnitLoop(OpBuilder &builder, linalg::MatmulOp matmul,
                          unsigned dim) {
    Location loc = matmul.getLoc();
    return arith::CmpIOp::create(
        builder, loc, arith::CmpIPredicate::eq,
        getLoopSize(builder, matmul, dim),
        arith::ConstantIndexOp::create(builder, loc, 1));
  }

  /// The size of loop `dim` (m, n or k) of `matmul`, as an index value.
  static Value getLoopSize(OpBuilder &builder, linalg::MatmulOp matmul,
                           unsigned dim) {
    Location loc = matmul.getLoc();
    for (OpOperand &operand : matmul->getOpOperands()) {
      AffineMap map = matmul.getMatchingIndexingMap(&operand);
      for (unsigned result = 0; result < map.getNumResults(); ++result)
        if (map.getDimPosition(result) == dim)
          return builder.createOrFold<tensor::DimOp>(loc, operand.get(),
                                                     result);
    }
    llvm_unreachable("every loop of a matmul indexes an operand");
  }
};
} // namespace
