//===- TransformOps.h - matc's transform-dialect extension ------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The ops matc adds to the transform dialect (TransformOps.td), and the
// extension that registers them.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIX_CODEGEN_TRANSFORMOPS_H
#define MATRIX_CODEGEN_TRANSFORMOPS_H

#include "mlir/Bytecode/BytecodeOpInterface.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/IR/OpDefinition.h"

#define GET_OP_CLASSES
#include "MatrixDialect/Codegen/TransformOps.h.inc"

namespace mlir {
class DialectRegistry;
namespace matrix {
/// Registers matc's transform ops (transform.matc.*) with the transform
/// dialect of every context created from `registry`.
void registerMatrixTransformExtension(DialectRegistry &registry);
} // namespace matrix
} // namespace mlir

#endif // MATRIX_CODEGEN_TRANSFORMOPS_H
