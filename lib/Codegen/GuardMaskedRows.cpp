//===- GuardMaskedRows.cpp - Rows a mask leaves out are not accessed ------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The matrix-guard-masked-rows pass: a 2-D vector read or write of a memref
// whose mask may leave rows out accesses only the rows the mask keeps,
// instead of issuing a masked access with every lane off for each of the
// others (an assist on AMD's Zen 4 and 5 where the address is unmapped).
// See the pass description in Passes.td.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Utils/StaticValueUtils.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "mlir/Interfaces/LoopLikeInterface.h"
#include "mlir/Interfaces/ValueBoundsOpInterface.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXGUARDMASKEDROWS
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;

/// The number of rows `mask`, of a 2-D vector of `rows` rows, keeps when
/// it may leave whole rows out: the first size of a vector.create_mask that
/// is not a constant of at least `rows`, or of a vector.constant_mask of
/// fewer rows (an index attribute then). Null otherwise.
static OpFoldResult getMaskedRows(Value mask, int64_t rows) {
  if (auto create = mask.getDefiningOp<vector::CreateMaskOp>()) {
    Value size = create.getOperands().front();
    std::optional<int64_t> constant = getConstantIntValue(size);
    if (!constant)
      return size;
    if (*constant < rows)
      return OpBuilder(create).getIndexAttr(*constant);
    return nullptr;
  }
  if (auto constant = mask.getDefiningOp<vector::ConstantMaskOp>())
    if (constant.getMaskDimSizes().front() < rows)
      return OpBuilder(constant).getIndexAttr(
          constant.getMaskDimSizes().front());
  return nullptr;
}

/// Whether `mask` is made anew at every iteration of the innermost loop
/// around `op` (or `op` is in no loop): defined inside that loop.
static bool isMadePerIteration(Value mask, Operation *op) {
  auto loop = op->getParentOfType<LoopLikeOpInterface>();
  return !loop || loop->isAncestor(mask.getParentRegion()->getParentOp());
}

/// `op` with its rows marked possibly out of bounds.
template <typename TransferOp> static void markRowsOutOfBounds(TransferOp op) {
  SmallVector<bool> inBounds = {false, op.isDimInBounds(1)};
  op.setInBoundsAttr(OpBuilder(op).getBoolArrayAttr(inBounds));
}

/// Whether `TransferOp` is vector.transfer_read (else transfer_write).
template <typename TransferOp>
static constexpr bool isRead =
    std::is_same_v<TransferOp, vector::TransferReadOp>;

/// Buffers on the stack for the vectors of the row loops (createRowLoop),
/// one per vector type and allocation scope: at the start of the innermost
/// function, memref.alloca_scope or scf.parallel body (a thread's own, in
/// the alloca_scope that convert-scf-to-openmp makes of each iteration)
/// around the access. Not in an scf.for (which declares an automatic
/// allocation scope that its lowering to branches does not keep: the stack
/// would grow at every iteration), nor in a memref.alloca_scope of its own
/// (lowered by finalize-memref-to-llvm into blocks, inside the scf.if that
/// still holds it).
class RowBuffers {
public:
  /// The buffer (memref<vector<R x C x T>>) for `vectorType` in the scope
  /// of `op`.
  Value get(Operation *op, VectorType vectorType) {
    Operation *scope = op->getParentOp();
    while (!isa<scf::ParallelOp, memref::AllocaScopeOp, FunctionOpInterface>(
        scope))
      scope = scope->getParentOp();
    Block *block = &scope->getRegion(0).front();
    Value &buffer = buffers[{block, vectorType}];
    if (!buffer) {
      OpBuilder builder = OpBuilder::atBlockBegin(block);
      buffer = memref::AllocaOp::create(builder, op->getLoc(),
                                        MemRefType::get({}, vectorType));
    }
    return buffer;
  }

private:
  DenseMap<std::pair<Block *, Type>, Value> buffers;
};

/// The accesses of the rows `op` keeps (its mask a vector.create_mask of
/// `rows` rows and the columns `columns`), one 1-D access per row in an
/// scf.for over them, through a buffer of the vector on the stack (as
/// convert-vector-to-scf's loops go through one; from `buffers`): a write
/// stores the vector there and writes its rows from it; a read fills it
/// with the padding, reads the rows into it and loads it. Inserted at
/// `builder`'s insertion point; returns the read's vector, or null.
template <typename TransferOp>
static Value createRowLoop(OpBuilder &builder, RowBuffers &buffers,
                           TransferOp op, Value rows, Value columns) {
  Location loc = op.getLoc();
  VectorType vectorType = op.getVectorType();
  auto rowType =
      VectorType::get({vectorType.getDimSize(1)}, vectorType.getElementType());
  Value buffer = buffers.get(op, vectorType);
  Value rowBuffer = vector::TypeCastOp::create(
      builder, loc, MemRefType::get({vectorType.getDimSize(0)}, rowType),
      buffer);
  Value mask = vector::CreateMaskOp::create(
      builder, loc, VectorType::get(rowType.getShape(), builder.getI1Type()),
      ValueRange{columns});
  Value initial;
  if constexpr (isRead<TransferOp>)
    initial =
        vector::BroadcastOp::create(builder, loc, vectorType, op.getPadding());
  else
    initial = op.getVector();
  memref::StoreOp::create(builder, loc, initial, buffer, ValueRange{});
  int64_t rank = cast<MemRefType>(op.getBase().getType()).getRank();
  AffineMap rowMap =
      AffineMap::getMinorIdentityMap(rank, 1, builder.getContext());
  ArrayAttr inBounds = builder.getBoolArrayAttr({op.isDimInBounds(1)});
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value one = arith::ConstantIndexOp::create(builder, loc, 1);
  scf::ForOp::create(
      builder, loc, zero, rows, one, ValueRange{},
      [&](OpBuilder &b, Location l, Value row, ValueRange) {
        SmallVector<Value> indices(op.getIndices());
        indices[rank - 2] = arith::AddIOp::create(b, l, indices[rank - 2], row);
        if constexpr (isRead<TransferOp>) {
          Value line = vector::TransferReadOp::create(
              b, l, rowType, op.getBase(), indices, AffineMapAttr::get(rowMap),
              op.getPadding(), mask, inBounds);
          memref::StoreOp::create(b, l, line, rowBuffer, ValueRange{row});
        } else {
          Value line = memref::LoadOp::create(b, l, rowBuffer, ValueRange{row});
          vector::TransferWriteOp::create(b, l, line, op.getBase(), indices,
                                          AffineMapAttr::get(rowMap), mask,
                                          inBounds);
        }
        scf::YieldOp::create(b, l);
      });
  if constexpr (isRead<TransferOp>)
    return memref::LoadOp::create(builder, loc, buffer, ValueRange{});
  return Value();
}

/// `op` (a vector.transfer_read or transfer_write of R x C, its mask a
/// vector.create_mask of `rows` rows and the columns `columns`, made
/// outside the innermost loop around it) replaced by one 1-D access per
/// row below `bound`, each at its own row while the mask keeps it and at
/// the first row with every lane off when it does not: every address the
/// access computes is then one it reads or writes when it keeps a row, and
/// the rows' indices and masks, all made of values defined outside the
/// loop, are hoisted out of it by LLVM. A read's rows from `bound` on are
/// its padding. Inserted before `op`, which is erased.
template <typename TransferOp>
static void clampRows(TransferOp op, Value rows, Value columns, int64_t bound) {
  OpBuilder builder(op);
  Location loc = op.getLoc();
  VectorType vectorType = op.getVectorType();
  auto rowType =
      VectorType::get({vectorType.getDimSize(1)}, vectorType.getElementType());
  auto rowMaskType = VectorType::get(rowType.getShape(), builder.getI1Type());
  int64_t rank = cast<MemRefType>(op.getBase().getType()).getRank();
  AffineMap rowMap =
      AffineMap::getMinorIdentityMap(rank, 1, builder.getContext());
  ArrayAttr inBounds = builder.getBoolArrayAttr({op.isDimInBounds(1)});
  Value zero = arith::ConstantIndexOp::create(builder, loc, 0);
  Value first = op.getIndices()[rank - 2];
  Value result;
  if constexpr (isRead<TransferOp>)
    result =
        vector::BroadcastOp::create(builder, loc, vectorType, op.getPadding());
  for (int64_t row = 0; row < bound; ++row) {
    Value offset = arith::ConstantIndexOp::create(builder, loc, row);
    Value kept = arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::slt,
                                       offset, rows);
    SmallVector<Value> indices(op.getIndices());
    indices[rank - 2] = arith::SelectOp::create(
        builder, loc, kept, arith::AddIOp::create(builder, loc, first, offset),
        first);
    Value mask = vector::CreateMaskOp::create(
        builder, loc, rowMaskType,
        ValueRange{arith::SelectOp::create(builder, loc, kept, columns, zero)});
    if constexpr (isRead<TransferOp>) {
      Value line = vector::TransferReadOp::create(
          builder, loc, rowType, op.getBase(), indices,
          AffineMapAttr::get(rowMap), op.getPadding(), mask, inBounds);
      result = vector::InsertOp::create(builder, loc, line, result,
                                        ArrayRef<int64_t>{row});
    } else {
      Value line = vector::ExtractOp::create(builder, loc, op.getVector(),
                                             ArrayRef<int64_t>{row});
      vector::TransferWriteOp::create(builder, loc, line, op.getBase(), indices,
                                      AffineMapAttr::get(rowMap), mask,
                                      inBounds);
    }
  }
  if constexpr (isRead<TransferOp>)
    op.getResult().replaceAllUsesWith(result);
  op->erase();
}

/// `op` (a vector.transfer_read or transfer_write of R x C) replaced by
/// the same access of its first `bound` rows, masked by `rows` and
/// `columns`: a read's rows are inserted into a vector of its padding, a
/// write's taken from its vector. Returns the new access.
template <typename TransferOp>
static TransferOp shrinkRows(OpBuilder &builder, TransferOp op, Value rows,
                             Value columns, int64_t bound) {
  Location loc = op.getLoc();
  VectorType vectorType = op.getVectorType();
  auto shrunkType = VectorType::get({bound, vectorType.getDimSize(1)},
                                    vectorType.getElementType());
  Value mask = vector::CreateMaskOp::create(
      builder, loc, VectorType::get(shrunkType.getShape(), builder.getI1Type()),
      ValueRange{rows, columns});
  SmallVector<int64_t> origin = {0, 0}, unit = {1, 1};
  if constexpr (isRead<TransferOp>) {
    auto read = vector::TransferReadOp::create(
        builder, loc, shrunkType, op.getBase(), op.getIndices(),
        op.getPermutationMapAttr(), op.getPadding(), mask,
        op.getInBoundsAttr());
    Value padding =
        vector::BroadcastOp::create(builder, loc, vectorType, op.getPadding());
    Value whole = vector::InsertStridedSliceOp::create(
        builder, loc, read.getResult(), padding, origin, unit);
    op.getResult().replaceAllUsesWith(whole);
    op->erase();
    return read;
  } else {
    Value part = vector::ExtractStridedSliceOp::create(
        builder, loc, op.getVector(), origin, shrunkType.getShape(), unit);
    auto write = vector::TransferWriteOp::create(
        builder, loc, part, op.getBase(), op.getIndices(),
        op.getPermutationMapAttr(), mask, op.getInBoundsAttr());
    op->erase();
    return write;
  }
}

/// Guards the rows of `op` (a vector.transfer_read or transfer_write) when
/// it is a 2-D access of a memref with a minor identity map, in bounds in
/// its rows, whose mask may leave rows out. A static number of rows: `op`
/// marked possibly out of bounds in its rows (convert-vector-to-scf's
/// unrolling then guards each row, and the guards fold). A run-time one,
/// its mask made outside the innermost loop around `op`: one access per
/// row at clamped rows (clampRows). A run-time one, its mask made in that
/// loop (a block's): first, rows past a constant
/// upper bound of it (ValueBoundsConstraintSet: the packing of A reads
/// blocks of 16 rows masked to MR = 12) are left out of the access
/// (shrinkRows); then `op` as it is when the mask keeps every row, else a
/// loop over the rows it keeps (createRowLoop). Returns whether it did.
template <typename TransferOp>
static bool guardRows(TransferOp op, RowBuffers &buffers) {
  VectorType vectorType = op.getVectorType();
  if (!isa<MemRefType>(op.getBase().getType()) || vectorType.getRank() != 2 ||
      vectorType.isScalable() || !op.getMask() ||
      !op.getPermutationMap().isMinorIdentity() || !op.isDimInBounds(0))
    return false;
  int64_t rows = vectorType.getDimSize(0);
  OpFoldResult kept = getMaskedRows(op.getMask(), rows);
  if (!kept)
    return false;
  auto size = dyn_cast<Value>(kept);
  if (!size) {
    markRowsOutOfBounds(op);
    return true;
  }
  Value columns = op.getMask()
                      .template getDefiningOp<vector::CreateMaskOp>()
                      .getOperands()[1];
  OpBuilder builder(op);
  Location loc = op.getLoc();
  FailureOr<int64_t> bound = ValueBoundsConstraintSet::computeConstantBound(
      presburger::BoundType::UB, ValueBoundsConstraintSet::Variable(size),
      /*stopCondition=*/nullptr, /*closedUB=*/true);
  if (!isMadePerIteration(op.getMask(), op)) {
    clampRows(op, size, columns,
              succeeded(bound) && *bound >= 0 && *bound < rows ? *bound : rows);
    return true;
  }
  if (succeeded(bound) && *bound >= 1 && *bound < rows) {
    op = shrinkRows(builder, op, size, columns, *bound);
    rows = *bound;
    builder.setInsertionPoint(op);
  }
  Value whole =
      arith::CmpIOp::create(builder, loc, arith::CmpIPredicate::sge, size,
                            arith::ConstantIndexOp::create(builder, loc, rows));
  auto ifOp = scf::IfOp::create(builder, loc, op->getResultTypes(), whole,
                                /*withElseRegion=*/true);
  builder.setInsertionPointToStart(&ifOp.getThenRegion().front());
  Operation *copy = builder.clone(*op);
  if (op->getNumResults())
    scf::YieldOp::create(builder, loc, copy->getResults());
  builder.setInsertionPointToStart(&ifOp.getElseRegion().front());
  Value read = createRowLoop(builder, buffers, op, size, columns);
  if (read)
    scf::YieldOp::create(builder, loc, read);
  op->replaceAllUsesWith(ifOp.getResults());
  op->erase();
  return true;
}

namespace {
struct MatrixGuardMaskedRows
    : matrix::impl::MatrixGuardMaskedRowsBase<MatrixGuardMaskedRows> {
  void runOnOperation() override {
    SmallVector<Operation *> transfers;
    getOperation()->walk([&](Operation *op) {
      if (isa<vector::TransferReadOp, vector::TransferWriteOp>(op))
        transfers.push_back(op);
    });
    RowBuffers buffers;
    for (Operation *op : transfers) {
      if (auto read = dyn_cast<vector::TransferReadOp>(op))
        guardRows(read, buffers);
      else
        guardRows(cast<vector::TransferWriteOp>(op), buffers);
    }
  }
};
} // namespace
