//===- EraseShardGrids.cpp - The matrix-erase-shard-grids pass ------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXERASESHARDGRIDS
#include "MatrixDialect/Distributed/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

namespace {
struct MatrixEraseShardGrids
    : matrix::impl::MatrixEraseShardGridsBase<MatrixEraseShardGrids> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    for (auto grid : llvm::make_early_inc_range(module.getOps<shard::GridOp>()))
      if (SymbolTable::symbolKnownUseEmpty(grid, module))
        grid.erase();
  }
};
} // namespace
