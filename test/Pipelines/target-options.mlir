// The registered pipelines take the target like matc does: matc-opt builds
// the same passes with the sizes of the target's model
// (lib/Target/MatmulModel.cpp), and the masked accesses split to the width
// of its registers.
// RUN: matc-opt %s --pass-pipeline='builtin.module(matrix-to-llvm{target-cpu=znver3})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ZEN3
// The rows of the unpacked register tiles: min(MR, 8).
// ZEN3: matrix-version-products{{.*}}unpacked-rows-f32=6 unpacked-rows-f64=6
// ZEN3: matrix-codegen{{.*}}entry-point=matc_codegen matmul-f32={6,16,320,516,304} matmul-f64={6,8,256,516,192} threads=1 vector-bits=256 x86-avx=true
// ZEN3: matrix-bound-tile-temporaries{max-bytes=2242560}
// ZEN3: matrix-split-masked-vectors{max-bits=256}
// Empty tensors are eliminated function by function, in parallel: the
// module-wide pass analysed every function together, serially (0.21-0.22 s
// wall for 300 small functions at -O2, against 0.05 s nested), for the same
// IR on every test program. They are eliminated before the products are
// outlined (a C entry point's product is computed in its result buffer:
// Pipelines/product-into-result.mat) and again before bufferization, each
// time after shared destinations are split (matc/mpi/shared-fill.mat).
// RUN: matc-opt %s --pass-pipeline='builtin.module(matrix-to-affine{target-cpu=znver3})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=NESTED
// NESTED: matrix-split-shared-destinations,
// NESTED-NEXT: func.func(
// NESTED-NEXT: eliminate-empty-tensors
// NESTED-NEXT: ),
// NESTED-NEXT: matrix-outline-products{
// NESTED: matrix-split-shared-destinations,
// NESTED-NEXT: func.func(
// NESTED-NEXT: eliminate-empty-tensors
// NESTED-NEXT: ),
// NESTED-NEXT: one-shot-bufferize{
// RUN: matc-opt %s --pass-pipeline='builtin.module(matrix-to-llvm{target-cpu=sapphirerapids})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPR
// SPR: matrix-version-products{{.*}}unpacked-rows-f32=8 unpacked-rows-f64=8
// SPR: matrix-codegen{{.*}}matmul-f32={12,32,256,516,512} matmul-f64={12,16,192,516,512} threads=1 vector-bits=512 x86-avx=true
// f64's blocks of f32's rows count more than the budget (their C part is not
// on the stack): the packed tiles on the stack stay within the budget.
// SPR: matrix-bound-tile-temporaries{max-bytes=2359296}
// SPR: matrix-promote-tile-buffers{max-bytes=2359296 max-scope-bytes=2359296}
// SPR: matrix-split-masked-vectors{max-bits=512}
// Tiles and caches replaced; other architectures (no x86 shuffles).
// RUN: matc-opt %s --pass-pipeline='builtin.module(matrix-to-affine{target-cpu=sapphirerapids target-l2=512K matmul-f64=8,16,128,256,256})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=OVERRIDE
// OVERRIDE: matmul-f32={12,32,256,516,448} matmul-f64={8,16,128,256,256} threads=1 vector-bits=512
// RUN: matc-opt %s --pass-pipeline='builtin.module(matrix-to-affine{target-triple=aarch64-linux-gnu})' --dump-pass-pipeline -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARM
// ARM: vector-bits=128 x86-avx=false
// Errors.
// RUN: not matc-opt %s --pass-pipeline='builtin.module(matrix-to-llvm{target-cpu=znver9})' 2>&1 | FileCheck %s --check-prefix=BADCPU
// BADCPU: unknown CPU 'znver9' for target 'x86_64-pc-linux-gnu'
// RUN: not matc-opt %s --pass-pipeline='builtin.module(matrix-to-llvm{target-triple=i686-linux-gnu})' 2>&1 | FileCheck %s --check-prefix=BITS32
// BITS32: target 'i686-unknown-linux-gnu' is not 64-bit
// RUN: not matc-opt %s --pass-pipeline='builtin.module(matrix-to-llvm{matmul-f32=12,32,256})' 2>&1 | FileCheck %s --check-prefix=TILES
// TILES: matmul-f32: tiles are 5 positive sizes mr,nr,kc,mc,nc with mc a multiple of mr and nc a multiple of nr
// RUN: not matc-opt %s --pass-pipeline='builtin.module(matrix-to-llvm{target-l2=big})' 2>&1 | FileCheck %s --check-prefix=SIZE
// SIZE: target-l2: 'big' is not a size (e.g. 48K, 2M)
// The pass alone checks its sizes too.
// RUN: not matc-opt %s --matrix-codegen='matmul-f32=12,32,256,100,512' 2>&1 | FileCheck %s --check-prefix=PASS
// PASS: matrix-codegen: matmul-f32: tiles are 5 positive sizes
// RUN: not matc-opt %s --matrix-codegen='vector-bits=96' 2>&1 | FileCheck %s --check-prefix=BITS
// BITS: matrix-codegen: vector-bits must be a power of two, at least 64
func.func @f() {
  return
}
