//===- Dialect.h - Matrix dialect -------------------------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The Matrix dialect: Mat's whole-matrix operations on 2-D tensors.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_IR_DIALECT_H
#define MATRIXDIALECT_IR_DIALECT_H

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/Dialect.h"

#include "MatrixDialect/IR/Dialect.h.inc"

namespace mlir {
namespace matrix {
/// Marks `function` (a func.func) never to be inlined by LLVM: the LLVM
/// dialect passes `passthrough` on as LLVM function attributes. matc's
/// outlined functions (products, parts of long blocks, the `.into` entry
/// points) would otherwise be inlined back into their callers, undoing what
/// outlining them saves in code size and compile time.
inline void setNoInline(Operation *function) {
  Builder builder(function->getContext());
  function->setAttr("passthrough",
                    builder.getArrayAttr({builder.getStringAttr("noinline")}));
}
} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_IR_DIALECT_H
