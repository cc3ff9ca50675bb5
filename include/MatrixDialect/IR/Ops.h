//===- Ops.h - Matrix dialect operations ------------------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Operation classes generated from Ops.td.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_IR_OPS_H
#define MATRIXDIALECT_IR_OPS_H

#include "MatrixDialect/IR/Dialect.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/OpDefinition.h"
#include "mlir/Interfaces/InferTypeOpInterface.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

#define GET_OP_CLASSES
#include "MatrixDialect/IR/Ops.h.inc"

namespace mlir {
namespace matrix {

/// Spells a Matrix-dialect value type the way Mat source does: `f64[2, 3]`
/// for a 2-D tensor (`?` for a dynamic dimension), `f32` for a scalar.
std::string formatMatType(Type type);

/// Result type of the matrix product `lhs @ rhs` ([m, k] @ [k, n] -> [m, n]).
/// Both must be 2-D f32/f64 tensors of one element type, and static inner
/// dimensions must agree. Otherwise reports, through `emitError`,
/// "cannot multiply L by R: inner dimensions K1 and K2 differ" or
/// "...: element types A and B differ", and returns failure. Shared by the
/// op verifier and MLIRGen so both say the same thing.
FailureOr<RankedTensorType>
inferMatmulType(Type lhs, Type rhs,
                llvm::function_ref<InFlightDiagnostic()> emitError);

/// Result type of an elementwise op (`verb` is "add", "subtract" or
/// "multiply elementwise") on two matrices of one shape, or on a matrix and
/// a scalar of the same element type (broadcast). Where one shape has `?`
/// and the other a size, the result takes the size. Reports "cannot VERB L
/// and R: shapes differ" (or element types differ, or neither operand is a
/// matrix) through `emitError` and returns failure.
FailureOr<RankedTensorType>
inferElementwiseType(StringRef verb, Type lhs, Type rhs,
                     llvm::function_ref<InFlightDiagnostic()> emitError);

/// Result type of `transpose(input)`: [m, n] -> [n, m].
RankedTensorType inferTransposeType(RankedTensorType input);

/// True when no element of the matrix or scalar `value` can be -0, as seen
/// from the ops that produce it (literals, `full` of a constant, `iota`,
/// `eye`, transposes, and sums with one such side: in round-to-nearest a sum
/// is -0 only when both addends are). False means "not known".
bool isKnownWithoutNegativeZero(Value value);

/// True when every element of `value` is finite (no inf, no nan), as seen
/// from the ops that produce it (literals, `full` of a constant, `iota`,
/// `eye`, transposes, negations). False means "not known".
bool isKnownFinite(Value value);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_IR_OPS_H
