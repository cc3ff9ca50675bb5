//===- MatrixShard.cpp - The matrix-shard pass ----------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Mat's sharding policy (Passes.td, docs/distributed.md): every matrix of
// `main` is split by rows over a 1-D grid of the ranks or replicated, and
// every Linalg op gets a loop sharding, written as shard.shard annotations
// of every operand and result for upstream's shard-partition. The policy is
// the 1-D ("row block") data distribution of ScaLAPACK-style libraries with
// the owner-computes rule: a product C = A @ B with C split computes each
// block of rows of C from the same rows of A and all of B.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/Passes.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/PatternMatch.h"
#include "llvm/ADT/DenseMap.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXSHARD
#include "MatrixDialect/Distributed/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

namespace {

/// The layouts of a tensor on the grid: all of it on every rank, or a block
/// of its rows (dimension 0) on each, or a block of its columns.
enum class Layout { Replicated, Rows, Columns };

/// The `shard.sharding` values of each layout, defined once at the start of
/// `main`.
struct Shardings {
  Value replicated, rows, columns;

  Value get(Layout layout) const {
    switch (layout) {
    case Layout::Replicated:
      return replicated;
    case Layout::Rows:
      return rows;
    case Layout::Columns:
      return columns;
    }
    llvm_unreachable("unknown layout");
  }
};

} // namespace

/// Returns whether `op` is one the policy can annotate: a Linalg op on
/// tensors whose indexing maps are projected permutations (every op
/// convert-matrix-to-linalg and elementwise fusion create) and static
/// results, or any other op without regions (it runs replicated).
static bool isSupported(Operation *op) {
  if (auto linalgOp = dyn_cast<linalg::LinalgOp>(op))
    return linalgOp.hasPureTensorSemantics() &&
           llvm::all_of(
               linalgOp.getIndexingMapsArray(),
               [](AffineMap map) { return map.isProjectedPermutation(); }) &&
           llvm::all_of(linalgOp->getResultTypes(), [](Type type) {
             return cast<RankedTensorType>(type).hasStaticShape();
           });
  return op->getNumRegions() == 0;
}

/// Whether `value` is a ranked tensor of rank 1 or more (what shard.shard
/// annotates; scalars and 0-D tensors are the same on every rank).
static bool isShardable(Value value) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  return type && type.getRank() > 0;
}

/// Replaces the non-splat dense tensor constant `constant` (a Mat matrix
/// literal) by a read of a constant memref.global, as one-shot bufferization
/// would lower it. shard-partition (LLVM 22) fails on such a constant even
/// when it is replicated (its arith.constant model partitions splats only);
/// ops without a sharding model, like these, are cloned on every rank.
static void hoistConstantToGlobal(RewriterBase &rewriter, ModuleOp module,
                                  SymbolTable &symbols,
                                  arith::ConstantOp constant) {
  auto type = cast<RankedTensorType>(constant.getType());
  auto memrefType = MemRefType::get(type.getShape(), type.getElementType());
  Location loc = constant.getLoc();
  rewriter.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      rewriter, loc, "matc_literal", rewriter.getStringAttr("private"),
      memrefType, cast<ElementsAttr>(constant.getValue()),
      /*constant=*/true, /*alignment=*/IntegerAttr());
  symbols.insert(global); // Renames it apart from the others.
  rewriter.setInsertionPoint(constant);
  Value buffer =
      memref::GetGlobalOp::create(rewriter, loc, memrefType, global.getName());
  rewriter.replaceOpWithNewOp<bufferization::ToTensorOp>(
      constant, type, buffer, /*restrict=*/true, /*writable=*/false);
}

/// The loop that dimension `dim` of an operand or result with indexing map
/// `map` is indexed by, if that is a plain loop.
static std::optional<unsigned> getLoopOfDim(AffineMap map, unsigned dim) {
  if (dim >= map.getNumResults())
    return std::nullopt;
  if (auto expr = dyn_cast<AffineDimExpr>(map.getResult(dim)))
    return expr.getPosition();
  return std::nullopt;
}

/// The layout of an operand or result with indexing map `map` when `loop`
/// is split: split along the dimension that `loop` indexes.
static Layout getLayout(AffineMap map, std::optional<unsigned> loop) {
  if (!loop)
    return Layout::Replicated;
  for (unsigned dim = 0, e = map.getNumResults(); dim < e; ++dim)
    if (getLoopOfDim(map, dim) == loop)
      return dim == 0 ? Layout::Rows : Layout::Columns;
  return Layout::Replicated;
}

/// Replaces, in `generic`, every `linalg.index` of `loop` by a new input
/// operand: a 1-D tensor of i64 holding 0, 1, ..., size - 1 (computed by a
/// replicated generic), read with the map `(d0, ..., dn) -> (d<loop>)` and
/// cast back to index. Partitioning slices that input like any other, so
/// each rank sees the global index of its rows; it does not rewrite
/// linalg.index itself. (i64, not index: the code generation of vectors
/// handles integer and float elements.) Returns the new op and the generic
/// computing the row numbers (`generic` and null if it reads no such index).
static std::pair<linalg::GenericOp, linalg::GenericOp>
hoistLoopIndex(RewriterBase &rewriter, linalg::GenericOp generic,
               unsigned loop) {
  SmallVector<linalg::IndexOp> indices;
  generic.getRegion().walk([&](linalg::IndexOp index) {
    if (index.getDim() == loop)
      indices.push_back(index);
  });
  if (indices.empty())
    return {generic, nullptr};

  Location loc = generic.getLoc();
  MLIRContext *ctx = rewriter.getContext();
  Type i64 = rewriter.getI64Type();
  int64_t size = generic.getStaticLoopRanges()[loop];
  rewriter.setInsertionPoint(generic);
  Value empty = tensor::EmptyOp::create(rewriter, loc, {size}, i64);
  auto rowNumbers = linalg::GenericOp::create(
      rewriter, loc, empty.getType(), ValueRange{}, ValueRange{empty},
      ArrayRef<AffineMap>{AffineMap::getMultiDimIdentityMap(1, ctx)},
      ArrayRef<utils::IteratorType>{utils::IteratorType::parallel},
      [&](OpBuilder &b, Location l, ValueRange) {
        Value index = linalg::IndexOp::create(b, l, 0);
        linalg::YieldOp::create(
            b, l, ValueRange{arith::IndexCastOp::create(b, l, i64, index)});
      });

  SmallVector<Value> inputs(generic.getInputs());
  inputs.push_back(rowNumbers.getResult(0));
  SmallVector<AffineMap> maps = generic.getIndexingMapsArray();
  unsigned numInputs = generic.getNumDpsInputs();
  maps.insert(
      maps.begin() + numInputs,
      AffineMap::get(generic.getNumLoops(), 0, getAffineDimExpr(loop, ctx)));
  auto newGeneric = linalg::GenericOp::create(
      rewriter, loc, generic.getResultTypes(), inputs, generic.getOutputs(),
      maps, generic.getIteratorTypesArray());
  rewriter.inlineRegionBefore(generic.getRegion(), newGeneric.getRegion(),
                              newGeneric.getRegion().begin());
  Block &body = newGeneric.getRegion().front();
  BlockArgument row = body.insertArgument(numInputs, i64, loc);
  rewriter.setInsertionPointToStart(&body);
  Value index =
      arith::IndexCastOp::create(rewriter, loc, rewriter.getIndexType(), row);
  for (linalg::IndexOp op : indices)
    rewriter.replaceOp(op, index);
  rewriter.replaceOp(generic, newGeneric.getResults());
  return {newGeneric, rowNumbers};
}

namespace {
struct MatrixShard : matrix::impl::MatrixShardBase<MatrixShard> {
  using MatrixShardBase::MatrixShardBase;

  void runOnOperation() override;

private:
  /// Whether a matrix of type `type` may be split by rows: static sizes and
  /// a row count divisible by the number of ranks.
  bool isSplittable(Type type) const {
    auto tensor = dyn_cast<RankedTensorType>(type);
    return tensor && tensor.getRank() == 2 && tensor.hasStaticShape() &&
           tensor.getDimSize(0) % ranks == 0;
  }

  /// Whether a matrix is big enough to be worth splitting by itself.
  bool isLarge(Type type) const {
    return cast<RankedTensorType>(type).getNumElements() >= minElements;
  }

  /// Decides which loop of `op` is split over the grid (none: every
  /// operand replicated) from the sizes of its results and the layouts of
  /// its inputs.
  std::optional<unsigned> decideSplitLoop(linalg::LinalgOp op) const;

  /// The layout decided for each annotated value (values not in the map,
  /// such as constants, are replicated).
  DenseMap<Value, Layout> layouts;
  /// The fills of main, annotated.
  SmallVector<linalg::FillOp> fills;
};
} // namespace

std::optional<unsigned>
MatrixShard::decideSplitLoop(linalg::LinalgOp op) const {
  SmallVector<AffineMap> maps = op.getIndexingMapsArray();
  SmallVector<utils::IteratorType> iterators = op.getIteratorTypesArray();
  auto layoutOf = [&](Value value) {
    return layouts.lookup(value); // Layout::Replicated if absent.
  };

  // The loop of the rows of every result, if they agree and may be split.
  std::optional<unsigned> rowLoop;
  bool resultsSplittable = op->getNumResults() > 0;
  bool anyLarge = false;
  for (OpOperand &init : op.getDpsInitsMutable()) {
    std::optional<unsigned> loop =
        getLoopOfDim(maps[init.getOperandNumber()], 0);
    Type type = init.get().getType();
    if (!loop || !isSplittable(type) || (rowLoop && rowLoop != loop)) {
      resultsSplittable = false;
      break;
    }
    rowLoop = loop;
    anyLarge |= isLarge(type);
  }

  // Split the rows of the results when they are large, or when an input
  // already has the rows of that loop split: computing the result split
  // then costs nothing, gathering the input would.
  bool inputSplitAlongRows = false;
  std::optional<unsigned> reductionLoop;
  for (OpOperand *input : op.getDpsInputOperands()) {
    if (layoutOf(input->get()) != Layout::Rows)
      continue;
    std::optional<unsigned> loop =
        getLoopOfDim(maps[input->getOperandNumber()], 0);
    if (!loop)
      continue;
    if (loop == rowLoop)
      inputSplitAlongRows = true;
    else if (iterators[*loop] == utils::IteratorType::reduction &&
             !reductionLoop)
      reductionLoop = loop;
  }
  if (resultsSplittable && (anyLarge || inputSplitAlongRows))
    return rowLoop;
  // A replicated result summed over a split reduction loop: each rank
  // multiplies its blocks, partitioning adds the partial results up.
  return reductionLoop;
}

void MatrixShard::runOnOperation() {
  ModuleOp module = getOperation();
  if (ranks < 2)
    return;
  auto main = module.lookupSymbol<func::FuncOp>("main");
  if (!main || main.isExternal() || !main.getBody().hasOneBlock() ||
      main.getNumArguments() != 0)
    return;
  Block &body = main.getBody().front();
  for (Operation &op : body) {
    if (!isSupported(&op)) {
      // Correct but not distributed: every rank computes everything.
      op.emitRemark() << "matrix-shard: '" << op.getName()
                      << "' has no sharding rule; the program runs "
                         "replicated on every rank";
      return;
    }
  }

  MLIRContext *ctx = &getContext();
  IRRewriter rewriter(ctx);
  SymbolTable symbols(module);
  if (!symbols.lookup<shard::GridOp>(kGridName)) {
    rewriter.setInsertionPointToStart(module.getBody());
    auto grid = shard::GridOp::create(rewriter, module.getLoc(), kGridName,
                                      ArrayRef<int64_t>{ranks});
    grid.setPrivate();
  }
  for (auto constant :
       llvm::make_early_inc_range(body.getOps<arith::ConstantOp>())) {
    auto value = dyn_cast<DenseElementsAttr>(constant.getValue());
    if (value && !value.isSplat() && isShardable(constant))
      hoistConstantToGlobal(rewriter, module, symbols, constant);
  }

  auto grid = FlatSymbolRefAttr::get(ctx, kGridName);
  auto axes = [&](ArrayRef<SmallVector<shard::GridAxis>> split) {
    SmallVector<shard::GridAxesAttr> attrs;
    for (const SmallVector<shard::GridAxis> &dim : split)
      attrs.push_back(shard::GridAxesAttr::get(ctx, dim));
    return attrs;
  };
  rewriter.setInsertionPointToStart(&body);
  Location loc = main.getLoc();
  Shardings shardings;
  shardings.replicated =
      shard::ShardingOp::create(rewriter, loc, grid, axes({{}})).getResult();
  shardings.rows =
      shard::ShardingOp::create(rewriter, loc, grid, axes({{0}})).getResult();
  shardings.columns =
      shard::ShardingOp::create(rewriter, loc, grid, axes({{}, {0}}))
          .getResult();

  // Annotates the tensor results of `op` with their layouts: every other
  // user then reads the annotated value.
  auto annotateResults = [&](Operation *op, ArrayRef<Layout> resultLayouts) {
    rewriter.setInsertionPointAfter(op);
    for (auto [result, layout] : llvm::zip(op->getResults(), resultLayouts)) {
      if (!isShardable(result))
        continue;
      auto annotated = shard::ShardOp::create(rewriter, op->getLoc(), result,
                                              shardings.get(layout));
      rewriter.replaceAllUsesExcept(result, annotated.getResult(), annotated);
      layouts[annotated.getResult()] = layout;
    }
  };
  // Annotates `operand` of its owner with the layout the owner needs
  // (`annotate_for_users`): partitioning reshards from the operand's own
  // layout.
  auto annotateOperand = [&](OpOperand &operand, Layout layout) {
    if (!isShardable(operand.get()))
      return;
    rewriter.setInsertionPoint(operand.getOwner());
    auto annotated = shard::ShardOp::create(
        rewriter, operand.getOwner()->getLoc(), operand.get(),
        shardings.get(layout), /*annotate_for_users=*/true);
    operand.set(annotated.getResult());
  };
  // Annotates the operands and results of `linalgOp` for `splitLoop`.
  auto annotateLinalg = [&](linalg::LinalgOp linalgOp,
                            std::optional<unsigned> splitLoop) {
    SmallVector<AffineMap> maps = linalgOp.getIndexingMapsArray();
    for (OpOperand &operand : linalgOp->getOpOperands())
      annotateOperand(operand,
                      getLayout(maps[operand.getOperandNumber()], splitLoop));
    SmallVector<Layout> resultLayouts;
    for (OpOperand &init : linalgOp.getDpsInitsMutable())
      resultLayouts.push_back(
          getLayout(maps[init.getOperandNumber()], splitLoop));
    annotateResults(linalgOp, resultLayouts);
  };

  for (Operation &op : llvm::make_early_inc_range(body)) {
    if (isa<shard::ShardingOp, shard::ShardOp, tensor::EmptyOp>(op))
      continue; // tensor.empty: below, once its users are known.
    auto linalgOp = dyn_cast<linalg::LinalgOp>(op);
    if (!linalgOp) {
      // Any other op (a splat or scalar constant, a literal, matrix.print,
      // a cast) runs on every rank, on whole matrices; a large splat
      // constant is split like a fill.
      auto constant = dyn_cast<arith::ConstantOp>(op);
      bool splitSplat =
          constant && isa<SplatElementsAttr>(constant.getValue()) &&
          isSplittable(constant.getType()) && isLarge(constant.getType());
      for (OpOperand &operand : op.getOpOperands())
        annotateOperand(operand, Layout::Replicated);
      annotateResults(&op, SmallVector<Layout>(
                               op.getNumResults(),
                               splitSplat ? Layout::Rows : Layout::Replicated));
      continue;
    }

    std::optional<unsigned> splitLoop = decideSplitLoop(linalgOp);
    if (auto generic = dyn_cast<linalg::GenericOp>(op); generic && splitLoop) {
      auto [newGeneric, rowNumbers] =
          hoistLoopIndex(rewriter, generic, *splitLoop);
      if (rowNumbers)
        annotateLinalg(rowNumbers, std::nullopt);
      linalgOp = newGeneric;
    }
    annotateLinalg(linalgOp, splitLoop);
    if (auto fill = dyn_cast<linalg::FillOp>(linalgOp.getOperation()))
      fills.push_back(fill);
  }

  // A fill of a fresh tensor read in another layout than its own (the
  // zero-filled init of a product computed split, the fill being small) is
  // filled again in that layout, each rank filling its block, instead of
  // being resharded: the code generation of products wants the fill as the
  // producer of their init.
  for (linalg::FillOp fill : fills) {
    auto init =
        fill.getDpsInitOperand(0)->get().getDefiningOp<shard::ShardOp>();
    if (!init || !init.getSrc().getDefiningOp<tensor::EmptyOp>() ||
        !fill->getResult(0).hasOneUse())
      continue;
    Value annotated =
        *fill->getResult(0).getUsers().begin()->getResults().begin();
    Layout own = layouts.lookup(annotated);
    for (OpOperand &use : llvm::make_early_inc_range(annotated.getUses())) {
      auto user = dyn_cast<shard::ShardOp>(use.getOwner());
      if (!user || !user.getAnnotateForUsers())
        continue;
      std::optional<unsigned> loop;
      if (user.getSharding() == shardings.rows)
        loop = 0;
      else if (user.getSharding() == shardings.columns)
        loop = 1;
      else if (user.getSharding() != shardings.replicated)
        continue;
      if (getLayout(AffineMap::getMultiDimIdentityMap(2, ctx), loop) == own)
        continue;
      rewriter.setInsertionPoint(user);
      auto type = cast<RankedTensorType>(fill->getResult(0).getType());
      Value empty = tensor::EmptyOp::create(
          rewriter, fill.getLoc(), type.getShape(), type.getElementType());
      auto refill = linalg::FillOp::create(rewriter, fill.getLoc(),
                                           fill.getInputs(), empty);
      annotateLinalg(refill, loop);
      Value refilled =
          *refill->getResult(0).getUsers().begin()->getResults().begin();
      rewriter.modifyOpInPlace(user, [&] { use.set(refilled); });
    }
  }

  // Each use of a tensor.empty (the init of a Linalg op, annotated with the
  // layout that op needs) gets an empty tensor of its own in that layout:
  // no rank allocates more than its block, and no resharding is needed.
  for (auto empty :
       llvm::make_early_inc_range(body.getOps<tensor::EmptyOp>())) {
    for (OpOperand &use : llvm::make_early_inc_range(empty->getUses())) {
      auto user = dyn_cast<shard::ShardOp>(use.getOwner());
      Value sharding = user ? user.getSharding() : shardings.replicated;
      rewriter.setInsertionPoint(use.getOwner());
      Operation *clone = rewriter.clone(*empty);
      auto annotated = shard::ShardOp::create(rewriter, empty.getLoc(),
                                              clone->getResult(0), sharding);
      use.set(annotated.getResult());
    }
    rewriter.eraseOp(empty);
  }
}
