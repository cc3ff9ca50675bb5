//===- ParallelCodegen.h - LLVM optimization and codegen on threads -*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM's optimization pipeline and code generator run on one function at a
// time but on one thread per LLVMContext: on a long program they are most of
// matc's compile time (issue 13). This splits an LLVM module into
// partitions of whole functions, each optimized and compiled to an object
// on a thread of its own, in a context of its own (the scheme of LLVM's
// parallel code generation for LTO, llvm/lib/CodeGen/ParallelCG.cpp: each
// partition goes through bitcode into its new context).
//
// Unlike llvm::SplitModule (llvm/lib/Transforms/Utils/SplitModule.cpp),
// which makes internal symbols shared by partitions external and hidden,
// the partitions here keep every internal symbol internal: each partition
// gets its own copy of the internal functions and constants its functions
// use. The objects can then be linked, or merged into one relocatable
// object, next to any other object without a clash of names.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_TARGET_PARALLELCODEGEN_H
#define MATRIXDIALECT_TARGET_PARALLELCODEGEN_H

#include "mlir/Support/LLVM.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/CodeGen.h"
#include "llvm/Support/Error.h"

#include <memory>

namespace llvm {
class Module;
class TargetMachine;
class raw_pwrite_stream;
} // namespace llvm

namespace mlir {
class TimingScope;

namespace matrix {

struct TargetDescription;

/// Runs `machine`'s code generator (a legacy pass manager, as llc) on
/// `module` into `os`: an object or assembly, as `type` says. Fails if the
/// target cannot emit that kind of file.
llvm::Error generateCode(llvm::Module &module, llvm::TargetMachine &machine,
                         llvm::CodeGenFileType type,
                         llvm::raw_pwrite_stream &os);

/// Optimizes `module` with LLVM's -O`optLevel` pipeline for `machine` (null:
/// no target, as the JIT gives it), as mlir::makeOptimizingTransformer
/// (mlir/ExecutionEngine/OptUtils.h) does, except that no loop is unrolled
/// at run time (for a trip count not known at compile time) unless its
/// metadata asks for it: every loop without `llvm.loop.unroll.*` metadata
/// gets `llvm.loop.unroll.runtime.disable` first. matc's loops come
/// vectorized, and unrolled where it pays, from MLIR: LLVM's runtime
/// unrolling only copied their bodies (the loops of the OpenMP work-sharing
/// constructs, the packing and the remainders of the products) and made
/// LLVM's optimization and code generation a quarter slower (issue 13:
/// 300 small functions, 69,000 instructions after -O2 with it, 47,500
/// without). Loops at -O0 are left alone. Fails as the pipeline fails.
llvm::Error optimizeModule(llvm::Module &module, unsigned optLevel,
                           llvm::TargetMachine *machine);

/// Splits `module` into at most `maxPartitions` partitions that together
/// define what it defines: every external definition (and
/// `llvm.global_ctors` and the other appending globals, in the first) in
/// exactly one, balanced by instruction count (largest first, each to the
/// partition with the fewest instructions). An internal function goes with
/// the functions that call it while that keeps within a partition's share,
/// private call chains before hubs (so LLVM can still inline and drop it);
/// one called from another partition becomes hidden (in `module`). Each
/// partition gets a copy of the small internal definitions its functions
/// reach and declarations of the rest.
/// A partition is the set of the definitions it keeps, as bits indexed by
/// the position of the global value in `module.global_values()` (which
/// bitcode preserves), for extractPartition on a copy of `module`.
/// Partitions get at least `minInstructions` instructions each. Returns no
/// partition when there would be one (a small module) or when the module
/// cannot be split this way: a module with aliases, ifuncs, comdats or
/// module-level inline assembly, or an internal variable that is not
/// constant (whose copies would not be one variable).
SmallVector<llvm::BitVector>
splitModuleForCodegen(llvm::Module &module, unsigned maxPartitions,
                      unsigned minInstructions);

/// Makes `module`, a copy of the module split (read back from its bitcode,
/// possibly lazily), the partition `definitions` of splitModuleForCodegen:
/// the other definitions become external declarations (function bodies not
/// yet read are dropped unread), the rest is read, and declarations nothing
/// uses go. Fails if the bitcode does not read.
llvm::Error extractPartition(llvm::Module &module,
                             const llvm::BitVector &definitions);

/// Optimizes (LLVM's pipeline of `-O<optLevel>`,
/// mlir/ExecutionEngine/OptUtils.h) and compiles to a relocatable object
/// for `target` (llvm::TargetMachine from createTargetMachine) each
/// partition of `module` that splitModuleForCodegen makes, on up to
/// `maxPartitions` threads at once (`module` is written as bitcode once,
/// and each thread reads its partition from it), or `module` itself,
/// optimized in place, when it makes none. `module` must have the
/// target's triple and data layout. Returns the objects, in partition
/// order. Times the split and each partition (wall clock, on its thread) in
/// `timing` if given. Fails if the target has no backend, the bitcode does
/// not read back, the optimization fails or the target cannot emit
/// objects.
llvm::Expected<SmallVector<llvm::SmallString<0>>>
emitObjectsInParallel(llvm::Module &module, const TargetDescription &target,
                      unsigned optLevel, unsigned maxPartitions,
                      unsigned minInstructions, TimingScope *timing = nullptr);

/// The number of instructions below which a partition is not worth a
/// thread: about 17 of issue 13's small functions, 0.3 s of LLVM time on
/// one core (measured on a 2-core AVX-512 Xeon: 300 such functions and the
/// `main` calling them are 87,000 instructions, 9 s of LLVM time), well
/// above what a thread and the bitcode round trip cost.
constexpr unsigned kMinPartitionInstructions = 5000;

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_TARGET_PARALLELCODEGEN_H
