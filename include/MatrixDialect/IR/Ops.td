//===- Ops.td - Matrix dialect operations ------------------*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_OPS_TD
#define MATRIX_OPS_TD

include "MatrixDialect/IR/Dialect.td"
include "mlir/IR/BuiltinAttributes.td"
include "mlir/IR/CommonTypeConstraints.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

//===----------------------------------------------------------------------===//
// Type constraints
//===----------------------------------------------------------------------===//

/// A Mat matrix: a 2-D ranked tensor of f32 or f64 (dimensions may be `?`).
def Matrix_Tensor : TensorRankOf<[F32, F64], [2]>;
/// A Mat matrix whose shape is known at compile time.
def Matrix_StaticTensor : Type<
    And<[Matrix_Tensor.predicate, HasStaticShapePred]>,
    "statically shaped 2-D tensor of f32 or f64", "::mlir::RankedTensorType">;
/// A Mat scalar.
def Matrix_Scalar : AnyTypeOf<[F32, F64]>;
/// An operand that may be a matrix or a scalar broadcast to the other side.
def Matrix_MatrixOrScalar : AnyTypeOf<[Matrix_Tensor, F32, F64],
    "2-D tensor of f32/f64, or an f32/f64 scalar">;

//===----------------------------------------------------------------------===//
// Constants and builtins
//===----------------------------------------------------------------------===//

def Matrix_ConstantOp : Matrix_Op<"constant",
    [ConstantLike, Pure, AllTypesMatch<["value", "result"]>]> {
  let summary = "matrix literal";
  let description = [{
    A matrix whose elements are known at compile time, from a Mat literal
    such as `[[1, 2], [3, 4]]`. The attribute's type is the result type.

    ```mlir
    %0 = matrix.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Matrix_StaticTensor:$result);
  let assemblyFormat = "$value attr-dict";
  let hasFolder = 1;
}

def Matrix_FullOp : Matrix_Op<"full", [Pure]> {
  let summary = "matrix with every element equal to a scalar";
  let description = [{
    The Mat builtins `zeros(m, n)`, `ones(m, n)` and `full(m, n, v)`: a
    matrix of the result's static shape whose elements all equal `value`,
    which must have the result's element type.

    ```mlir
    %m = matrix.full %v : f64 -> tensor<2x3xf64>
    ```
  }];
  let arguments = (ins Matrix_Scalar:$value);
  let results = (outs Matrix_StaticTensor:$result);
  let assemblyFormat = "$value attr-dict `:` type($value) `->` type($result)";
  let hasVerifier = 1;
}

def Matrix_EyeOp : Matrix_Op<"eye", [Pure]> {
  let summary = "identity matrix";
  let description = [{
    The Mat builtin `eye(n)`: the `n`x`n` identity, element (i, j) is 1 when
    i == j and 0 otherwise. The result must be square.

    ```mlir
    %i = matrix.eye : tensor<3x3xf64>
    ```
  }];
  let results = (outs Matrix_StaticTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
  let hasVerifier = 1;
}

def Matrix_IotaOp : Matrix_Op<"iota", [Pure]> {
  let summary = "row-major count from 0";
  let description = [{
    The Mat builtin `iota(m, n)`: element (i, j) of the `m`x`n` result is
    `i * n + j`, converted to the element type.

    ```mlir
    %c = matrix.iota : tensor<2x3xf32>
    ```
  }];
  let results = (outs Matrix_StaticTensor:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

//===----------------------------------------------------------------------===//
// Arithmetic
//===----------------------------------------------------------------------===//

def Matrix_MatmulOp : Matrix_Op<"matmul", [Pure]> {
  let summary = "matrix product (contraction over the inner dimension)";
  let description = [{
    Mat's `a @ b`: `[m, k] @ [k, n] -> [m, n]`, with
    `result[i, j] = sum_k lhs[i, k] * rhs[k, j]`. Both operands and the result
    have the same element type. Static inner dimensions must agree; a `?`
    inner dimension is checked when the program runs.

    The unit attributes `transpose_lhs` and `transpose_rhs` multiply by the
    transpose of that operand without materializing it: with
    `transpose_lhs` the lhs is stored `[k, m]` and
    `result[i, j] = sum_k lhs[k, i] * rhs[k, j]`; with `transpose_rhs` the
    rhs is stored `[n, k]`. The `matrix-optimize` pass sets them when it
    folds `matrix.transpose` into a product; MLIRGen never does.

    ```mlir
    %c = matrix.matmul %a, %b : tensor<2x3xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
    // a.T @ b, with %at stored 3x2:
    %d = matrix.matmul %at, %b {transpose_lhs} : tensor<3x2xf64>, tensor<3x4xf64> -> tensor<2x4xf64>
    ```
  }];
  let arguments = (ins Matrix_Tensor:$lhs, Matrix_Tensor:$rhs,
                       UnitAttr:$transpose_lhs, UnitAttr:$transpose_rhs);
  let results = (outs Matrix_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let builders = [
    // The plain product `lhs @ rhs`, neither operand transposed.
    OpBuilder<(ins "::mlir::Type":$result, "::mlir::Value":$lhs,
                   "::mlir::Value":$rhs), [{
      build($_builder, $_state, result, lhs, rhs, /*transpose_lhs=*/false,
            /*transpose_rhs=*/false);
    }]>
  ];
  let extraClassDeclaration = [{
    /// The lhs as the product reads it: `[m, k]` (the stored type,
    /// transposed when `transpose_lhs` is set).
    ::mlir::RankedTensorType getEffectiveLhsType();
    /// The rhs as the product reads it: `[k, n]`.
    ::mlir::RankedTensorType getEffectiveRhsType();
  }];
  let hasVerifier = 1;
}

/// `simplifications` documents the op's folders; every fold listed there is
/// exact (the result is bit for bit the one the unsimplified op computes,
/// `-0`, `inf` and `nan` included), so they run at every -O level.
class Matrix_ElementwiseBinaryOp<string mnemonic, string mathSymbol,
                                  string simplifications,
                                  list<Trait> traits = []>
    : Matrix_Op<mnemonic, !listconcat([Pure], traits)> {
  let summary = "elementwise `" # mathSymbol # "` of matrices or a matrix and a scalar";
  let description = [{
    Mat's `a }] # mathSymbol # [{ b` on matrices of the same shape, element by
    element. Either operand (not both) may instead be a scalar of the same
    element type, which is broadcast to every element. Matrix shapes never
    broadcast: `[2, 3]` with `[1, 3]` is an error.

    ```mlir
    %r = matrix.}] # mnemonic # [{ %a, %b : tensor<2x3xf64>, tensor<2x3xf64> -> tensor<2x3xf64>
    %s = matrix.}] # mnemonic # [{ %a, %x : tensor<2x3xf64>, f64 -> tensor<2x3xf64>
    ```

    Folds (below, "zero" and "one" may be a scalar constant, a
    `matrix.full` of one, or a splat literal):
    }] # simplifications # [{

    From -O1 up, `matrix-optimize` also turns a `matrix.full` operand into
    its scalar, broadcast (`a }] # mathSymbol # [{ full(v)` ->
    `a }] # mathSymbol # [{ v`: the same arithmetic, no filled matrix).
  }];
  let arguments = (ins Matrix_MatrixOrScalar:$lhs, Matrix_MatrixOrScalar:$rhs);
  let results = (outs Matrix_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:` type($lhs) `,` type($rhs) `->` type($result)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Matrix_AddOp : Matrix_ElementwiseBinaryOp<"add", "+", [{
    `x + (-0)` folds to `x` (exact for every `x`). `x + 0` folds to `x`
    only when `x` provably holds no `-0` (a literal, `iota`, `eye`, `full`
    of a constant, their transposes, or a sum with such a side): `-0 + 0` is
    `+0` in IEEE arithmetic (and in NumPy), so folding `x + zeros(m, n)` to
    `x` in general would print `-0` where the program prints `0`.
  }], [Commutative]>;
def Matrix_SubOp : Matrix_ElementwiseBinaryOp<"sub", "-", [{
    `x - 0` folds to `x`: exact for every `x` (`-0 - 0` is `-0`, `inf` and
    `nan` pass through); `x - (-0)` does not (it is `x + 0`). From -O1 up,
    `matrix-optimize` turns `x - x` into `zeros` only when `x` is provably
    finite (a literal without `inf`/`nan`, `iota`, `eye`, `full` of a finite
    constant, their transposes and negations): for `inf` or `nan` elements
    NumPy and IEEE give `nan`, and a rewrite must not change results.
  }]>;
def Matrix_MulOp : Matrix_ElementwiseBinaryOp<"mul", "*", [{
    `x * 1` and `x * ones` fold to `x`: exact for every `x`, `-0`, `inf`
    and `nan` included (only a NaN's payload bits could differ, and `print`
    shows every NaN as `nan`).
  }], [Commutative]>;

def Matrix_NegOp : Matrix_Op<"neg", [Pure, SameOperandsAndResultType]> {
  let summary = "elementwise negation";
  let description = [{
    Mat's `-a`: every element negated (IEEE negation, so `-0` stays signed).

    ```mlir
    %n = matrix.neg %a : tensor<2x3xf64>
    ```
  }];
  let arguments = (ins Matrix_Tensor:$input);
  let results = (outs Matrix_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($result)";
  let hasFolder = 1;
}

def Matrix_TransposeOp : Matrix_Op<"transpose", [Pure]> {
  let summary = "matrix transpose";
  let description = [{
    Mat's `a.T` and `transpose(a)`: `[m, n] -> [n, m]`,
    `result[j, i] = input[i, j]`. Folds `transpose(transpose(x))` to `x`.

    ```mlir
    %t = matrix.transpose %a : tensor<2x3xf64> -> tensor<3x2xf64>
    ```
  }];
  let arguments = (ins Matrix_Tensor:$input);
  let results = (outs Matrix_Tensor:$result);
  let assemblyFormat = "$input attr-dict `:` type($input) `->` type($result)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Output
//===----------------------------------------------------------------------===//

def Matrix_PrintOp : Matrix_Op<"print"> {
  let summary = "print a matrix or a scalar to standard output";
  let description = [{
    Mat's `print(x)`: one line per row, elements separated by one space,
    each formatted like C's `%g` (6 significant digits; `-0`, `inf`, `nan`).
    A scalar prints as one number on its own line. f32 values are widened
    to f64 before formatting.

    ```mlir
    matrix.print %a : tensor<2x3xf64>
    ```
  }];
  let arguments = (ins Matrix_MatrixOrScalar:$input);
  let assemblyFormat = "$input attr-dict `:` type($input)";
}

#endif // MATRIX_OPS_TD
