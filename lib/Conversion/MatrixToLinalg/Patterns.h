//===- Patterns.h - MatrixToLinalg patterns, by topic -----------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Internal to lib/Conversion/MatrixToLinalg: one populate function per file,
// gathered by populateMatrixToLinalgConversionPatterns, and the helpers the
// files share.
//
//===----------------------------------------------------------------------===//

#ifndef MATC_LIB_CONVERSION_MATRIXTOLINALG_PATTERNS_H
#define MATC_LIB_CONVERSION_MATRIXTOLINALG_PATTERNS_H

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/PatternMatch.h"

namespace mlir {
namespace matrix {
namespace lowering {

/// matmul, transpose, add/sub/mul (matrix or scalar operands), neg.
void populateArithmeticPatterns(RewritePatternSet &patterns);
/// constant, full, eye, iota.
void populateBuiltinPatterns(RewritePatternSet &patterns);
/// print.
void populatePrintPatterns(RewritePatternSet &patterns);

/// Creates a `tensor.empty` of `type`, taking each dynamic size from the
/// same dimension of `sizeSources[dim]` (a tensor value, read with
/// `tensor.dim`). `sizeSources` has one entry per dimension of `type`;
/// entries for static dimensions are ignored and may be null.
Value createEmptyTensor(OpBuilder &b, Location loc, RankedTensorType type,
                        ArrayRef<std::pair<Value, int64_t>> sizeSources);

/// Builds a 2-D `linalg.generic` that writes a fresh tensor of `type`.
/// Each value in `inputs` is a tensor of `type`'s shape (identity indexing
/// map) or a scalar (broadcast with the map `(i, j) -> ()`). `bodyBuilder`
/// gets the input elements and the (i, j) element position and returns the
/// result element. Dynamic sizes come from `sizeSource`.
Value buildElementwiseGeneric(
    OpBuilder &b, Location loc, RankedTensorType type, ValueRange inputs,
    Value sizeSource,
    function_ref<Value(OpBuilder &, Location, ValueRange args, Value i,
                       Value j)>
        bodyBuilder);

} // namespace lowering
} // namespace matrix
} // namespace mlir

#endif // MATC_LIB_CONVERSION_MATRIXTOLINALG_PATTERNS_H
