//===- Pipelines.cpp - Lowering pipelines from Matrix to LLVM -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything below Linalg is upstream passes, written here in the textual
// pipeline syntax so that each stage reads exactly as one would type it to
// mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Pipelines.h"

#include "MatrixDialect/Conversion/Passes.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::matrix;

/// The upstream passes of each stage, in the textual pipeline syntax.
static StringRef getStagePipeline(LoweringStage stage) {
  switch (stage) {
  case LoweringStage::Matrix:
    return "canonicalize";
  case LoweringStage::Linalg:
    return "convert-matrix-to-linalg, canonicalize, cse";
  case LoweringStage::Affine:
    // Function results are returned in fresh buffers owned by the caller;
    // identity layouts keep every memref contiguous and row-major.
    return "one-shot-bufferize{bufferize-function-boundaries "
           "function-boundary-type-conversion=identity-layout-map}, "
           "canonicalize, buffer-deallocation-pipeline, "
           "convert-bufferization-to-memref, "
           "convert-linalg-to-affine-loops, canonicalize, cse";
  case LoweringStage::LLVM:
    return "lower-affine, convert-scf-to-cf, expand-strided-metadata, "
           "finalize-memref-to-llvm, convert-math-to-llvm, "
           "convert-arith-to-llvm, convert-index-to-llvm, convert-cf-to-llvm, "
           "convert-func-to-llvm, reconcile-unrealized-casts, canonicalize";
  }
  llvm_unreachable("unknown lowering stage");
}

/// The stages are written in the textual syntax, so every pass they name
/// must be registered before one is parsed.
static void registerPipelinePasses() {
  static const bool registered = [] {
    registerAllPasses();
    registerConvertMatrixToLinalgPass();
    return true;
  }();
  (void)registered;
}

void mlir::matrix::addLoweringStage(OpPassManager &pm, LoweringStage stage,
                                    const LoweringOptions &options) {
  registerPipelinePasses();
  if (failed(parsePassPipeline(getStagePipeline(stage), pm)))
    llvm::report_fatal_error("matc: malformed built-in pass pipeline");
}

void mlir::matrix::buildMatrixLoweringPipeline(OpPassManager &pm,
                                               LoweringStage last,
                                               const LoweringOptions &options) {
  for (LoweringStage stage :
       {LoweringStage::Matrix, LoweringStage::Linalg, LoweringStage::Affine,
        LoweringStage::LLVM}) {
    addLoweringStage(pm, stage, options);
    if (stage == last)
      return;
  }
}

void mlir::matrix::registerMatrixPipelines() {
  registerPipelinePasses();
  auto registerUpTo = [](StringRef name, StringRef summary,
                         LoweringStage last) {
    PassPipelineRegistration<>(name, summary, [last](OpPassManager &pm) {
      buildMatrixLoweringPipeline(pm, last);
    });
  };
  registerUpTo("matrix-to-linalg",
               "Lower the Matrix dialect to Linalg on tensors",
               LoweringStage::Linalg);
  registerUpTo("matrix-to-affine",
               "Lower the Matrix dialect to affine loops on memrefs",
               LoweringStage::Affine);
  registerUpTo("matrix-to-llvm",
               "Lower the Matrix dialect to the LLVM dialect (what matc runs)",
               LoweringStage::LLVM);
}
