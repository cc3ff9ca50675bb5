//===- ForwardMaskedStores.cpp - A masked read of what was just written ---===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-forward-masked-stores pass: a vector.transfer_read of a memref
// that reads, under the same mask, exactly what the vector.transfer_write
// before it wrote is the written vector itself (selected under the mask
// against the read's padding). See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXFORWARDMASKEDSTORES
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

namespace {
struct ForwardMaskedStore : OpRewritePattern<vector::TransferReadOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(vector::TransferReadOp read,
                                PatternRewriter &rewriter) const override {
    if (!isa<MemRefType>(read.getBase().getType()) || !read.getMask())
      return rewriter.notifyMatchFailure(read, "not a masked memref read");
    // A lane out of bounds is neither written nor read (the read gives its
    // padding there), so only reads in bounds in every dimension are the
    // written vector under the mask.
    if (!llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; }))
      return rewriter.notifyMatchFailure(read, "may be out of bounds");
    // The write: the nearest op before the read in its block that is not
    // free of memory effects (ops in between only compute values).
    Operation *previous = read->getPrevNode();
    while (previous && isMemoryEffectFree(previous))
      previous = previous->getPrevNode();
    auto write = dyn_cast_or_null<vector::TransferWriteOp>(previous);
    if (!write || write.getBase() != read.getBase() ||
        write.getIndices() != read.getIndices() ||
        write.getVectorType() != read.getVectorType() ||
        write.getPermutationMap() != read.getPermutationMap() ||
        write.getInBoundsAttr() != read.getInBoundsAttr() ||
        !matrix::isSameMask(write.getMask(), read.getMask()))
      return rewriter.notifyMatchFailure(read, "not the write's own elements");
    // The lanes the mask keeps are the written ones, the others the
    // read's padding.
    Value padding = vector::BroadcastOp::create(
        rewriter, read.getLoc(), read.getVectorType(), read.getPadding());
    rewriter.replaceOpWithNewOp<arith::SelectOp>(read, write.getMask(),
                                                 write.getVector(), padding);
    return success();
  }
};

struct MatrixForwardMaskedStores
    : matrix::impl::MatrixForwardMaskedStoresBase<MatrixForwardMaskedStores> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    patterns.add<ForwardMaskedStore>(&getContext());
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
