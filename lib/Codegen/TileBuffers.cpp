//===- TileBuffers.cpp - Static, stack-allocated tile temporaries ---------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Two passes that take the packing buffers of tiled matrix products off the
// heap (Passes.td has the details):
//
// - matrix-bound-tile-temporaries (tensors): tensor.empty of dynamic tile
//   sizes -> tensor.empty of their constant upper bound + extract_slice;
// - matrix-promote-tile-buffers (memrefs): statically shaped memref.alloc
//   freed in its own block inside loops -> memref.alloca at the top of a
//   memref.alloca_scope around the loop nest (or the parallel loop body).
//
// The upstream promote-buffers-to-stack does not promote buffers inside
// loops, and buffer-loop-hoisting would hoist them out of parallel loops,
// which would share one buffer between threads.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/MapVector.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXBOUNDTILETEMPORARIES
#define GEN_PASS_DEF_MATRIXPROMOTETILEBUFFERS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// Size in bytes of a statically shaped tensor or memref type, or nullopt
/// if the element type has no fixed bit width.
static std::optional<int64_t> getStaticSizeInBytes(ShapedType type) {
  Type element = type.getElementType();
  if (!element.isIntOrIndexOrFloat() || element.isIndex())
    return std::nullopt;
  return type.getNumElements() * ((element.getIntOrFloatBitWidth() + 7) / 8);
}

//===----------------------------------------------------------------------===//
// matrix-bound-tile-temporaries
//===----------------------------------------------------------------------===//

/// Rewrites `empty` into the static-shaped tensor.empty of the constant
/// upper bounds of its sizes and an extract_slice of its actual sizes.
/// Fails (and changes nothing) if a size has no constant upper bound or the
/// bounded tensor exceeds `maxBytes`.
static LogicalResult boundEmptyTensor(RewriterBase &rewriter,
                                      tensor::EmptyOp empty, int64_t maxBytes) {
  RankedTensorType type = empty.getType();
  SmallVector<int64_t> bounded(type.getShape());
  for (auto [dim, size] : llvm::enumerate(type.getShape())) {
    if (!ShapedType::isDynamic(size))
      continue;
    FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
        presburger::BoundType::UB,
        ValueBoundsConstraintSet::Variable(empty.getDynamicSize(dim)),
        /*stopCondition=*/nullptr, /*closedUB=*/true);
    if (failed(bound) || *bound < 1)
      return failure();
    bounded[dim] = *bound;
  }
  auto boundedType = RankedTensorType::get(bounded, type.getElementType(),
                                           type.getEncoding());
  std::optional<int64_t> bytes = getStaticSizeInBytes(boundedType);
  if (!bytes || *bytes > maxBytes)
    return failure();

  rewriter.setInsertionPoint(empty);
  Location loc = empty.getLoc();
  Value whole = tensor::EmptyOp::create(rewriter, loc, boundedType.getShape(),
                                        type.getElementType(),
                                        type.getEncoding());
  SmallVector<OpFoldResult> offsets(type.getRank(), rewriter.getIndexAttr(0));
  SmallVector<OpFoldResult> strides(type.getRank(), rewriter.getIndexAttr(1));
  rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
      empty, type, whole, offsets, empty.getMixedSizes(), strides);
  return success();
}

namespace {
struct MatrixBoundTileTemporaries
    : matrix::impl::MatrixBoundTileTemporariesBase<MatrixBoundTileTemporaries> {
  using MatrixBoundTileTemporariesBase::MatrixBoundTileTemporariesBase;

  void runOnOperation() override {
    SmallVector<tensor::EmptyOp> empties;
    getOperation()->walk([&](tensor::EmptyOp empty) {
      if (!empty.getType().hasStaticShape() &&
          empty->getParentOfType<scf::ForallOp>())
        empties.push_back(empty);
    });
    IRRewriter rewriter(&getContext());
    for (tensor::EmptyOp empty : empties)
      (void)boundEmptyTensor(rewriter, empty, maxBytes);
  }
};
} // namespace

//===----------------------------------------------------------------------===//
// matrix-promote-tile-buffers
//===----------------------------------------------------------------------===//

/// The single memref.dealloc of `alloc`, if it has exactly one and that one
/// is in the block of `alloc`.
static memref::DeallocOp getDeallocInSameBlock(memref::AllocOp alloc) {
  memref::DeallocOp found;
  for (Operation *user : alloc->getUsers()) {
    auto dealloc = dyn_cast<memref::DeallocOp>(user);
    if (!dealloc)
      continue;
    if (found || dealloc->getBlock() != alloc->getBlock())
      return nullptr;
    found = dealloc;
  }
  return found;
}

/// The ops the alloca_scope for `alloc` wraps, as the first and last op of a
/// range of one block, or {nullptr, nullptr} if `alloc` is not inside a loop
/// (or inside an scf.parallel with reductions).
///   - in an scf.parallel: the whole body but its terminator;
///   - otherwise: the outermost loop around `alloc`, or the op of the
///     function body holding it (an scf.if: matrix-version-products puts
///     the packed schedule of a product in one of its branches).
static std::pair<Operation *, Operation *>
getScopeRange(memref::AllocOp alloc, func::FuncOp func) {
  if (auto parallel = alloc->getParentOfType<scf::ParallelOp>()) {
    if (!parallel.getInitVals().empty())
      return {nullptr, nullptr};
    Block *body = parallel.getBody();
    return {&body->front(), body->getTerminator()->getPrevNode()};
  }
  Operation *outermost = nullptr;
  for (Operation *op = alloc->getParentOp(); op && op != func;
       op = op->getParentOp())
    if (isa<LoopLikeOpInterface>(op))
      outermost = op;
  if (!outermost)
    return {nullptr, nullptr};
  // The scope goes in the function body: in another region (the branch of
  // an scf.if), the lowering of the scope would split that region's block.
  // The op of the body holding the loop nest must have no results (an
  // scope's results must be LLVM values when it is lowered).
  while (outermost->getBlock()->getParentOp() != func)
    outermost = outermost->getParentOp();
  if (outermost->getNumResults() != 0 &&
      !isa<LoopLikeOpInterface>(outermost))
    return {nullptr, nullptr};
  return {outermost, outermost};
}

/// Moves the ops from `first` to `last` (one block) into a new
/// memref.alloca_scope in their place; results used after the range become
/// results of the scope. Returns the scope.
static memref::AllocaScopeOp wrapInAllocaScope(RewriterBase &rewriter,
                                               Operation *first,
                                               Operation *last) {
  SmallVector<Operation *> ops;
  for (Operation *op = first;; op = op->getNextNode()) {
    ops.push_back(op);
    if (op == last)
      break;
  }
  llvm::SmallPtrSet<Operation *, 16> inRange(ops.begin(), ops.end());
  SmallVector<Value> escaping;
  for (Operation *op : ops)
    for (Value result : op->getResults())
      if (llvm::any_of(result.getUsers(), [&](Operation *user) {
            return !inRange.contains(
                first->getBlock()->findAncestorOpInBlock(*user));
          }))
        escaping.push_back(result);

  rewriter.setInsertionPoint(first);
  auto scope = memref::AllocaScopeOp::create(
      rewriter, first->getLoc(), ValueRange(escaping).getTypes());
  Block *body = rewriter.createBlock(&scope.getBodyRegion());
  rewriter.setInsertionPointToEnd(body);
  auto yield =
      memref::AllocaScopeReturnOp::create(rewriter, last->getLoc(), escaping);
  for (Operation *op : ops)
    rewriter.moveOpBefore(op, yield);
  for (auto [value, result] : llvm::zip(escaping, scope.getResults()))
    rewriter.replaceUsesWithIf(value, result, [&](OpOperand &use) {
      return !scope->isProperAncestor(use.getOwner());
    });
  return scope;
}

namespace {
struct MatrixPromoteTileBuffers
    : matrix::impl::MatrixPromoteTileBuffersBase<MatrixPromoteTileBuffers> {
  using MatrixPromoteTileBuffersBase::MatrixPromoteTileBuffersBase;

  void runOnOperation() override {
    getOperation().walk([&](func::FuncOp func) { promoteInFunction(func); });
  }

  void promoteInFunction(func::FuncOp func) {
    // Candidates grouped by the range their scope wraps, in program order.
    llvm::MapVector<std::pair<Operation *, Operation *>,
                    SmallVector<std::pair<memref::AllocOp, memref::DeallocOp>>>
        byScope;
    llvm::DenseMap<std::pair<Operation *, Operation *>, int64_t> scopeBytes;
    func.walk([&](memref::AllocOp alloc) {
      MemRefType type = alloc.getType();
      memref::DeallocOp dealloc = getDeallocInSameBlock(alloc);
      if (!type.hasStaticShape() || !alloc.getSymbolOperands().empty() ||
          !dealloc)
        return;
      std::optional<int64_t> bytes = getStaticSizeInBytes(type);
      if (!bytes || *bytes > maxBytes)
        return;
      std::pair<Operation *, Operation *> range = getScopeRange(alloc, func);
      if (!range.first || scopeBytes[range] + *bytes > maxScopeBytes)
        return;
      scopeBytes[range] += *bytes;
      byScope[range].emplace_back(alloc, dealloc);
    });

    IRRewriter rewriter(&getContext());
    for (auto &[range, allocs] : byScope) {
      memref::AllocaScopeOp scope =
          wrapInAllocaScope(rewriter, range.first, range.second);
      rewriter.setInsertionPointToStart(&scope.getBodyRegion().front());
      for (auto [alloc, dealloc] : allocs) {
        auto alloca = memref::AllocaOp::create(
            rewriter, alloc.getLoc(), alloc.getType(), ValueRange(),
            ValueRange(), alloc.getAlignmentAttr());
        rewriter.eraseOp(dealloc);
        rewriter.replaceOp(alloc, alloca);
      }
    }
  }
};
} // namespace
