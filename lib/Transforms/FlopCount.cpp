//===- FlopCount.cpp - Static flop count of Matrix programs ---------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Transforms/FlopCount.h"

#include "MatrixDialect/IR/Ops.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::matrix;

uint64_t FlopCount::total() const {
  return llvm::SaturatingAdd(matmul, elementwise);
}

/// Elements of a static 2-D shape (saturating).
static uint64_t numElements(RankedTensorType type) {
  return llvm::SaturatingMultiply(uint64_t(type.getDimSize(0)),
                                  uint64_t(type.getDimSize(1)));
}

FlopCount mlir::matrix::countFlops(Operation *root) {
  FlopCount count;
  auto add = [](uint64_t &total, uint64_t amount) {
    total = llvm::SaturatingAdd(total, amount);
  };
  root->walk([&](Operation *op) {
    if (!isa<MatrixDialect>(op->getDialect()) || op->getNumResults() != 1)
      return;
    auto type = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!type)
      return;
    bool isStatic = type.hasStaticShape();
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      int64_t k = matmul.getEffectiveLhsType().getDimSize(1);
      if (!isStatic || ShapedType::isDynamic(k)) {
        ++count.dynamicOps;
        return;
      }
      add(count.matmul, llvm::SaturatingMultiply(uint64_t(2) * uint64_t(k),
                                                 numElements(type)));
      return;
    }
    if (!isa<AddOp, SubOp, MulOp, NegOp, TransposeOp>(op))
      return;
    if (!isStatic) {
      ++count.dynamicOps;
      return;
    }
    add(isa<TransposeOp>(op) ? count.transposedElements : count.elementwise,
        numElements(type));
  });
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
