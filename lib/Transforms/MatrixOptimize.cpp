//===- MatrixOptimize.cpp - The matrix-optimize pass ----------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The driver: the rewrites of ElementwiseSimplify.cpp, TransposeFolding.cpp
// and ProductChain.cpp, applied greedily to a fixed point (the greedy driver
// also runs the ops' folders and erases dead ops).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Transforms/Passes.h"

#include "MatrixDialect/IR/Ops.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXOPTIMIZE
#include "MatrixDialect/Transforms/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

namespace {
struct MatrixOptimize : matrix::impl::MatrixOptimizeBase<MatrixOptimize> {
  void runOnOperation() override {
    MLIRContext *context = &getContext();

    RewritePatternSet patterns(context);
    populateElementwiseSimplifyPatterns(patterns);
    populateMatmulTransposeFoldingPatterns(patterns);
    populateProductChainPatterns(patterns);

    // Every rewrite strictly lowers the flop count or removes a transpose,
    // so the driver converges; like `canonicalize`, a driver that stops at
    // its iteration limit leaves a correct program and is not an error.
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
  }
};
} // namespace
