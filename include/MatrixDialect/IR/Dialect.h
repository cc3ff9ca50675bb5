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
#include "mlir/IR/Dialect.h"

#include "MatrixDialect/IR/Dialect.h.inc"

#endif // MATRIXDIALECT_IR_DIALECT_H
