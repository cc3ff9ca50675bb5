//===- FlopCount.cpp - Static flop count of Matrix programs ---------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Transforms/FlopCount.h"

#include "MatrixDialect/IR/Ops.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::matrix;

uint64_t FlopCount::total() const {
  return llvm::SaturatingAdd(matmul, elementwise);
}

FlopCount &FlopCount::operator+=(const FlopCount &other) {
  matmul = llvm::SaturatingAdd(matmul, other.matmul);
  elementwise = llvm::SaturatingAdd(elementwise, other.elementwise);
  transposedElements =
      llvm::SaturatingAdd(transposedElements, other.transposedElements);
  dynamicOps = llvm::SaturatingAdd(dynamicOps, other.dynamicOps);
  return *this;
}

uint64_t mlir::matrix::getElementwiseFlops(uint64_t m, uint64_t n) {
  return llvm::SaturatingMultiply(m, n);
}

FlopCount mlir::matrix::getOpFlops(Operation *op) {
  FlopCount count;
  if (!isa<MatmulOp, AddOp, SubOp, MulOp, NegOp, TransposeOp>(op))
    return count;
  auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
  if (!type)
    return count;
  int64_t k = 1;
  if (auto matmul = dyn_cast<MatmulOp>(op))
    k = matmul.getEffectiveLhsType().getDimSize(1);
  if (!type.hasStaticShape() || ShapedType::isDynamic(k)) {
    count.dynamicOps = 1;
    return count;
  }
  uint64_t m = type.getDimSize(0), n = type.getDimSize(1);
  if (isa<MatmulOp>(op))
    count.matmul = getMatmulFlops(m, k, n);
  else if (isa<TransposeOp>(op))
    count.transposedElements = llvm::SaturatingMultiply(m, n);
  else
    count.elementwise = getElementwiseFlops(m, n);
  return count;
}

FlopCount mlir::matrix::countFlops(Operation *root) {
  FlopCount count;
  root->walk([&](Operation *op) { count += getOpFlops(op); });
  return count;
}

void mlir::matrix::printFlopCount(llvm::raw_ostream &os,
                                  const FlopCount &count) {
  os << count.total() << " flops (matmul " << count.matmul << ", elementwise "
     << count.elementwise << "), " << count.transposedElements
     << " transposed elements";
  if (count.dynamicOps)
    os << ", " << count.dynamicOps << (count.dynamicOps == 1 ? " op" : " ops")
       << " of run-time size not counted";
}
