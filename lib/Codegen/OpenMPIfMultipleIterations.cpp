//===- OpenMPIfMultipleIterations.cpp - No team for a single iteration ----===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-omp-if-multiple-iterations pass (Passes.td): omp.parallel gets
// `if(trip count > 1 && elements >= min-elements)` (elements written; for
// a product, read or written), so that a
// parallel loop of one tile, or of little work, does not fork a team of
// threads.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/SetVector.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXOPENMPIFMULTIPLEITERATIONS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// The omp.loop_nest of the omp.wsloop that makes up `parallel`, if its
/// bounds are all defined outside `parallel` and exclusive.
static omp::LoopNestOp getWorksharingLoopNest(omp::ParallelOp parallel) {
  omp::LoopNestOp found;
  parallel.getRegion().walk([&](omp::LoopNestOp nest) {
    if (found || !isa<omp::WsloopOp>(nest->getParentOp()))
      return WalkResult::interrupt();
    found = nest;
    return WalkResult::advance();
  });
  if (!found || found.getLoopInclusive())
    return nullptr;
  for (Value bound : found->getOperands())
    if (parallel->isAncestor(bound.getParentRegion()->getParentOp()))
      return nullptr;
  return found;
}

/// The memrefs defined outside `parallel` that ops inside it write to
/// (through views: subview, reinterpret_cast, ...): the results the loop
/// computes; with `reads`, also those they read (the operands). Buffers
/// allocated inside (per-thread packed tiles) do not count.
static SmallVector<Value> getOutsideBuffers(omp::ParallelOp parallel,
                                            bool reads) {
  llvm::SetVector<Value> buffers;
  parallel.getRegion().walk([&](MemoryEffectOpInterface op) {
    SmallVector<MemoryEffects::EffectInstance> effects;
    op.getEffects(effects);
    for (const MemoryEffects::EffectInstance &effect : effects) {
      if (!isa<MemoryEffects::Write>(effect.getEffect()) &&
          !(reads && isa<MemoryEffects::Read>(effect.getEffect())))
        continue;
      Value buffer = effect.getValue();
      if (!buffer || !isa<MemRefType>(buffer.getType()))
        continue;
      while (auto view = buffer.getDefiningOp<ViewLikeOpInterface>())
        buffer = view.getViewSource();
      if (!parallel->isAncestor(buffer.getParentRegion()->getParentOp()))
        buffers.insert(buffer);
    }
  });
  return buffers.takeVector();
}

/// Whether `parallel` computes a matrix product: its body has the FMAs of a
/// register kernel, or the additions across the lanes of a vector that end
/// the dot products of a matrix-vector product (Schedule.mlir's
/// @tile_dot_rows; Mat has no other reductions). Elementwise loops do
/// little work per element written and get a higher threshold.
static bool computesProduct(omp::ParallelOp parallel) {
  return parallel.getRegion()
      .walk([](Operation *op) {
        return isa<vector::FMAOp, vector::OuterProductOp,
                   vector::ContractionOp, vector::ReductionOp,
                   vector::MultiDimReductionOp>(op)
                   ? WalkResult::interrupt()
                   : WalkResult::advance();
      })
      .wasInterrupted();
}

namespace {
struct MatrixOpenMPIfMultipleIterations
    : matrix::impl::MatrixOpenMPIfMultipleIterationsBase<
          MatrixOpenMPIfMultipleIterations> {
  using MatrixOpenMPIfMultipleIterationsBase::
      MatrixOpenMPIfMultipleIterationsBase;

  void runOnOperation() override {
    getOperation()->walk([&](omp::ParallelOp parallel) {
      if (parallel.getIfExpr())
        return;
      omp::LoopNestOp nest = getWorksharingLoopNest(parallel);
      if (!nest)
        return;
      OpBuilder builder(parallel);
      Location loc = parallel.getLoc();
      Value trips;
      for (auto [lb, ub, step] :
           llvm::zip(nest.getLoopLowerBounds(), nest.getLoopUpperBounds(),
                     nest.getLoopSteps())) {
        Value span = arith::SubIOp::create(builder, loc, ub, lb);
        Value count = arith::CeilDivSIOp::create(builder, loc, span, step);
        trips = trips ? arith::MulIOp::create(builder, loc, trips, count)
                      : count;
      }
      Value one = arith::ConstantOp::create(
          builder, loc, builder.getIntegerAttr(trips.getType(), 1));
      Value worth = arith::CmpIOp::create(
          builder, loc, arith::CmpIPredicate::sgt, trips, one);
      // Elements: the largest buffer the loop writes; for a product, the
      // largest it reads or writes, so that a narrow result with a long
      // k-range (an n x 16 result of an n x n A: n multiply-adds per
      // element) counts by its A, as a square result of that A does.
      bool product = computesProduct(parallel);
      Value written;
      for (Value buffer : getOutsideBuffers(parallel, /*reads=*/product)) {
        auto type = cast<MemRefType>(buffer.getType());
        Value elements = arith::ConstantIndexOp::create(builder, loc, 1);
        for (int64_t dim = 0; dim < type.getRank(); ++dim)
          elements = arith::MulIOp::create(
              builder, loc, elements,
              memref::DimOp::create(builder, loc, buffer, dim));
        written = written ? arith::MaxSIOp::create(builder, loc, written,
                                                   elements)
                          : elements;
      }
      if (written) {
        Value threshold = arith::ConstantIndexOp::create(
            builder, loc,
            product ? minElements : minElementsElementwise);
        worth = arith::AndIOp::create(
            builder, loc, worth,
            arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge,
                                  written, threshold));
      }
      parallel.getIfExprMutable().assign(worth);
    });
  }
};
} // namespace
