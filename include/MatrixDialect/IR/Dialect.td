//===- Dialect.td - Matrix dialect definition --------------*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_DIALECT_TD
#define MATRIX_DIALECT_TD

include "mlir/IR/OpBase.td"

def Matrix_Dialect : Dialect {
  let name = "matrix";
  let summary = "Whole-matrix operations of the Mat language";
  let description = [{
    The `matrix` dialect holds Mat programs at the level of the language:
    every value is either a 2-D ranked tensor of `f32` or `f64` (a matrix,
    row-major when it reaches memory) or a scalar of the same element type.
    Dimensions are static except where a Mat function signature says `?`.

    Operations have value semantics (they never write into an operand), so
    `A = A @ A` needs no special care here: aliasing is decided later by
    one-shot bufferization. The dialect lowers to Linalg on tensors with
    `convert-matrix-to-linalg`.
  }];
  let cppNamespace = "::mlir::matrix";
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::tensor::TensorDialect"];
}

class Matrix_Op<string mnemonic, list<Trait> traits = []>
    : Op<Matrix_Dialect, mnemonic, traits>;

#endif // MATRIX_DIALECT_TD
