//===- SplitDeallocs.cpp - The matrix-split-deallocs pass -----------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Splits a bufferization.dealloc of buffers that cannot alias into one per
// buffer (Passes.td). Upstream's buffer-deallocation-simplification does
// the same when its BufferOriginAnalysis proves the buffers distinct
// (mlir/lib/Dialect/Bufferization/Transforms/
// BufferDeallocationSimplification.cpp); this pass adds what matc knows of
// call results.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/SymbolTable.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXSPLITDEALLOCS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

Value mlir::matrix::getDistinctAllocation(Value memref) {
  if (auto metadata = memref.getDefiningOp<memref::ExtractStridedMetadataOp>();
      metadata && metadata.getBaseBuffer() == memref)
    memref = metadata.getSource();
  if (memref.getDefiningOp<memref::AllocOp>())
    return memref;
  auto call = memref.getDefiningOp<func::CallOp>();
  if (!call)
    return nullptr;
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  return callee && !callee.isExternal() ? memref : nullptr;
}

namespace {
struct MatrixSplitDeallocs
    : matrix::impl::MatrixSplitDeallocsBase<MatrixSplitDeallocs> {
  void runOnOperation() override {
    SmallVector<bufferization::DeallocOp> deallocs;
    getOperation()->walk(
        [&](bufferization::DeallocOp dealloc) { deallocs.push_back(dealloc); });
    for (bufferization::DeallocOp dealloc : deallocs)
      split(dealloc);
  }

  void split(bufferization::DeallocOp dealloc) {
    if (dealloc.getMemrefs().size() < 2)
      return;
    llvm::SmallPtrSet<Value, 16> allocations;
    for (Value memref : dealloc.getMemrefs()) {
      Value allocation = matrix::getDistinctAllocation(memref);
      if (!allocation || !allocations.insert(allocation).second)
        return;
    }
    OpBuilder builder(dealloc);
    Location loc = dealloc.getLoc();
    SmallVector<Value> ownership;
    for (auto [memref, condition] :
         llvm::zip(dealloc.getMemrefs(), dealloc.getConditions())) {
      auto one = bufferization::DeallocOp::create(
          builder, loc, ValueRange{memref}, ValueRange{condition},
          dealloc.getRetained());
      if (ownership.empty()) {
        ownership.assign(one.getUpdatedConditions().begin(),
                         one.getUpdatedConditions().end());
        continue;
      }
      for (auto [owned, updated] :
           llvm::zip(ownership, one.getUpdatedConditions()))
        owned = arith::OrIOp::create(builder, loc, owned, updated);
    }
    dealloc.replaceAllUsesWith(ownership);
    dealloc.erase();
  }
};
} // namespace
