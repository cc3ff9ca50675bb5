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
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Vector/Transforms/LoweringPatterns.h"
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
    RewritePatternSet patterns(&getContext());
    vector::populateScalarVectorTransferLoweringPatterns(
        patterns, /*benefit=*/1, /*allowMultipleUses=*/true);
    if (failed(applyPatternsGreedily(getOperation(), std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
