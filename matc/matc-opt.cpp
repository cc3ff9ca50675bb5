//===- matc-opt.cpp - mlir-opt with the Matrix dialect --------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// MlirOptMain with every upstream dialect and pass, the Matrix dialect, its
// conversion pass, the passes of the distributed pipeline (with the memory
// effects of mpi ops they need) and the matc lowering pipelines
// (`matrix-to-linalg`, `matrix-to-affine`, `matrix-to-llvm`), so each can be
// run alone.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/TransformOps.h"
#include "MatrixDialect/Conversion/Passes.h"
#include "MatrixDialect/Distributed/Passes.h"
#include "MatrixDialect/IR/Dialect.h"
#include "MatrixDialect/Pipelines.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/InitAllPasses.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

int main(int argc, char **argv) {
  mlir::DialectRegistry registry;
  mlir::registerAllDialects(registry);
  mlir::registerAllExtensions(registry);
  mlir::registerAllPasses();
  registry.insert<mlir::matrix::MatrixDialect>();
  mlir::matrix::registerMPIMemoryEffectModels(registry);
  mlir::matrix::registerMatrixTransformExtension(registry);
  mlir::matrix::registerMatrixPipelines();
  mlir::matrix::registerMatrixDistributedPasses();
  mlir::matrix::registerMatrixPrepareCInterface();
  mlir::matrix::registerMatrixExportCInterface();
  return mlir::asMainReturnCode(mlir::MlirOptMain(
      argc, argv, "matc-opt: MLIR optimizer driver with the Matrix dialect\n",
      registry));
}
