//===- mat-fuzz.cpp - libFuzzer target over the Mat front end -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Feeds each input, as a Mat source file, through everything `matc` does
// before lowering, with the same call (mat::FrontEnd): the lexer and parser,
// the AST printer (mat::dumpAST), MLIRGen with its type and shape checks and
// the MLIR verifier (which MLIRGen runs on what it built). No JIT, no
// lowering. Built with -fsanitize=fuzzer,address,undefined when CMake is
// given -DMATC_ENABLE_FUZZER=ON; see docs/testing.md.
//
// Besides the sanitizers' findings, the target aborts on these compiler
// bugs (the contract of LANGUAGE.md "Errors"):
//   - a stage fails without reporting an error, or succeeds after one;
//   - an error message is not located (`FILE:LINE:COL: error:`);
//   - MLIRGen builds IR that does not verify ("internal compiler error").
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Dialect.h"
#include "MatrixDialect/MLIRGen/FrontEnd.h"
#include "parser/AST.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"

#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

/// Reports a broken front-end invariant and aborts, so that libFuzzer keeps
/// the input as a crash.
[[noreturn]] static void invariantFailed(const char *what,
                                         const std::string &detail) {
  std::fprintf(stderr, "mat-fuzz: invariant failed: %s\n%s\n", what,
               detail.c_str());
  std::abort();
}

/// Whether `text` (everything diagnostics printed) has an error line of the
/// form `NAME:LINE:COL: error: ` (or the cap's "too many errors").
static bool hasLocatedError(llvm::StringRef text) {
  while (!text.empty()) {
    auto [line, rest] = text.split('\n');
    text = rest;
    if (line.starts_with("error: too many errors"))
      return true;
    size_t at = line.find(": error: ");
    if (at == llvm::StringRef::npos)
      continue;
    llvm::StringRef where = line.take_front(at);
    llvm::StringRef col = where.rsplit(':').second;
    llvm::StringRef lineNo = where.rsplit(':').first.rsplit(':').second;
    unsigned value;
    if (!col.getAsInteger(10, value) && !lineNo.getAsInteger(10, value))
      return true;
  }
  return false;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  // A small context: only what MLIRGen loads. No threads, so that each
  // input runs alone and findings reproduce.
  mlir::MLIRContext context(mlir::MLIRContext::Threading::DISABLED);
  context.loadDialect<mlir::matrix::MatrixDialect, mlir::func::FuncDialect,
                      mlir::arith::ArithDialect, mlir::tensor::TensorDialect>();
  std::string diagText;
  llvm::raw_string_ostream diagOS(diagText);
  mat::FrontEnd frontEnd(
      context, llvm::StringRef(reinterpret_cast<const char *>(data), size),
      "input.mat", diagOS);

  const mat::ModuleAST &ast = frontEnd.parse();
  unsigned syntaxErrors = frontEnd.getErrorCount();
  if (syntaxErrors && !hasLocatedError(diagText))
    invariantFailed("parse error without a location", diagText);
  if (frontEnd.limitReached())
    return 0;

  std::string astText;
  llvm::raw_string_ostream astOS(astText);
  mat::dumpAST(ast, astOS);

  // Tried before the front end's handlers, which then print the diagnostic.
  bool internalError = false;
  mlir::ScopedDiagnosticHandler iceFinder(
      &context, [&](mlir::Diagnostic &diag) -> llvm::LogicalResult {
        if (llvm::StringRef(diag.str()).contains("internal compiler error"))
          internalError = true;
        return llvm::failure();
      });
  // As matc does: after syntax errors, MLIRGen checks what parsed.
  mlir::OwningOpRef<mlir::ModuleOp> module = frontEnd.generate();
  if (internalError)
    invariantFailed("MLIRGen built IR that does not verify", diagText);
  if (syntaxErrors && module)
    invariantFailed("mlirGen succeeded after syntax errors", diagText);
  unsigned errors = frontEnd.getErrorCount() - syntaxErrors;
  if (!module) {
    if (errors == 0 && !syntaxErrors)
      invariantFailed("mlirGen failed without an error", diagText);
    if (!hasLocatedError(diagText))
      invariantFailed("MLIRGen error without a location", diagText);
    return 0;
  }
  if (errors != 0)
    invariantFailed("mlirGen succeeded after an error", diagText);
  if (mlir::failed(mlir::verify(*module)))
    invariantFailed("the module mlirGen returned does not verify", diagText);
  return 0;
}
