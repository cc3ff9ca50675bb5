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

    With `lower-print=false`, `matrix.print` is left as it is, for a later
    run of the pass: the distributed pipeline (`matc --ranks`) partitions
    the program first, so that each print reads a whole matrix, and runs it
    on rank 0 only.
  }];
  let options = [
    Option<"lowerPrint", "lower-print", "bool", /*default=*/"true",
           "Lower matrix.print too (false: leave it for a later run)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::LLVM::LLVMDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MatrixPrepareCInterface
    : Pass<"matrix-prepare-c-interface", "ModuleOp"> {
  let summary = "Record the C entry point and shape preconditions of each "
                "Mat function";
  let description = [{
    First half of the C interface (see `MatrixDialect/Conversion/CInterface.h`),
    run on the Matrix dialect as MLIRGen builds it, before any other pass.
    On every public `func.func @mat_<name>` it sets a `matrix.c_interface`
    dictionary: the Mat name, parameter names (from the `NameLoc`s MLIRGen
    gives block arguments), the signature on tensors, the shape
    preconditions (pairs of sizes that must be equal on entry, found by
    ShapeConstraintAnalysis) and the result's sizes in terms of the
    parameters. It marks every tensor parameter
    `bufferization.writable = false`, since C callers pass `const` buffers.
    It puts `matrix.c_program` on `main` if the top level does anything.

    For a function with a matrix result it also adds a private
    destination-passing variant `@mat_<name>.into` (named by a
    `matrix.c_into` attribute on the function): the same body, one more
    argument, a memref of the result type (the caller's contiguous
    row-major buffer), into which the result is written by
    `bufferization.materialize_in_destination ... restrict writable`, and no
    result. From -O1 up, `eliminate-empty-tensors` lets the computation
    write into that buffer directly (no temporary, no copy). The body of
    the function itself becomes an allocation of its result (of the sizes
    `result_dims` gives) and a call of the variant (LLVM `noinline`): each
    Mat function is compiled once, in its variant.

    The lowering carries these attributes to the `llvm.func`s, where
    `matrix-export-c-interface` builds the entry points.

    ```mlir
    func.func @mat_gram(%a: tensor<?x3xf64> {bufferization.writable = false})
        -> tensor<3x3xf64> attributes {matrix.c_interface = {
          arg_names = ["a"],
          function_type = (tensor<?x3xf64>) -> tensor<3x3xf64>,
          name = "gram", preconditions = array<i64>,
          result_dims = array<i64: 3, 3>}}
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::bufferization::BufferizationDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::tensor::TensorDialect"];
}

def MatrixExportCInterface
    : Pass<"matrix-export-c-interface", "ModuleOp"> {
  let summary = "Build the C entry points of Mat functions in the LLVM dialect";
  let description = [{
    Second half of the C interface, run on the LLVM dialect at the end of the
    lowering. For each `llvm.func` with a `matrix.c_interface` attribute
    (say `@mat_f`, taking and returning memref descriptors) it:

    - renames it `@mat_f.impl` and gives it internal linkage;
    - adds `llvm.func @mat_f(...) -> i32` with the plain C signature of
      CInterface.h. It returns 1 if a `?` size is below 1 or a precondition
      or expected result size does not hold; else it builds the descriptors
      (row-major: strides [cols, 1], offset 0). If the function has a
      destination-passing variant (`matrix.c_into`) and the caller's result
      buffer overlaps none of the matrix arguments (byte ranges compared on
      every call), it calls `@mat_f.into` on that buffer and returns 0.
      Otherwise it calls `@mat_f.impl`, checks the result's sizes again,
      copies the result into the caller's buffer (`memcpy` when contiguous,
      else element by element following the strides), frees the result's
      allocation and returns 0.

    `@main` becomes `@matc_main`, exported if it carries
    `matrix.c_program`; with `executable`, a new `i32 @main()` calls it and
    returns 0. Every other function and global defined in the module gets
    internal linkage.
  }];
  let options = [
    Option<"executable", "executable", "bool", /*default=*/"false",
           "Also define `int main(void)` running the top-level statements">,
  ];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MATRIX_CONVERSION_PASSES_TD
