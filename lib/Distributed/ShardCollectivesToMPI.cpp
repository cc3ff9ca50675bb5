//===- ShardCollectivesToMPI.cpp - shard collectives to mpi send/recv ----===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The collectives that shard-partition inserts and LLVM 22's
// convert-shard-to-mpi does not lower (Passes.td), on a 1-D grid:
//
//   shard.all_gather  -> pairwise exchange of the local block (mpi.send/recv)
//   shard.all_to_all  -> pairwise exchange of the blocks of the split axis
//   shard.all_slice   -> tensor.extract_slice at this rank's offset
//
// The pairwise exchange follows the "pairwise exchange" algorithm of MPICH's
// alltoall (Thakur, Rabenseifner, Gropp, "Optimization of Collective
// Communication Operations in MPICH", IJHPCA 2005), with the involution
// p = (s - r) mod N as the partner of rank r at step s, so that each step
// pairs ranks and blocking sends cannot deadlock. The data layout follows
// the shard dialect's documentation of each op; the staging of blocks along
// a leading axis of size N follows upstream's later lowering of
// shard.all_gather to mpi.allgather (mlir/lib/Conversion/ShardToMPI).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/Passes.h"

#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXLOWERSHARDCOLLECTIVES
#include "MatrixDialect/Distributed/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

namespace {

/// MPI_COMM_WORLD and this process's rank in it.
struct World {
  Value comm;
  /// The rank as an i32 (for mpi ops) and as an index.
  Value rank, rankIndex;

  static World create(OpBuilder &b, Location loc) {
    World world;
    world.comm =
        mpi::CommWorldOp::create(b, loc, mpi::CommType::get(b.getContext()));
    world.rank =
        mpi::CommRankOp::create(b, loc, TypeRange{b.getI32Type()}, world.comm)
            .getRank();
    world.rankIndex =
        arith::IndexCastOp::create(b, loc, b.getIndexType(), world.rank);
    return world;
  }
};

} // namespace

/// Returns the number of ranks `op` communicates among when it runs over
/// every axis of a static 1-D grid (the grid matrix-shard builds); fails
/// otherwise.
template <typename CollectiveOp>
static FailureOr<int64_t> getGroupSize(CollectiveOp op,
                                       PatternRewriter &rewriter) {
  SymbolTableCollection symbols;
  shard::GridOp grid = shard::getGridOrNull(op, op.getGridAttr(), symbols);
  if (!grid || grid.getRank() != 1 || ShapedType::isDynamic(grid.getShape()[0]))
    return rewriter.notifyMatchFailure(op, "not on a static 1-D grid");
  if (op.getGridAxes().size() != 1 || op.getGridAxes()[0] != 0)
    return rewriter.notifyMatchFailure(op, "not over the whole grid");
  return grid.getShape()[0];
}

/// Returns the tensor `value` as a buffer of any layout.
static Value getBuffer(OpBuilder &b, Location loc, Value value) {
  auto type = cast<RankedTensorType>(value.getType());
  SmallVector<int64_t> strides(type.getRank(), ShapedType::kDynamic);
  auto layout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic, strides);
  auto memrefType =
      MemRefType::get(type.getShape(), type.getElementType(), layout);
  return bufferization::ToBufferOp::create(b, loc, memrefType, value,
                                           /*read_only=*/true);
}

/// Returns block `index` of `staging` (shape N x d0 x ... x dk, contiguous):
/// the elements of `staging[index]`, as a 1-D contiguous memref for MPI, or
/// with its own k + 1 dimensions when `flat` is false.
static Value getBlock(OpBuilder &b, Location loc, Value staging, Value index,
                      bool flat) {
  auto type = cast<MemRefType>(staging.getType());
  int64_t rank = type.getRank();
  SmallVector<OpFoldResult> offsets(rank, b.getIndexAttr(0));
  offsets[0] = index;
  SmallVector<OpFoldResult> sizes;
  sizes.push_back(b.getIndexAttr(1));
  for (int64_t size : type.getShape().drop_front())
    sizes.push_back(b.getIndexAttr(size));
  SmallVector<OpFoldResult> strides(rank, b.getIndexAttr(1));
  auto blockType = memref::SubViewOp::inferRankReducedResultType(
      type.getShape().drop_front(), type, offsets, sizes, strides);
  Value block = memref::SubViewOp::create(b, loc, cast<MemRefType>(blockType),
                                          staging, offsets, sizes, strides);
  if (!flat || rank == 2)
    return block;
  ReassociationIndices all = llvm::to_vector(llvm::seq<int64_t>(0, rank - 1));
  return memref::CollapseShapeOp::create(b, loc, block,
                                         ArrayRef<ReassociationIndices>{all});
}

/// The partner of this rank at step `step` of a pairwise exchange among
/// `size` ranks: p = (s + size - r) mod size, in [0, size). The map r -> p
/// is an involution, so the ranks of each step form pairs (or exchange with
/// themselves).
static Value getPartner(OpBuilder &b, Location loc, const World &world,
                        Value step, Value size) {
  Value shifted = arith::SubIOp::create(
      b, loc, arith::AddIOp::create(b, loc, step, size), world.rankIndex);
  return arith::RemUIOp::create(b, loc, shifted, size);
}

/// Sends `sendBuffer` to `partner` (an index; not this rank) and receives
/// `recvBuffer` from it, both 1-D contiguous memrefs: the lower rank of the
/// pair sends first, the higher one receives first, so the blocking calls
/// match whether or not MPI buffers the message.
static void buildOrderedExchange(OpBuilder &b, Location loc, const World &world,
                                 Value partner, Value sendBuffer,
                                 Value recvBuffer) {
  Value tag = arith::ConstantIntOp::create(b, loc, 0, 32);
  Value partnerI32 =
      arith::IndexCastOp::create(b, loc, b.getI32Type(), partner);
  auto send = [&](OpBuilder &sb, Location sl) {
    mpi::SendOp::create(sb, sl, TypeRange{}, sendBuffer, tag, partnerI32,
                        world.comm);
  };
  auto recv = [&](OpBuilder &rb, Location rl) {
    mpi::RecvOp::create(rb, rl, TypeRange{}, recvBuffer, tag, partnerI32,
                        world.comm);
  };
  Value sendsFirst = arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult,
                                           world.rankIndex, partner);
  scf::IfOp::create(
      b, loc, sendsFirst,
      [&](OpBuilder &tb, Location tl) {
        send(tb, tl);
        recv(tb, tl);
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        recv(eb, el);
        send(eb, el);
        scf::YieldOp::create(eb, el);
      });
}

/// Builds the N steps of a pairwise exchange among the `n` ranks of
/// `world`: at step s this rank and its partner p (getPartner) swap blocks,
/// sending `sendBlock(p)` and receiving into `recvBlock(p)` (1-D contiguous
/// memrefs of one size). At the step where p is this rank, `selfCopy` (if
/// any) runs instead.
static void buildPairwiseExchange(
    OpBuilder &b, Location loc, const World &world, int64_t n,
    function_ref<Value(OpBuilder &, Location, Value)> sendBlock,
    function_ref<Value(OpBuilder &, Location, Value)> recvBlock,
    function_ref<void(OpBuilder &, Location)> selfCopy) {
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value size = arith::ConstantIndexOp::create(b, loc, n);
  scf::ForOp::create(b, loc, zero, size, one, ValueRange{},
                     [&](OpBuilder &fb, Location fl, Value step, ValueRange) {
                       Value partner = getPartner(fb, fl, world, step, size);
                       Value isSelf = arith::CmpIOp::create(
                           fb, fl, arith::CmpIPredicate::eq, partner,
                           world.rankIndex);
                       scf::IfOp::create(
                           fb, fl, isSelf,
                           [&](OpBuilder &tb, Location tl) {
                             if (selfCopy)
                               selfCopy(tb, tl);
                             scf::YieldOp::create(tb, tl);
                           },
                           [&](OpBuilder &eb, Location el) {
                             buildOrderedExchange(eb, el, world, partner,
                                                  sendBlock(eb, el, partner),
                                                  recvBlock(eb, el, partner));
                             scf::YieldOp::create(eb, el);
                           });
                       scf::YieldOp::create(fb, fl);
                     });
}

/// The permutation that moves dimension 0 of a rank-`rank` shape to
/// position `to`, keeping the order of the others.
static SmallVector<int64_t> getMoveFrontTo(int64_t rank, int64_t to) {
  SmallVector<int64_t> permutation;
  for (int64_t i = 1; i <= to; ++i)
    permutation.push_back(i);
  permutation.push_back(0);
  for (int64_t i = to + 1; i < rank; ++i)
    permutation.push_back(i);
  return permutation;
}

/// Turns `blocks` (tensor N x d0 x ... x dk) into the concatenation of its N
/// blocks along dimension `axis` of the blocks: moves the leading N next to
/// dimension `axis` and merges the two.
static Value concatenateBlocks(OpBuilder &b, Location loc, Value blocks,
                               int64_t axis) {
  auto type = cast<RankedTensorType>(blocks.getType());
  int64_t rank = type.getRank();
  if (axis != 0) {
    SmallVector<int64_t> permutation = getMoveFrontTo(rank, axis);
    SmallVector<int64_t> shape;
    for (int64_t dim : permutation)
      shape.push_back(type.getDimSize(dim));
    Value init = tensor::EmptyOp::create(b, loc, shape, type.getElementType());
    blocks = linalg::TransposeOp::create(b, loc, blocks, init, permutation)
                 ->getResult(0);
  }
  SmallVector<ReassociationIndices> groups;
  for (int64_t i = 0; i < rank - 1; ++i) {
    if (i < axis)
      groups.push_back({i});
    else if (i == axis)
      groups.push_back({i, i + 1});
    else
      groups.push_back({i + 1});
  }
  return tensor::CollapseShapeOp::create(b, loc, blocks, groups);
}

/// Returns `shape` with a leading dimension of size `n`.
static SmallVector<int64_t> prependDim(int64_t n, ArrayRef<int64_t> shape) {
  SmallVector<int64_t> result{n};
  llvm::append_range(result, shape);
  return result;
}

/// Returns the contiguous buffer `staging` as a tensor (it is written by
/// MPI, then only read).
static Value getStagedTensor(OpBuilder &b, Location loc, Value staging) {
  auto type = cast<MemRefType>(staging.getType());
  return bufferization::ToTensorOp::create(
      b, loc, RankedTensorType::get(type.getShape(), type.getElementType()),
      staging, /*restrict=*/true, /*writable=*/true);
}

/// The buffer gatherBlocks stages the `n` blocks of type `blockType` in.
static MemRefType getStagingType(int64_t n, RankedTensorType blockType) {
  return MemRefType::get(prependDim(n, blockType.getShape()),
                         blockType.getElementType());
}

/// Gathers the `n` ranks' blocks `block` (a static tensor): returns a
/// tensor N x (block shape) holding block p of rank p at position p. This
/// rank's block is copied in, the others are received from their owners in
/// a pairwise exchange. The blocks are staged in `staging` (of
/// getStagingType), a new buffer if null.
static Value gatherBlocks(OpBuilder &b, Location loc, const World &world,
                          int64_t n, Value block, Value staging = nullptr) {
  auto blockType = cast<RankedTensorType>(block.getType());
  if (!staging)
    staging = memref::AllocOp::create(b, loc, getStagingType(n, blockType));
  linalg::CopyOp::create(
      b, loc, getBuffer(b, loc, block),
      getBlock(b, loc, staging, world.rankIndex, /*flat=*/false));
  buildPairwiseExchange(
      b, loc, world, n,
      [&](OpBuilder &eb, Location el, Value) {
        return getBlock(eb, el, staging, world.rankIndex, /*flat=*/true);
      },
      [&](OpBuilder &eb, Location el, Value partner) {
        return getBlock(eb, el, staging, partner, /*flat=*/true);
      },
      /*selfCopy=*/nullptr);
  return getStagedTensor(b, loc, staging);
}

namespace {

/// shard.all_gather: every rank's block, concatenated along gather_axis on
/// every rank. Staged as N x (block shape): the own block is copied in, the
/// others are received, each from its owner.
struct AllGatherToMPI : OpRewritePattern<shard::AllGatherOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllGatherOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<int64_t> n = getGroupSize(op, rewriter);
    if (failed(n))
      return failure();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    if (!inputType.hasStaticShape() ||
        !cast<RankedTensorType>(op.getType()).hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Location loc = op.getLoc();
    World world = World::create(rewriter, loc);
    Value blocks = gatherBlocks(rewriter, loc, world, *n, op.getInput());
    rewriter.replaceOp(op,
                       concatenateBlocks(rewriter, loc, blocks,
                                         op.getGatherAxis().getSExtValue()));
    return success();
  }
};

/// shard.all_to_all: the local block is cut into N pieces along split_axis;
/// piece p goes to rank p, and the pieces received are concatenated along
/// concat_axis in rank order.
struct AllToAllToMPI : OpRewritePattern<shard::AllToAllOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllToAllOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<int64_t> n = getGroupSize(op, rewriter);
    if (failed(n))
      return failure();
    auto inputType = cast<RankedTensorType>(op.getInput().getType());
    int64_t splitAxis = op.getSplitAxis().getSExtValue();
    int64_t concatAxis = op.getConcatAxis().getSExtValue();
    if (!inputType.hasStaticShape() ||
        inputType.getDimSize(splitAxis) % *n != 0)
      return rewriter.notifyMatchFailure(op, "split axis not divisible");
    Location loc = op.getLoc();
    Type elementType = inputType.getElementType();
    int64_t rank = inputType.getRank();
    World world = World::create(rewriter, loc);

    // The input as N pieces along a new leading axis: expand split_axis to
    // (N, size / N) and move N to the front.
    SmallVector<int64_t> pieceShape(inputType.getShape());
    pieceShape[splitAxis] /= *n;
    SmallVector<int64_t> expandedShape(inputType.getShape());
    expandedShape[splitAxis] = pieceShape[splitAxis];
    expandedShape.insert(expandedShape.begin() + splitAxis, *n);
    SmallVector<ReassociationIndices> groups;
    for (int64_t i = 0, dim = 0; i < rank; ++i) {
      if (i == splitAxis)
        groups.push_back({dim, dim + 1}), dim += 2;
      else
        groups.push_back({dim++});
    }
    Value expanded = tensor::ExpandShapeOp::create(
        rewriter, loc, RankedTensorType::get(expandedShape, elementType),
        op.getInput(), groups);
    auto stagingType = MemRefType::get(prependDim(*n, pieceShape), elementType);
    Value sendStaging = memref::AllocOp::create(rewriter, loc, stagingType);
    Value expandedBuffer = getBuffer(rewriter, loc, expanded);
    if (splitAxis == 0) {
      linalg::CopyOp::create(rewriter, loc, expandedBuffer, sendStaging);
    } else {
      SmallVector<int64_t> toFront;
      toFront.push_back(splitAxis);
      for (int64_t i = 0; i <= rank; ++i)
        if (i != splitAxis)
          toFront.push_back(i);
      linalg::TransposeOp::create(rewriter, loc, expandedBuffer, sendStaging,
                                  toFront);
    }
    Value recvStaging = memref::AllocOp::create(rewriter, loc, stagingType);
    buildPairwiseExchange(
        rewriter, loc, world, *n,
        [&](OpBuilder &b, Location l, Value partner) {
          return getBlock(b, l, sendStaging, partner, /*flat=*/true);
        },
        [&](OpBuilder &b, Location l, Value partner) {
          return getBlock(b, l, recvStaging, partner, /*flat=*/true);
        },
        [&](OpBuilder &b, Location l) {
          linalg::CopyOp::create(
              b, l, getBlock(b, l, sendStaging, world.rankIndex, true),
              getBlock(b, l, recvStaging, world.rankIndex, true));
        });

    Value blocks = getStagedTensor(rewriter, loc, recvStaging);
    rewriter.replaceOp(op,
                       concatenateBlocks(rewriter, loc, blocks, concatAxis));
    return success();
  }
};

/// shard.all_slice: a replicated tensor's block of this rank along
/// slice_axis. No communication.
struct AllSliceToMPI : OpRewritePattern<shard::AllSliceOp> {
  using OpRewritePattern::OpRewritePattern;

  LogicalResult matchAndRewrite(shard::AllSliceOp op,
                                PatternRewriter &rewriter) const override {
    FailureOr<int64_t> n = getGroupSize(op, rewriter);
    if (failed(n))
      return failure();
    auto resultType = cast<RankedTensorType>(op.getType());
    if (!resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(op, "dynamic shapes");
    Location loc = op.getLoc();
    int64_t axis = op.getSliceAxis().getSExtValue();
    World world = World::create(rewriter, loc);
    int64_t rank = resultType.getRank();
    SmallVector<OpFoldResult> offsets(rank, rewriter.getIndexAttr(0));
    Value blockSize = arith::ConstantIndexOp::create(
        rewriter, loc, resultType.getDimSize(axis));
    offsets[axis] =
        arith::MulIOp::create(rewriter, loc, world.rankIndex, blockSize)
            .getResult();
    SmallVector<OpFoldResult> sizes;
    for (int64_t size : resultType.getShape())
      sizes.push_back(rewriter.getIndexAttr(size));
    SmallVector<OpFoldResult> strides(rank, rewriter.getIndexAttr(1));
    rewriter.replaceOpWithNewOp<tensor::ExtractSliceOp>(
        op, resultType, op.getInput(), offsets, sizes, strides);
    return success();
  }
};

/// The number of column panels GatheredProductToMPI gathers a right operand
/// of `cols` columns in: 8 panels (each an eighth of the gathered matrix)
/// when they are whole multiples of the 16-column panels of the product's
/// code generation, else fewer, else 1.
static int64_t getPanelCount(int64_t cols) {
  for (int64_t count : {8, 4, 2})
    if (cols % (count * 16) == 0)
      return count;
  return 1;
}

/// A product whose right operand is gathered along its rows, the `k` of
/// the product: `matmul(A, all_gather(B))` on each rank, A the rank's block
/// of rows of the left operand (all of k), B its block of rows of the right
/// one, and the result zero-filled. Materializing the gather would hold the
/// whole right operand on every rank; instead the product is computed by
/// column panels of the right operand, each gathered just before it is
/// used (the decomposition of a gather into the product that consumes it:
/// Wang et al., "Overlap Communication with Dependent Computation via
/// Decomposition in Large Deep Learning Models", ASPLOS 2023):
///
///   for each panel J of w columns:
///     gather B[:, J] (each rank's rows of those columns, pairwise exchange)
///     C[:, J] = A @ B[:, J]          (a product into a zero-filled slice)
///
/// Each rank sends what the gather would and holds one panel (K x w)
/// instead of all of B (K x N). Each panel product is a plain
/// zero-initialized linalg.matmul, as the code generation schedule wants.
struct GatheredProductToMPI : OpRewritePattern<linalg::MatmulOp> {
  GatheredProductToMPI(MLIRContext *ctx)
      : OpRewritePattern(ctx, /*benefit=*/2) {}

  LogicalResult matchAndRewrite(linalg::MatmulOp matmul,
                                PatternRewriter &rewriter) const override {
    if (!matmul.hasPureTensorSemantics())
      return failure();
    OpOperand *rhsOperand = matmul.getDpsInputOperand(1);
    auto gather = rhsOperand->get().getDefiningOp<shard::AllGatherOp>();
    if (!gather || !gather->hasOneUse() ||
        gather.getGatherAxis().getSExtValue() != 0)
      return rewriter.notifyMatchFailure(matmul, "no gathered right operand");
    auto fill =
        matmul.getDpsInitOperand(0)->get().getDefiningOp<linalg::FillOp>();
    if (!fill)
      return rewriter.notifyMatchFailure(matmul, "not zero-initialized");
    FailureOr<int64_t> n = getGroupSize(gather, rewriter);
    if (failed(n))
      return failure();
    // The right operand read plainly, [k, n] (not transposed).
    SmallVector<AffineMap> maps = matmul.getIndexingMapsArray();
    auto rhsRows = dyn_cast<AffineDimExpr>(maps[1].getResult(0));
    auto rhsCols = dyn_cast<AffineDimExpr>(maps[1].getResult(1));
    auto resultCols = dyn_cast<AffineDimExpr>(maps[2].getResult(1));
    if (!rhsRows || !rhsCols || rhsCols != resultCols ||
        matmul.getIteratorTypesArray()[rhsRows.getPosition()] !=
            utils::IteratorType::reduction)
      return rewriter.notifyMatchFailure(matmul, "not gathered along k");
    auto blockType = cast<RankedTensorType>(gather.getInput().getType());
    auto resultType = cast<RankedTensorType>(matmul.getResult(0).getType());
    if (!blockType.hasStaticShape() || !resultType.hasStaticShape())
      return rewriter.notifyMatchFailure(matmul, "dynamic shapes");

    Location loc = matmul.getLoc();
    Type elementType = blockType.getElementType();
    int64_t blockRows = blockType.getDimSize(0);
    int64_t cols = blockType.getDimSize(1);
    int64_t panelCount = getPanelCount(cols);
    int64_t width = cols / panelCount;
    int64_t resultRows = resultType.getDimSize(0);
    auto pieceType = RankedTensorType::get({blockRows, width}, elementType);
    auto resultPanelType =
        RankedTensorType::get({resultRows, width}, elementType);
    World world = World::create(rewriter, loc);
    Value block = gather.getInput();
    // One staging buffer for every panel: each panel overwrites it once the
    // product of the previous one has read it (a fresh buffer per panel
    // would be a fresh mmap, and its page faults, every time).
    Value staging =
        memref::AllocOp::create(rewriter, loc, getStagingType(*n, pieceType));

    Value zero = arith::ConstantIndexOp::create(rewriter, loc, 0);
    Value one = arith::ConstantIndexOp::create(rewriter, loc, 1);
    Value panels = arith::ConstantIndexOp::create(rewriter, loc, panelCount);
    Value widthValue = arith::ConstantIndexOp::create(rewriter, loc, width);
    auto unit = [&](OpBuilder &b) { return b.getIndexAttr(1); };
    auto loop = scf::ForOp::create(
        rewriter, loc, zero, panels, one, ValueRange{fill.getOutputs()[0]},
        [&](OpBuilder &b, Location l, Value panel, ValueRange acc) {
          Value firstCol = arith::MulIOp::create(b, l, panel, widthValue);
          // Gather B[:, J]: the ranks' pieces of it, stacked.
          Value mine = tensor::ExtractSliceOp::create(
              b, l, pieceType, block,
              ArrayRef<OpFoldResult>{b.getIndexAttr(0), firstCol},
              ArrayRef<OpFoldResult>{b.getIndexAttr(blockRows),
                                     b.getIndexAttr(width)},
              ArrayRef<OpFoldResult>{unit(b), unit(b)});
          Value rhsPanel = concatenateBlocks(
              b, l, gatherBlocks(b, l, world, *n, mine, staging), /*axis=*/0);
          // C[:, J] = A @ B[:, J], into a zero-filled slice of C.
          SmallVector<OpFoldResult> offsets{b.getIndexAttr(0), firstCol};
          SmallVector<OpFoldResult> sizes{b.getIndexAttr(resultRows),
                                          b.getIndexAttr(width)};
          SmallVector<OpFoldResult> strides{unit(b), unit(b)};
          Value resultSlice = tensor::ExtractSliceOp::create(
              b, l, resultPanelType, acc[0], offsets, sizes, strides);
          Value zeroed =
              linalg::FillOp::create(b, l, fill.getInputs(), resultSlice)
                  .getResult(0);
          IRMapping mapping;
          mapping.map(rhsOperand->get(), rhsPanel);
          mapping.map(matmul.getDpsInitOperand(0)->get(), zeroed);
          Operation *product = b.clone(*matmul, mapping);
          product->getResult(0).setType(resultPanelType);
          Value updated = tensor::InsertSliceOp::create(
              b, l, product->getResult(0), acc[0], offsets, sizes, strides);
          scf::YieldOp::create(b, l, updated);
        });
    rewriter.replaceOp(matmul, loop.getResults());
    rewriter.eraseOp(gather);
    return success();
  }
};

struct MatrixLowerShardCollectives
    : matrix::impl::MatrixLowerShardCollectivesBase<
          MatrixLowerShardCollectives> {
  void runOnOperation() override {
    // shard-partition (LLVM 22) emits every resharding of a value right
    // after the value: moved to just before their first user, the
    // resharded copies are alive only while needed.
    SmallVector<Operation *> collectives;
    getOperation().walk([&](Operation *op) {
      if (isa<shard::AllGatherOp, shard::AllToAllOp, shard::AllSliceOp,
              shard::AllReduceOp>(op))
        collectives.push_back(op);
    });
    for (Operation *op : llvm::reverse(collectives)) {
      Operation *first = nullptr;
      for (Operation *user : op->getUsers()) {
        Operation *inBlock = op->getBlock()->findAncestorOpInBlock(*user);
        if (inBlock && (!first || inBlock->isBeforeInBlock(first)))
          first = inBlock;
      }
      if (first && first != op)
        op->moveBefore(first);
    }

    RewritePatternSet patterns(&getContext());
    populateShardCollectivesToMPIPatterns(patterns);
    (void)applyPatternsGreedily(getOperation(), std::move(patterns));
    WalkResult result = getOperation().walk([](Operation *op) {
      if (isa<shard::AllGatherOp, shard::AllToAllOp, shard::AllSliceOp>(op)) {
        op->emitError("cannot lower to MPI: only collectives over every "
                      "axis of a static 1-D grid, on static shapes, are "
                      "supported");
        return WalkResult::interrupt();
      }
      return WalkResult::advance();
    });
    if (result.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::matrix::populateShardCollectivesToMPIPatterns(
    RewritePatternSet &patterns) {
  patterns
      .add<AllGatherToMPI, AllToAllToMPI, AllSliceToMPI, GatheredProductToMPI>(
          patterns.getContext());
}
