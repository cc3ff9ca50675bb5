//===- PrepareCInterface.cpp - The matrix-prepare-c-interface pass --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Records, on each Mat function, what its C entry point needs once the
// function is lowered: the Mat signature and the shape preconditions.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Analysis/ShapeConstraints.h"
#include "MatrixDialect/Conversion/CInterface.h"
#include "MatrixDialect/Conversion/Passes.h"
#include "MatrixDialect/MLIRGen/MLIRGen.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXPREPARECINTERFACE
#include "MatrixDialect/Conversion/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

/// The Mat name of parameter `index`: MLIRGen gives each block argument a
/// NameLoc; hand-written IR may not, then it is `argN`.
static std::string getParamName(func::FuncOp fn, unsigned index) {
  Location loc = fn.getArgument(index).getLoc();
  if (auto name = dyn_cast<NameLoc>(loc))
    return name.getName().str();
  return "arg" + std::to_string(index);
}

namespace {
struct MatrixPrepareCInterface
    : matrix::impl::MatrixPrepareCInterfaceBase<MatrixPrepareCInterface> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    ShapeConstraintAnalysis analysis;
    StringRef prefix = mat::kUserFunctionPrefix;
    for (auto fn : module.getOps<func::FuncOp>()) {
      if (fn.isExternal())
        continue;
      if (fn.getSymName() == "main") {
        // Anything besides the `return` is a top-level statement.
        if (!fn.getBody().front().without_terminator().empty())
          fn->setAttr(kCProgramAttrName, UnitAttr::get(&getContext()));
        continue;
      }
      if (fn.isPrivate() || !fn.getSymName().starts_with(prefix))
        continue;
      FunctionType type = fn.getFunctionType();
      if (type.getNumResults() != 1) {
        fn.emitError("a Mat function has exactly one result");
        return signalPassFailure();
      }
      FailureOr<const FunctionShapeFacts *> facts = analysis.getFacts(fn);
      if (failed(facts))
        return signalPassFailure();

      CInterface c;
      c.name = fn.getSymName().drop_front(prefix.size()).str();
      c.type = type;
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        c.argNames.push_back(getParamName(fn, i));
      for (const DimEquality &eq : (*facts)->preconditions)
        c.preconditions.emplace_back(eq.lhs, eq.rhs);
      c.resultDims.assign((*facts)->resultDims.begin(),
                          (*facts)->resultDims.end());
      fn->setAttr(kCInterfaceAttrName, c.toAttr(&getContext()));

      // C callers pass `const` buffers: bufferization must copy before
      // writing into one in place.
      for (unsigned i = 0; i < fn.getNumArguments(); ++i)
        if (isa<TensorType>(fn.getArgument(i).getType()))
          fn.setArgAttr(i, "bufferization.writable",
                        BoolAttr::get(&getContext(), false));
    }
  }
};
} // namespace
