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
      (plain or with transposed operands) is packed by the register tile
      (A into micro-panels of MR rows, B of NR columns, C into MR x NR
      tiles, zero-padded), tiled for the caches (one `scf.forall` iteration
      per MC x NC tile of the result, the unit of multi-threading; KC-blocks
      of k with A and B packed per block), and its register tiles vectorized
      and lowered to `vector.fma`; every 2-D `linalg.generic` with only
      parallel loops (fused elementwise expressions, transposes, iota, eye)
      is tiled by rows in an `scf.forall` and vectorized along its rows;
      products tagged by `matrix-version-products` get register tiles read
      in place (with `threads` > 1, those tagged `matc.unpacked_long_k` in
      one block of rows per thread, an `scf.forall` iteration each). Ops
      whose loops all run at most 16 times are left to the plain lowering.
      Every size is handled (padding in the packing, masks at the edges).
      Runs on tensors, before bufferization.

    The sizes are options, `mr,nr,kc,mc,nc` per element type, which matc's
    pipelines compute from the target (lib/Target/MatmulModel.cpp). Without
    them the pass uses the model's sizes for the host. The pass generates the
    entry sequence that binds them (and the two sequences that pack a
    product, since `transform.structured.pack` takes static sizes only) and
    merges it into the library.

    The pass runs on the module, not function by function: nested in
    `func.func` (the library shared by the pass's copies, as the upstream
    transform-interpreter's) it took longer, 0.41-0.42 s against 0.32-0.35
    s wall for 300 small functions on 2 threads (the interpreter's set-up
    per function outweighs the parallel runs).

    ```mlir
    // matc-opt --matrix-codegen="matmul-f32=12,32,256,504,512"
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                       outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    // becomes an scf.forall over 504x512 tiles of %r whose body zeroes a
    // packed tile, loops over k-blocks of 256 packing A and B and running a
    // 12x32 register kernel of vector.fma, and unpacks the tile into %r
    ```

    Errors: a list that is not 5 positive sizes, or MC (NC) not a multiple
    of MR (NR).
  }];
  let options = [
    Option<"entryPoint", "entry-point", "std::string",
           /*default=*/"\"matc_codegen\"",
           "The named sequence of the schedule to apply">,
    ListOption<"matmulF32", "matmul-f32", "int64_t",
               "Tiles of f32 products: mr,nr,kc,mc,nc (default: the model's "
               "for the host)">,
    ListOption<"matmulF64", "matmul-f64", "int64_t",
               "Tiles of f64 products: mr,nr,kc,mc,nc (default: the model's "
               "for the host)">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"512",
           "Width of the target's vector registers (the packing of A moves "
           "squares of one vector length)">,
    Option<"x86AVX", "x86-avx", "bool", /*default=*/"false",
           "The target is x86 with AVX: 8 x 8 transposes use x86vector's "
           "AVX shuffle network">,
    Option<"threads", "threads", "int64_t", /*default=*/"1",
           "Threads the code runs on: an unpacked product tagged "
           "matc.unpacked_long_k is split into this many blocks of rows, one "
           "scf.forall iteration each (1: no scf.forall)">,
    Option<"elementwiseF32", "elementwise-f32", "int64_t", /*default=*/"32",
           "Elements per vector operation of f32 elementwise ops">,
    Option<"elementwiseF64", "elementwise-f64", "int64_t", /*default=*/"16",
           "Elements per vector operation of f64 elementwise ops">,
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

def MatrixOutlineProducts : Pass<"matrix-outline-products", "ModuleOp"> {
  let summary = "Compute every matrix product by a call to one function per "
                "element type and operand layout";
  let description = [{
    The code generation schedule turns a product into a few hundred
    operations (packing, register tiles, remainders, an unpacked version for
    small sizes), which LLVM then optimizes and compiles: per product, most
    of the compile time of a program. This pass replaces every
    `linalg.matmul` on tensors that starts from zeros (its init a
    `linalg.fill` of 0, as every Mat product) by a call
    to a private function computing it, one per element type and layout of
    A and B (plain or transposed), with run-time sizes:

    ```mlir
    func.func private @matc.product.f64.nn(%a: tensor<?x?xf64>,
        %b: tensor<?x?xf64>, %out: tensor<?x?xf64>) -> tensor<?x?xf64>
        attributes {passthrough = ["noinline"]} {
      %zero = arith.constant 0.0 : f64
      %c = linalg.fill ins(%zero : f64) outs(%out : tensor<?x?xf64>) -> tensor<?x?xf64>
      %r = linalg.matmul ins(%a, %b : ...) outs(%c : ...) -> tensor<?x?xf64>
      return %r : tensor<?x?xf64>
    }
    ```

    so that the schedule runs, and LLVM compiles, one product per variant
    whatever the number of products: compile time grows with the program,
    not with its products times their code (as BLIS calls one
    micro-kernel). The destination (`%out`) is what the caller's fill
    filled: a `tensor.empty`, or, in a C entry point's `.into` function,
    the caller's result buffer (`bufferization.to_tensor`), where
    `eliminate-empty-tensors`, run before this pass, put it. With
    bufferization across function boundaries the product is computed in
    that buffer: no temporary and no copy of the result. (Run after this
    pass, eliminate-empty-tensors could not follow the empty tensor through
    the call, which is no destination-passing op, and the `.into` function
    computed the product in a temporary of M x N and copied it.) Products
    of other element types or inits stay inline.

    A product of the general function with A read transposed (`a.T @ b`,
    `a.T @ b.T`, every size run-time) is called behind a run-time test of
    its sizes: with few columns of C (2 <= N < NR of the model, narrow-f32
    or narrow-f64, 8 without them; N < M) or, B read transposed too, few
    rows (1 <= M <= max(4, NR / 2); M < N), C^T = B^T A^T is computed
    instead by a call with the operands swapped (`@matc.product.f64.tn` on
    (b, a) itself, or the general `@matc.product.f64.nn` on (b, a), made
    if the module has none) into a new N x M tensor, and copied transposed
    into the destination (the schedule's transposed copy): C's few columns,
    which would fill a register tile of NR columns mostly with masked
    lanes, become rows of C^T, and a few rows of a.T @ b.T become the
    blocks of dot products of a few columns of `b @ a`. From Python, Zen 4,
    1 thread, f64, a general `a.T @ b` given (n x n).T @ n x N: n = 256, N
    = 2 .. 8 43-47 -> 13-21 us (NumPy 9-20); n = 1000, N = 4 648 -> 226 us,
    N = 8 1029 -> 620 us (NumPy 513, 696); n = 2000, N = 8 8.1 -> 3.2 ms
    (NumPy 5.4). The test is in the caller, not the product function, so
    that one instance of each product's code serves both orientations (a
    second product in the function cost 0.25 s of compile time).

    A tiny product, whose loops all have static trip counts of at most 16
    (the schedule keeps its plain loops, which LLVM unrolls and
    vectorizes), calls a function of its own shape, every operand static:
    `@matc.product.f64.nn.s8x8x8` (M x K x N). A program of many such
    products (issue 13: 1000 statements of 8 x 8 matrices, a chain of 999
    products) has LLVM unroll each shape once, not once per product, for
    the cost of a call.

    A product whose B is read in place (not transposed) and static, with a
    multiple of 8 columns and at most `static-rhs-elements` elements
    (matc: the L1 in bytes / 16, as
    matrix-version-products' `max-rhs-elements`) calls a function of its
    own B shape, `@matc.product.f64.nn.b8x8`, whose B keeps its static
    type: computed unpacked whatever M, that function carries no packed
    version (a few hundred lines of LLVM IR instead of a few thousand).

    A product whose B is read in place with a static N, a multiple of 8 of
    at most `narrow-f32` (`narrow-f64`) columns, and is not of the kinds
    above, calls a function of its own N, `@matc.product.f32.nn.n16`
    (A ? x ?, B ? x 16, C ? x 16): matrix-version-products computes such a
    product unpacked whatever M when B fits its budget (packing would copy
    all of A for one register tile's width of columns), which it can only
    see with N static.

    A vector-matrix product (matrix::isVectorMatrixProduct) not of the
    kinds above (its B larger than `static-rhs-elements`, or not static)
    calls a function of its own: for a row of C (M = 1; also
    matrix::isRowDotProduct, `x @ b.T`, in `.nt.m1`), one of one row,
    `@matc.product.f64.nn.m1` (A 1 x ?, or ? x 1 read transposed in
    `.tn.m1`; B ? x ?; C 1 x ?), for a column (N = 1, A read transposed)
    `@matc.product.f64.tn.n1` (A ? x ?, B ? x 1, C ? x 1):
    matrix-version-products gives them the schedule's vector-matrix
    products, which it can only see with the 1 static.

    A product by a tiny static B (K and N at most 16, N not a multiple of
    8, B not read transposed) whose M is not as small (`points @ r`, r 3 x
    3) calls a function of B's shape, `@matc.product.f64.nn.b3x3`, which
    matrix-version-products tags for the schedule's row-at-a-time vectors.
    A tiny C (M and N
    static, at most 16) from a longer k-range with A read transposed (the
    Gram matrix `a.T @ a` of a ? x 3 a) calls a function of C's shape,
    `@matc.product.f64.tn.c3x3` (A ? x M, B ? x N or N x ?, C M x N),
    which matrix-version-products leaves to the plain loops, k outermost.

    A product of fewer than 8 static columns whose B is not tiny and
    neither operand is read transposed (a matrix-vector product `a @ v`
    with `v: f64[?, 1]`, or `a @ b` with `b: f64[?, 3]`) calls a function
    of its N, `@matc.product.f64.nn.n1`, `.n3` (A ? x ?, B and C ? x N),
    which matrix-version-products computes as dot products of the rows of
    A with the columns of B. (Before, it called the
    function of run-time sizes, whose register tiles of 16 columns held one:
    9x slower than NumPy at 1024 x 1024 on Zen 4.)
  }];
  let options = [
    Option<"staticRhsElements", "static-rhs-elements", "int64_t",
           /*default=*/"0",
           "Most elements of a static B whose product function keeps B's "
           "shape (0: none)">,
    Option<"narrowF32", "narrow-f32", "int64_t", /*default=*/"0",
           "Most columns of a static N whose f32 product function keeps N "
           "(matrix-version-products' narrow-f32; 0: none)">,
    Option<"narrowF64", "narrow-f64", "int64_t", /*default=*/"0",
           "As narrow-f32, for f64 products">,
    Option<"maxFewColumnsLhsBytes", "few-columns-max-lhs-bytes", "int64_t",
           /*default=*/"0",
           "Most bytes of A for a few columns of a run-time N computed as "
           "blocks of dot products, each reading all of A (0: no limit)">,
  ];
  let dependentDialects = [
    "::mlir::arith::ArithDialect",
    "::mlir::func::FuncDialect",
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MatrixSplitSharedDestinations
    : Pass<"matrix-split-shared-destinations"> {
  let summary = "Give every use of a tensor.empty, or of a fill of one, its "
                "own copy";
  let description = [{
    CSE merges the `tensor.empty` ops of one shape, and the `linalg.fill`s of
    one value into them, that Linalg ops take as destinations: in a long
    function one such value ends up the destination of hundreds of ops.
    Every op that writes into it then conflicts with every other reader in
    one-shot bufferization's analysis (and in eliminate-empty-tensors'),
    whose cost grows with the square of the uses, and each write becomes a
    copy of the shared buffer into a new one. This pass, run right before
    them, gives each use but the first its own clone of the `tensor.empty`
    (and of the fill, when the use is of a fill whose destination is a
    `tensor.empty`), placed just before the user, so that each destination
    has one use; the clones of an empty tensor cost nothing, those of a
    fill are the fill each op needed anyway.

    ```mlir
    %e = tensor.empty() : tensor<8x8xf64>
    %z = linalg.fill ins(%zero : f64) outs(%e : tensor<8x8xf64>) -> tensor<8x8xf64>
    %a = linalg.matmul ins(%x, %y : ...) outs(%z : tensor<8x8xf64>) -> ...
    %b = linalg.matmul ins(%u, %v : ...) outs(%z : tensor<8x8xf64>) -> ...
    ```

    becomes, before `%b`, a second `tensor.empty` and `linalg.fill` that
    `%b` writes into.
  }];
  let dependentDialects = [
    "::mlir::linalg::LinalgDialect",
    "::mlir::tensor::TensorDialect",
  ];
}

def MatrixOutlineLongBlocks : Pass<"matrix-outline-long-blocks", "ModuleOp"> {
  let summary = "Split long function bodies into calls of private functions "
                "of bounded size";
  let description = [{
    LLVM's optimizations and code generation, and MLIR's conversion of
    structured control flow to blocks, take time that grows faster than
    the size of a function (scalar evolution asks the dominator tree about
    each loop's guard; each block split moves the rest of the block): a
    straight-line Mat program of 1000 statements is one `main` of 1000 loop
    nests. This pass, run on loops over memrefs (after bufferization and
    deallocation), cuts the body of every function of one block whose ops
    (counting nested ones) exceed `max-ops` into consecutive runs of about
    `max-ops` ops, and moves each run into a private function (LLVM
    `noinline`, through `passthrough`) `<name>.part<i>` (through an `scf.execute_region` and upstream's
    `outlineSingleBlockRegion`, mlir/lib/Dialect/SCF/Utils/Utils.cpp):

    ```mlir
    %r = func.call @main.part0(%a, %b) : (memref<8x8xf64>, memref<8x8xf64>) -> memref<8x8xf64>
    ```

    The values a run defines and later ops use are its function's results,
    the values it uses from before are its arguments; constants and other
    operand-free pure ops it uses are cloned into it. Beyond 8 scalar
    results, the scalars go through memory instead: the caller passes a
    stack buffer (`memref.alloca`) per element type, the part stores them
    there, and the part that uses them loads them (a load used by several
    later parts stays in the caller). An LLVM function returning hundreds
    of scalars returns one struct of them, on which LLVM's SCCP is
    quadratic (a 100 x 100 literal of scalar expressions: 36 s). A run whose results
    would include a stack allocation (`memref.alloca`, valid only in its
    frame) stays where it is. Compile time then grows with the number of
    runs, linearly.
  }];
  let options = [
    Option<"maxOps", "max-ops", "int64_t", /*default=*/"400",
           "Most ops (nested ones counted) of a function body left whole">,
  ];
  let dependentDialects = [
    "::mlir::func::FuncDialect",
    "::mlir::scf::SCFDialect",
  ];
}

def MatrixVersionProducts : Pass<"matrix-version-products"> {
  let summary = "Choose between the unpacked and the packed schedule of a "
                "matrix product by the size of its operands";
  let description = [{
    Packing the operands of a product into micro-panels (the code
    generation schedule of `matrix-codegen`) pays off once they no longer
    fit in the caches: it costs a copy of A and B per tile, a large part of
    a small product (measured on a Sapphire Rapids core: 64 x 64 x 64 in
    f32 at 0.57x OpenBLAS packed, 0.95x read in place). This pass tags every
    `linalg.matmul` on tensors whose operands A and B have at most
    `max-elements` elements together (`matc.codegen = "matmul_unpacked_f32"` or
    `"..._f64"`): the schedule then computes it with register tiles read
    from A and B where they are. With run-time sizes it wraps the product in
    an `scf.if` on them, the tagged copy in the `then` branch and the
    original, which gets the packed schedule, in the `else` branch; but a
    product whose B is static and has at most `max-rhs-elements` elements
    (it stays in the L1 whatever M is), or whose M is static and at most 4
    (or exactly `unpacked-rows-f32`/`-f64`, the rows of the schedule's
    unpacked register tiles), is tagged without a test, and a run-time M
    as few passes the test whatever K and N: with a register tile covering
    all of M, B is read once in place, as packing would read it to copy it
    (5 to 7 rows of an 8-row tile are tiles of 4, 2 and 1 rows, each
    reading all of B: f64 7 x 20000 @ 20000 x 300 on Zen 5 took 10.2 ms,
    4.8 packed; 8 x 1000 @ 1000 x 1000 0.46 ms packed, 0.19 unpacked,
    NumPy 0.85) (likewise a run-time
    N of at most 4 where A is read transposed, the others being dot
    products below: A is read once; from a new user,
    Zen 4, f64, 1 thread: 1 x 1 @ 1 x 400000 of run-time sizes 292 ms
    packed, 1.3 ms unpacked, NumPy 1.6 ms; 4 x 1000 @ 1000 x 1000 0.88 ms
    against 0.35 ms, NumPy 0.75 ms). A product
    whose B is read transposed (`a @ b.T`) reads, in its unpacked version,
    a plain copy of B (B^T, a `linalg.generic` tagged
    `matc.transpose = "f32"` or `"f64"`, which the schedule computes in
    square blocks of a vector register's lanes transposed by shuffles):
    its columns read in place would be gathers (measured on AVX-512, f32,
    1 thread: 64 x 64 from 86 to 138 GFLOPS, 128 from 109 to 138, against
    the packed schedule's). Not versioned: products whose loops all run at
    most 16 times (left to the plain lowering), and those already tagged.

    A tagged product whose k-range is run-time or longer than 16 is also
    tagged `matc.unpacked_long_k`: the schedule then splits its rows into
    one block per thread (an `scf.forall`) and computes its last rows
    (M mod MR) in register tiles of 4, 2 and 1 rows instead of one tile
    masked in its rows. With a short k-range a row is too little work for
    either to pay for its compile time.

    A product by a tiny static B (K and N at most 16, N not a multiple of
    8, B not read transposed; M not as small) is generalized and tagged
    `matc.tiny_rhs` = "f32" or "f64", whatever M: the schedule
    (@tiny_rhs_rows) splits its rows between the threads and computes one
    row of C at a time as a vector of N elements, K multiply-adds of a
    broadcast element of A and a row of B, B in registers. Register tiles
    of whole vectors would be mostly masked lanes, and packing copies A
    for them (measured on Zen 4, f64, 200000 x 3 @ 3 x 3 from Python:
    53.6 ms packed); the plain loops zeroed C in a pass of its own and
    left LLVM rows of stride 3 behind run-time alias tests (100000 x 3 @
    3 x 3: 0.44 ms, NumPy 0.12 ms; now 0.105 ms f64, 0.06 ms f32).

    A tiny C from a longer k-range with A read transposed (M and N static,
    at most 16; `a.T @ a`) is left to the plain loops too, its generic
    interchanged so that k is the outer loop: A and B are read row by row
    once, C stays in registers (measured on Zen 4, f64, a.T @ a of
    200000 x 3 from Python: 2.2 ms in the unpacked schedule, 0.56 ms,
    NumPy 1.2 ms).

    A matrix-vector product (N statically 1, neither operand transposed:
    each element of C is the dot product of a row of A, contiguous in
    memory, and B's column) is rewritten whatever its size, without a test:
    B and C are collapsed to vectors (no copies), the product becomes a
    2-D `linalg.generic` (m parallel, k reduction, as `linalg.matvec`, its
    multiply-adds marked `contract` for LLVM's FMAs) tagged
    `matc.dot = "f32"` or `"f64"`, and its result is expanded back to M x 1.
    The schedule (Schedule.mlir's @tile_dot_rows) reads 4 rows of A in
    vectors along k, B's column once for the 4, and adds each row's partial
    sums across the lanes at the end. Measured on Zen 4 (AVX-512), 1
    thread, from Python against NumPy (OpenBLAS's dgemv): f64 1024 x 1024
    0.12 ms against 1.10 ms before, 0.95x NumPy (2048: 1.04x; 256: 0.84x).
    With 2 to 7 static columns (`matc.dot_columns` = "f32" or "f64"), the
    product reads a transposed copy of B (B^T, N x K, tagged
    `matc.transpose`: K N element moves against M K N multiply-adds), as a
    3-D `linalg.generic` (m, n parallel, k reduction) whose rows the
    schedule's @tile_dot_columns computes one at a time, N dot products
    along k (1024 x 1024 @ 1024 x N from Python, 1 thread, Zen 4: N = 2
    to 4 at 1.6-3.5x NumPy, 0.27-0.81x before).

    A vector-matrix product (matrix::isVectorMatrixProduct: one row of C,
    M statically 1, `x @ b` or `x.T @ b`, or one column, N statically 1
    with A read transposed, `a.T @ x`; B never read transposed; C's other
    size not static at most 16) is rewritten whatever its size, without a
    test: on the vector x and C collapsed to vectors (no copies), a 2-D
    `linalg.generic` (l parallel over C, k reduction; maps x (k), matrix
    (k, l), C (l), the matrix B for a row of C, A for a column) tagged
    `matc.vector_matrix = "f32"` or `"f64"`, its result expanded back to
    C's shape. The schedule (@schedule_vector_matrix) adds up the matrix's
    rows scaled by x's elements (axpy updates, as BLAS's gemv of a
    transposed matrix): blocks of 8 rows, each updating C in tiles kept in
    registers, the matrix streamed row by row. As other products (packed,
    or unpacked in register tiles along C's row) it walked the K rows once
    per tile, a row at a time: measured on Zen 4 from Python, 1 thread,
    1024 x 1024, against NumPy on 1 thread: f64 `x @ b` 798 us before,
    111-115 us after (NumPy 116-121), f32 396 -> 58 us (NumPy 54-56).
    With `vector-bits` given and C at most one vector of elements (a
    static size, or behind an scf.if on the run-time one), the product is
    split along k instead, so that C's one vector is not one chain of
    multiply-adds at their latency per row: the first K - K mod 8 rows of
    the matrix viewed as (K / 8) x 8 x L and x as (K / 8) x 8 (expanded,
    no copies) into 8 partial sums (a 3-D generic, r and l parallel, ko
    reduction, tagged `matc.vector_matrix_split`), then C = its init + the
    partial sums + the last K mod 8 rows scaled by x (two 2-D generics
    tagged `matc.vector_matrix_rest`; @schedule_vector_matrix_split).
    One row of C from B read transposed (matrix::isRowDotProduct: `x @
    b.T`, N not static at most 16) is a matrix-vector product of B (N x K,
    its rows contiguous) and x: the `matc.dot` generic above on B and x
    collapsed, its result expanded back to 1 x N.

    A product whose N is known only at run time is first put behind a test
    of N == 1: that branch computes it on B cast to one column (K x 1, or
    1 x K read transposed; cast from the whole of B when B's K is A's
    through a slice, so that it collapses in place) as the `matc.dot`
    generic of A's rows, or, with A read transposed, as the
    `matc.vector_matrix` generic of A's rows scaled by B. Then, with A in
    place and more than 8 rows (M > 8, tested at run time unless static;
    fewer go to the register tiles, which read B in place or pack it once:
    f64 8 x 200000 @ 200000 x 8 on Zen 5 5.4 -> 1.9 ms, NumPy 1.7), behind
    a test of N <= 8: that branch
    computes C in blocks of 4 columns (an `scf.for`), each the
    `matc.dot_columns` product of A and the block's columns of B
    transposed (the schedule's transposed copy, or B's rows when B is read
    transposed) in a block of B^T of 4 rows zeroed once before the loop,
    into 4 columns of which the first min(4, N - j) are copied into C (the
    padded rows' dot products land in the columns not copied). The other
    schedules computed such columns in register tiles of a vector of
    columns masked down to N. Measured from Python, Zen 4, 1 thread, a
    general `def mm(a: T[?, ?], b: T[?, ?])` given n x n @ n x N, NumPy's
    time / matc's, before -> after: f64 1000, N = 1: 0.17 -> 0.97; N = 2 to
    4: 0.80-1.12 -> 1.52-2.11; N = 5 to 8: 0.62-0.81 -> 1.07-1.16; f32
    1000, N = 2 to 4: 0.28-0.40 -> 1.44-2.28; N = 5 to 8: 0.39-0.46 ->
    1.21-1.30; at n = 256 f64 0.18-0.45 -> 0.45-0.73, f32 0.08-0.23 ->
    0.37-0.56 (the dot products' own speed there, as with a static N). With
    B read transposed and A not, the mirror image for a run-time M: M == 1
    as the `matc.dot` generic on B and A's row (as a static `x @ b.T`), M <=
    8 as C^T = B A^T in blocks of 4 rows of A, each block of C^T copied
    transposed into C (the unpacked schedule read a transposed copy of all
    of B: 2 x 4096 @ (4096 x 4096).T f64 139 ms, now 12 ms, NumPy 13); with
    B in place, M == 1 as the `matc.vector_matrix` generic on B (as a static
    `x @ b`: B streamed row by row, where the unpacked register tiles walked
    it down its columns, a page per step of k: 1 x 5000 @ 5000 x 5000 f64
    24 -> 6.4-7.0 ms, NumPy 10.5; 1 x 2048 @ 2048 x 2048 4.7 -> 1.0 ms). The
    few columns or rows only when K >= 32 (tested at run time if K is): a
    shorter dot product is mostly masked lanes (100000 x 3 @ 3 x 3: 2.3 ms
    as dot products against 0.57 ms); one column or row along any K, one
    masked step of k per element of C against a register tile masked to
    one column (f64, 100000 x 3 @ 3 x 1: 779 -> 168 us, NumPy 85; 5000 x 8
    @ 8 x 1: 50 -> 12 us, NumPy 13; 1 x 3 @ (5000 x 3).T: 359 -> 9.4 us,
    NumPy 4.4). And a tiny C of one element with A read
    transposed (`x.T @ y` of static K x 1 vectors) is one `matc.dot` of x
    as a 1 x K matrix, not the plain loops' scalar chain (K = 100000 f64:
    84 -> 20 us, NumPy 19 us).

    With `vector-bits` set, a tagged product whose N is static and fits in
    one vector register (N <= vector-bits / element bits) is tagged
    `"f32_narrow"` or `"f64_narrow"` instead: the schedule gives it register
    tiles one vector wide, not the model's NR (two vectors on x86) masked
    down to N, whose masked rows cost compile time and run time (measured
    on Zen 4, f64, N = 8: 1024 LLVM instructions for the product's
    function, masked and flattened into scalars). An f32 N of at most half a
    vector is tagged `"f32_narrow_half"`: register tiles half a vector wide
    (N = 8 on AVX-512 in ymm registers; in zmm ones masked to their lower
    half, LLVM blends the upper half back after every multiply-add:
    256 x 256 @ 256 x 8 from Python, Zen 4, 43 us -> 13 us).

    ```mlir
    %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>)
                       outs(%c : tensor<?x?xf32>) -> tensor<?x?xf32>
    // becomes
    %small = arith.cmpi ule, %elements, %max : index
    %r = scf.if %small -> (tensor<?x?xf32>) {
      %0 = linalg.matmul {matc.codegen = "matmul_unpacked_f32"} ins(...)
      scf.yield %0 : tensor<?x?xf32>
    } else {
      %0 = linalg.matmul ins(...)
      scf.yield %0 : tensor<?x?xf32>
    }
    ```

    A product whose N is static and at most `narrow-f32` (`narrow-f64`)
    columns, the packed schedule's NR, is unpacked whatever M when B has at
    most `max-elements` elements (tested at run time when K is not
    static): packing would copy all of A for at most one register tile's
    width of columns, and read it twice, while B stays in the L2 (measured
    on Zen 5, 1 thread, 1024 x 1024 @ 1024 x 16: f32 0.66 -> 0.41-0.58 ms,
    f64 0.97-1.04 -> 0.36-0.38 ms, the time of reading A once from memory).

    The blocks of dot products of a few columns each read all of A: with
    `few-columns-max-lhs-bytes` set (matc: the target's last-level cache,
    L3 or else L2), more than two blocks (N > 8) of an A of more bytes
    (tested at run time unless M and K are static) are left to the other
    branches, where A is read once (Zen 5, 1 thread, f32, from Python, 16 x
    200000 @ 200000 x 16: 12.6 ms in 4 blocks, 4.8 ms packed; two blocks
    from memory still beat packing: f64 1000 x 4000 @ 4000 x 8 4.2 ms, 5.5
    packed).

    matc sets `max-elements` from the target's model (a sixteenth of the
    L2 of a core in bytes: 131072 elements, products up to 256 x 256 x 256,
    for 2 MiB) and `max-rhs-elements` (a sixteenth of the L1 in bytes;
    lib/Target/MatmulModel.cpp); 0 tags nothing; `vector-bits` is the
    target's.

    With `vector-bits` set, a vector-matrix product (one row or column of
    C, a matrix read row by row) whose C is more than one vector and less
    than one tile of 2048 bits is tagged `matc.vector_matrix_carried` =
    "f32" or "f64", with C's width in registers (elements, whole vectors)
    in `matc.vector_matrix_width = #dlti.map<"width" = W : i64>`, which
    the schedule reads with `transform.dlti.query`: C is read once, carried
    in registers across all of k and written once. A static C gets its own
    vectors; a run-time one the fewest of 2, 4, 8 ... vectors that hold it,
    behind tests of its length.
  }];
  let options = [
    Option<"maxElements", "max-elements", "int64_t", /*default=*/"131072",
           "Most elements of A and B together computed unpacked">,
    Option<"maxRhsElements", "max-rhs-elements", "int64_t", /*default=*/"3072",
           "Most elements of a static B computed unpacked whatever M">,
    Option<"vectorBits", "vector-bits", "int64_t", /*default=*/"0",
           "Bits of a vector register: an unpacked product whose static N "
           "fits in one vector is tagged \"f32_narrow\" or \"f64_narrow\", "
           "and a vector-matrix product whose C fits in one vector is split "
           "along k (matc.vector_matrix_split; 0: neither)">,
    Option<"narrowF32", "narrow-f32", "int64_t", /*default=*/"0",
           "Most columns of a static N of an f32 product computed unpacked "
           "whatever M, when K x N <= max-elements (the packed schedule's "
           "NR; 0: never)">,
    Option<"narrowF64", "narrow-f64", "int64_t", /*default=*/"0",
           "As narrow-f32, for f64 products">,
    Option<"maxFewColumnsLhsBytes", "few-columns-max-lhs-bytes", "int64_t",
           /*default=*/"0",
           "Most bytes of A for a few columns of a run-time N computed as "
           "blocks of dot products, each reading all of A (0: no limit)">,
    Option<"unpackedRowsF32", "unpacked-rows-f32", "int64_t",
           /*default=*/"0",
           "Rows of the register tiles of unpacked f32 products "
           "(matrix-codegen's: min(MR, 8)): an M of exactly this many is "
           "computed unpacked whatever K and N, as M <= 4 (0: only M <= 4)">,
    Option<"unpackedRowsF64", "unpacked-rows-f64", "int64_t",
           /*default=*/"0", "As unpacked-rows-f32, for f64 products">,
  ];
  let dependentDialects = [
    "::mlir::affine::AffineDialect",
    "::mlir::arith::ArithDialect",
    "::mlir::DLTIDialect",
    "::mlir::scf::SCFDialect",
    "::mlir::tensor::TensorDialect",
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

def MatrixSplitDeallocs : Pass<"matrix-split-deallocs"> {
  let summary = "Split a bufferization.dealloc of buffers that cannot alias "
                "into one per buffer";
  let description = [{
    The ownership-based buffer deallocation frees the buffers a block owns
    with one `bufferization.dealloc` at its end. Unless it can prove that
    they do not alias, that op is lowered to a run-time test of every pair
    of pointers (`dealloc_helper`), and `matrix-free-buffers-early` cannot
    move the free of any of them to its last use: in a `main` calling Mat
    functions, every result stays in memory to the end of the program, and
    the end of `main` tests all of them against each other.

    `buffer-deallocation-simplification` proves it for `memref.alloc`s, but
    not for the results of calls. A result of a call of a function of the
    module, though, is a new buffer: under the deallocation's function
    boundary ABI (results owned by the caller), a function that would
    return an argument or a view of one returns a clone of it. This pass
    splits a `bufferization.dealloc` whose memrefs are all such buffers
    (`memref.alloc` results and call results of functions with a body here,
    directly or through `memref.extract_strided_metadata`'s base buffer),
    each of a different allocation, into one `bufferization.dealloc` per
    memref with the same retained values; a retained value's ownership is
    the `or` of what the split ops say of it.

    ```mlir
    bufferization.dealloc (%a, %r : memref<8xf64>, memref<f64>) if (%c0, %c1)
    // %a: memref.alloc; %r: base buffer of `func.call @mat_f`
    // becomes
    bufferization.dealloc (%a : memref<8xf64>) if (%c0)
    bufferization.dealloc (%r : memref<f64>) if (%c1)
    ```

    Run it after `buffer-deallocation-simplification` and before
    `bufferization-lower-deallocations`.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect"];
}

def MatrixFreeBuffersEarly : Pass<"matrix-free-buffers-early"> {
  let summary = "Free each buffer right after its last use instead of at the "
                "end of its block";
  let description = [{
    The ownership-based buffer deallocation frees a buffer at the end of the
    block that allocates it. For the straight-line `main` of a Mat program
    that is the end of the program: every matrix it ever computed stays in
    memory until then. This pass moves each `memref.dealloc` of a
    `memref.alloc` of the same block, or of the base buffer of a result of
    a call (in that block) of a function with a body in the module (a new
    buffer, see `matrix-split-deallocs`), up to just after the last op of
    that block that uses the buffer or a view of it (subviews, reshapes, casts:
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
      tiles make up; for a product, the largest it reads or writes, so
      that a narrow result with a long k-range counts by its A (an n x 16
      result of an n x n A is as much work per row as a square one: on the
      2-core Zen 4 VM, `(a @ b) @ v` of 256 x 256 f32 matrices, two such
      products, took 21 us on 2 threads against 37 on one, which it got
      while only its 4096-element results counted); the condition is left
      out when there is none;
    - `min-elements` applies to loops that compute a product (their body
      has a `vector.fma`, `vector.outerproduct` or `vector.contract`: k
      multiply-adds per element; or a `vector.reduction` or
      `vector.multi_reduction`, the sums across the lanes that end the dot
      products of a matrix-vector product, whose result has one element
      per row of A: at 1024 x 1024 f64 on Zen 4, 60 us on 2 threads
      against 118 on one), `min-elements-elementwise` to the others
      (a few operations per element).

    With a false `if`, the region runs on the encountering thread alone
    (OpenMP 5.2, section 10.1.1). The default of `min-elements`, 65536 (a
    256 x 256 result), is where 2 threads started to win on the benchmark
    machines for products. `min-elements-elementwise` has the same default:
    on the 2-core Zen 5 VM, the elementwise chain of bench/ (4 inputs) on 2
    threads took 6.3-8.1 us at 256 x 256 f32 against 12.3-15.3 on 1,
    15.6-20.4 against 28.9-30.7 in f64, 33-38 against 54-55 at 512 x 512
    (f32), and 116-121 against 310-388 at 724 x 724 (f64: two L2s hold what
    one does not). It was 524288 (2^19) after sweeps on two other VMs in
    which 2 threads lost at 512 x 512; those sweeps timed the first
    milliseconds of each process, when Linux still runs OpenMP's worker
    thread on the main thread's CPU and a parallel region costs about 75 us
    (bench/harness.c now warms up for 60 ms first).

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
           /*default=*/"65536",
           "Fewest result elements worth a team of threads for a loop "
           "without products (elementwise)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MatrixPrefetchAccumulatorTiles
    : Pass<"matrix-prefetch-accumulator-tiles"> {
  let summary = "Prefetch the next tile of C in a loop over register tiles";
  let description = [{
    In an `scf.for` over the register tiles of C whose body reads a tile
    (`vector.transfer_read` from a memref, unmasked, minor identity, its
    place depending on the induction variable) as the initial value of the
    accumulators of an inner `scf.for` (the loop over k), directly or
    inside an `scf.if` that yields it (transform.matc.zero_first_accumulation
    selects zeros or the read; the read's memref and indices are then from
    outside the `scf.if`), the tile that the
    next iteration reads is prefetched before the inner loop starts: one
    `memref.prefetch` (write, locality 3: into the L1) per cache line of
    each row of the tile. The last iteration prefetches its own tile. The
    index computations of the read are cloned with the induction variable
    advanced by one step; nothing else changes, and so do no results.
    Loops tagged `matc.vector_matrix_tiles` (the tiles of C of a
    vector-matrix product, Schedule.mlir's `@schedule_vector_matrix`) are
    left alone: their row of C stays in the L1 across the blocks of k.

    Why: in Goto's loop order the packed block of C (MC rows by all
    columns) is larger than the L2 from n = 1024 up, and each register
    tile of it is read once per k-block, from the L3 (measured on an AMD
    EPYC Zen 5 at n = 1024, f32, 1 thread: the reads of the C tiles took
    10% of the product's samples, the FMA loop 76%). The loop over k of a
    tile takes thousands of cycles, so the next tile arrives in time. BLIS's
    micro-kernels prefetch their tile of C likewise (flame/blis
    `kernels/haswell/3/bli_gemm_haswell_asm_d6x8.c`). Runs on memrefs,
    before `convert-vector-to-scf`.

    ```mlir
    scf.for %j = %c0 to %n step %c1 {
      %tile = memref.subview %c[%i, %j, 0, 0] [1, 1, 12, 32] [1, 1, 1, 1] : ...
      %acc = vector.transfer_read %tile[%c0, %c0, %c0, %c0], %pad ... : vector<12x32xf32>
      %r = scf.for %k = ... iter_args(%a = %acc) -> (vector<12x32xf32>) { ... }
      vector.transfer_write %r, %tile[...]
    }
    // gets, before the loop over k:
    //   %next = select(%j + 1 < %n, %j + 1, %j)
    //   %tile_next = memref.subview %c[%i, %next, 0, 0] ...
    //   memref.prefetch %tile_next[%c0, %c0, %c0, %c0], write, locality<3>, data
    //   ... one per 64 bytes: [0, 0, 0, 16], [0, 0, 1, 0], ..., [0, 0, 11, 16]
    ```
  }];
  let options = [
    Option<"lineBytes", "line-bytes", "unsigned", /*default=*/"64",
           "Bytes of a cache line: one prefetch per line of each row">,
    Option<"locality", "locality", "unsigned", /*default=*/"3",
           "Locality hint of the prefetches (3: into the L1, 2: the L2)">,
    Option<"forWrite", "write", "bool", /*default=*/"true",
           "Prefetch for writing (x86: prefetchw)">,
  ];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect"];
}

def MatrixScalarizeExtractedReads
    : Pass<"matrix-scalarize-extracted-reads"> {
  let summary = "Read the elements of a vector that is only taken apart "
                "with scalar loads";
  let description = [{
    A `vector.transfer_read` from a memref whose every use is a
    `vector.extract` of one element becomes one `memref.load` per extracted
    element (upstream's `populateScalarVectorTransferLoweringPatterns`, with
    several uses allowed). A scalar `vector.transfer_write` becomes a
    `memref.store`.

    This is for the register kernels of matrix products: a step of k reads
    MR elements of the packed A as one vector and broadcasts each. LLVM's
    x86 back end splits a `<6 x float>` load into a 128-bit and a 64-bit
    load and broadcasts the last two elements with register shuffles, which
    run on an FMA pipe of Zen 3 (`llvm-mca -mcpu=znver3`: 13 cycles for 24
    FMAs instead of 12). Scalar loads become broadcasts from memory, which
    take a load port only. Runs on memrefs, after bufferization and before
    `convert-vector-to-llvm`.

    ```mlir
    %v = vector.transfer_read %a[%i, %j], %pad {in_bounds = [true]}
        : memref<?x6xf32>, vector<6xf32>
    %e = vector.extract %v[5] : f32 from vector<6xf32>
    // becomes
    %j5 = affine.apply affine_map<()[s0] -> (s0 + 5)>()[%j]
    %e = memref.load %a[%i, %j5] : memref<?x6xf32>
    ```
  }];
  let dependentDialects = ["::mlir::affine::AffineDialect",
                           "::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def MatrixForwardMaskedStores : Pass<"matrix-forward-masked-stores"> {
  let summary = "Forward a masked vector write to the masked read of the "
                "same elements right after it";
  let description = [{
    A `vector.transfer_read` of a memref under a mask, preceded in its
    block (with only memory-effect-free ops in between) by a
    `vector.transfer_write` of the same memref, indices, vector type,
    permutation map and `in_bounds`, under the same mask (the same value,
    or `vector.create_mask` of equal sizes: matrix::isSameMask), becomes
    `arith.select(mask, written, broadcast(padding))`: the lanes the mask
    keeps are the ones just written, the others the read's padding.

    This is the register tile of C of an unpacked product masked in its
    columns, whose fill of zeros is fused into the tile: written as a
    masked store and read back at once as a masked load. Processors do
    not forward a masked store to a load (perf on Zen 5, f64 100000 x 2 @
    2 x 2: a third of the product in that one load). Upstream's
    store-to-load forwarding (vector::transferOpflowOpt, the folds of
    transfer_read) leaves masked transfers alone.
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::vector::VectorDialect"];
}

def MatrixUnmaskRowWrites : Pass<"matrix-unmask-row-writes"> {
  let summary = "Write rows that are narrower in memory than in registers "
                "without masks";
  let description = [{
    A `vector.transfer_write` of a `vector<R x W>` into a memref whose last
    two dimensions are exactly `R x w` (static, contiguous: strides `w` and
    1, written from index 0 in both), with the mask `vector.constant_mask
    [R, w]` (`w < W`: each row's first `w` elements), becomes R unmasked
    writes of one row each into the block collapsed to `R * w` elements:
    row `r` at element `r * w`, `W` elements wide, its last `W - w` ones
    overwritten by row `r + 1`; rows whose `W` elements would pass the end
    of the block are written `w` wide. The writes keep their order.

    This is the packing of A for register tiles of MR = 6 rows on AVX2: a
    block of 8 steps of k is read as 8 x 8 (the rows past MR masked off)
    and transposed by the AVX2 shuffle network, then written as 8 rows of 6.
    As a masked store, each row is a `vmaskmovps`, 42 micro-ops with a
    throughput of one per 12 cycles on AMD's Zen 1 to 3 (`llvm-mca
    -mcpu=znver3`; measured: the packing of A took 12% of a 1024 x 1024 f32
    product on Zen 3); as plain stores, one cycle each. Runs on memrefs,
    before `convert-vector-to-scf`.

    ```mlir
    %mask = vector.constant_mask [8, 6] : vector<8x8xi1>
    vector.transfer_write %v, %m[%p, %c0, %c0], %mask {in_bounds = [true, true]}
        : vector<8x8xf32>, memref<1x8x6xf32, strided<[1920, 6, 1], offset: ?>>
    // becomes
    %flat = memref.collapse_shape %m [[0], [1, 2]] : ... into memref<1x48xf32, ...>
    %r0 = vector.extract %v[0] : vector<8xf32> from vector<8x8xf32>
    vector.transfer_write %r0, %flat[%p, %c0] {in_bounds = [true]} : ...
    // ... rows 1 to 6 at 6, 12, ..., 36, 8 wide; row 7 at 42, 6 wide:
    %r7 = vector.extract %v[7] : vector<8xf32> from vector<8x8xf32>
    %s7 = vector.extract_strided_slice %r7 {offsets = [0], sizes = [6], strides = [1]}
    vector.transfer_write %s7, %flat[%p, %c42] {in_bounds = [true]} : ...
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::vector::VectorDialect"];
}

def MatrixGuardMaskedRows : Pass<"matrix-guard-masked-rows"> {
  let summary = "Access only the rows a mask keeps of 2-D masked vector "
                "reads and writes";
  let description = [{
    A 2-D `vector.transfer_read` or `vector.transfer_write` of a memref,
    with a minor identity map, in bounds in its rows (`in_bounds = [true,
    ...]`, as the vectorizer marks a masked access), whose mask may leave
    whole rows out (a `vector.create_mask` whose first size is not a
    constant of at least the vector's rows, or a `vector.constant_mask` of
    fewer), accesses only the rows the mask keeps:

    - a static number of rows: the access is marked possibly out of bounds
      in its rows (`in_bounds = [false, ...]`, the mask kept), so that
      `convert-vector-to-scf{full-unroll}` guards each row's 1-D access by
      `row < memref.dim(base, 0)`, and the guards of the rows past the
      memref's fold away;
    - a run-time number: rows past a constant upper bound of it
      (`ValueBoundsConstraintSet`; the packing of A reads blocks of 16 rows
      masked to min(MR, ...) = 12 at most) are dropped from the access (a
      read's rows inserted into a vector of its padding, a write's taken
      from its vector); then, behind an `scf.if` on the mask keeping every
      row, the access as it is, else a loop over the rows it keeps, one 1-D
      access of each with the columns' mask, through a buffer of the
      vector on the stack (made once per vector type at the start of the
      function, or of the innermost `scf.parallel` body, a thread's own:
      not in a `memref.alloca_scope`, which finalize-memref-to-llvm would
      lower into blocks inside the `scf.if`). Whole blocks keep their one
      masked access: a guard per row of each of them cost the packing of a
      transposed B 5-10% of an f64 product at n = 1000 (Zen 5), and the
      loop keeps the code small (unrolled guards in a second copy of each
      access added 0.2 s to the -O2 compile of a file of two products).
      This for a mask made in the innermost loop around the access (a
      block's mask, as the blocks of a copy have);
    - a run-time number with a mask made outside that loop (a register
      tile's reads of A along k, masked at the edge of M; the packing of a
      B read transposed in blocks of 32 rows along k, masked to N): one
      1-D access per row up to the constant bound, a row the mask leaves
      out accessed at the first row with every lane off. The rows' indices
      and masks are then of values defined outside the loop, which LLVM
      hoists, where a test per access would branch at every step of k.

    Nothing changes in what is read or written. A masked load or store with
    every lane off still computes its address, and on AMD's Zen 4 and Zen 5
    one that reaches an unmapped page is a microcode assist (hundreds of
    cycles). The blocks of the transposed copies of B that unpacked
    products read are such accesses at the end of a copy with fewer rows
    than a vector's lanes (K < 8 f64): each masked-off row is a whole row of
    the copy further on (measured, Zen 5, f64, 1 thread, from Python: `a @
    b.T` with a 2 x 1 and b 100000 x 1 took 13.1 ms, NumPy 0.18; after,
    0.14 ms), and the packing of B read transposed for a few columns of C
    (`a.T @ b.T` of 5 x 20000 f32 operands: 27 of a block's 32 rows masked
    off, 2.0 ms, NumPy 0.2; after, 0.13 ms). Runs on memrefs, before
    `convert-vector-to-scf`.

    ```mlir
    %mask = vector.create_mask %rows, %cols : vector<8x8xi1>
    vector.transfer_write %v, %m[%c0, %c0], %mask {in_bounds = [true, true]}
        : vector<8x8xf64>, memref<?x?xf64, strided<[?, 1], offset: ?>>
    // becomes (%buffer = memref.alloca() : memref<vector<8x8xf64>> at the
    // start of the function)
    %whole = arith.cmpi sge, %rows, %c8 : index
    scf.if %whole {
      vector.transfer_write %v, %m[%c0, %c0], %mask {in_bounds = [true, true]}
          : vector<8x8xf64>, memref<?x?xf64, strided<[?, 1], offset: ?>>
    } else {
      %lines = vector.type_cast %buffer
          : memref<vector<8x8xf64>> to memref<8xvector<8xf64>>
      %row_mask = vector.create_mask %cols : vector<8xi1>
      memref.store %v, %buffer[] : memref<vector<8x8xf64>>
      scf.for %r = %c0 to %rows step %c1 {
        %line = memref.load %lines[%r] : memref<8xvector<8xf64>>
        vector.transfer_write %line, %m[%r, %c0], %row_mask {in_bounds = [true]}
            : vector<8xf64>, memref<?x?xf64, strided<[?, 1], offset: ?>>
      }
    }
    ```
  }];
  let dependentDialects = ["::mlir::arith::ArithDialect",
                           "::mlir::memref::MemRefDialect",
                           "::mlir::scf::SCFDialect",
                           "::mlir::vector::VectorDialect"];
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

def MatrixSplitModule : Pass<"matrix-split-module", "ModuleOp"> {
  let summary = "Move the functions of a module into nested modules that "
                "the later passes lower in parallel";
  let description = [{
    MLIR runs a pass on the ops its pass manager is nested on in parallel,
    one thread each, but the conversions to the LLVM dialect that add
    declarations (memref, OpenMP, control flow, func) are anchored on the
    module, so a program of many functions is lowered on one core. This
    pass partitions the module's function definitions into `parts` nested
    `builtin.module`s of about equal size (ops counted, nested ones
    included; Graham's rule: largest first, each to the least loaded part),
    so that the passes after it, nested on `builtin.module`, lower the
    parts in parallel; `matrix-merge-modules` puts them back together.

    Each part gets, besides its functions (and, in part 0, the ops that are
    no symbol):
    - a private declaration (no body, no discardable attributes) of every
      function of another part it calls;
    - a copy of every other symbol it refers to (globals, external
      declarations), transitively.
    The module's attributes (data layout, target) go on every part.

    It runs after bufferization and deallocation, when no signature changes
    any more (matc's pipeline: at the start of the LLVM stage). Before, a
    call to a declaration is opaque to the interprocedural passes: One-Shot
    Bufferize copies the arguments of such a call and the deallocation
    checks at run time whether its result aliases them (measured on 300
    small functions, each called from `main`: 10-11 s instead of 6-7 s).

    With `parts` <= 1, or fewer than `min-ops` ops in all, the module
    becomes one nested module.

    ```mlir
    // matc-opt --matrix-split-module="parts=2 min-ops=0"
    func.func @f(%a: memref<8xf64>) { ... call @g(%a) ... }
    func.func @g(%a: memref<8xf64>) { ... }
    // becomes
    module { func.func @f(...) { ... }  func.func private @g(memref<8xf64>) }
    module { func.func @g(...) { ... } }
    ```

    Errors: a module that already holds a nested module.
  }];
  let options = [
    Option<"parts", "parts", "unsigned", /*default=*/"2",
           "Most nested modules to make (threads that lower them)">,
    Option<"minOps", "min-ops", "int64_t", /*default=*/"4000",
           "Fewest ops (nested ones counted) of a module split in more than "
           "one part">,
  ];
}

def MatrixMergeModules : Pass<"matrix-merge-modules", "ModuleOp"> {
  let summary = "Move the ops of nested modules back into their parent, "
                "one definition per symbol";
  let description = [{
    Undoes `matrix-split-module` after the nested passes: every op of each
    nested `builtin.module` moves into the parent, in order. A symbol
    several parts hold (a copied global or external declaration, a function
    declared where it is called) is kept once: a declaration goes when a
    definition or another declaration of the symbol is there; of two
    definitions that are the same op (OperationEquivalence, locations
    ignored) the second goes. Two different definitions of one private
    symbol (say, globals two parts' conversions named alike) are both kept,
    the later one renamed `<name>_<n>` in its part (SymbolTable::rename,
    every use in the part updated) before anything of the part moves.

    Errors: two different definitions of one public symbol; a declaration
    and a definition (or two declarations) of one function with different
    types, which a pass of one part changing a signature would make.
  }];
}

#endif // MATRIX_CODEGEN_PASSES_TD
