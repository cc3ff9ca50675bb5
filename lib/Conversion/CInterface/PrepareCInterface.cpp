//===- PrepareCInterface.cpp - The matrix-prepare-c-interface pass --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Records, on each Mat function, what its C entry point needs once the
// function is lowered: the Mat signature and the shape preconditions; and
// what its callers may want to know (where each precondition comes from,
// the shapes of the matrices it allocates).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Analysis/ShapeConstraints.h"
#include "MatrixDialect/Conversion/CInterface.h"
#include "MatrixDialect/Conversion/Passes.h"
#include "MatrixDialect/IR/Dialect.h"
#include "MatrixDialect/MLIRGen/MLIRGen.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/StringMap.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXPREPARECINTERFACE
#include "MatrixDialect/Conversion/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

/// The Mat name of parameter `index`: MLIRGen gives each block argument a
/// NameLoc; hand-written IR may not, then it is `argN`.
static std::string getParamName(func::FuncOp fn, unsigned index) {
  Location loc = fn.getArgument(index).getLoc();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return "arg" + std::to_string(index);
}

/// Adds `@<fn>.into`, a private copy of `fn` (whose result is a matrix)
/// that takes one more argument, a memref of the result type (identity
/// layout: a contiguous row-major buffer of the caller), writes the result
/// there (`bufferization.materialize_in_destination ... restrict writable`)
/// and returns nothing. Empty-tensor elimination and bufferization then
/// compute the result in that buffer directly where they can; else it is
/// one copy. Returns the new function.
static func::FuncOp addDestinationVariant(func::FuncOp fn) {
  auto resultType = cast<RankedTensorType>(fn.getResultTypes().front());
  auto outType =
      MemRefType::get(resultType.getShape(), resultType.getElementType());
  OpBuilder b(fn.getContext());
  b.setInsertionPointAfter(fn);
  auto into = cast<func::FuncOp>(b.clone(*fn));
  into.setSymName((fn.getSymName() + kCIntoSuffix).str());
  into.setPrivate();
  into->removeAttr(kCInterfaceAttrName);
  unsigned outIndex = into.getNumArguments();
  if (failed(into.insertArgument(outIndex, outType,
                                 b.getDictionaryAttr({}), fn.getLoc())))
    return nullptr;
  Value out = into.getArgument(outIndex);
  into.walk([&](func::ReturnOp ret) {
    b.setInsertionPoint(ret);
    bufferization::MaterializeInDestinationOp::create(
        b, ret.getLoc(), TypeRange(), ret.getOperand(0), out,
        /*restrict=*/true, /*writable=*/true);
    ret->eraseOperands(0, ret.getNumOperands());
  });
  if (failed(into.eraseResult(0)))
    return nullptr;
  return into;
}

/// Replaces the body of `fn` (whose copy `into` now computes its result)
/// by an allocation of the result, of the sizes `resultDims` gives in terms
/// of the parameters, and a call of `into` that fills it: the function's
/// computation is compiled once, in `into`, which LLVM must not inline back
/// (it has two callers, `fn` and the C entry point).
static void replaceBodyByCallOf(func::FuncOp fn, func::FuncOp into,
                                ArrayRef<SymbolicDim> resultDims) {
  auto resultType = cast<RankedTensorType>(fn.getResultTypes().front());
  Block &body = fn.getBody().front();
  SmallVector<Value> args(body.getArguments());
  // The old body goes; its arguments stay.
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body)))
    op.erase();
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  Location loc = fn.getLoc();
  SmallVector<Value> dynamicSizes;
  for (auto [d, size] : llvm::enumerate(resultDims)) {
    if (!resultType.isDynamicDim(d))
      continue;
    dynamicSizes.push_back(
        size.isConstant()
            ? Value(arith::ConstantIndexOp::create(b, loc, size.getConstant()))
            : Value(tensor::DimOp::create(b, loc, args[size.getParam()],
                                          size.getDim())));
  }
  auto outType =
      MemRefType::get(resultType.getShape(), resultType.getElementType());
  Value out = memref::AllocOp::create(b, loc, outType, dynamicSizes,
                                      b.getI64IntegerAttr(64));
  SmallVector<Value> callArgs(args);
  callArgs.push_back(out);
  func::CallOp::create(b, loc, into, callArgs);
  Value result = bufferization::ToTensorOp::create(
      b, loc, resultType, out, /*restrict=*/true, /*writable=*/true);
  func::ReturnOp::create(b, loc, result);
  matrix::setNoInline(into);
}

/// Where `eq` comes from, for the signatures and the messages of callers.
static CPreconditionOrigin describeOrigin(const DimEquality &eq) {
  CPreconditionOrigin origin;
  origin.relation = getShapeRelationName(eq.relation).str();
  origin.note = describeShapeRelation(eq);
  if (auto loc = eq.origin->getLoc()->findInstanceOf<FileLineColLoc>()) {
    origin.line = loc.getLine();
    origin.column = loc.getColumn();
  }
  return origin;
}

/// The shapes of `fn`'s matrices, once per function.
using TemporariesCache =
    DenseMap<Operation *, std::optional<SmallVector<CShape>>>;

/// The shapes of every matrix `fn` computes (each op result that is a 2-D
/// tensor, but views: `tensor.cast`), its callees' included, in terms of
/// `fn`'s parameters, each shape once (in the order first met); std::nullopt
/// if a size cannot be traced to them. Once each: a function calling
/// another twice, which calls another twice, ..., had 2^depth copies of the
/// innermost shapes (a new-user finding: 16 levels took 15 s and 1.1 GB at
/// -c, the C entry point checking each copy, and 149 MB of
/// --emit=signatures at 12).
static std::optional<SmallVector<CShape>>
collectTemporaries(func::FuncOp fn, ShapeConstraintAnalysis &analysis,
                   TemporariesCache &cache) {
  auto it = cache.find(fn);
  if (it != cache.end())
    return it->second;
  cache[fn] = std::nullopt; // Recursion (which Mat rejects) stays unknown.
  SmallVector<CShape> shapes;
  DenseSet<std::pair<int64_t, int64_t>> seen;
  bool known = true;
  auto add = [&](FailureOr<SymbolicDim> rows, FailureOr<SymbolicDim> cols) {
    if (failed(rows) || failed(cols))
      known = false;
    else if (seen.insert({rows->encode(), cols->encode()}).second)
      shapes.emplace_back(*rows, *cols);
  };
  fn.walk([&](Operation *op) {
    if (isa<tensor::CastOp, func::ReturnOp>(op))
      return;
    if (auto call = dyn_cast<func::CallOp>(op)) {
      auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
          call, call.getCalleeAttr());
      std::optional<SmallVector<CShape>> inner;
      if (callee && !callee.isExternal())
        inner = collectTemporaries(callee, analysis, cache);
      if (!inner) {
        known = false;
        return;
      }
      for (auto [rows, cols] : *inner)
        add(analysis.substitute(call, rows), analysis.substitute(call, cols));
      return;
    }
    for (Value result : op->getResults()) {
      auto type = dyn_cast<RankedTensorType>(result.getType());
      if (type && type.getRank() == 2)
        add(analysis.getDim(result, 0), analysis.getDim(result, 1));
    }
  });
  if (known)
    cache[fn] = std::move(shapes);
  return cache[fn];
}

LogicalResult mlir::matrix::verifyCSymbols(ModuleOp module) {
  StringRef prefix = mat::kUserFunctionPrefix;
  // The Mat function of each C symbol: two names that differ only in runs
  // of `_` (`x` and `_x`, `a_b` and `a__b`) have the same one.
  llvm::StringMap<std::string> owners;
  for (func::FuncOp fn : module.getOps<func::FuncOp>()) {
    if (fn.isExternal() || fn.isPrivate() ||
        !fn.getSymName().starts_with(prefix))
      continue;
    CInterface c;
    c.name = fn.getSymName().drop_front(prefix.size()).str();
    auto [owner, isNew] = owners.try_emplace(c.getCSymbol(), c.name);
    if (!isNew)
      return fn.emitError("functions '")
             << owner->second << "' and '" << c.name
             << "' have the same C entry point '" << c.getCSymbol()
             << "' (runs of '_' count as one in C symbols: C++ reserves "
                "names holding '__'); rename one";
  }
  return success();
}

namespace {
struct MatrixPrepareCInterface
    : matrix::impl::MatrixPrepareCInterfaceBase<MatrixPrepareCInterface> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ShapeConstraintAnalysis analysis;
    TemporariesCache temporaries;
    StringRef prefix = mat::kUserFunctionPrefix;
    if (failed(verifyCSymbols(module)))
      return signalPassFailure();
    SmallVector<func::FuncOp> functions(module.getOps<func::FuncOp>());
    // Bodies replaced once every function is analyzed: the facts of a
    // caller come from the bodies of its callees.
    struct BodyCall {
      func::FuncOp fn, into;
      SmallVector<SymbolicDim, 2> resultDims;
    };
    SmallVector<BodyCall> calls;
    for (func::FuncOp fn : functions) {
      if (fn.isExternal())
        continue;
      if (fn.getSymName() == "main") {
        // Anything besides the `return` is a top-level statement.
        if (!fn.getBody().front().without_terminator().empty())
          fn->setAttr(kCProgramAttrName, UnitAttr::get(&getContext()));
        continue;
      }
      if (fn.isPrivate() || !fn.getSymName().starts_with(prefix))
        continue;
      FunctionType type = fn.getFunctionType();
      if (type.getNumResults() != 1) {
        fn.emitError("a Mat function has exactly one result");
        return signalPassFailure();
      }
      FailureOr<const FunctionShapeFacts *> facts = analysis.getFacts(fn);
      if (failed(facts))
        return signalPassFailure();

      CInterface c;
      c.name = fn.getSymName().drop_front(prefix.size()).str();
      c.type = type;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        c.argNames.push_back(getParamName(fn, i));
      for (const DimEquality &eq : (*facts)->preconditions) {
        c.preconditions.emplace_back(eq.lhs, eq.rhs);
        c.preconditionOrigins.push_back(describeOrigin(eq));
      }
      c.temporaries = collectTemporaries(fn, analysis, temporaries);
      c.resultDims.assign((*facts)->resultDims.begin(),
                          (*facts)->resultDims.end());
      fn->setAttr(kCInterfaceAttrName, c.toAttr(&getContext()));

      // C callers pass `const` buffers: bufferization must copy before
      // writing into one in place.
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(i, "bufferization.writable",
                        BoolAttr::get(&getContext(), false));

      // The variant copies these attributes, and keeps them.
      if (isa<RankedTensorType>(type.getResult(0))) {
        func::FuncOp into = addDestinationVariant(fn);
        if (!into) {
          fn.emitError("cannot build the destination-passing variant");
          return signalPassFailure();
        }
        fn->setAttr(kCIntoAttrName, into.getSymNameAttr());
        calls.push_back({fn, into, c.resultDims});
      }
    }
    for (BodyCall &call : calls)
      replaceBodyByCallOf(call.fn, call.into, call.resultDims);
  }
};
} // namespace
