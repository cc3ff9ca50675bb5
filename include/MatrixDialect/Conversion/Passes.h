//===- Passes.h - Matrix dialect conversion passes --------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_CONVERSION_PASSES_H
#define MATRIXDIALECT_CONVERSION_PASSES_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
class RewritePatternSet;
class TypeConverter;

namespace matrix {

/// Adds the patterns lowering every Matrix op to Linalg/tensor/arith/scf (and
/// `llvm.call @printf` for `matrix.print`) to `patterns`.
void populateMatrixToLinalgConversionPatterns(RewritePatternSet &patterns);

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "MatrixDialect/Conversion/Passes.h.inc"

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_CONVERSION_PASSES_H
