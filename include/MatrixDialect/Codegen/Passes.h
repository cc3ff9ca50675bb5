//===- Passes.h - Code generation passes below Linalg -----------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_CODEGEN_PASSES_H
#define MATRIXDIALECT_CODEGEN_PASSES_H

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/UB/IR/UBOps.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"
#include "mlir/Pass/Pass.h"

namespace mlir {
namespace matrix {

/// The text of matc's code generation schedule (lib/Codegen/Schedule.mlir),
/// a transform-dialect library module.
StringRef getCodegenScheduleSource();

/// Whether operand `index` (0: A, 1: B) of `matmul` is read transposed: the
/// map of A is (m, n, k) -> (k, m) instead of (m, k), that of B (n, k)
/// instead of (k, n) (the layouts matrix-optimize folds transposes into).
inline bool isProductOperandTransposed(linalg::MatmulOp matmul,
                                       unsigned index) {
  AffineMap map = matmul.getIndexingMapsArray()[index];
  return map.getDimPosition(0) == (index == 0 ? 2u : 1u);
}

/// Whether sizes `a` and `b` are equal: one value or constant, or provably
/// (ValueBoundsConstraintSet: the vectorizer's masks take `tensor.dim`s of
/// slices whose sizes are other values). Defined in
/// lib/Codegen/TransformOps.cpp.
bool isSameSize(OpFoldResult a, OpFoldResult b);

/// Whether `a` and `b` are the same mask: one value, or two
/// `vector.create_mask` ops of one type and equal sizes (isSameSize).
/// Defined in lib/Codegen/TransformOps.cpp.
bool isSameMask(Value a, Value b);

/// `value` as a tensor of `type` (a tensor.cast), or itself when it has it
/// (defined in lib/Codegen/VersionProducts.cpp).
Value castTo(OpBuilder &builder, Location loc, Value value, Type type);

/// A copy of the 2-D tensor `value` transposed (into `destination` when
/// given, of the transposed shape), a linalg.generic tagged
/// `matc.transpose = TAG` ("f32" or "f64"), which the schedule computes in
/// square blocks of vector registers transposed by shuffles (defined in
/// lib/Codegen/VersionProducts.cpp).
Value createTransposedCopy(OpBuilder &builder, Location loc, Value value,
                           StringRef tag, Value destination = {});

/// The shortest k-range computed as dot products for a few columns or rows
/// of C (2 or more) known only at run time (matrix-version-products; one
/// row or column is computed so along any k-range): with fewer elements than
/// two vectors of 512 bits of f32 a dot product is mostly masked lanes and the
/// adds across them. From a new user, Zen 4, 1 thread, f64, a general
/// product given 100000 x 3 @ 3 x 3: 2.3 ms as dot products, 0.57 ms in
/// register tiles along N (NumPy 0.12; 10000 x 32 @ 32 x 4: 0.12 ms as dot
/// products, 0.24 ms, NumPy 0.18). Likewise the shortest computed as C^T
/// when A is read transposed (matrix-outline-products): a product that
/// short costs less than C^T's temporary and transposed copy (a new user,
/// (3 x 5000).T @ 3 x 7: 218-270 us with the temporary's page faults,
/// NumPy 7 us).
inline constexpr int64_t kMinDotProductDepth = 32;

/// The width in bits of the tiles of C of vector-matrix products (C one row
/// or column, the rows of a matrix scaled by x's elements:
/// Schedule.mlir's @schedule_vector_matrix, matrix-version-products'
/// createRowSums): 4 AVX-512 vectors or 8 AVX2 ones, each updated by a
/// chain of multiply-adds, one per row of the matrix: enough chains to
/// cover the latency of a multiply-add (4 cycles on Zen 3 and Zen 4) at two
/// per cycle of 256 bits or one of 512. Measured on Zen 4, x @ a (a 1024 x
/// 1024 f64, from Python): 113 us with 1024 bits (2 chains), against
/// NumPy's 78.
inline constexpr int64_t kVectorMatrixTileBits = 2048;

/// The most columns of a run-time N that matrix-version-products computes
/// in blocks of 4 dot products, given the packed register tile's width
/// `narrow` (its narrow-f32 or narrow-f64: the model's NR; 0 when not
/// given, then 8): half of it, at least one block.
inline int64_t getMaxDotColumns(int64_t narrow) {
  return narrow <= 0 ? 8 : std::max<int64_t>(4, narrow / 2);
}

/// The most columns of C of a product of run-time sizes with A read
/// transposed that matrix-outline-products computes as the rows of C^T
/// (the product with its operands swapped, then copied transposed), given
/// the packed register tile's width `narrow` (as getMaxDotColumns): fewer
/// than a register tile of columns, which would be partly masked lanes,
/// where C^T's rows come in tiles of MR, 4, 2 or 1 rows.
inline int64_t getMaxTransposedColumns(int64_t narrow) {
  return narrow <= 0 ? 8 : narrow - 1;
}

/// Whether a loop of static trip count `range` (ShapedType::kDynamic if
/// not static) is tiny: at most 16, as every loop of a product the plain
/// loops compute (Schedule.mlir's @match_small).
inline bool isTinyLoopRange(int64_t range) {
  return !ShapedType::isDynamic(range) && range <= 16;
}

/// Whether `matmul` multiplies by a tiny static B: K and N static, at most
/// 16 each, N not a multiple of 8 (no whole vector of columns), B not read
/// transposed, and M not static and as small (a tiny product). Such a
/// product is a few multiply-adds per row of A (`points @ r` with r 3 x 3:
/// 9), one row of C a vector (the schedule's @tiny_rhs_rows); register
/// tiles of whole vectors would be mostly masked lanes, and packing would
/// copy A for them (matrix-outline-products gives it a function of B's
/// shape, matrix-version-products tags it `matc.tiny_rhs`).
inline bool isTinyRhsProduct(linalg::MatmulOp matmul) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  if (ranges.size() != 3 || isProductOperandTransposed(matmul, 1))
    return false;
  int64_t m = ranges[0], n = ranges[1], k = ranges[2];
  return isTinyLoopRange(n) && isTinyLoopRange(k) && n % 8 != 0 &&
         !isTinyLoopRange(m);
}

/// Whether `matmul` computes a tiny C from a long k-range with A read
/// transposed (`a.T @ b` with a and b of a few columns: M and N static, at
/// most 16, K run-time or longer than 16; the Gram matrix `a.T @ a` of a
/// ? x 3 a): C fits in registers and the k-range is best the outer loop,
/// A and B streamed row by row once (matrix-outline-products gives it a
/// function of C's shape, matrix-version-products plain loops, k outermost).
inline bool isTinyResultProduct(linalg::MatmulOp matmul) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  if (ranges.size() != 3 || !isProductOperandTransposed(matmul, 0))
    return false;
  return isTinyLoopRange(ranges[0]) && isTinyLoopRange(ranges[1]) &&
         !isTinyLoopRange(ranges[2]);
}

/// The N of `matmul` when it is computed as dot products (the schedule's
/// @tile_dot_rows, @tile_dot_columns), else 0: C (M x N) = A (M x K) B
/// (K x N) with N static and below 8 (fewer columns than a vector of f64 on
/// AVX-512), neither operand read transposed, and B not tiny
/// (isTinyRhsProduct): each element of C is the dot product of a row of A,
/// contiguous in memory, and a column of B. N = 1 is a matrix-vector
/// product. (Register tiles of whole vectors along N would be mostly masked
/// lanes, and packing would copy all of A for them.)
inline int64_t getDotProductColumns(linalg::MatmulOp matmul) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  if (ranges.size() != 3 || ShapedType::isDynamic(ranges[1]) ||
      ranges[1] < 1 || ranges[1] >= 8 || isProductOperandTransposed(matmul, 0) ||
      isProductOperandTransposed(matmul, 1) || isTinyRhsProduct(matmul))
    return 0;
  return ranges[1];
}

/// Whether `matmul` computes one vector of C as a sum of the rows of a
/// row-major matrix, each scaled by an element of a vector (BLAS's gemv on
/// a transposed matrix, computed as axpy updates; the schedule's
/// @schedule_vector_matrix), B never read transposed:
/// - a row of C, M = 1 (`x @ b`, x 1 x K; `x.T @ b`, x K x 1 read
///   transposed): the rows of B (K x N) scaled by the elements of x;
/// - a column of C, N = 1 with A read transposed (`a.T @ x`, a K x M,
///   x K x 1): the rows of A scaled by the elements of x;
/// and C's other size not static at most 16 (then a tiny C, or a product
/// of a few columns: isTinyResultProduct, getDotProductColumns).
/// Computed as the other products, in register tiles along C's row, such a
/// product walks the K rows of the matrix once per tile, a row at a time
/// (a new page every step for a wide matrix): measured 0.05-0.13x NumPy
/// at n = 1024 (Zen 4).
inline bool isVectorMatrixProduct(linalg::MatmulOp matmul) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  if (ranges.size() != 3 || isProductOperandTransposed(matmul, 1))
    return false;
  if (ranges[0] == 1)
    return !isTinyLoopRange(ranges[1]);
  return ranges[1] == 1 && isProductOperandTransposed(matmul, 0) &&
         !isTinyLoopRange(ranges[0]);
}

/// Whether `matmul` computes one row of C (M = 1: `x @ b.T`, x 1 x K, or
/// `x.T @ b.T`, x K x 1) from B read transposed (N x K in memory), N not
/// static at most 16: each element of C is the dot product of a row of B,
/// contiguous in memory, and x (matrix-version-products tags it for the
/// schedule's dot products, as a matrix-vector product of B and x).
/// Computed as the other products it went to the packed product of
/// run-time sizes: 0.12x NumPy at n = 1024 (Zen 4, f64).
inline bool isRowDotProduct(linalg::MatmulOp matmul) {
  SmallVector<int64_t> ranges = matmul.getStaticLoopRanges();
  return ranges.size() == 3 && ranges[0] == 1 &&
         isProductOperandTransposed(matmul, 1) && !isTinyLoopRange(ranges[1]);
}

/// The number of ops in `op`, `op` included: the size of a function body
/// for matrix-outline-long-blocks and of a function for
/// matrix-split-module.
inline int64_t countNestedOps(Operation *op) {
  int64_t count = 0;
  op->walk([&](Operation *) { ++count; });
  return count;
}

/// If `memref` is a buffer no other buffer of its function can alias, the
/// value that allocates it: a `memref.alloc` result, or a result of a
/// `func.call` of a function with a body in the module (after the
/// ownership-based deallocation, a new buffer owned by the caller), or the
/// one of which `memref` is the base buffer
/// (`memref.extract_strided_metadata`). Else null. (SplitDeallocs.cpp)
Value getDistinctAllocation(Value memref);

#define GEN_PASS_DECL
#define GEN_PASS_REGISTRATION
#include "MatrixDialect/Codegen/Passes.h.inc"

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_CODEGEN_PASSES_H
