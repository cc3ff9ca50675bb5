//===- SplitSharedDestinations.cpp - One use per empty destination --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-split-shared-destinations pass (Passes.td): every use of a
// tensor.empty, or of a linalg.fill of one, gets its own clone, so that the
// cost of one-shot bufferization's analysis grows with the function, not
// with the square of the uses of one shared destination.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXSPLITSHAREDDESTINATIONS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// Whether `op` is a tensor.empty, or a linalg.fill (on tensors) of one.
static bool isEmptyOrFillOfEmpty(Operation *op) {
  if (isa<tensor::EmptyOp>(op))
    return true;
  auto fill = dyn_cast<linalg::FillOp>(op);
  return fill && fill.hasPureTensorSemantics() &&
         fill.getDpsInits()[0].getDefiningOp<tensor::EmptyOp>();
}

namespace {
struct MatrixSplitSharedDestinations
    : matrix::impl::MatrixSplitSharedDestinationsBase<
          MatrixSplitSharedDestinations> {
  void runOnOperation() override {
    SmallVector<Operation *> shared;
    getOperation()->walk([&](Operation *op) {
      if (isEmptyOrFillOfEmpty(op) && op->getNumResults() == 1 &&
          !op->getResult(0).hasOneUse() && !op->getResult(0).use_empty())
        shared.push_back(op);
    });
    // Fills first (in walk order they follow their tensor.empty): their
    // clones take a clone of the empty tensor too, and leave the original
    // empty tensor's own uses to be split after.
    for (Operation *op : llvm::reverse(shared))
      split(op);
  }

  /// Gives each use of `op`'s result but the first a clone of `op` (and of
  /// the tensor.empty it fills) just before its user.
  void split(Operation *op) {
    SmallVector<OpOperand *> uses;
    for (OpOperand &use : op->getResult(0).getUses())
      uses.push_back(&use);
    OpBuilder builder(op->getContext());
    for (OpOperand *use : llvm::drop_begin(uses)) {
      Operation *user = use->getOwner();
      // The operands of `op` (sizes, the fill value) dominate `op`, which
      // dominates the user: just before the user they are all defined.
      builder.setInsertionPoint(user);
      IRMapping mapping;
      if (auto fill = dyn_cast<linalg::FillOp>(op)) {
        Operation *empty = fill.getDpsInits()[0].getDefiningOp();
        mapping.map(empty->getResult(0), builder.clone(*empty)->getResult(0));
      }
      use->set(builder.clone(*op, mapping)->getResult(0));
    }
  }
};
} // namespace
