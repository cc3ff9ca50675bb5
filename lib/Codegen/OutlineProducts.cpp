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

/// Whether operand `index` (0: A, 1: B) of `matmul` is read transposed: the
/// map of A is (m, n, k) -> (k, m) instead of (m, k), that of B (n, k)
/// instead of (k, n).
static bool isTransposed(linalg::MatmulOp matmul, unsigned index) {
  AffineMap map = matmul.getIndexingMapsArray()[index];
  return map.getDimPosition(0) == (index == 0 ? 2u : 1u);
}

/// The zero fill of a tensor.empty that `matmul` starts from, or null.
static linalg::FillOp getZeroFillOfEmpty(linalg::MatmulOp matmul) {
  auto fill = matmul.getDpsInits()[0].getDefiningOp<linalg::FillOp>();
  if (!fill || !fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>())
    return nullptr;
  return matchPattern(fill.getInputs()[0], m_AnyZeroFloat()) ? fill : nullptr;
}

namespace {
struct MatrixOutlineProducts
    : matrix::impl::MatrixOutlineProductsBase<MatrixOutlineProducts> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<linalg::MatmulOp> products;
    module.walk([&](linalg::MatmulOp matmul) {
      if (matmul->getParentOfType<func::FuncOp>()->hasAttr("matc.product"))
        return;
      if (!matmul.hasPureTensorSemantics() || !getZeroFillOfEmpty(matmul))
        return;
      Type element = getElementTypeOrSelf(matmul.getResult(0).getType());
      if (!element.isF32() && !element.isF64())
        return;
      SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
      if (llvm::all_of(ranges, [](int64_t r) {
            return !ShapedType::isDynamic(r) && r <= 16;
          }))
        return;
      products.push_back(matmul);
    });
    for (linalg::MatmulOp matmul : products)
      outline(matmul, symbols);
  }

  /// Replaces `matmul` by a call to its variant's function.
  void outline(linalg::MatmulOp matmul, SymbolTable &symbols) {
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    Type element = resultType.getElementType();
    func::FuncOp callee = getOrCreateVariant(
        matmul, element, isTransposed(matmul, 0), isTransposed(matmul, 1),
        symbols);
    OpBuilder builder(matmul);
    Location loc = matmul.getLoc();
    auto dynamic = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, element);
    auto toDynamic = [&](Value value) -> Value {
      if (value.getType() == dynamic)
        return value;
      return tensor::CastOp::create(builder, loc, dynamic, value);
    };
    linalg::FillOp fill = getZeroFillOfEmpty(matmul);
    SmallVector<Value> arguments = {
        toDynamic(matmul.getDpsInputs()[0]), toDynamic(matmul.getDpsInputs()[1]),
        toDynamic(fill.getDpsInits()[0])};
    auto call = func::CallOp::create(builder, loc, callee, arguments);
    Value result = call.getResult(0);
    if (result.getType() != resultType)
      result = tensor::CastOp::create(builder, loc, resultType, result);
    matmul.getResult(0).replaceAllUsesWith(result);
    matmul.erase();
    if (fill->use_empty())
      fill.erase();
  }

  /// @matc.product.<f32|f64>.<n|t><n|t>: C = A B from zeros into `%out`,
  /// A read transposed for `ta`, B for `tb`.
  func::FuncOp getOrCreateVariant(linalg::MatmulOp prototype, Type element,
                                  bool ta, bool tb, SymbolTable &symbols) {
    std::string name = (llvm::Twine("matc.product.") +
                        (element.isF32() ? "f32" : "f64") + "." +
                        (ta ? "t" : "n") + (tb ? "t" : "n"))
                           .str();
    if (auto existing = symbols.lookup<func::FuncOp>(name))
      return existing;
    MLIRContext *context = &getContext();
    auto dynamic = RankedTensorType::get(
        {ShapedType::kDynamic, ShapedType::kDynamic}, element);
    OpBuilder builder(context);
    Location loc = prototype.getLoc();
    auto function = func::FuncOp::create(
        builder, loc, name,
        builder.getFunctionType({dynamic, dynamic, dynamic}, {dynamic}));
    function.setPrivate();
    function->setAttr("matc.product", builder.getUnitAttr());
    // LLVM would inline it back into every caller.
    function->setAttr("llvm.noinline", builder.getUnitAttr());
    Block *body = function.addEntryBlock();
    builder.setInsertionPointToStart(body);
    Value zero = arith::ConstantOp::create(builder, loc,
                                           builder.getFloatAttr(element, 0.0));
    Value c = linalg::FillOp::create(builder, loc, zero, body->getArgument(2))
                  .getResult(0);
    auto matmul = linalg::MatmulOp::create(
        builder, loc, TypeRange{dynamic},
        ValueRange{body->getArgument(0), body->getArgument(1)}, ValueRange{c},
        // Named: a bare ArrayAttr would bind to the `cast` parameter.
        ArrayRef<NamedAttribute>{builder.getNamedAttr(
            "indexing_maps", prototype.getIndexingMaps())});
    func::ReturnOp::create(builder, loc, matmul.getResult(0));
    symbols.insert(function);
    return function;
  }
};
} // namespace
