//===- MatrixToLinalg.cpp - The convert-matrix-to-linalg pass -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The conversion target and driver; the patterns live in the files named by
// topic beside this one.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "MatrixDialect/Conversion/Passes.h"
#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Transforms/DialectConversion.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_CONVERTMATRIXTOLINALG
#include "MatrixDialect/Conversion/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

void mlir::matrix::populateMatrixToLinalgConversionPatterns(
    RewritePatternSet &patterns) {
  lowering::populateArithmeticPatterns(patterns);
  lowering::populateBuiltinPatterns(patterns);
  lowering::populatePrintPatterns(patterns);
}

namespace {
struct ConvertMatrixToLinalg
    : matrix::impl::ConvertMatrixToLinalgBase<ConvertMatrixToLinalg> {
  using ConvertMatrixToLinalgBase::ConvertMatrixToLinalgBase;

  void runOnOperation() override {
    ConversionTarget target(getContext());
    target.addIllegalDialect<MatrixDialect>();
    if (!lowerPrint)
      target.addLegalOp<PrintOp>();
    target.markUnknownOpDynamicallyLegal([](Operation *) { return true; });
    RewritePatternSet patterns(&getContext());
    populateMatrixToLinalgConversionPatterns(patterns);
    if (failed(applyPartialConversion(getOperation(), target,
                                      std::move(patterns))))
      signalPassFailure();
  }
};
} // namespace
