//===- Passes.td - Matrix dialect conversion passes --------*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_CONVERSION_PASSES_TD
#define MATRIX_CONVERSION_PASSES_TD

include "mlir/Pass/PassBase.td"

def ConvertMatrixToLinalg : Pass<"convert-matrix-to-linalg", "ModuleOp"> {
  let summary = "Lower the Matrix dialect to Linalg on tensors";
  let description = [{
    Rewrites every `matrix` op into upstream ops on tensors, ready for
    one-shot bufferization:

    - `matrix.constant` -> `arith.constant` with the same dense attribute;
    - `matrix.matmul` -> `linalg.matmul` accumulating into a
      `linalg.fill` of zero (a fresh `tensor.empty`, so `A = A @ A` never
      reads the buffer it writes);
    - `matrix.transpose` -> `linalg.transpose` into a fresh tensor;
    - `matrix.add/sub/mul/neg` -> one `linalg.generic` each, a scalar
      operand entering with the broadcasting indexing map `(i, j) -> ()`;
    - `matrix.full` -> `linalg.fill`; `matrix.eye` and `matrix.iota` ->
      `linalg.generic` computing the element from `linalg.index`;
    - `matrix.print` -> `scf.for` loops over `tensor.extract`, calling the C
      library's `printf` (declared with `llvm.func`), so the same code runs
      in the JIT, under `mlir-runner` and in native executables. NaNs are
      printed as `nan` whatever their sign bit.

    Shapes with `?` take their sizes from `tensor.dim` of the operands.
  }];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

#endif // MATRIX_CONVERSION_PASSES_TD
