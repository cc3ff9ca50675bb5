//===- MatrixCodegen.cpp - The matrix-codegen pass ------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses the embedded schedule (Schedule.mlir) once per pass instance and
// applies one of its named sequences to the module with the upstream
// transform interpreter, as `transform-interpreter` would with the schedule
// preloaded from a file; embedding it keeps matc free of data files.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"

#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXCODEGEN
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

static const char kScheduleSource[] =
#include "Schedule.mlir.inc"
    ;

StringRef mlir::matrix::getCodegenScheduleSource() {
  return StringRef(kScheduleSource, sizeof(kScheduleSource) - 1);
}

namespace {
struct MatrixCodegen : matrix::impl::MatrixCodegenBase<MatrixCodegen> {
  using MatrixCodegenBase::MatrixCodegenBase;

  LogicalResult initialize(MLIRContext *context) override {
    // The pass may be cloned (one copy per pass manager thread); the parsed
    // library is immutable and shared between the copies.
    schedule =
        std::make_shared<OwningOpRef<ModuleOp>>(parseSourceString<ModuleOp>(
            getCodegenScheduleSource(), context, "matc-codegen-schedule.mlir"));
    if (!*schedule)
      return emitError(UnknownLoc::get(context))
             << "matrix-codegen: the embedded schedule does not parse";
    return success();
  }

  void runOnOperation() override {
    ModuleOp library = schedule->get();
    Operation *entry = transform::detail::findTransformEntryPoint(
        getOperation(), library, entryPoint);
    if (!entry) {
      getOperation()->emitError() << "matrix-codegen: no sequence '"
                                  << entryPoint << "' in the schedule";
      return signalPassFailure();
    }
    // The expensive checks (handle invalidation, on by default) cost more
    // than the rest of the compilation; the lit tests run the schedule with
    // them, through transform-interpreter (test/Codegen).
    transform::TransformOptions options;
    options.enableExpensiveChecks(false);
    if (failed(transform::applyTransformNamedSequence(getOperation(), entry,
                                                      library, options)))
      signalPassFailure();
  }

  std::shared_ptr<OwningOpRef<ModuleOp>> schedule;
};
} // namespace
