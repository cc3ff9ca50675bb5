//===- SourceDiagnostics.h - MLIR diagnostics on Mat source -----*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_MLIRGEN_SOURCEDIAGNOSTICS_H
#define MATRIXDIALECT_MLIRGEN_SOURCEDIAGNOSTICS_H

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace mat {

/// Builds the location of a diagnostic with a caret and underlined ranges,
/// as SourceDiagnosticHandler prints it: a FusedLoc of the caret's
/// FileLineColLoc followed by one FileLineColRange per range (start line
/// and column of its first character, end line and column just past its
/// last one).
mlir::Location getCaretWithRanges(mlir::Location caret,
                                  llvm::ArrayRef<mlir::Location> ranges);

/// Prints the MLIR diagnostics of a context whose locations are in the main
/// buffer of `sourceMgr` the way the front end prints its own
/// (mat::printSourceDiagnostic: clang-style, caret, '~' ranges, a safe
/// source line), notes included. A FileLineColRange is underlined from its
/// start to its end (exclusive) with the caret at its start; a FusedLoc
/// puts the caret at its first location and underlines the others.
/// Diagnostics at other locations are left to the handlers registered
/// before this one (e.g. mlir::SourceMgrDiagnosticHandler).
class SourceDiagnosticHandler {
public:
  SourceDiagnosticHandler(llvm::SourceMgr &sourceMgr,
                          mlir::MLIRContext *context,
                          llvm::raw_ostream &os = llvm::errs());
  ~SourceDiagnosticHandler();
  SourceDiagnosticHandler(const SourceDiagnosticHandler &) = delete;
  SourceDiagnosticHandler &operator=(const SourceDiagnosticHandler &) = delete;

private:
  mlir::LogicalResult handle(mlir::Diagnostic &diag);
  /// Finds the caret and the ranges of `loc` in the main buffer; false if
  /// it has no place there.
  bool resolve(mlir::Location loc, llvm::SMLoc &caret,
               llvm::SmallVectorImpl<llvm::SMRange> &ranges);
  void print(mlir::Location loc, mlir::DiagnosticSeverity severity,
             const llvm::Twine &message);

  llvm::SourceMgr &sourceMgr;
  mlir::MLIRContext *context;
  llvm::raw_ostream &os;
  mlir::DiagnosticEngine::HandlerID id;
};

} // namespace mat

#endif // MATRIXDIALECT_MLIRGEN_SOURCEDIAGNOSTICS_H
