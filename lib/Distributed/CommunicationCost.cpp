//===- CommunicationCost.cpp - Bytes each collective sends ----------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Distributed/CommunicationCost.h"

#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Shard/IR/ShardOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::matrix;

/// Bytes of a static tensor.
static int64_t getBytes(RankedTensorType type) {
  return type.getNumElements() *
         static_cast<int64_t>(type.getElementTypeBitWidth() / 8);
}

SmallVector<CollectiveCost> mlir::matrix::estimateCommunication(ModuleOp module,
                                                                int64_t ranks) {
  SmallVector<CollectiveCost> costs;
  module.walk([&](Operation *op) {
    std::optional<std::pair<StringRef, int64_t>> cost =
        llvm::TypeSwitch<Operation *,
                         std::optional<std::pair<StringRef, int64_t>>>(op)
            .Case([&](shard::AllGatherOp gather) {
              auto type = cast<RankedTensorType>(gather.getInput().getType());
              return std::make_pair(StringRef("all_gather"),
                                    (ranks - 1) * getBytes(type));
            })
            .Case([&](shard::AllToAllOp exchange) {
              auto type = cast<RankedTensorType>(exchange.getInput().getType());
              return std::make_pair(StringRef("all_to_all"),
                                    (ranks - 1) * getBytes(type) / ranks);
            })
            .Case([&](shard::AllReduceOp reduce) {
              auto type = cast<RankedTensorType>(reduce.getInput().getType());
              return std::make_pair(StringRef("all_reduce"),
                                    2 * (ranks - 1) * getBytes(type) / ranks);
            })
            .Case([&](shard::AllSliceOp) {
              return std::make_pair(StringRef("all_slice"), int64_t(0));
            })
            .Default([](Operation *) { return std::nullopt; });
    if (!cost)
      return;
    auto from = dyn_cast<RankedTensorType>(op->getOperand(0).getType());
    auto to = dyn_cast<RankedTensorType>(op->getResult(0).getType());
    if (!from || !to || !from.hasStaticShape() || !to.hasStaticShape())
      return;
    costs.push_back({op->getLoc(), cost->first.str(), from, to, cost->second});
  });
  return costs;
}

/// `file:line:col` of `loc`, if it has one.
static std::string formatLocation(Location loc) {
  std::string text;
  loc->walk([&](Location inner) {
    if (auto file = dyn_cast<FileLineColLoc>(inner)) {
      text = (file.getFilename().getValue() + ":" + Twine(file.getLine()) +
              ":" + Twine(file.getColumn()))
                 .str();
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return text.empty() ? std::string("<unknown>") : text;
}

void mlir::matrix::printCommunicationCost(raw_ostream &os,
                                          ArrayRef<CollectiveCost> costs,
                                          int64_t ranks) {
  os << "matc: stats: communication on " << ranks
     << " ranks, bytes sent by each rank:";
  if (costs.empty())
    os << " none (every matrix is below --shard-min-elements, or every "
          "operation runs on local blocks)";
  os << "\n";
  int64_t total = 0;
  for (const CollectiveCost &cost : costs) {
    os << "matc: stats:   " << formatLocation(cost.loc) << ": " << cost.kind
       << " " << formatMatType(cost.from) << " -> " << formatMatType(cost.to)
       << ": " << cost.bytesSent << " bytes\n";
    total += cost.bytesSent;
  }
  if (!costs.empty())
    os << "matc: stats:   total: " << total << " bytes\n";
}
