//===- FlattenMPIBuffers.cpp - 1-D buffers for mpi ops --------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// A workaround for LLVM 22's MPIToLLVM, which passes the size of a buffer's
// first dimension to MPI as its element count (Passes.td): every n-D
// contiguous buffer of mpi.send, mpi.recv and mpi.allreduce is collapsed to
// 1-D, where that size is the element count.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/Passes.h"

#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXFLATTENMPIBUFFERS
#include "MatrixDialect/Distributed/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

/// Whether `operand` is a buffer of rank 2 or more.
static bool isMultiDimensional(OpOperand &operand) {
  auto type = dyn_cast<MemRefType>(operand.get().getType());
  return type && type.getRank() > 1;
}

/// Whether `operand`, a buffer, can be viewed as 1-D (it is contiguous).
static bool isCollapsible(OpOperand &operand) {
  auto type = cast<MemRefType>(operand.get().getType());
  ReassociationIndices all =
      llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
  return memref::CollapseShapeOp::isGuaranteedCollapsible(type, {all});
}

namespace {
/// Collapses every n-D memref operand of an op of type `MPIOp` to 1-D.
template <typename MPIOp> struct FlattenBuffers : OpRewritePattern<MPIOp> {
  using OpRewritePattern<MPIOp>::OpRewritePattern;

  LogicalResult matchAndRewrite(MPIOp op,
                                PatternRewriter &rewriter) const override {
    if (llvm::none_of(op->getOpOperands(), isMultiDimensional))
      return failure();
    if (!llvm::all_of(op->getOpOperands(), [](OpOperand &operand) {
          return !isMultiDimensional(operand) || isCollapsible(operand);
        }))
      return rewriter.notifyMatchFailure(op, "non-contiguous buffer");
    // Collapse each distinct buffer once: an in-place allreduce passes the
    // same buffer twice, and MPIToLLVM recognizes that by identity.
    DenseMap<Value, Value> flattened;
    for (OpOperand &operand : op->getOpOperands()) {
      if (!isMultiDimensional(operand))
        continue;
      auto type = cast<MemRefType>(operand.get().getType());
      ReassociationIndices all =
          llvm::to_vector(llvm::seq<int64_t>(0, type.getRank()));
      Value &flat = flattened[operand.get()];
      if (!flat) {
        rewriter.setInsertionPoint(op);
        flat = memref::CollapseShapeOp::create(
            rewriter, op.getLoc(), operand.get(),
            ArrayRef<ReassociationIndices>{all});
      }
      rewriter.modifyOpInPlace(op, [&] { operand.set(flat); });
    }
    return success();
  }
};

struct MatrixFlattenMPIBuffers
    : matrix::impl::MatrixFlattenMPIBuffersBase<MatrixFlattenMPIBuffers> {
  void runOnOperation() override {
    RewritePatternSet patterns(&getContext());
    populateFlattenMPIBuffersPatterns(patterns);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    WalkResult result = getOperation()->walk([](Operation *op) {
      if (!isa<mpi::SendOp, mpi::RecvOp, mpi::AllReduceOp>(op))
        return WalkResult::advance();
      for (OpOperand &operand : op->getOpOperands()) {
        if (isMultiDimensional(operand)) {
          op->emitOpError("needs a contiguous buffer, not ")
              << operand.get().getType();
          return WalkResult::interrupt();
        }
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};
} // namespace

void mlir::matrix::populateFlattenMPIBuffersPatterns(
    RewritePatternSet &patterns) {
  patterns.add<FlattenBuffers<mpi::SendOp>, FlattenBuffers<mpi::RecvOp>,
               FlattenBuffers<mpi::AllReduceOp>>(patterns.getContext());
}
