//===- OutlineLongBlocks.cpp - Long function bodies in bounded parts ------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-outline-long-blocks pass (Passes.td): the body of a function
// with more than max-ops ops becomes calls of private functions of about
// max-ops ops each, so that LLVM never sees a function larger than that.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"
#include "MatrixDialect/IR/Dialect.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXOUTLINELONGBLOCKS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// Whether a value made by `op` is valid only in its function's frame.
static bool isStackAllocation(Operation *op) {
  return isa<memref::AllocaOp, LLVM::AllocaOp>(op);
}

/// Whether `op` can be cloned into every run that uses it instead of being
/// passed in: a constant, or a pure op without operands (the address of a
/// global).
static bool isClonedIntoParts(Operation *op) {
  return op->getNumOperands() == 0 && op->getNumRegions() == 0 &&
         op->getNumResults() == 1 &&
         (matchPattern(op, m_Constant()) || isPure(op));
}

/// Whether a function argument or result may have `type` in every later
/// stage: builtin types and LLVM pointers (not, say, an `!mpi.comm`, which
/// MPIToLLVM converts only as an operand of mpi ops).
static bool isPassableType(Type type) {
  return isa<MemRefType, IndexType, IntegerType, FloatType, VectorType,
             LLVM::LLVMPointerType>(type);
}

namespace {
struct MatrixOutlineLongBlocks
    : matrix::impl::MatrixOutlineLongBlocksBase<MatrixOutlineLongBlocks> {
  using Base::Base;

  void runOnOperation() override {
    SmallVector<func::FuncOp> functions(
        getOperation().getOps<func::FuncOp>());
    for (func::FuncOp function : functions)
      if (!function.isExternal() && function.getBody().hasOneBlock() &&
          matrix::countNestedOps(function) > maxOps)
        if (failed(splitBody(function)))
          return signalPassFailure();
  }

  /// Moves consecutive runs of about max-ops ops of `function`'s body into
  /// functions of their own.
  LogicalResult splitBody(func::FuncOp function) {
    Block &body = function.getBody().front();
    SmallVector<SmallVector<Operation *>> runs(1);
    int64_t size = 0;
    for (Operation &op : body.without_terminator()) {
      if (isClonedIntoParts(&op))
        continue;
      runs.back().push_back(&op);
      size += matrix::countNestedOps(&op);
      if (size >= maxOps) {
        runs.emplace_back();
        size = 0;
      }
    }
    if (runs.back().empty())
      runs.pop_back();
    // One run (a body of few ops, one of them large: the scf.if of a
    // product function) would only move the body one call down.
    if (runs.size() < 2)
      return success();
    IRRewriter rewriter(function.getContext());
    unsigned part = 0;
    for (ArrayRef<Operation *> run : runs) {
      // A lone op gains nothing from a call around it.
      if (run.size() < 2)
        continue;
      std::string name =
          (function.getSymName() + ".part" + Twine(part)).str();
      FailureOr<bool> outlined = outlineRun(rewriter, run, name);
      if (failed(outlined))
        return function.emitError("matrix-outline-long-blocks: could not "
                                  "outline a part of the body");
      if (*outlined)
        ++part;
    }
    return success();
  }

  /// Moves `run` (consecutive ops of one block) into a new private function
  /// `name`, called in its place. Returns false, changing nothing, when a
  /// value the run defines for later ops is a stack allocation, or a value
  /// it takes or gives has a type a function cannot pass.
  FailureOr<bool> outlineRun(IRRewriter &rewriter, ArrayRef<Operation *> run,
                             StringRef name) {
    llvm::SmallPtrSet<Operation *, 32> inRun(run.begin(), run.end());
    SmallVector<Value> escaping;
    for (Operation *op : run)
      for (Value result : op->getResults())
        if (llvm::any_of(result.getUsers(), [&](Operation *user) {
              return !inRun.contains(
                  op->getBlock()->findAncestorOpInBlock(*user));
            })) {
          if (isStackAllocation(op) || !isPassableType(result.getType()))
            return false;
          escaping.push_back(result);
        }

    // The values it uses from before (but constants) must be passable too.
    for (Operation *op : run) {
      WalkResult walk = op->walk([&](Operation *nested) {
        for (Value operand : nested->getOperands()) {
          Operation *def = operand.getDefiningOp();
          Operation *defAncestor =
              def ? op->getBlock()->findAncestorOpInBlock(*def) : nullptr;
          bool fromRun = defAncestor && inRun.contains(defAncestor);
          bool inside = op->isAncestor(operand.getParentBlock()->getParentOp());
          if (!fromRun && !inside && !(def && isClonedIntoParts(def)) &&
              !isPassableType(operand.getType()))
            return WalkResult::interrupt();
        }
        return WalkResult::advance();
      });
      if (walk.wasInterrupted())
        return false;
    }

    Location loc = run.front()->getLoc();
    rewriter.setInsertionPoint(run.front());
    auto region = scf::ExecuteRegionOp::create(
        rewriter, loc, ValueRange(escaping).getTypes());
    Block *block = rewriter.createBlock(&region.getRegion());
    for (Operation *op : run)
      op->moveBefore(block, block->end());
    rewriter.setInsertionPointToEnd(block);
    scf::YieldOp::create(rewriter, loc, escaping);
    for (auto [value, result] : llvm::zip(escaping, region.getResults()))
      value.replaceUsesWithIf(result, [&](OpOperand &use) {
        return !region->isProperAncestor(use.getOwner());
      });

    // Constants and addresses of globals are cloned in, not passed.
    SetVector<Value> captured;
    getUsedValuesDefinedAbove(region.getRegion(), captured);
    rewriter.setInsertionPointToStart(block);
    for (Value value : captured) {
      Operation *def = value.getDefiningOp();
      if (!def || !isClonedIntoParts(def))
        continue;
      Value clone = rewriter.clone(*def)->getResult(0);
      replaceAllUsesInRegionWith(value, clone, region.getRegion());
    }

    func::CallOp call;
    FailureOr<func::FuncOp> outlined = outlineSingleBlockRegion(
        rewriter, loc, region.getRegion(), name, &call);
    if (failed(outlined))
      return failure();
    outlined->setPrivate();
    // LLVM would inline every part back into one function (its single
    // caller).
    matrix::setNoInline(*outlined);
    return true;
  }
};
} // namespace
