//===- PrefetchAccumulatorTiles.cpp - Prefetch the next tile of C ---------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-prefetch-accumulator-tiles pass: in a loop over the register
// tiles of C whose body reads a tile of C into the accumulators of a loop
// over k, the tile of the next iteration is prefetched (`memref.prefetch`,
// one per cache line) before the loop over k starts, so that its read
// finds it in the L1. This is what BLIS's micro-kernels do with C
// (flame/blis kernels/haswell/3/bli_gemm_haswell_asm_d6x8.c, "prefetch c")
// for the same reason: the packed block of C is larger than the L2 and each
// tile is touched once per k-block. See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Accumulators.h"
#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Analysis/SliceAnalysis.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXPREFETCHACCUMULATORTILES
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

scf::ForOp mlir::matrix::getAccumulatingLoop(vector::TransferReadOp read) {
  SmallVector<Value> reads = {read.getResult()};
  // Through the scf.if that selects zeros or the read
  // (transform.matc.zero_first_accumulation).
  if (auto select = dyn_cast<scf::IfOp>(read->getParentOp()))
    for (OpOperand &use : read->getUses())
      if (isa<scf::YieldOp>(use.getOwner()))
        reads.push_back(select.getResult(use.getOperandNumber()));
  SmallVector<Value> values = reads;
  for (Value value : reads)
    for (Operation *user : value.getUsers())
      if (auto broadcast = dyn_cast<vector::BroadcastOp>(user))
        values.push_back(broadcast.getResult());
  for (Value value : values)
    for (Operation *user : value.getUsers())
      if (auto inner = dyn_cast<scf::ForOp>(user))
        if (llvm::is_contained(inner.getInitArgs(), value))
          return inner;
  return nullptr;
}

/// The ops of `loop`'s body that the memref and indices of `read` depend
/// on, in order, if they are all free of side effects and some of them (or
/// the read itself) use the induction variable: the read moves with the
/// loop. Otherwise, none.
static std::optional<SmallVector<Operation *>>
getMovingIndexOps(vector::TransferReadOp read, scf::ForOp loop) {
  Block *body = loop.getBody();
  Value iv = loop.getInductionVar();
  SetVector<Operation *> slice;
  BackwardSliceOptions options;
  options.filter = [&](Operation *op) { return op->getBlock() == body; };
  for (Value operand : read->getOperands())
    if (Operation *def = operand.getDefiningOp();
        def && def->getBlock() == body) {
      (void)getBackwardSlice(def, &slice, options);
      slice.insert(def);
    }
  bool moves = llvm::is_contained(read->getOperands(), iv);
  for (Operation *op : slice) {
    if (!isPure(op))
      return std::nullopt;
    moves |= llvm::is_contained(op->getOperands(), iv);
  }
  if (!moves)
    return std::nullopt;
  SmallVector<Operation *> ops(slice.begin(), slice.end());
  llvm::sort(ops,
             [](Operation *a, Operation *b) { return a->isBeforeInBlock(b); });
  return ops;
}

/// Prefetches, before `inner`, the tile that `read` reads in the next
/// iteration of `loop` (the last iteration prefetches its own tile):
/// `indexOps` (getMovingIndexOps) are cloned with the induction variable
/// advanced by one step.
static void prefetchNextTile(vector::TransferReadOp read, scf::ForOp loop,
                             scf::ForOp inner, ArrayRef<Operation *> indexOps,
                             unsigned lineBytes, unsigned locality,
                             bool forWrite) {
  auto memrefType = cast<MemRefType>(read.getBase().getType());
  ArrayRef<int64_t> shape = read.getVectorType().getShape();
  int64_t elementBytes =
      std::max<int64_t>(1, memrefType.getElementTypeBitWidth() / 8);
  int64_t lineElements = std::max<int64_t>(1, lineBytes / elementBytes);

  OpBuilder builder(inner);
  Location loc = read.getLoc();
  Value iv = loop.getInductionVar();
  Value next = arith::AddIOp::create(builder, loc, iv, loop.getStep());
  Value inRange = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                        next, loop.getUpperBound());
  next = arith::SelectOp::create(builder, loc, inRange, next, iv);
  IRMapping mapping;
  mapping.map(iv, next);
  for (Operation *op : indexOps)
    builder.clone(*op, mapping);
  Value base = mapping.lookupOrDefault(read.getBase());
  SmallVector<Value> indices =
      llvm::map_to_vector(read.getIndices(), [&](Value index) {
        return mapping.lookupOrDefault(index);
      });

  // One prefetch per cache line of each row of the tile: the vector's
  // dimensions are the memref's last ones (a minor identity map), its last
  // dimension is walked by lines, the others by one.
  int64_t rank = memrefType.getRank();
  int64_t vectorRank = shape.size();
  SmallVector<int64_t> position(vectorRank, 0);
  while (position[0] < shape[0]) {
    SmallVector<Value> at(indices);
    for (int64_t d = 0; d < vectorRank; ++d) {
      if (position[d] == 0)
        continue;
      Value &index = at[rank - vectorRank + d];
      if (std::optional<int64_t> constant = getConstantIntValue(index)) {
        index = arith::ConstantIndexOp::create(builder, loc,
                                               *constant + position[d]);
      } else {
        Value offset =
            arith::ConstantIndexOp::create(builder, loc, position[d]);
        index = arith::AddIOp::create(builder, loc, index, offset);
      }
    }
    memref::PrefetchOp::create(builder, loc, base, at, forWrite, locality,
                               /*isDataCache=*/true);
    int64_t d = vectorRank - 1;
    position[d] += lineElements;
    while (d > 0 && position[d] >= shape[d]) {
      position[d] = 0;
      ++position[--d];
    }
  }
}

namespace {
struct MatrixPrefetchAccumulatorTiles
    : matrix::impl::MatrixPrefetchAccumulatorTilesBase<
          MatrixPrefetchAccumulatorTiles> {
  using Base::Base;

  void runOnOperation() override {
    struct Site {
      vector::TransferReadOp read;
      scf::ForOp loop, inner;
      SmallVector<Operation *> indexOps;
    };
    SmallVector<Site> sites;
    getOperation()->walk([&](vector::TransferReadOp read) {
      // In the loop's body, or in the scf.if there that selects zeros or
      // the read (transform.matc.zero_first_accumulation), with its memref
      // and indices from outside the scf.if.
      Operation *parent = read->getParentOp();
      if (auto select = dyn_cast<scf::IfOp>(parent)) {
        if (llvm::any_of(read->getOperands(), [&](Value operand) {
              return select->isAncestor(operand.getParentRegion()->getParentOp());
            }))
          return;
        parent = select->getParentOp();
      }
      // Not over the tiles of a vector-matrix product
      // (Schedule.mlir's @schedule_vector_matrix): its row of C, read
      // again by every block of k, stays in the L1.
      auto loop = dyn_cast<scf::ForOp>(parent);
      if (!loop || loop->hasAttr("matc.vector_matrix_tiles") ||
          read.getMask() ||
          !isa<MemRefType>(read.getBase().getType()) ||
          !read.getPermutationMap().isMinorIdentity() ||
          read.getVectorType().isScalable() ||
          read.getVectorType().getRank() == 0)
        return;
      // The loop over k directly inside `loop`'s body.
      scf::ForOp inner = matrix::getAccumulatingLoop(read);
      if (!inner || inner->getBlock() != loop.getBody())
        return;
      if (std::optional<SmallVector<Operation *>> indexOps =
              getMovingIndexOps(read, loop))
        sites.push_back({read, loop, inner, std::move(*indexOps)});
    });
    for (Site &site : sites)
      prefetchNextTile(site.read, site.loop, site.inner, site.indexOps,
                       lineBytes, locality, forWrite);
  }
};
} // namespace
