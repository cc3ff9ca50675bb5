//===- OutlineProducts.cpp - One function per kind of product -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-outline-products pass (Passes.td): every product from zeros
// becomes a call to @matc.product.<type>.<layout>, created once per module.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"
#include "MatrixDialect/IR/Dialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXOUTLINEPRODUCTS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// `rhs` (B: K x N, or N x K if `tb`) as a slice whose K is read off `lhs`
/// (A: M x K, or K x M if `ta`) when B's K is dynamic: the callers check
/// that the two are equal, and with one SSA value for K the tiling of the
/// schedule derives every k-size from A's alone. Two values would leave
/// min(K of A, K of B) in the sizes of the B block and the loop bounds of
/// its packing in K of A only, and then loop peeling cannot prove the main
/// loop of that packing whole (its reads stay masked in k). The slice is
/// the whole of B: no copy, a subview after bufferization.
static Value sliceRhsToLhsK(OpBuilder &builder, Location loc,
                            Value lhs, bool ta, Value rhs, bool tb) {
  auto rhsType = cast<RankedTensorType>(rhs.getType());
  unsigned lhsK = ta ? 0 : 1, rhsK = tb ? 1 : 0;
  if (!rhsType.isDynamicDim(rhsK))
    return rhs;
  SmallVector<OpFoldResult> sizes = tensor::getMixedSizes(builder, loc, rhs);
  sizes[rhsK] = tensor::getMixedSize(builder, loc, lhs, lhsK);
  SmallVector<OpFoldResult> offsets(2, builder.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(2, builder.getIndexAttr(1));
  return tensor::ExtractSliceOp::create(builder, loc, rhs, offsets, sizes,
                                        strides);
}

/// The zero fill that `matmul` starts from, or null. The fill's
/// destination is a tensor.empty, or the caller's buffer where
/// eliminate-empty-tensors replaced that (a C entry point's `.into`
/// function: `bufferization.to_tensor` of its result): either way the
/// product function gets it as its C, which bufferization then makes the
/// buffer the product is computed in. (Outlined, the empty tensor would no
/// longer reach the result through destination-passing ops, which is what
/// eliminate-empty-tensors follows: a call is not one.)
static linalg::FillOp getZeroFill(linalg::MatmulOp matmul) {
  auto fill = matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill)
    return nullptr;
  return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ? fill : nullptr;
}

namespace {
struct MatrixOutlineProducts
    : matrix::impl::MatrixOutlineProductsBase<MatrixOutlineProducts> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<linalg::MatmulOp> products;
    module.walk([&](linalg::MatmulOp matmul) {
      if (matmul->getParentOfType<func::FuncOp>()->hasAttr("matc.product"))
        return;
      if (!matmul.hasPureTensorSemantics() || !getZeroFill(matmul))
        return;
      Type element = getElementTypeOrSelf(matmul.getResult(0).getType());
      if (!element.isF32() && !element.isF64())
        return;
      products.push_back(matmul);
    });
    for (linalg::MatmulOp matmul : products)
      outline(matmul, symbols);
  }

  /// Whether every loop of `matmul` has a static trip count of at most 16:
  /// the schedule keeps its plain loops, and its function keeps every
  /// operand's static type (a function per shape).
  static bool isTiny(linalg::MatmulOp matmul) {
    return llvm::all_of(matmul.getStaticLoopRanges(),
                        matrix::isTinyLoopRange);
  }

  /// The type B keeps in `matmul`'s product function: its own when the
  /// product is tiny or B is read in place, static and small (a function
  /// per B shape), else run-time sizes.
  RankedTensorType getRhsType(linalg::MatmulOp matmul) {
    auto rhs = cast<RankedTensorType>(matmul.getDpsInputs()[1].getType());
    if (isTiny(matmul) || matrix::isTinyRhsProduct(matmul))
      return rhs;
    // A tiny C (matrix::isTinyResultProduct): B ? x N, or N x ? read
    // transposed.
    if (matrix::isTinyResultProduct(matmul)) {
      int64_t n = matmul.getStaticLoopRanges()[1];
      return RankedTensorType::get(
          matrix::isProductOperandTransposed(matmul, 1)
              ? SmallVector<int64_t>{n, ShapedType::kDynamic}
              : SmallVector<int64_t>{ShapedType::kDynamic, n},
          rhs.getElementType());
    }
    // N a multiple of 8: with fewer columns than a vector in a row of C
    // (N = 1: rows one element apart), the masked remainders of a run-time
    // M corrupted the heap on AVX-512 (difftest --ranks 2, seed 128).
    if (!matrix::isProductOperandTransposed(matmul, 1) &&
        rhs.hasStaticShape() &&
        rhs.getDimSize(1) % 8 == 0 &&
        rhs.getNumElements() <= staticRhsElements)
      return rhs;
    // A vector-matrix product: for a row of C, B of run-time sizes in a
    // function of its own (`.m1`: A and C one row, isRowVectorVariant); for
    // a column of C, B ? x 1 (`.n1`, A read transposed).
    if (matrix::isVectorMatrixProduct(matmul))
      return RankedTensorType::get(
          {ShapedType::kDynamic,
           matmul.getStaticLoopRanges()[0] == 1 ? ShapedType::kDynamic : 1},
          rhs.getElementType());
    // Dot products (N below 8, A and B read in place): B ? x N, a function
    // of its own N that matrix-version-products gives the schedule's dot
    // products (rows of A times columns of B), which never mask a row of C.
    if (int64_t n = matrix::getDotProductColumns(matmul))
      return RankedTensorType::get({ShapedType::kDynamic, n},
                                   rhs.getElementType());
    // A narrow static N (matrix-version-products' narrow-f32, narrow-f64).
    int64_t narrow = rhs.getElementType().isF32() ? narrowF32 : narrowF64;
    int64_t n = ShapedType::kDynamic;
    if (!matrix::isProductOperandTransposed(matmul, 1) &&
        !rhs.isDynamicDim(1) && rhs.getDimSize(1) % 8 == 0 &&
        rhs.getDimSize(1) <= narrow)
      n = rhs.getDimSize(1);
    return RankedTensorType::get({ShapedType::kDynamic, n},
                                 rhs.getElementType());
  }

  /// Whether `matmul`'s function, whose B has type `rhsType`, computes one
  /// row of C (matrix::isVectorMatrixProduct with M = 1, or
  /// matrix::isRowDotProduct, and a B of run-time sizes): A is 1 x ? (? x 1
  /// read transposed) and C 1 x ? there.
  static bool isRowVectorVariant(linalg::MatmulOp matmul,
                                 RankedTensorType rhsType) {
    return (matrix::isVectorMatrixProduct(matmul) ||
            matrix::isRowDotProduct(matmul)) &&
           matmul.getStaticLoopRanges()[0] == 1 && !rhsType.hasStaticShape();
  }

  /// The types A and C have in the function whose B has type `rhsType`:
  /// run-time sizes, but for a static B (K x N, B read in place) A is
  /// ? x K and C ? x N, so that every loop but M is static there, and for
  /// a static N only (B ? x N), C is ? x N.
  static std::pair<RankedTensorType, RankedTensorType>
  getLhsAndOutTypes(linalg::MatmulOp matmul, RankedTensorType rhsType) {
    if (isTiny(matmul))
      return {cast<RankedTensorType>(matmul.getDpsInputs()[0].getType()),
              cast<RankedTensorType>(matmul.getResult(0).getType())};
    // A tiny C: A ? x M (read transposed), C M x N.
    if (matrix::isTinyResultProduct(matmul)) {
      SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
      Type element = rhsType.getElementType();
      return {RankedTensorType::get({ShapedType::kDynamic, ranges[0]}, element),
              RankedTensorType::get({ranges[0], ranges[1]}, element)};
    }
    Type element = rhsType.getElementType();
    bool ta = matrix::isProductOperandTransposed(matmul, 0);
    if (isRowVectorVariant(matmul, rhsType)) {
      int64_t dynamic = ShapedType::kDynamic;
      return {RankedTensorType::get(ta ? SmallVector<int64_t>{dynamic, 1}
                                       : SmallVector<int64_t>{1, dynamic},
                                    element),
              RankedTensorType::get({1, dynamic}, element)};
    }
    // B's static sizes (B is read in place when it has any).
    int64_t k = rhsType.getDimSize(0), n = rhsType.getDimSize(1);
    auto lhs = RankedTensorType::get(
        ta ? SmallVector<int64_t>{k, ShapedType::kDynamic}
           : SmallVector<int64_t>{ShapedType::kDynamic, k},
        element);
    return {lhs, RankedTensorType::get({ShapedType::kDynamic, n}, element)};
  }

  /// Replaces `matmul` by a call to its variant's function.
  void outline(linalg::MatmulOp matmul, SymbolTable &symbols) {
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    Type element = resultType.getElementType();
    RankedTensorType rhsType = getRhsType(matmul);
    func::FuncOp callee = getOrCreateVariant(
        matmul, element, matrix::isProductOperandTransposed(matmul, 0),
        matrix::isProductOperandTransposed(matmul, 1), rhsType, symbols);
    OpBuilder builder(matmul);
    Location loc = matmul.getLoc();
    auto castTo = [&](Value value, Type type) {
      return matrix::castTo(builder, loc, value, type);
    };
    linalg::FillOp fill = getZeroFill(matmul);
    auto [lhsType, outType] = getLhsAndOutTypes(matmul, rhsType);
    Value lhs = castTo(matmul.getDpsInputs()[0], lhsType);
    Value rhs = castTo(matmul.getDpsInputs()[1], rhsType);
    Value out = castTo(fill.getDpsInits()[0], outType);
    Value result;
    if (matrix::isProductOperandTransposed(matmul, 0) &&
        isGeneralVariant(lhsType, rhsType, outType))
      result = callTransposedIfNarrow(builder, loc, matmul, callee, lhs, rhs,
                                      out, symbols);
    else
      result =
          func::CallOp::create(builder, loc, callee, ValueRange{lhs, rhs, out})
              .getResult(0);
    if (result.getType() != resultType)
      result = tensor::CastOp::create(builder, loc, resultType, result);
    matmul.getResult(0).replaceAllUsesWith(result);
    matmul.erase();
    if (fill->use_empty())
      fill.erase();
  }

  /// Whether A, B and C of a product function all have run-time sizes
  /// (the general function of its element type and layout).
  static bool isGeneralVariant(RankedTensorType lhsType,
                               RankedTensorType rhsType,
                               RankedTensorType outType) {
    return llvm::all_of(ArrayRef<RankedTensorType>{lhsType, rhsType, outType},
                        [](RankedTensorType type) {
                          return llvm::all_of(type.getShape(),
                                              ShapedType::isDynamic);
                        });
  }

  /// The result of `matmul` (A read transposed, computed by the general
  /// function `callee` on `lhs`, `rhs` into `out`), computed instead, when
  /// C has few columns or (B read transposed too) few rows, as the
  /// transpose of C^T = B^T A^T by a call with the operands swapped (into a
  /// new N x M tensor), copied transposed into `out`
  /// (matrix::createTransposedCopy; M N element moves against M N K
  /// multiply-adds), behind a run-time test of the sizes (an scf.if whose
  /// other branch calls `callee` as it is):
  /// - `a.T @ b` (A K x M, B K x N): N of 2 .. matrix::getMaxTransposedColumns
  ///   and below M, K at least matrix::kMinDotProductDepth. C^T = b.T @ a, a
  ///   call of `callee` itself, whose rows are C's columns: register tiles of
  ///   MR, 4, 2, 1 rows, reading A once along its rows, where C's few columns
  ///   would be a register tile of NR columns mostly masked, with A's elements
  ///   broadcast from its columns. From Python, Zen 4, 1 thread, f64, (n x n).T
  ///   @ n x N: n = 256, N = 2 .. 8 43-47 us before, 13-21 after (NumPy 9-20);
  ///   n = 1000, N = 4 648 -> 226 us, N = 8 1029 -> 620 us (NumPy 513, 696); n
  ///   = 2000, N = 8 8.1 -> 3.2 ms (NumPy 5.4); f32 n = 256, N = 2 .. 24 48 us
  ///   before, 6-30 after.
  /// - `a.T @ b.T` (B N x K): the same, or M of 1 .. matrix::getMaxDotColumns
  ///   and at most N (C^T's few columns, the dot products or register tiles
  ///   of the general `a @ b`; M = N = 4, K = 200000, Zen 5, f64, 1 thread:
  ///   2.5 ms before, 0.5 after, NumPy 0.53). C^T = b @ a, a call of the
  ///   general function of neither operand transposed (made if the module has
  ///   none). Before, the unpacked schedule read a transposed copy of all of B:
  ///   f64 (1000 x 4).T @ (1000 x 1000).T 1011-1392 us, after 313 us (NumPy
  ///   395-520).
  /// A test in the caller, not in the product function: one instance of
  /// each product's code serves both orientations (a second product in the
  /// function, +0.25 s of compile time for each `a.T @ b` function).
  Value callTransposedIfNarrow(OpBuilder &builder, Location loc,
                               linalg::MatmulOp matmul, func::FuncOp callee,
                               Value lhs, Value rhs, Value out,
                               SymbolTable &symbols) {
    bool tb = matrix::isProductOperandTransposed(matmul, 1);
    auto outType = cast<RankedTensorType>(out.getType());
    Type element = outType.getElementType();
    int64_t narrow = element.isF32() ? narrowF32 : narrowF64;
    Value m = tensor::DimOp::create(builder, loc, lhs, 1);
    Value n = tensor::DimOp::create(builder, loc, rhs, tb ? 0 : 1);
    auto compare = [&](arith::CmpIPredicate predicate, Value lhs,
                       Value rhs) -> Value {
      return arith::CmpIOp::create(builder, loc, predicate, lhs, rhs);
    };
    auto constant = [&](int64_t value) -> Value {
      return arith::ConstantIndexOp::create(builder, loc, value);
    };
    // few(size, least, most, other): least <= size <= most and size < other
    // (size <= other with `orEqual`).
    auto few = [&](Value size, int64_t least, int64_t most, Value other,
                   bool orEqual = false) -> Value {
      Value inRange = arith::AndIOp::create(
          builder, loc,
          compare(arith::CmpIPredicate::uge, size, constant(least)),
          compare(arith::CmpIPredicate::ule, size, constant(most)));
      return arith::AndIOp::create(builder, loc, inRange,
                                   compare(orEqual ? arith::CmpIPredicate::ule
                                                   : arith::CmpIPredicate::ult,
                                           size, other));
    };
    Value condition = few(n, 2, matrix::getMaxTransposedColumns(narrow), m);
    func::FuncOp transposedCallee = callee;
    if (tb) {
      // As many rows as columns too: `a.T @ b.T` itself reads B through a
      // transposed copy of all of it, `b @ a` reads both operands in place.
      condition = arith::OrIOp::create(
          builder, loc, condition,
          few(m, 1, matrix::getMaxDotColumns(narrow), n, /*orEqual=*/true));
      transposedCallee = getOrCreateVariant(element, /*ta=*/false,
                                            /*tb=*/false, loc, symbols);
    }
    // And K >= kMinDotProductDepth.
    Value k = tensor::DimOp::create(builder, loc, lhs, 0);
    condition =
        arith::AndIOp::create(builder, loc, condition,
                              compare(arith::CmpIPredicate::uge, k,
                                      constant(matrix::kMinDotProductDepth)));
    auto ifOp = scf::IfOp::create(builder, loc, outType, condition,
                                  /*withElseRegion=*/true);
    builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
    Value transposedOut = tensor::EmptyOp::create(
        builder, loc, outType.getShape(), element, ValueRange{n, m});
    Value transposed = func::CallOp::create(builder, loc, transposedCallee,
                                            ValueRange{rhs, lhs, transposedOut})
                           .getResult(0);
    // C's destination: when it is an empty tensor, a new one in each
    // branch, so that each branch yields a buffer of its own; one from
    // before the scf.if got a copy in the branch yielding it, for the
    // ownership-based deallocation (M x N elements, one by one). Tagged,
    // so that CSE does not merge them back into the one before. Else (a
    // `.into` function's result buffer) both write into it in place.
    Value source = out;
    if (auto cast = out.getDefiningOp<tensor::CastOp>())
      source = cast.getSource();
    bool fresh = source.getDefiningOp<tensor::EmptyOp>() != nullptr;
    auto branchDestination = [&](OpBuilder &builder) -> Value {
      if (!fresh)
        return out;
      auto empty = tensor::EmptyOp::create(builder, loc, outType.getShape(),
                                           element, ValueRange{m, n});
      empty->setAttr("matc.branch_destination", builder.getUnitAttr());
      return empty;
    };
    Value destination = branchDestination(builder);
    Value copy = matrix::createTransposedCopy(
        builder, loc, transposed, element.isF32() ? "f32" : "f64", destination);
    // Outside the product functions: blocks of rows split between the
    // threads, the last rows and columns peeled (Schedule.mlir).
    copy.getDefiningOp()->setAttr("matc.transpose_rows", builder.getUnitAttr());
    scf::YieldOp::create(builder, loc, copy);
    builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
    Value direct =
        func::CallOp::create(builder, loc, callee,
                             ValueRange{lhs, rhs, branchDestination(builder)})
            .getResult(0);
    scf::YieldOp::create(builder, loc, direct);
    builder.setInsertionPointAfter(ifOp);
    // The destination before the scf.if, unused now.
    if (fresh && out.use_empty()) {
      Operation *dead = out.getDefiningOp();
      dead->erase();
      if (source != out && source.use_empty())
        source.getDefiningOp()->erase();
    }
    return ifOp.getResult(0);
  }

  /// @matc.product.<f32|f64>.<n|t><n|t>[.b<K>x<N> | .n<N> | .s<M>x<K>x<N> |
  /// .c<M>x<N> | .m1]:
  /// C = A B from zeros into `%out`, A read transposed for `ta`, B for
  /// `tb`; B of type `rhsType` (its static shape, or N, in the name), or every
  /// operand static (a tiny product), or C's shape (a tiny C), or one row
  /// of C (`.m1`, isRowVectorVariant).
  func::FuncOp getOrCreateVariant(linalg::MatmulOp prototype, Type element,
                                  bool ta, bool tb, RankedTensorType rhsType,
                                  SymbolTable &symbols) {
    std::string name = getGeneralName(element, ta, tb);
    if (matrix::isTinyResultProduct(prototype)) {
      // M x N.
      SmallVector<int64_t> ranges = prototype.getStaticLoopRanges();
      name += ".c" + std::to_string(ranges[0]) + "x" +
              std::to_string(ranges[1]);
    } else if (isTiny(prototype)) {
      // M x K x N.
      SmallVector<int64_t> ranges = prototype.getStaticLoopRanges();
      name += ".s" + std::to_string(ranges[0]) + "x" +
              std::to_string(ranges[2]) + "x" + std::to_string(ranges[1]);
    } else if (isRowVectorVariant(prototype, rhsType)) {
      name += ".m1";
    } else if (rhsType.hasStaticShape()) {
      name += ".b" + std::to_string(rhsType.getDimSize(0)) + "x" +
              std::to_string(rhsType.getDimSize(1));
    } else if (!rhsType.isDynamicDim(1)) {
      name += ".n" + std::to_string(rhsType.getDimSize(1));
    }
    auto [lhsType, outType] = getLhsAndOutTypes(prototype, rhsType);
    return getOrCreateFunction(name, prototype.getLoc(), ta, tb, lhsType,
                               rhsType, outType, symbols);
  }

  /// The general function of `element`'s products with A read transposed
  /// for `ta`, B for `tb`: @matc.product.<f32|f64>.<n|t><n|t>, every
  /// operand of run-time sizes.
  func::FuncOp getOrCreateVariant(Type element, bool ta, bool tb, Location loc,
                                  SymbolTable &symbols) {
    auto dynamic = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, element);
    return getOrCreateFunction(getGeneralName(element, ta, tb), loc, ta, tb,
                               dynamic, dynamic, dynamic, symbols);
  }

  static std::string getGeneralName(Type element, bool ta, bool tb) {
    return (llvm::Twine("matc.product.") + (element.isF32() ? "f32" : "f64") +
            "." + (ta ? "t" : "n") + (tb ? "t" : "n"))
        .str();
  }

  /// The function `name` of the module, or a new one of C = A B from zeros
  /// into `%out` (A of `lhsType` read transposed for `ta`, B of `rhsType`
  /// for `tb`, C of `outType`).
  func::FuncOp getOrCreateFunction(StringRef name, Location loc, bool ta,
                                   bool tb, RankedTensorType lhsType,
                                   RankedTensorType rhsType,
                                   RankedTensorType outType,
                                   SymbolTable &symbols) {
    if (auto existing = symbols.lookup<func::FuncOp>(name))
      return existing;
    MLIRContext *context = &getContext();
    Type element = outType.getElementType();
    OpBuilder builder(context);
    auto function = func::FuncOp::create(
        builder, loc, name,
        builder.getFunctionType({lhsType, rhsType, outType}, {outType}));
    function.setPrivate();
    function->setAttr("matc.product", builder.getUnitAttr());
    // LLVM would inline it back into every caller.
    matrix::setNoInline(function);
    Block *body = function.addEntryBlock();
    builder.setInsertionPointToStart(body);
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getFloatAttr(element, 0.0));
    Value c = linalg::FillOp::create(builder, loc, zero, body->getArgument(2))
                  .getResult(0);
    Value lhs = body->getArgument(0);
    Value rhs =
        sliceRhsToLhsK(builder, loc, lhs, ta, body->getArgument(1), tb);
    // The layouts matrix-optimize folds transposes into (m, n, k): A (m, k)
    // or (k, m), B (k, n) or (n, k).
    AffineExpr m, n, k;
    bindDims(context, m, n, k);
    SmallVector<AffineMap> maps = {
        AffineMap::get(
            3, 0, ta ? ArrayRef<AffineExpr>{k, m} : ArrayRef<AffineExpr>{m, k},
            context),
        AffineMap::get(
            3, 0, tb ? ArrayRef<AffineExpr>{n, k} : ArrayRef<AffineExpr>{k, n},
            context),
        AffineMap::get(3, 0, {m, n}, context)};
    auto matmul = linalg::MatmulOp::create(
        builder, loc, TypeRange{outType}, ValueRange{lhs, rhs}, ValueRange{c},
        // Named: a bare ArrayAttr would bind to the `cast` parameter.
        ArrayRef<NamedAttribute>{builder.getNamedAttr(
            "indexing_maps", builder.getAffineMapArrayAttr(maps))});
    func::ReturnOp::create(builder, loc, matmul.getResult(0));
    symbols.insert(function);
    return function;
  }
};
} // namespace
