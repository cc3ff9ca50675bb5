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

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/Utils/Utils.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/RegionUtils.h"
#include "llvm/ADT/MapVector.h"

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
    loads.clear();
    offsets.clear();
    for (SmallVector<Operation *> &run : runs) {
      // A lone op gains nothing from a call around it.
      if (run.size() < 2)
        continue;
      takeLoadsInto(run);
      std::string name =
          (function.getSymName() + ".part" + Twine(part)).str();
      FailureOr<bool> outlined = outlineRun(rewriter, run, name);
      if (failed(outlined))
        return function.emitError("matrix-outline-long-blocks: could not "
                                  "outline a part of the body");
      if (*outlined)
        ++part;
    }
    for (Operation *offset : offsets)
      if (offset->use_empty())
        rewriter.eraseOp(offset);
    offsets.clear();
    return success();
  }

  /// The loads, in the caller, of scalars that earlier parts returned
  /// through memory (returnScalarsThroughMemory), not yet in a part.
  llvm::SetVector<Operation *> loads;
  /// Their offsets, constants the parts clone: erased when left unused.
  SmallVector<Operation *> offsets;

  /// Moves into `run` the pending loads whose users are all in it (each
  /// placed just before the run, which stays consecutive), so that the part
  /// reads its scalars from the buffer itself: loaded in the caller and
  /// passed as arguments, they would make the caller as long as the body
  /// was.
  void takeLoadsInto(SmallVectorImpl<Operation *> &run) {
    llvm::SmallPtrSet<Operation *, 32> inRun(run.begin(), run.end());
    Block *block = run.front()->getBlock();
    SmallVector<Operation *> taken;
    for (Operation *load : loads)
      if (llvm::all_of(load->getUsers(), [&](Operation *user) {
            Operation *ancestor = block->findAncestorOpInBlock(*user);
            return ancestor && inRun.contains(ancestor);
          }))
        taken.push_back(load);
    for (Operation *load : taken) {
      loads.remove(load);
      load->moveBefore(run.front());
    }
    run.insert(run.begin(), taken.begin(), taken.end());
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
    // The call leaves its scf.execute_region for the caller's block.
    Block &inner = region.getRegion().front();
    auto yield = cast<scf::YieldOp>(inner.getTerminator());
    SmallVector<Value> yielded(yield.getOperands());
    rewriter.eraseOp(yield);
    rewriter.inlineBlockBefore(&inner, region);
    rewriter.replaceOp(region, yielded);
    returnScalarsThroughMemory(rewriter, *outlined, call);
    return true;
  }

  /// The scalar results of a part beyond kMaxScalarResults go through
  /// memory: the caller passes a stack buffer per element type (a
  /// `memref<N x T>` from `memref.alloca`), the part stores them there, and
  /// loads after the call read them (`loads`: takeLoadsInto moves each into
  /// the part that uses it, when one part does). Many results would make the
  /// LLVM function return one struct of them, built by a chain of
  /// `insertvalue`s, on which LLVM's (IP)SCCP, keeping a lattice state per
  /// field, is quadratic: a function building a 25 x 25 literal of scalar
  /// expressions returned 625 doubles from its first part and spent 6 s
  /// there (issue 13).
  static constexpr unsigned kMaxScalarResults = 8;
  void returnScalarsThroughMemory(IRRewriter &rewriter, func::FuncOp part,
                                  func::CallOp &call) {
    auto isScalar = [](Type type) {
      return isa<IndexType, IntegerType, FloatType>(type);
    };
    unsigned scalars = llvm::count_if(part.getResultTypes(), isScalar);
    if (scalars <= kMaxScalarResults)
      return;
    // Per element type, in order of first appearance: the results' indices.
    llvm::MapVector<Type, SmallVector<unsigned>> byType;
    for (auto [index, type] : llvm::enumerate(part.getResultTypes()))
      if (isScalar(type))
        byType[type].push_back(index);

    Location loc = call.getLoc();
    auto returnOp = cast<func::ReturnOp>(part.getBody().front().getTerminator());
    SmallVector<Value> buffers;
    SmallVector<Type> bufferTypes;
    rewriter.setInsertionPoint(call);
    for (auto &[type, indices] : byType) {
      auto bufferType = MemRefType::get({int64_t(indices.size())}, type);
      bufferTypes.push_back(bufferType);
      buffers.push_back(memref::AllocaOp::create(rewriter, loc, bufferType));
    }
    // The part stores its scalar results.
    Block &body = part.getBody().front();
    rewriter.setInsertionPoint(returnOp);
    for (auto [group, entry] : llvm::enumerate(byType)) {
      BlockArgument buffer = body.addArgument(bufferTypes[group], loc);
      for (auto [position, index] : llvm::enumerate(entry.second)) {
        Value offset = arith::ConstantIndexOp::create(rewriter, loc, position);
        memref::StoreOp::create(rewriter, loc, returnOp.getOperand(index),
                                buffer, offset);
      }
    }
    SmallVector<Value> kept = llvm::filter_to_vector(
        returnOp.getOperands(),
        [&](Value operand) { return !isScalar(operand.getType()); });
    rewriter.modifyOpInPlace(returnOp,
                             [&] { returnOp.getOperandsMutable().assign(kept); });
    part.setFunctionType(FunctionType::get(part.getContext(),
                                           body.getArgumentTypes(),
                                           ValueRange(kept).getTypes()));

    // The caller passes the buffers and loads the scalars after the call.
    SmallVector<Value> operands(call.getOperands());
    operands.append(buffers);
    rewriter.setInsertionPoint(call);
    auto newCall = func::CallOp::create(rewriter, loc, part, operands);
    SmallVector<Value> replacements(call.getNumResults());
    unsigned next = 0;
    for (auto [index, result] : llvm::enumerate(call.getResults()))
      if (!isScalar(result.getType()))
        replacements[index] = newCall.getResult(next++);
    for (auto [group, entry] : llvm::enumerate(byType))
      for (auto [position, index] : llvm::enumerate(entry.second)) {
        Value offset = arith::ConstantIndexOp::create(rewriter, loc, position);
        offsets.push_back(offset.getDefiningOp());
        auto load = memref::LoadOp::create(rewriter, loc, buffers[group],
                                           offset);
        loads.insert(load);
        replacements[index] = load;
      }
    rewriter.replaceOp(call, replacements);
    call = newCall;
  }
};
} // namespace
