//===- Passes.td - Code generation passes below Linalg -----*- tablegen -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_CODEGEN_PASSES_TD
#define MATRIX_CODEGEN_PASSES_TD

include "mlir/Pass/PassBase.td"

def MatrixCodegen : Pass<"matrix-codegen", "ModuleOp"> {
  let summary = "Apply matc's transform-dialect code generation schedule";
  let description = [{
    Runs one entry point of matc's code generation schedule, a library of
    transform-dialect sequences (`lib/Codegen/Schedule.mlir`, compiled into
    the pass), on the module with the upstream transform interpreter. Every
    transformation in it is an upstream transform op; the schedule only
    chooses which ones, in what order, with which tile sizes. Entry points:

    - `matc_generalize`: `linalg.transpose` -> `linalg.generic`, so that the
      upstream `linalg-fuse-elementwise-ops` folds a transpose feeding an
      elementwise op into that op's indexing map (run before it);
    - `matc_codegen` (the default): every `linalg.matmul` on f32 or f64
      (plain or with transposed operands) is tiled for the caches (one
      `scf.forall` iteration per tile of the result, the unit of
      multi-threading), its B operand packed into panels of 16 columns per
      tile and k-block, and its register tiles vectorized and lowered to
      `vector.fma`; every 2-D `linalg.generic` with only parallel loops
      (fused elementwise expressions, transposes, iota, eye) is tiled by
      rows in an `scf.forall` and vectorized along its rows. Ops whose loops
      all run at most 16 times are left to the plain lowering. Every size
      is handled (peeling, masking, padding in the packing). Runs on
      tensors, before bufferization.

    ```mlir
    // matc-opt --matrix-codegen
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                       outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    // becomes an scf.forall over 256x128 tiles of %r whose body zeroes a
    // packed tile, loops over k-blocks packing B and running a register
    // kernel of vector.fma, and unpacks the tile into %r
    ```
  }];
  let options = [
    Option<"entryPoint", "entry-point", "std::string",
           /*default=*/"\"matc_codegen\"",
           "The named sequence of the schedule to apply">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::bufferization::BufferizationDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::memref::MemRefDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
    "::mlir::transform::TransformDialect",
    "::mlir::ub::UBDialect",
    "::mlir::vector::VectorDialect",
  ];
}

def MatrixLowerMemRefCopy : Pass<"matrix-lower-memref-copy"> {
  let summary = "Rewrite memref.copy that would call the memrefCopy runtime "
                "into linalg.copy";
  let description = [{
    `finalize-memref-to-llvm` lowers a `memref.copy` to `llvm.memcpy` only
    when both memrefs have static shapes and contiguous row-major layouts;
    any other copy becomes a call to `memrefCopy` from MLIR's C runner
    utilities, a library that neither `matc --run` nor native programs
    load. Bufferization makes such copies (of dynamically shaped or
    strided buffers) when it cannot write in place, more often once tiled
    code has `scf.forall` results. This pass turns them into `linalg.copy`,
    which the pipeline lowers to loops like every other Linalg op on
    memrefs; copies that will become `llvm.memcpy` are left alone.

    ```mlir
    memref.copy %a, %b : memref<9x?xf32> to memref<9x?xf32, strided<[?, 1]>>
    // becomes
    linalg.copy ins(%a : memref<9x?xf32>)
                outs(%b : memref<9x?xf32, strided<[?, 1]>>)
    ```
  }];
  let dependentDialects = ["::mlir::linalg::LinalgDialect"];
}

#endif // MATRIX_CODEGEN_PASSES_TD
