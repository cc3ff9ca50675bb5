//===- FrontEnd.h - Mat source to the Matrix dialect, in one call -*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The front end every Mat tool runs: `matc`, the fuzzer (fuzz/mat-fuzz.cpp)
// and any later one (a Python package, a language server). It owns the
// source manager and the front end's diagnostics, installs the handlers
// that print MLIR's diagnostics on the source clang-style, and applies the
// syntax-error policy and the shared error cap, so that no tool has its own
// copy of the sequence.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_MLIRGEN_FRONTEND_H
#define MATRIXDIALECT_MLIRGEN_FRONTEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace mlir {
class MLIRContext;
class SourceMgrDiagnosticHandler;
class ScopedDiagnosticHandler;
} // namespace mlir

namespace mat {
class Diagnostics;
class SourceDiagnosticHandler;
struct ModuleAST;

/// One Mat source through the lexer and parser (mat::parseModule) and
/// MLIRGen (mat::mlirGen) into `context`:
///
///   mlir::MLIRContext context(registry);
///   mat::FrontEnd frontEnd(context, text, "prog.mat");
///   mlir::OwningOpRef<mlir::ModuleOp> module = frontEnd.generate();
///   if (!module) ... // the errors were printed; exit status 1
///
/// Every error is printed to `os` clang-style (FILE:LINE:COL, source line,
/// caret): the parser's, MLIRGen's, and any MLIR diagnostic emitted on
/// `context` while the FrontEnd lives (e.g. by the lowering passes), those
/// located in the source as the parser's are, the others as
/// mlir::SourceMgrDiagnosticHandler prints them. `context` must outlive
/// the FrontEnd (declare the FrontEnd after it).
class FrontEnd {
public:
  /// Takes a copy of `source`, the text of the file `name` (the name
  /// diagnostics print; "<stdin>" for standard input).
  FrontEnd(mlir::MLIRContext &context, llvm::StringRef source,
           llvm::StringRef name, llvm::raw_ostream &os = llvm::errs());
  ~FrontEnd();
  FrontEnd(const FrontEnd &) = delete;
  FrontEnd &operator=(const FrontEnd &) = delete;

  /// Parses the source the first time it is called. Never fails: after
  /// syntax errors (hadError()), the AST holds what parsed (see
  /// parseModule).
  const ModuleAST &parse();

  /// The Matrix dialect of the source, after parse() (called if it was
  /// not). The syntax-error policy: after syntax errors MLIRGen still
  /// checks what parsed, so that the independent name, type and shape
  /// errors are reported too, unless the error cap (mat::kMaxErrors) was
  /// reached; the cap counts the parser's and MLIRGen's errors together.
  /// Returns null when any error was reported, syntax errors included.
  mlir::OwningOpRef<mlir::ModuleOp> generate();

  /// Errors reported so far: the parser's, and every error diagnostic
  /// emitted on the context since the FrontEnd was made.
  unsigned getErrorCount() const;
  bool hadError() const { return getErrorCount() != 0; }
  /// True once the parser reached the error cap (and said so).
  bool limitReached() const;

  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }
  /// The file name diagnostics print.
  llvm::StringRef getName() const;

private:
  mlir::MLIRContext &context;
  llvm::SourceMgr sourceMgr;
  unsigned bufferId;
  std::unique_ptr<Diagnostics> diags;
  std::unique_ptr<ModuleAST> ast;
  /// MLIR's diagnostics: those outside the source (registered first, so
  /// tried last), those in it, and the error counter (tried first).
  std::unique_ptr<mlir::SourceMgrDiagnosticHandler> mlirHandler;
  std::unique_ptr<SourceDiagnosticHandler> sourceHandler;
  std::unique_ptr<mlir::ScopedDiagnosticHandler> errorCounter;
  unsigned mlirErrors = 0;
};

} // namespace mat

#endif // MATRIXDIALECT_MLIRGEN_FRONTEND_H
