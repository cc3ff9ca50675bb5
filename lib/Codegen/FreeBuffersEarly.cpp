//===- FreeBuffersEarly.cpp - The matrix-free-buffers-early pass ---------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Moves each memref.dealloc of a buffer allocated in its block (by
// memref.alloc or a call) to just after the buffer's last use in that block
// (Passes.td). The placement of
// the frees after the last use, in the block of the allocation, is the one
// of MLIR's former BufferDeallocation pass for straight-line code; the
// ownership-based pass that replaced it frees at the end of the block.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Interfaces/CallInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXFREEBUFFERSEARLY
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// Whether `user`, which reads a view of a buffer, may let the buffer
/// outlive it: it hands the view on (a terminator, a call of a function
/// without a body here), takes its address, or derives from it another
/// memref that is not a view followed by findLastUse. A func.call of a
/// function of the module only uses the buffer (see below).
static bool mayEscape(Operation *user) {
  if (user->hasTrait<OpTrait::IsTerminator>() ||
      isa<memref::ExtractAlignedPointerAsIndexOp>(user))
    return true;
  // A call of a function of the module only uses its arguments: the
  // functions matc makes keep no pointer to them once they return, and
  // under the ownership-based deallocation's function boundary ABI a memref
  // they return is a new buffer, never an argument or a view of one (a
  // function that would return one returns a clone).
  if (auto call = dyn_cast<func::CallOp>(user)) {
    auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
        call, call.getCalleeAttr());
    return !callee || callee.isExternal();
  }
  if (isa<CallOpInterface>(user))
    return true;
  return llvm::any_of(user->getResultTypes(), llvm::IsaPred<BaseMemRefType>);
}

/// The views of a buffer that `user` makes from `view`: the results of a
/// view-like op (subview, reshape, cast), the base buffer of
/// memref.extract_strided_metadata.
static SmallVector<Value> getViews(Operation *user, Value view) {
  if (auto viewLike = dyn_cast<ViewLikeOpInterface>(user);
      viewLike && viewLike.getViewSource() == view)
    return SmallVector<Value>(user->getResults());
  if (auto metadata = dyn_cast<memref::ExtractStridedMetadataOp>(user))
    return {metadata.getBaseBuffer()};
  return {};
}

/// Returns the last op of `block` that uses `buffer` or a view of it (null:
/// none but `dealloc` and `metadata`, the op that takes the base buffer
/// `dealloc` frees), or failure if the buffer may escape.
static FailureOr<Operation *>
findLastUse(Value buffer, Operation *dealloc, Operation *metadata,
            Block *block, function_ref<bool(Operation *, Operation *)> before) {
  SmallVector<Value> views{buffer};
  Operation *last = nullptr;
  while (!views.empty()) {
    Value view = views.pop_back_val();
    for (Operation *user : view.getUsers()) {
      if (user == dealloc || user == metadata)
        continue;
      SmallVector<Value> derived = getViews(user, view);
      if (!derived.empty())
        llvm::append_range(views, derived);
      else if (mayEscape(user))
        return failure();
      Operation *inBlock = block->findAncestorOpInBlock(*user);
      if (!inBlock)
        return failure();
      if (!last || before(last, inBlock))
        last = inBlock;
    }
  }
  return last;
}

namespace {
struct MatrixFreeBuffersEarly
    : matrix::impl::MatrixFreeBuffersEarlyBase<MatrixFreeBuffersEarly> {
  void runOnOperation() override {
    SmallVector<memref::DeallocOp> deallocs;
    getOperation()->walk(
        [&](memref::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    // The order of the ops of each block, numbered once: moving a dealloc
    // invalidates the block's own numbering, which isBeforeInBlock would
    // then redo for every dealloc of a long block (quadratic: 1000
    // statements at -O0 took seconds here). Only deallocs and their
    // metadata move, after their own last use, and no later query
    // compares a moved op.
    DenseMap<Operation *, int64_t> position;
    DenseSet<Block *> numbered;
    auto before = [&](Operation *a, Operation *b) {
      Block *block = a->getBlock();
      if (numbered.insert(block).second) {
        int64_t i = 0;
        for (Operation &op : *block)
          position[&op] = i++;
      }
      return position.lookup(a) < position.lookup(b);
    };
    for (memref::DeallocOp dealloc : deallocs) {
      // A memref.alloc, or a call result (freed through its base buffer).
      Value allocation = matrix::getDistinctAllocation(dealloc.getMemref());
      Operation *definer = allocation ? allocation.getDefiningOp() : nullptr;
      Block *block = dealloc->getBlock();
      if (!definer || definer->getBlock() != block)
        continue;
      // The base buffer of a call result is taken just before its free
      // (by convert-bufferization-to-memref); the two move together.
      auto metadata =
          dealloc.getMemref().getDefiningOp<memref::ExtractStridedMetadataOp>();
      if (metadata &&
          (metadata->getBlock() != block || !metadata->hasOneUse() ||
           !dealloc.getMemref().hasOneUse()))
        continue;
      FailureOr<Operation *> last =
          findLastUse(allocation, dealloc, metadata, block, before);
      if (failed(last))
        continue;
      // A buffer without other uses is freed right after its allocation.
      Operation *after = *last ? *last : definer;
      if (!before(after, dealloc))
        continue;
      if (metadata) {
        metadata->moveAfter(after);
        after = metadata;
      }
      dealloc->moveAfter(after);
    }
  }
};
} // namespace
