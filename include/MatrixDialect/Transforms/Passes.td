//===- Passes.td - Matrix dialect transformation passes ----*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_TRANSFORMS_PASSES_TD
#define MATRIX_TRANSFORMS_PASSES_TD

include "mlir/Pass/PassBase.td"

def MatrixOptimize : Pass<"matrix-optimize"> {
  let summary = "Matrix-level rewrites that cut the flop count of products";
  let description = [{
    Rewrites whole-matrix expressions before they are lowered, where the
    algebra of matrices (not of loops) makes the program cheaper. Run by
    the Matrix stage of the pipeline from `-O1` up; `-O0` keeps the program
    as written (only the exact canonicalizations run there).

    - Transposes folded into products: `matmul(transpose(a), b)` ->
      `matmul a, b {transpose_lhs}` (and the rhs), read in place by the
      lowering instead of materialized. Exact.
    - `(a @ b).T` -> `b.T @ a.T`, i.e. `matmul b, a` with both transpose
      flags toggled, when the product has no other user: the transposed
      result is never materialized. Exact (the same products, summed in the
      same order).
    - Product chains `a @ b @ c @ ...` (trees of single-use products, seen
      through single-use transposes, negations and scalar factors) are
      re-associated by the matrix-chain dynamic program on flop count
      (Cormen, Leiserson, Rivest, Stein, "Introduction to Algorithms",
      3rd ed., section 15.2), for static shapes.
    - Scalars pulled out of products and put where they cost least: the
      scalar factors of a chain (`(s * a) @ b`, `s * (a @ b)`, ...) are
      multiplied together and applied once, to the smallest matrix of the
      re-associated chain (an operand, an intermediate or the result);
      negations likewise (`(-a) @ b` -> `-(a @ b)` when the result is
      smaller). A chain is rewritten only when this lowers its flop count
      (or removes a transpose at equal count).

    Re-association and moving scalars change the order of floating-point
    rounding (as any BLAS-backed library would); results agree with `-O0`
    within rounding, not bit for bit. Moving negations and transposes is
    exact.
    - Elementwise: `a OP full(v)` -> `a OP v` (the scalar broadcast, no
      filled matrix; then the folders turn `x * 1`, `x - 0`, and `x + 0`
      when `x` holds no -0, into `x`), and `x - x` -> `zeros` when `x` is
      provably finite (for inf/nan it is nan). Exact.

    ```mlir
    // Before: (a @ b) @ x with a, b 100x100 and x 100x1: 2020000 flops.
    %ab = matrix.matmul %a, %b : tensor<100x100xf64>, tensor<100x100xf64> -> tensor<100x100xf64>
    %r = matrix.matmul %ab, %x : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
    // After: a @ (b @ x): 40000 flops.
    %bx = matrix.matmul %b, %x : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
    %r = matrix.matmul %a, %bx : tensor<100x100xf64>, tensor<100x1xf64> -> tensor<100x1xf64>
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MatrixCheckedAllocation : Pass<"matrix-checked-allocation", "ModuleOp"> {
  let summary = "Define the heap allocation functions so that running out of "
                "memory is a clear error";
  let description = [{
    Runs on the LLVM dialect, after `finalize-memref-to-llvm` with
    `use-generic-functions`, which calls `_mlir_memref_to_llvm_alloc(i64)`
    and `_mlir_memref_to_llvm_free(ptr)` instead of `malloc` and `free`.
    This pass gives the declarations of those two functions internal bodies:
    `free` is called as is; `malloc`'s result is checked, and when it is
    null the program prints

    ```
    error: out of memory: cannot allocate N bytes
    ```

    to standard error and exits with status 1 (the C library's `exit`, so
    the output printed so far is flushed). Without it a failed allocation
    is a segmentation fault. The bodies are internal, so objects from
    several Mat files link together.
  }];
  let dependentDialects = ["::mlir::LLVM::LLVMDialect"];
}

#endif // MATRIX_TRANSFORMS_PASSES_TD
