//===- CommunicationCost.h - Bytes each collective sends --------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `matc --ranks N --stats`: what each collective of a partitioned program
// sends, read off the shard collectives shard-partition inserted (the
// Linalg stage's output). docs/distributed.md gives the same costs as
// formulas in n and N.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_DISTRIBUTED_COMMUNICATIONCOST_H
#define MATRIXDIALECT_DISTRIBUTED_COMMUNICATIONCOST_H

#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Location.h"
#include "mlir/Support/LLVM.h"

#include <cstdint>
#include <string>

namespace mlir {
class ModuleOp;

namespace matrix {

/// One collective of a partitioned program.
struct CollectiveCost {
  /// Where in the program it is (the op that needs the resharded value).
  Location loc;
  /// `all_gather`, `all_to_all`, `all_reduce` or `all_slice`.
  std::string kind;
  /// The block of each rank before and after.
  RankedTensorType from, to;
  /// Bytes each rank sends: (N - 1) * b for all_gather of a block of b
  /// bytes, (N - 1) / N * b for all_to_all (it keeps its own piece),
  /// 2 (N - 1) / N * b for all_reduce (the reduce-scatter plus allgather
  /// that MPICH uses for long buffers: the bandwidth lower bound), 0 for
  /// all_slice (a local copy).
  int64_t bytesSent;
};

/// The collectives of `module`, in program order, for a grid of `ranks`.
SmallVector<CollectiveCost> estimateCommunication(ModuleOp module,
                                                  int64_t ranks);

/// Prints `costs` as `matc: stats:` lines (one per collective, with its
/// source location, then the total per rank) to `os`.
void printCommunicationCost(raw_ostream &os, ArrayRef<CollectiveCost> costs,
                            int64_t ranks);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_DISTRIBUTED_COMMUNICATIONCOST_H
