//===- ScalarizeExtractedReads.cpp - Scalar loads for extracted elements --===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-scalarize-extracted-reads pass: a vector read whose every use
// extracts one element becomes a scalar load per element, with upstream's
// patterns (mlir/lib/Dialect/Vector/Transforms/LowerVectorTransfer.cpp,
// `populateScalarVectorTransferLoweringPatterns`). In a register kernel the
// elements of A are read as a vector of MR and broadcast one by one; as
// scalar loads, each broadcast is one `vbroadcastss`/`vbroadcastsd` from
// memory, done by a load port (see the pass description in Passes.td).
//
// Upstream's pattern puts each load where its `vector.extract` is, which
// reads the memory later than the vector read did: wrong when the buffer is
// written or freed in between (a read, the `memref.dealloc` of its buffer,
// then the extracts). So the extracts are first moved to just after their
// read (they are pure), and a read whose extracts cannot all move (a
// position computed after the read) is left a vector read.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXSCALARIZEEXTRACTEDREADS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

namespace {
struct MatrixScalarizeExtractedReads
    : matrix::impl::MatrixScalarizeExtractedReadsBase<
          MatrixScalarizeExtractedReads> {
  void runOnOperation() override {
    DominanceInfo dominance(getOperation());
    // Extracts that stay where they are: those of reads with an extract
    // that cannot move.
    llvm::SmallPtrSet<Operation *, 8> pinned;
    SmallVector<vector::TransferReadOp> reads;
    getOperation()->walk([&](vector::TransferReadOp read) {
      if (isa<MemRefType>(read.getBase().getType()))
        reads.push_back(read);
    });
    for (vector::TransferReadOp read : reads) {
      SmallVector<vector::ExtractOp> extracts;
      bool movable = true;
      for (Operation *user : read->getUsers()) {
        auto extract = dyn_cast<vector::ExtractOp>(user);
        if (!extract)
          continue; // Upstream's pattern leaves such a read alone.
        extracts.push_back(extract);
        movable &= llvm::all_of(extract.getDynamicPosition(), [&](Value v) {
          return dominance.properlyDominates(v, read);
        });
      }
      for (vector::ExtractOp extract : extracts) {
        if (movable)
          extract->moveAfter(read);
        else
          pinned.insert(extract);
      }
    }
    SmallVector<Operation *> ops;
    getOperation()->walk([&](Operation *op) {
      if (op != getOperation() && !pinned.contains(op))
        ops.push_back(op);
    });
    RewritePatternSet patterns(&getContext());
    vector::populateScalarVectorTransferLoweringPatterns(
        patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingAndNewOps);
    if (failed(applyOpPatternsGreedily(ops, std::move(patterns), config)))
      signalPassFailure();
  }
};
} // namespace
