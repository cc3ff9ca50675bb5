//===- OpenMPIfMultipleIterations.cpp - No team for a single iteration ----===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-omp-if-multiple-iterations pass (Passes.td): omp.parallel gets
// `if(trip count > 1)`, so that a parallel loop of one tile does not fork a
// team of threads.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/OpenMP/OpenMPDialect.h"
#include "mlir/IR/Builders.h"

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

namespace {
struct MatrixOpenMPIfMultipleIterations
    : matrix::impl::MatrixOpenMPIfMultipleIterationsBase<
          MatrixOpenMPIfMultipleIterations> {
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
      Value many = arith::CmpIOp::create(builder, loc,
                                         arith::CmpIPredicate::sgt, trips, one);
      parallel.getIfExprMutable().assign(many);
    });
  }
};
} // namespace
