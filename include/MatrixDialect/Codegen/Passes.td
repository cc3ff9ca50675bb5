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
      tensors, before bufferization. Tile sizes for 32 vector registers of
      512 bits (AVX-512);
    - `matc_codegen_ymm`: the same with register tiles and cache tiles for
      16 vector registers of 256 bits (AVX2). matc picks one of the two
      from the target CPU (`--target-cpu`, default the host).

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

def MatrixBoundTileTemporaries
    : Pass<"matrix-bound-tile-temporaries"> {
  let summary = "Give the temporaries of tiled code the static shape of "
                "their largest tile";
  let description = [{
    The packed tiles the matrix product schedule creates inside an
    `scf.forall` (the packed tile of C, the packed block of B) have the
    sizes of the tile they belong to, which are dynamic at the edges of the
    result (`min(256, M - i)` rows). Bufferized as they are, they become one
    `malloc` per tile and k-block of every call, whose pages glibc gives back
    to the system and the next call faults in again.

    This pass rewrites every `tensor.empty` inside an `scf.forall` whose
    dynamic sizes all have a constant upper bound (computed by the upstream
    `ValueBoundsConstraintSet` from the `affine.min`/`affine.apply` ops that
    define the sizes) into a `tensor.empty` of that bounding static shape and
    a `tensor.extract_slice` of the actual size. After bufferization the
    buffer is a statically shaped `memref.alloc` and its users take a
    subview; `matrix-promote-tile-buffers` then puts it on the stack.
    Temporaries whose bound exceeds `max-bytes` are left as they are. Run it
    after the schedule and the last `canonicalize` before bufferization
    (canonicalization folds the slice of an empty tensor back).

    ```mlir
    %n = affine.min affine_map<(d0)[s0] -> (-d0 + s0, 128)>(%k)[%K]
    %e = tensor.empty(%n) : tensor<8x?x16xf32>
    // becomes
    %b = tensor.empty() : tensor<8x128x16xf32>
    %e = tensor.extract_slice %b[0, 0, 0] [8, %n, 16] [1, 1, 1]
        : tensor<8x128x16xf32> to tensor<8x?x16xf32>
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"262144",
           "Largest bounded temporary, in bytes">,
  ];
  let dependentDialects = ["::mlir::tensor::TensorDialect"];
}

def MatrixFreeBuffersEarly : Pass<"matrix-free-buffers-early"> {
  let summary = "Free each buffer right after its last use instead of at the "
                "end of its block";
  let description = [{
    The ownership-based buffer deallocation frees a buffer at the end of the
    block that allocates it. For the straight-line `main` of a Mat program
    that is the end of the program: every matrix it ever computed stays in
    memory until then. This pass moves each `memref.dealloc` of a
    `memref.alloc` of the same block up to just after the last op of that
    block that uses the buffer or a view of it (subviews, reshapes, casts:
    `ViewLikeOpInterface`), uses inside nested regions counting as uses by
    the op that holds them. A buffer that may escape is left alone: one
    whose view is yielded, returned, passed to a call, or read by an op
    that returns another memref or its address.

    ```mlir
    %a = memref.alloc() : memref<64x64xf64>
    linalg.fill ins(%c : f64) outs(%a : memref<64x64xf64>)
    linalg.copy ins(%a : memref<64x64xf64>) outs(%b : memref<64x64xf64>)
    ... // no more uses of %a
    memref.dealloc %a : memref<64x64xf64>
    // becomes
    %a = memref.alloc() : memref<64x64xf64>
    linalg.fill ins(%c : f64) outs(%a : memref<64x64xf64>)
    linalg.copy ins(%a : memref<64x64xf64>) outs(%b : memref<64x64xf64>)
    memref.dealloc %a : memref<64x64xf64>
    ...
    ```

    Run it after `buffer-deallocation-pipeline` and
    `convert-bufferization-to-memref`.
  }];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MatrixPromoteTileBuffers
    : Pass<"matrix-promote-tile-buffers", "::mlir::ModuleOp"> {
  let summary = "Put the statically shaped temporary buffers of loops on "
                "the stack, once per thread and loop nest";
  let description = [{
    Rewrites a `memref.alloc` into a `memref.alloca` when it is statically
    shaped, at most `max-bytes` in size, inside a loop, and freed by a
    `memref.dealloc` in its own block (so its lifetime is one iteration of
    every loop around it and no view of it escapes). The alloca is placed at
    the top of a `memref.alloca_scope`, so that the stack it takes is given
    back when the loops are done:

    - inside an `scf.parallel`, the scope wraps the body of the parallel
      loop: one buffer per iteration, hence per thread;
    - otherwise the scope wraps the outermost loop around the buffer, in the
      function body: one buffer for the whole loop nest, reused by every
      iteration (iterations never overlap there).

    The buffers of one scope together take at most `max-scope-bytes`;
    buffers beyond that stay on the heap. The defaults (256 KiB, 512 KiB)
    keep well inside the 4 MiB stack of an OpenMP worker thread (libomp's
    default `KMP_STACKSIZE`). Run it after the deallocations are explicit
    (`buffer-deallocation-pipeline`, `convert-bufferization-to-memref`) and
    after `scf.forall` became `scf.parallel` or `scf.for`.

    ```mlir
    scf.for %i = %c0 to %n step %c256 {
      %t = memref.alloc() {alignment = 64 : i64} : memref<256x8x16xf32>
      ...
      memref.dealloc %t : memref<256x8x16xf32>
    }
    // becomes
    memref.alloca_scope {
      %t = memref.alloca() {alignment = 64 : i64} : memref<256x8x16xf32>
      scf.for %i = %c0 to %n step %c256 {
        ...
      }
    }
    ```
  }];
  let options = [
    Option<"maxBytes", "max-bytes", "int64_t", /*default=*/"262144",
           "Largest buffer put on the stack, in bytes">,
    Option<"maxScopeBytes", "max-scope-bytes", "int64_t", /*default=*/"524288",
           "Most stack the buffers of one scope take, in bytes">,
  ];
  let dependentDialects = ["::mlir::memref::MemRefDialect"];
}

def MatrixOpenMPIfMultipleIterations
    : Pass<"matrix-omp-if-multiple-iterations"> {
  let summary = "Run an OpenMP parallel loop of one iteration, or of little "
                "work, on the calling thread only";
  let description = [{
    `convert-scf-to-openmp` turns every `scf.parallel` into an `omp.parallel`
    region, whose entry forks a team of threads whatever the work. A product
    whose result fits in one tile (64 x 64, say) has a single iteration, and
    a small elementwise expression has a few short ones; the fork and join
    then cost more than the work: from 2 us to about 60 us on the benchmark
    VM, when the worker thread has to be woken up (bench/README.md).

    This pass gives each `omp.parallel` without an `if` clause whose
    worksharing loop (`omp.wsloop` around one `omp.loop_nest`) has bounds
    defined outside the region the clause
    `if(trip count > 1 && elements >= min-elements)`:

    - the trip count is the product of `ceildiv(ub - lb, step)` over the
      loop dimensions (exclusive upper bounds, positive steps, as
      `convert-scf-to-openmp` makes them);
    - `elements` is the size of the largest buffer defined outside the
      region that the loop writes (through views), i.e. of the result the
      tiles make up; the condition is left out when there is none;
    - `min-elements` applies to loops that compute a product (their body
      has a `vector.fma`, `vector.outerproduct` or `vector.contract`: k
      multiply-adds per element), `min-elements-elementwise` to the others
      (a few operations per element).

    With a false `if`, the region runs on the encountering thread alone
    (OpenMP 5.2, section 10.1.1). The default of `min-elements`, 65536 (a
    256 x 256 result), is where 2 threads started to win on the benchmark
    machines for products. Elementwise expressions lost on 2 threads at
    512 x 512 (262144 elements) and won at 1000 x 1000 on both benchmark
    VMs (bench/README.md): `min-elements-elementwise` is 524288 (2^19).

    ```mlir
    omp.parallel num_threads(%c2 : i64) {
      omp.wsloop { omp.loop_nest (%i) : index = (%c0) to (%n) step (%c1) {...} }
      omp.terminator
    }
    // becomes, with %worth = (ceildiv(%n - %c0, %c1) > 1) and
    // (rows * cols of the result written in the loop >= 65536)
    omp.parallel if(%worth) num_threads(%c2 : i64) { ... }
    ```
  }];
  let options = [
    Option<"minElements", "min-elements", "int64_t", /*default=*/"65536",
           "Fewest result elements worth a team of threads for a product">,
    Option<"minElementsElementwise", "min-elements-elementwise", "int64_t",
           /*default=*/"524288",
           "Fewest result elements worth a team of threads for a loop "
           "without products (elementwise)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MatrixSplitMaskedVectors : Pass<"matrix-split-masked-vectors"> {
  let summary = "Split masked 1-D vector memory accesses wider than a "
                "vector register into register-wide ones";
  let description = [{
    Works around a miscompilation in the x86 back end of LLVM 22 (seen with
    `llc -mcpu=haswell` and `znver3`, i.e. AVX2 without AVX-512): a
    `llvm.masked.load` of `<16 x float>` or `<8 x double>` whose mask is a
    `select` between constant masks is split by type legalization into two
    256-bit loads, and the half whose mask is all false in both arms
    becomes an *unmasked* load. It returns memory instead of the pass-thru
    value and may read past the end of a buffer; `X86AvoidStoreForwarding
    Blocks` then aborts on it ("Cannot implicitly convert a scalable size
    to a fixed-width size"). The masks of matc's remainder tiles
    (`vector.create_mask %rows, %c5` of a ragged register tile) become
    exactly such selects once LLVM folds them. Masked accesses no wider than
    a register are lowered correctly, so this pass splits them:

    - a 1-D `vector.transfer_read` / `vector.transfer_write` that has a mask
      or is not in bounds, with a minor identity permutation map,
    - a `vector.maskedload` / `vector.maskedstore`,

    whose vector is wider than `max-bits` become `ceil(bits / max-bits)`
    accesses of `max-bits` each (the last one narrower if the width does
    not divide), at consecutive offsets of the last index, each with its
    slice of the mask (`vector.extract_strided_slice`); the read slices are
    joined with `vector.insert_strided_slice`. Unmasked, in-bounds accesses
    (the main loops) are left alone. Runs on 1-D vectors, after
    `convert-vector-to-scf{full-unroll}` and before `convert-vector-to-llvm`.
    The default, 256 bits, is a ymm register: on AVX-512 targets the
    remainder tiles then take two 256-bit masked accesses where one 512-bit
    one would do, which costs little (they are remainders).

    ```mlir
    %v = vector.transfer_read %m[%i, %j], %pad, %mask
        : memref<?x?xf32>, vector<16xf32>
    // becomes (max-bits = 256)
    %m0 = vector.extract_strided_slice %mask {offsets = [0], sizes = [8], strides = [1]}
    %v0 = vector.transfer_read %m[%i, %j], %pad, %m0 : memref<?x?xf32>, vector<8xf32>
    %j8 = arith.addi %j, %c8 : index
    %m1 = vector.extract_strided_slice %mask {offsets = [8], sizes = [8], strides = [1]}
    %v1 = vector.transfer_read %m[%i, %j8], %pad, %m1 : memref<?x?xf32>, vector<8xf32>
    // %v = %v0 and %v1 inserted at offsets 0 and 8 of a vector<16xf32>
    ```
  }];
  let options = [
    Option<"maxBits", "max-bits", "int64_t", /*default=*/"256",
           "Widest masked access kept whole, in bits">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

#endif // MATRIX_CODEGEN_PASSES_TD
