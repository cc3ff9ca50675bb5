//===- Accumulators.h - Register tiles of C in matc's kernels ---*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// What the passes and transform ops that work on the register kernels of
// the code generation schedule (lib/Codegen/Schedule.mlir) recognize in
// them.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_CODEGEN_ACCUMULATORS_H
#define MATRIXDIALECT_CODEGEN_ACCUMULATORS_H

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

namespace mlir {
namespace matrix {

/// The scf.for whose iter_args start from the vector `read` reads, itself
/// or through one vector.broadcast (to the 1 x 1 x MR x NR shape of the
/// packed product's kernel), directly or as the result of the scf.if
/// around `read` that yields it (the select between zeros and the read of
/// transform.matc.zero_first_accumulation): the loop over k of a register
/// kernel, whose accumulators `read` loads from a tile of C. Null if there
/// is none.
scf::ForOp getAccumulatingLoop(vector::TransferReadOp read);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_CODEGEN_ACCUMULATORS_H
