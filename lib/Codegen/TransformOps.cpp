//===- TransformOps.cpp - matc's transform-dialect extension --------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The transform ops of TransformOps.td and the TransformDialectExtension
// that registers them, after mlir/examples/transform/Ch2 (MyExtension.cpp).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/TransformOps.h"

#include "MatrixDialect/Codegen/Accumulators.h"
#include "MatrixDialect/Codegen/Passes.h"
#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Arith/Utils/Utils.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformTypes.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Dialect/Vector/Transforms/VectorRewritePatterns.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/Dominance.h"
#include "mlir/Interfaces/TilingInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"
#include "llvm/Support/MathExtras.h"

#define GET_OP_CLASSES
#include "MatrixDialect/Codegen/TransformOps.cpp.inc"

using namespace mlir;

// Declared in Passes.h.
bool matrix::isSameSize(OpFoldResult a, OpFoldResult b) {
  if (isEqualConstantIntOrValue(a, b))
    return true;
  FailureOr<bool> equal = ValueBoundsConstraintSet::areEqual(a, b);
  return succeeded(equal) && *equal;
}

// Declared in Passes.h.
bool matrix::isSameMask(Value a, Value b) {
  if (a == b)
    return true;
  auto ma = a ? a.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  auto mb = b ? b.getDefiningOp<vector::CreateMaskOp>() : nullptr;
  return ma && mb && ma.getType() == mb.getType() &&
         llvm::all_of(llvm::zip(ma.getOperands(), mb.getOperands()),
                      [](auto pair) {
                        return isSameSize(std::get<0>(pair), std::get<1>(pair));
                      });
}

namespace {
class MatrixTransformExtension
    : public transform::TransformDialectExtension<MatrixTransformExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(MatrixTransformExtension)

  using Base::Base;

  void init() {
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "MatrixDialect/Codegen/TransformOps.cpp.inc"
        >();
  }
};
} // namespace

void mlir::matrix::registerMatrixTransformExtension(DialectRegistry &registry) {
  registry.addExtensions<MatrixTransformExtension>();
}

//===----------------------------------------------------------------------===//
// ThreadRowBlockOp
//===----------------------------------------------------------------------===//

/// The one positive integer `param` holds, or a definite failure naming it.
static FailureOr<int64_t> getPositiveParam(transform::TransformState &state,
                                           Operation *op, Value param,
                                           StringRef name) {
  ArrayRef<Attribute> values = state.getParams(param);
  auto integer =
      values.size() == 1 ? dyn_cast<IntegerAttr>(values.front()) : nullptr;
  if (!integer || integer.getInt() < 1)
    return op->emitOpError() << "expects '" << name
                             << "' to hold one positive integer";
  return integer.getInt();
}

/// The rows per block of M rows (ThreadRowBlockOp's description): a
/// multiple of `threads` blocks, as few as `maxRows` allows.
static int64_t getThreadRowBlock(int64_t m, int64_t maxRows, int64_t multiple,
                                 int64_t threads) {
  int64_t blocks =
      threads * std::max<int64_t>(1, llvm::divideCeil(m, threads * maxRows));
  int64_t even = llvm::divideCeil(m, blocks);
  return std::min(maxRows,
                  std::max<int64_t>(multiple, llvm::alignTo(even, multiple)));
}

/// getThreadRowBlock as index arithmetic on a dynamic M, at the rewriter's
/// insertion point; the result is an affine.min whose constant upper bound
/// is `maxRows`.
static OpFoldResult buildThreadRowBlock(RewriterBase &rewriter, Location loc,
                                        OpFoldResult m, int64_t maxRows,
                                        int64_t multiple, int64_t threads) {
  MLIRContext *context = rewriter.getContext();
  AffineExpr s0 = rewriter.getAffineSymbolExpr(0);
  AffineExpr s1 = rewriter.getAffineSymbolExpr(1);
  auto constant = [&](int64_t value) {
    return rewriter.getAffineConstantExpr(value);
  };
  // Blocks per thread: as few as maxRows allows, at least one (M = 0 must
  // divide by neither 0 nor make a step of 0).
  OpFoldResult perThread = affine::makeComposedFoldedAffineMax(
      rewriter, loc,
      AffineMap::get(0, 1, {s0.ceilDiv(threads * maxRows), constant(1)},
                     context),
      {m});
  OpFoldResult blocks = affine::makeComposedFoldedAffineApply(
      rewriter, loc, s0 * threads, {perThread});
  // ceil(M / blocks) = (M + blocks - 1) / blocks, not affine (the divisor
  // is not a constant); arith.ceildivui has no LLVM lowering.
  OpFoldResult dividend = affine::makeComposedFoldedAffineApply(
      rewriter, loc, s0 + s1 - 1, {m, blocks});
  Value even = arith::DivUIOp::create(
      rewriter, loc, getValueOrCreateConstantIndexOp(rewriter, loc, dividend),
      getValueOrCreateConstantIndexOp(rewriter, loc, blocks));
  OpFoldResult whole = affine::makeComposedFoldedAffineMax(
      rewriter, loc,
      AffineMap::get(0, 1, {s0.ceilDiv(multiple) * multiple, constant(multiple)},
                     context),
      {even});
  // At most maxRows, a bound the bufferization of the blocks can see
  // through (ValueBoundsOpInterface does not see through the division).
  return affine::makeComposedFoldedAffineMin(
      rewriter, loc, AffineMap::get(0, 1, {s0, constant(maxRows)}, context),
      {whole});
}

DiagnosedSilenceableFailure transform::ThreadRowBlockOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  FailureOr<int64_t> maxRows =
      getPositiveParam(state, *this, getMaxRows(), "max_rows");
  FailureOr<int64_t> multiple =
      getPositiveParam(state, *this, getMultiple(), "multiple");
  FailureOr<int64_t> threads =
      getPositiveParam(state, *this, getThreads(), "threads");
  if (failed(maxRows) || failed(multiple) || failed(threads))
    return DiagnosedSilenceableFailure::definiteFailure();
  if (*maxRows % *multiple != 0)
    return emitDefiniteFailure() << "expects 'max_rows' (" << *maxRows
                                 << ") to be a multiple of 'multiple' ("
                                 << *multiple << ")";

  SmallVector<Operation *> rowOps;
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto tileable = dyn_cast<TilingInterface>(target);
    if (!tileable)
      return emitDefiniteFailure()
             << "expects a tileable target, got '" << target->getName()
             << "'";
    Location loc = target->getLoc();
    rewriter.setInsertionPoint(target);
    OpFoldResult rows = rewriter.getIndexAttr(*maxRows);
    if (*threads > 1) {
      // M, the first loop's size (tensor.dim of the target when dynamic).
      OpFoldResult m = tileable.getIterationDomain(rewriter).front().size;
      if (std::optional<int64_t> staticM = getConstantIntValue(m))
        rows = rewriter.getIndexAttr(
            getThreadRowBlock(*staticM, *maxRows, *multiple, *threads));
      else
        rows = buildThreadRowBlock(rewriter, loc, m, *maxRows, *multiple,
                                   *threads);
    }
    Value value = getValueOrCreateConstantIndexOp(rewriter, loc, rows);
    rowOps.push_back(value.getDefiningOp());
  }
  results.set(cast<OpResult>(getRows()), rowOps);
  return DiagnosedSilenceableFailure::success();
}

void transform::ThreadRowBlockOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  onlyReadsHandle(getMaxRowsMutable(), effects);
  onlyReadsHandle(getMultipleMutable(), effects);
  onlyReadsHandle(getThreadsMutable(), effects);
  producesHandle(getOperation()->getOpResults(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// ZeroFirstAccumulationOp
//===----------------------------------------------------------------------===//

/// Whether `value` is a constant zero, integer or floating-point.
static bool isZeroConstant(Value value) {
  return isZeroIntegerOrFloat(getAsOpFoldResult(value));
}

/// Follows the tensor `carried` (a region iter_arg of a loop over the
/// k-blocks) and the tensors made of it through nested scf.for iter_args,
/// tensor.extract_slice and tensor.insert_slice; tensor.dim and scf.yield
/// uses pass. Every other use goes to `visit`, which returns the tensor it
/// makes of the carried one to follow further (null: none), or fails.
/// Fails, setting `offender` to the user, where `visit` fails or the block
/// is a loop's bound.
static LogicalResult
walkCarriedBlock(Value carried,
                 function_ref<FailureOr<Value>(OpOperand &)> visit,
                 Operation *&offender) {
  SmallVector<Value> worklist = {carried};
  DenseSet<Value> visited;
  while (!worklist.empty()) {
    Value value = worklist.pop_back_val();
    if (!visited.insert(value).second)
      continue;
    for (OpOperand &use : value.getUses()) {
      Operation *user = use.getOwner();
      offender = user;
      if (isa<tensor::DimOp, scf::YieldOp>(user))
        continue;
      if (auto loop = dyn_cast<scf::ForOp>(user)) {
        if (use.getOperandNumber() < loop.getNumControlOperands())
          return failure();
        worklist.push_back(loop.getTiedLoopRegionIterArg(&use));
        continue;
      }
      if (isa<tensor::ExtractSliceOp, tensor::InsertSliceOp>(user)) {
        worklist.push_back(user->getResult(0));
        continue;
      }
      FailureOr<Value> next = visit(use);
      if (failed(next))
        return failure();
      if (*next)
        worklist.push_back(*next);
    }
  }
  offender = nullptr;
  return success();
}

/// Collects in `reads` the accumulator reads of the tensor `carried` (a
/// region iter_arg of the first k-block) as the op's description says:
/// follows it (walkCarriedBlock) through the destinations of whole-tile
/// vector.transfer_write too; fails, setting `offender`, if it flows
/// anywhere else.
static LogicalResult
collectAccumulatorReads(Value carried,
                        SmallVectorImpl<vector::TransferReadOp> &reads,
                        Operation *&offender) {
  auto visit = [&](OpOperand &use) -> FailureOr<Value> {
    Operation *user = use.getOwner();
    if (auto write = dyn_cast<vector::TransferWriteOp>(user)) {
      // Written over whole (the kernel's result into its tile): the
      // carried values only pass through it.
      auto type = dyn_cast<RankedTensorType>(write.getBase().getType());
      if (use.get() != write.getBase() || write.getMask() || !type ||
          !type.hasStaticShape() ||
          type.getNumElements() != write.getVectorType().getNumElements() ||
          !llvm::all_of(write.getIndices(), isZeroInteger))
        return failure();
      return write.getResult();
    }
    auto read = dyn_cast<vector::TransferReadOp>(user);
    // (Its padding is never read if it is in bounds.)
    if (!read || read.getMask() || !matrix::getAccumulatingLoop(read) ||
        !(isZeroConstant(read.getPadding()) ||
          llvm::all_of(read.getInBoundsValues(), [](bool b) { return b; })))
      return failure();
    reads.push_back(read);
    return Value();
  };
  return walkCarriedBlock(carried, visit, offender);
}

/// Whether `slice` (a tensor.extract_slice or tensor.insert_slice) covers
/// the whole of the tensor it slices: offsets 0, strides 1 and the sizes of
/// that tensor, a tensor.empty's or static.
static bool isWholeSlice(OffsetSizeAndStrideOpInterface slice) {
  Value whole = isa<tensor::ExtractSliceOp>(slice)
                    ? cast<tensor::ExtractSliceOp>(slice).getSource()
                    : cast<tensor::InsertSliceOp>(slice).getDest();
  if (auto fill = whole.getDefiningOp<linalg::FillOp>())
    whole = fill.getOutputs().front();
  auto type = cast<RankedTensorType>(whole.getType());
  auto empty = whole.getDefiningOp<tensor::EmptyOp>();
  if (!empty && !type.hasStaticShape())
    return false;
  SmallVector<OpFoldResult> sizes =
      empty ? empty.getMixedSizes()
            : getAsIndexOpFoldResult(slice.getContext(), type.getShape());
  return llvm::all_of(slice.getMixedOffsets(), isZeroInteger) &&
         llvm::all_of(slice.getMixedStrides(), isOneInteger) &&
         slice.getMixedSizes().size() == sizes.size() &&
         llvm::all_of(llvm::zip(slice.getMixedSizes(), sizes), [](auto pair) {
           return isEqualConstantIntOrValue(std::get<0>(pair),
                                            std::get<1>(pair));
         });
}

DiagnosedSilenceableFailure transform::ZeroFirstAccumulationOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto loop = dyn_cast<scf::ForOp>(target);
    if (!loop)
      return emitDefiniteFailure()
             << "expects an scf.for, got '" << target->getName() << "'";
    // The iter_args that start from a zero fill.
    SmallVector<std::pair<unsigned, linalg::FillOp>> zeroed;
    // Possibly through a tensor.extract_slice of the whole fill, used by
    // the loop alone, whose result is inserted back whole (the tiling's
    // slices of a block whose sizes the folding could not match). (The
    // fill's shape may be read too: tensor.dim folds to its destination's.)
    for (auto [i, init] : llvm::enumerate(loop.getInitArgs())) {
      Operation *user = loop;
      Value filled = init;
      if (auto slice = init.getDefiningOp<tensor::ExtractSliceOp>();
          slice && slice->hasOneUse() && isWholeSlice(slice)) {
        user = slice;
        filled = slice.getSource();
      }
      auto fill = filled.getDefiningOp<linalg::FillOp>();
      if (fill && isZeroConstant(fill.value()) &&
          llvm::all_of(fill->getUsers(), [&](Operation *other) {
            auto insert = dyn_cast<tensor::InsertSliceOp>(other);
            return other == user || isa<tensor::DimOp>(other) ||
                   (insert && insert.getDest() == fill.getResult(0) &&
                    isWholeSlice(insert));
          }))
        zeroed.emplace_back(i, fill);
    }
    if (zeroed.empty()) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
          << "expects iter_args that start from a zero linalg.fill";
      for (Value init : loop.getInitArgs())
        if (Operation *def = init.getDefiningOp())
          diag.attachNote(def->getLoc())
              << "an iter_arg starts from '" << def->getName() << "'";
      return diag;
    }
    // Check before changing anything.
    SmallVector<vector::TransferReadOp> reads;
    Operation *offender = nullptr;
    for (auto [i, fill] : zeroed)
      if (failed(collectAccumulatorReads(loop.getRegionIterArgs()[i], reads,
                                         offender))) {
        DiagnosedSilenceableFailure diag = emitSilenceableError()
            << "expects the carried block of C to reach only accumulator "
               "reads and whole-tile writes";
        diag.attachNote(offender->getLoc())
            << "it reaches '" << offender->getName() << "'";
        return diag;
      }
    // In the first iteration each tile starts from zeros: a test of the
    // induction variable selects them or the read (one branch per
    // register tile and k-block; no copy of the loop's body, which
    // peeling the first iteration would make, 0.15 s of compile time per
    // product function).
    Location loc = loop.getLoc();
    rewriter.setInsertionPointToStart(loop.getBody());
    Value isFirst = arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::eq,
                                          loop.getInductionVar(),
                                          loop.getLowerBound());
    for (vector::TransferReadOp read : reads) {
      VectorType type = read.getVectorType();
      rewriter.setInsertionPoint(read);
      auto select = scf::IfOp::create(rewriter, read.getLoc(), TypeRange{type},
                                      isFirst, /*withElseRegion=*/true);
      rewriter.setInsertionPointToStart(select.thenBlock());
      Value zero = arith::ConstantOp::create(rewriter, read.getLoc(), type,
                                             rewriter.getZeroAttr(type));
      scf::YieldOp::create(rewriter, read.getLoc(), zero);
      rewriter.setInsertionPointToStart(select.elseBlock());
      Operation *moved = rewriter.clone(*read);
      scf::YieldOp::create(rewriter, read.getLoc(), moved->getResults());
      rewriter.replaceOp(read, select.getResults());
    }
    for (auto &entry : zeroed) {
      linalg::FillOp fill = entry.second;
      // The fill's users take its destination, which has its shape: the
      // loop and tensor.dim ops directly; the whole slices of it are the
      // destination itself, and the whole insertion into it of what the
      // loops compute is that (rewriting them into slices of a
      // tensor.empty would let canonicalization fold the extraction into
      // a tensor.empty of its own, a buffer and a copy more).
      Value destination = fill.getOutputs().front();
      for (Operation *user : llvm::make_early_inc_range(fill->getUsers())) {
        if (auto slice = dyn_cast<tensor::ExtractSliceOp>(user)) {
          rewriter.replaceOp(slice, destination);
        } else if (auto insert = dyn_cast<tensor::InsertSliceOp>(user)) {
          rewriter.replaceOp(insert, insert.getSource());
        } else {
          rewriter.modifyOpInPlace(user, [&] {
            user->replaceUsesOfWith(fill.getResult(0), destination);
          });
        }
      }
      rewriter.eraseOp(fill);
    }
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::ZeroFirstAccumulationOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

//===----------------------------------------------------------------------===//
// FuseUnpackIntoLastKBlockOp
//===----------------------------------------------------------------------===//

namespace {
/// A register tile's write into the packed block of C, as
/// FuseUnpackIntoLastKBlockOp rewrites it.
struct TileWrite {
  /// The kernel's write of the tile into its 1 x 1 x MR x NR slice.
  vector::TransferWriteOp write;
  /// The insertion of that slice back into the block it was taken from.
  tensor::InsertSliceOp insert;
  /// The offsets whose sums are the tile's place (p, q) in the k-block
  /// loop's carried block: those of the slices between the two.
  SmallVector<OpFoldResult> rowTerms, colTerms;
};
} // namespace

/// Checks that `write` (whose base is made from `carried`, the region
/// iter_arg of `kLoop`) is a whole MR x NR register tile written into a
/// 1 x 1 x MR x NR slice of the carried block, inserted back where it was
/// taken, inside scf.for ops only, and finds the tile's place; see
/// FuseUnpackIntoLastKBlockOp's description.
static FailureOr<TileWrite> matchTileWrite(vector::TransferWriteOp write,
                                           scf::ForOp kLoop, Value carried,
                                           int64_t mr, int64_t nr) {
  auto tile = write.getBase().getDefiningOp<tensor::ExtractSliceOp>();
  auto tileType = dyn_cast<RankedTensorType>(write.getBase().getType());
  VectorType vectorType = write.getVectorType();
  if (!tile || write.getMask() || !tileType ||
      tileType.getShape() != ArrayRef<int64_t>{1, 1, mr, nr} ||
      vectorType.getNumElements() != mr * nr || vectorType.getRank() < 2 ||
      vectorType.getShape().take_back(2) != ArrayRef<int64_t>{mr, nr} ||
      !write.getPermutationMap().isMinorIdentity() ||
      !llvm::all_of(write.getIndices(), isZeroInteger) ||
      !write->hasOneUse())
    return failure();
  auto insert = dyn_cast<tensor::InsertSliceOp>(*write->getUsers().begin());
  if (!insert || insert.getSource() != write.getResult() ||
      insert.getDest() != tile.getSource() ||
      !tile.isSameAs(insert, isEqualConstantIntOrValue) ||
      insert->getBlock() != write->getBlock())
    return failure();
  // Only loops between the write and the k-block loop.
  for (Operation *parent = write->getParentOp(); parent != kLoop;
       parent = parent->getParentOp())
    if (!isa<scf::ForOp>(parent))
      return failure();
  TileWrite found{write, insert, {}, {}};
  Value block = tile.getSource();
  OffsetSizeAndStrideOpInterface slice = tile;
  while (true) {
    if (slice) {
      SmallVector<OpFoldResult> offsets = slice.getMixedOffsets();
      if (offsets.size() != 4 || !isZeroInteger(offsets[2]) ||
          !isZeroInteger(offsets[3]) ||
          !llvm::all_of(slice.getMixedStrides(), isOneInteger))
        return failure();
      found.rowTerms.push_back(offsets[0]);
      found.colTerms.push_back(offsets[1]);
      slice = nullptr;
    }
    if (block == carried)
      return found;
    if (auto arg = dyn_cast<BlockArgument>(block)) {
      auto loop = dyn_cast<scf::ForOp>(arg.getOwner()->getParentOp());
      if (!loop || loop == kLoop || !loop->isProperAncestor(write) ||
          arg.getArgNumber() == 0)
        return failure();
      block = loop.getTiedLoopInit(arg)->get();
      continue;
    }
    auto outer = block.getDefiningOp<tensor::ExtractSliceOp>();
    if (!outer)
      return failure();
    slice = outer;
    block = outer.getSource();
  }
}

/// Collects in `writes` the register tiles written into the block `carried`
/// (the region iter_arg of `kLoop`) carries, following it
/// (walkCarriedBlock) through vector.transfer_read, which pass, and the
/// destinations of the writes; fails, setting `offender`, where it flows
/// elsewhere or a write is not of the expected form.
static LogicalResult collectTileWrites(scf::ForOp kLoop, Value carried,
                                       int64_t mr, int64_t nr,
                                       SmallVectorImpl<TileWrite> &writes,
                                       Operation *&offender) {
  auto visit = [&](OpOperand &use) -> FailureOr<Value> {
    Operation *user = use.getOwner();
    if (isa<vector::TransferReadOp>(user))
      return Value();
    auto write = dyn_cast<vector::TransferWriteOp>(user);
    if (!write || use.get() != write.getBase())
      return failure();
    FailureOr<TileWrite> tile = matchTileWrite(write, kLoop, carried, mr, nr);
    if (failed(tile))
      return failure();
    writes.push_back(*tile);
    return write.getResult();
  };
  return walkCarriedBlock(carried, visit, offender);
}

/// Builds, at the rewriter's insertion point, the write of the MR x NR
/// register tile `tile` into the 2-D tensor `dest` at (`row`, `col`), of
/// `rows` x `cols` elements: whole when it fits, else under a mask of the
/// rows and columns left. Returns the written tensor.
static Value buildDestinationWrite(RewriterBase &rewriter, Location loc,
                                   Value tile, Value dest, Value row,
                                   Value col, Value rows, Value cols,
                                   int64_t mr, int64_t nr) {
  auto tileType = cast<VectorType>(tile.getType());
  auto flatType = VectorType::get({mr, nr}, tileType.getElementType());
  if (tileType != flatType)
    tile = vector::ShapeCastOp::create(rewriter, loc, flatType, tile);
  Value c0 = arith::ConstantIndexOp::create(rewriter, loc, 0);
  AffineExpr d0, d1;
  bindDims(rewriter.getContext(), d0, d1);
  auto fits = [&](Value at, int64_t size, Value bound) {
    Value end = arith::AddIOp::create(
        rewriter, loc, at, arith::ConstantIndexOp::create(rewriter, loc, size));
    return arith::CmpIOp::create(rewriter, loc, arith::CmpIPredicate::sle,
                                 end, bound);
  };
  Value whole = arith::AndIOp::create(rewriter, loc, fits(row, mr, rows),
                                      fits(col, nr, cols));
  auto select = scf::IfOp::create(rewriter, loc, TypeRange{dest.getType()},
                                  whole, /*withElseRegion=*/true);
  SmallVector<OpFoldResult> offsets = {row, col};
  SmallVector<OpFoldResult> strides(2, rewriter.getIndexAttr(1));
  auto writeInto = [&](ArrayRef<OpFoldResult> sizes, Value mask) {
    auto slice = tensor::ExtractSliceOp::create(rewriter, loc, dest, offsets,
                                                sizes, strides);
    auto write = vector::TransferWriteOp::create(
        rewriter, loc, tile, slice.getResult(), ValueRange{c0, c0},
        ArrayRef<bool>{true, true});
    if (mask)
      write.getMaskMutable().assign(mask);
    auto insert = tensor::InsertSliceOp::create(
        rewriter, loc, write.getResult(), dest, offsets, sizes, strides);
    scf::YieldOp::create(rewriter, loc, insert.getResult());
  };
  rewriter.setInsertionPointToStart(select.thenBlock());
  writeInto({rewriter.getIndexAttr(mr), rewriter.getIndexAttr(nr)}, nullptr);
  rewriter.setInsertionPointToStart(select.elseBlock());
  auto left = [&](Value at, int64_t size, Value bound) {
    return affine::makeComposedFoldedAffineMin(
        rewriter, loc,
        AffineMap::get(2, 0,
                       {getAffineConstantExpr(size, rewriter.getContext()),
                        d1 - d0},
                       rewriter.getContext()),
        {at, bound});
  };
  OpFoldResult leftRows = left(row, mr, rows), leftCols = left(col, nr, cols);
  Value mask = vector::CreateMaskOp::create(
      rewriter, loc, VectorType::get({mr, nr}, rewriter.getI1Type()),
      ValueRange{getValueOrCreateConstantIndexOp(rewriter, loc, leftRows),
                 getValueOrCreateConstantIndexOp(rewriter, loc, leftCols)});
  writeInto({leftRows, leftCols}, mask);
  rewriter.setInsertionPointAfter(select);
  return select.getResult(0);
}

namespace {
/// The state of one FuseUnpackIntoLastKBlockOp rewrite: threads the
/// destination through the loops that lead to the tile writes.
struct LastKBlockFusion {
  LastKBlockFusion(RewriterBase &rewriter, int64_t mr, int64_t nr)
      : rewriter(rewriter), mr(mr), nr(nr) {}

  RewriterBase &rewriter;
  /// The loops between the k-block loop and the writes (not it).
  DenseSet<Operation *> loopsOnPath;
  /// The tile writes by their insertion, each with its place in the
  /// destination (row, column), built before the loops are rewritten.
  DenseMap<Operation *, std::tuple<TileWrite *, Value, Value>> byInsert;
  Value isLast, rows, cols;
  int64_t mr, nr;

  /// `loop` with one more iter_arg starting from `init`, yielded unchanged
  /// (for now); its attributes kept.
  scf::ForOp addIterArg(scf::ForOp loop, Value init) {
    DictionaryAttr attrs = loop->getDiscardableAttrDictionary();
    auto newLoop = cast<scf::ForOp>(
        *cast<LoopLikeOpInterface>(*loop).replaceWithAdditionalIterOperands(
            rewriter, ValueRange{init}, /*replaceInitOperandUsesInLoop=*/false));
    newLoop->setDiscardableAttrs(attrs);
    return newLoop;
  }

  /// Threads `dest` through the ops of `block` in order: each loop on the
  /// path gets it as an iter_arg, each tile write writes it in the last
  /// k-block. Returns the destination after the block.
  Value thread(Block *block, Value dest) {
    for (Operation &op : llvm::make_early_inc_range(block->without_terminator())) {
      if (loopsOnPath.contains(&op)) {
        scf::ForOp loop = addIterArg(cast<scf::ForOp>(op), dest);
        closeLoop(loop);
        dest = loop.getResults().back();
      } else if (auto it = byInsert.find(&op); it != byInsert.end()) {
        auto [tile, row, col] = it->second;
        dest = rewriteWrite(*tile, dest, row, col);
      }
    }
    return dest;
  }

  /// Threads the destination through the body of `loop` (its last
  /// iter_arg) and yields what the body leaves of it.
  void closeLoop(scf::ForOp loop) {
    Value inner = thread(loop.getBody(), loop.getRegionIterArgs().back());
    Operation *yield = loop.getBody()->getTerminator();
    rewriter.modifyOpInPlace(yield, [&] {
      yield->setOperand(yield->getNumOperands() - 1, inner);
    });
  }

  /// In the last k-block, the tile goes into `dest` at (`row`, `col`) and
  /// not into the packed block; in the others, the reverse.
  Value rewriteWrite(TileWrite &tile, Value dest, Value row, Value col) {
    Location loc = tile.write.getLoc();
    rewriter.setInsertionPointAfter(tile.insert);
    auto select = scf::IfOp::create(
        rewriter, loc, TypeRange{tile.insert.getType(), dest.getType()},
        isLast, /*withElseRegion=*/true);
    rewriter.setInsertionPointToStart(select.thenBlock());
    Value written =
        buildDestinationWrite(rewriter, loc, tile.write.getVector(), dest,
                              row, col, rows, cols, mr, nr);
    scf::YieldOp::create(rewriter, loc,
                         ValueRange{tile.insert.getDest(), written});
    rewriter.setInsertionPointToStart(select.elseBlock());
    auto yield = scf::YieldOp::create(
        rewriter, loc, ValueRange{tile.insert.getResult(), dest});
    rewriter.replaceAllUsesExcept(tile.insert.getResult(), select.getResult(0),
                                  yield);
    rewriter.moveOpBefore(tile.write, yield);
    rewriter.moveOpBefore(tile.insert, yield);
    return select.getResult(1);
  }
};
} // namespace

DiagnosedSilenceableFailure transform::FuseUnpackIntoLastKBlockOp::apply(
    transform::TransformRewriter &rewriter,
    transform::TransformResults &results, transform::TransformState &state) {
  for (Operation *target : state.getPayloadOps(getTarget())) {
    auto loop = dyn_cast<scf::ForOp>(target);
    if (!loop)
      return emitDefiniteFailure()
             << "expects an scf.for, got '" << target->getName() << "'";
    // The result only an unpack of the expected form reads.
    linalg::UnPackOp unpack;
    unsigned index = 0;
    for (OpResult result : loop->getResults()) {
      if (!result.hasOneUse())
        continue;
      auto user = dyn_cast<linalg::UnPackOp>(*result.getUsers().begin());
      if (user && user.getSource() == result) {
        unpack = user;
        index = result.getResultNumber();
        break;
      }
    }
    ArrayRef<int64_t> tiles;
    if (unpack)
      tiles = unpack.getStaticInnerTiles();
    if (!unpack || unpack.getDestType().getRank() != 2 ||
        unpack.getInnerDimsPos() != ArrayRef<int64_t>{0, 1} ||
        !isIdentityPermutation(unpack.getOuterDimsPerm()) ||
        llvm::any_of(tiles, ShapedType::isDynamic))
      return emitSilenceableError()
             << "expects a result that only a linalg.unpack of static "
                "MR x NR tiles into a 2-D tensor reads";
    int64_t mr = tiles[0], nr = tiles[1];
    Value carried = loop.getRegionIterArgs()[index];
    SmallVector<TileWrite> writes;
    Operation *offender = nullptr;
    if (failed(collectTileWrites(loop, carried, mr, nr, writes, offender)) ||
        writes.empty()) {
      DiagnosedSilenceableFailure diag = emitSilenceableError()
          << "expects the carried block of C to reach only reads and "
             "whole register tiles written back in place";
      if (offender)
        diag.attachNote(offender->getLoc())
            << "it reaches '" << offender->getName() << "'";
      return diag;
    }
    // The destination, before the loop (a slice of the result, taken
    // after it, is moved up when what it slices is defined before).
    Value dest = unpack.getDest();
    DominanceInfo dominance;
    if (!dominance.properlyDominates(dest, loop)) {
      auto slice = dest.getDefiningOp<tensor::ExtractSliceOp>();
      if (!slice || slice->getBlock() != loop->getBlock() ||
          !llvm::all_of(slice->getOperands(), [&](Value operand) {
            return dominance.properlyDominates(operand, loop);
          }))
        return emitSilenceableError()
               << "expects the unpack's destination to be defined before "
                  "the loop, or a slice of a tensor that is";
      rewriter.moveOpBefore(slice, loop);
    }

    // Everything is checked: build what the writes need (the last
    // iteration's test, the destination's sizes, each tile's place) while
    // the loops are as they were, then thread the destination.
    Location loc = loop.getLoc();
    LastKBlockFusion fusion(rewriter, mr, nr);
    rewriter.setInsertionPoint(loop);
    fusion.rows = tensor::DimOp::create(rewriter, loc, dest, 0);
    fusion.cols = tensor::DimOp::create(rewriter, loc, dest, 1);
    rewriter.setInsertionPointToStart(loop.getBody());
    Value next = arith::AddIOp::create(rewriter, loc, loop.getInductionVar(),
                                       loop.getStep());
    fusion.isLast = arith::CmpIOp::create(
        rewriter, loc, arith::CmpIPredicate::sge, next, loop.getUpperBound());
    auto placeOf = [&](ArrayRef<OpFoldResult> terms, int64_t size) {
      AffineExpr sum = getAffineConstantExpr(0, rewriter.getContext());
      for (unsigned i = 0; i < terms.size(); ++i)
        sum = sum + getAffineDimExpr(i, rewriter.getContext());
      return getValueOrCreateConstantIndexOp(
          rewriter, loc,
          affine::makeComposedFoldedAffineApply(
              rewriter, loc,
              AffineMap::get(terms.size(), 0, sum * size, rewriter.getContext()),
              terms));
    };
    for (TileWrite &tile : writes) {
      rewriter.setInsertionPoint(tile.write);
      loc = tile.write.getLoc();
      Value row = placeOf(tile.rowTerms, mr);
      Value col = placeOf(tile.colTerms, nr);
      fusion.byInsert[tile.insert] = {&tile, row, col};
      for (Operation *parent = tile.write->getParentOp(); parent != loop;
           parent = parent->getParentOp())
        fusion.loopsOnPath.insert(parent);
    }
    scf::ForOp newLoop = fusion.addIterArg(loop, dest);
    fusion.closeLoop(newLoop);
    rewriter.replaceOp(unpack, newLoop.getResults().back());
  }
  return DiagnosedSilenceableFailure::success();
}

void transform::FuseUnpackIntoLastKBlockOp::getEffects(
    SmallVectorImpl<MemoryEffects::EffectInstance> &effects) {
  onlyReadsHandle(getTargetMutable(), effects);
  modifiesPayload(effects);
}

void transform::ApplyUnrollTransposesPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  int64_t size = getSize();
  // The native shape of `op` if it is a transpose of the last two
  // dimensions of 32-bit elements, both multiples of `size` (and not both
  // `size`), the others 1.
  auto getSquareShape =
      [size](Operation *op) -> std::optional<SmallVector<int64_t>> {
    auto transpose = dyn_cast<vector::TransposeOp>(op);
    if (!transpose)
      return std::nullopt;
    VectorType type = transpose.getSourceVectorType();
    int64_t rank = type.getRank();
    // Not of index elements (the transposed copies of `eye`, `iota`: a
    // vector of linalg.index values), which have no bit width.
    if (rank < 2 || type.isScalable() ||
        !type.getElementType().isIntOrFloat() ||
        type.getElementTypeBitWidth() != 32 ||
        type.getNumElements() == size * size)
      return std::nullopt;
    SmallVector<int64_t> square(rank, 1);
    for (int64_t i = 0; i < rank; ++i) {
      int64_t expected = i < rank - 2 ? i : 2 * rank - 3 - i;
      if (transpose.getPermutation()[i] != expected)
        return std::nullopt;
      if (i < rank - 2 ? type.getDimSize(i) != 1
                       : type.getDimSize(i) % size != 0)
        return std::nullopt;
      if (i >= rank - 2)
        square[i] = size;
    }
    return square;
  };
  vector::populateVectorUnrollPatterns(
      patterns,
      vector::UnrollVectorOptions()
          .setFilterConstraint([getSquareShape](Operation *op) {
            return success(getSquareShape(op).has_value());
          })
          .setNativeShapeFn(getSquareShape));
}

//===----------------------------------------------------------------------===//
// ApplyUnmaskAccumulatorSlicesPatternsOp
//===----------------------------------------------------------------------===//

namespace {
/// The pattern of ApplyUnmaskAccumulatorSlicesPatternsOp, rooted at the
/// tensor.insert_slice.
struct UnmaskAccumulatorSlice : OpRewritePattern<tensor::InsertSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  /// Whether `xfer` is at indices 0, in bounds, with the identity map and
  /// the mask `mask`.
  static bool isLeadingMasked(VectorTransferOpInterface xfer, Value mask) {
    return matrix::isSameMask(xfer.getMask(), mask) &&
           xfer.getPermutationMap().isIdentity() &&
           llvm::all_of(xfer.getIndices(),
                        [](Value index) { return isZeroInteger(index); }) &&
           llvm::all_of(xfer.getInBoundsValues(), [](bool b) { return b; });
  }

  LogicalResult matchAndRewrite(tensor::InsertSliceOp insert,
                                PatternRewriter &rewriter) const override {
    auto write = insert.getSource().getDefiningOp<vector::TransferWriteOp>();
    if (!write || !write.getMask())
      return failure();
    auto slice = write.getBase().getDefiningOp<tensor::ExtractSliceOp>();
    Value acc = insert.getDest();
    VectorType vectorType = write.getVectorType();
    auto accType = dyn_cast<RankedTensorType>(acc.getType());
    if (!slice || slice.getSource() != acc || !accType ||
        !accType.hasStaticShape() ||
        accType.getShape() != vectorType.getShape() ||
        accType.getElementType() != vectorType.getElementType() ||
        !slice.isSameAs(insert, isEqualConstantIntOrValue) ||
        !llvm::all_of(insert.getMixedOffsets(), isZeroInteger) ||
        !llvm::all_of(insert.getMixedStrides(), isOneInteger) ||
        !isLeadingMasked(write, write.getMask()))
      return failure();
    auto mask = write.getMask().getDefiningOp<vector::CreateMaskOp>();
    SmallVector<OpFoldResult> sizes = insert.getMixedSizes();
    if (!mask || mask.getNumOperands() != sizes.size())
      return failure();
    for (auto [operand, size] : llvm::zip(mask.getOperands(), sizes))
      if (!matrix::isSameSize(operand, size))
        return failure();

    Location loc = insert.getLoc();
    rewriter.setInsertionPointAfter(slice);
    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    SmallVector<Value> indices(vectorType.getRank(), zero);
    SmallVector<bool> inBounds(vectorType.getRank(), true);
    Value pad = arith::ConstantOp::create(
        rewriter, loc, rewriter.getZeroAttr(vectorType.getElementType()));
    Value whole = vector::TransferReadOp::create(rewriter, loc, vectorType, acc,
                                                 indices, pad, inBounds);
    for (Operation *user : llvm::make_early_inc_range(slice->getUsers())) {
      auto read = dyn_cast<vector::TransferReadOp>(user);
      // `whole` is just after `slice`: it dominates the slice's users.
      if (read && read.getVectorType() == vectorType &&
          isLeadingMasked(read, mask.getResult()))
        rewriter.replaceOp(read, whole);
    }
    rewriter.setInsertionPoint(insert);
    Value selected = arith::SelectOp::create(rewriter, loc, mask.getResult(),
                                             write.getVector(), whole);
    rewriter.replaceOp(insert,
                       vector::TransferWriteOp::create(rewriter, loc, selected,
                                                       acc, indices, inBounds)
                           .getResult());
    if (write->use_empty())
      rewriter.eraseOp(write);
    return success();
  }
};
} // namespace

void transform::ApplyUnmaskAccumulatorSlicesPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  patterns.add<UnmaskAccumulatorSlice>(patterns.getContext());
}
