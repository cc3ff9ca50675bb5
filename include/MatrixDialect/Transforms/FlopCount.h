//===- FlopCount.h - Static flop count of Matrix programs -------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The cost measure of the Matrix-level rewrites, defined here once: the
// product-chain rewrite (ProductChain.cpp) minimizes it, and `matc --stats`
// prints it before and after the rewrites.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_TRANSFORMS_FLOPCOUNT_H
#define MATRIXDIALECT_TRANSFORMS_FLOPCOUNT_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/MathExtras.h"

#include <cstdint>

namespace mlir {
class Operation;

namespace matrix {

/// Static flop count of the Matrix-dialect ops under an operation. Units:
/// floating-point operations (a multiply or an add counts one), as the op
/// is written, counted once whatever the number of times it runs (a
/// function body counts once however often it is called). Counts saturate
/// at UINT64_MAX.
struct FlopCount {
  /// 2 * m * n * k per `matrix.matmul` of [m, k] @ [k, n].
  uint64_t matmul = 0;
  /// m * n per `matrix.add`, `sub`, `mul` and `neg` of an [m, n] result.
  uint64_t elementwise = 0;
  /// Elements copied by `matrix.transpose` (data movement, not flops).
  uint64_t transposedElements = 0;
  /// Ops left out of the counts because a dimension is `?`.
  uint64_t dynamicOps = 0;

  /// matmul + elementwise (saturating).
  uint64_t total() const;
  /// Adds `other`'s counts to these (saturating).
  FlopCount &operator+=(const FlopCount &other);
};

/// Flops of a matrix product [m, k] @ [k, n]: 2 * m * k * n (one multiply
/// and one add per term), saturating. Inline: the chain rewrite's O(n^3)
/// ordering calls it in its innermost loop.
inline uint64_t getMatmulFlops(uint64_t m, uint64_t k, uint64_t n) {
  return llvm::SaturatingMultiply(
      llvm::SaturatingMultiply(llvm::SaturatingMultiply(uint64_t(2), m), k),
      n);
}

/// Flops of an elementwise op (`add`, `sub`, `mul`, `neg`, a scalar times a
/// matrix) with an [m, n] result: m * n, saturating.
uint64_t getElementwiseFlops(uint64_t m, uint64_t n);

/// The count of `op` alone: a `matrix.matmul`'s or elementwise op's flops,
/// a `matrix.transpose`'s elements, or dynamicOps = 1 when a dimension is
/// `?`; all zero for any other op.
FlopCount getOpFlops(Operation *op);

/// Counts the Matrix-dialect ops nested under `root` (see FlopCount).
FlopCount countFlops(Operation *root);

/// Prints `count` on one line: "TOTAL flops (matmul M, elementwise E),
/// T transposed elements", plus the number of ops with a `?` dimension
/// when there are any.
void printFlopCount(llvm::raw_ostream &os, const FlopCount &count);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_TRANSFORMS_FLOPCOUNT_H
