//===- FrontEnd.cpp - Mat source to the Matrix dialect, in one call -------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/MLIRGen/FrontEnd.h"

#include "MatrixDialect/MLIRGen/MLIRGen.h"
#include "MatrixDialect/MLIRGen/SourceDiagnostics.h"
#include "parser/AST.h"
#include "parser/Diagnostics.h"
#include "parser/Parser.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/MLIRContext.h"

#include "llvm/Support/MemoryBuffer.h"

using namespace mlir;

mat::FrontEnd::FrontEnd(MLIRContext &context, llvm::StringRef source,
                        llvm::StringRef name, llvm::raw_ostream &os)
    : context(context) {
  bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(source, name), llvm::SMLoc());
  diags = std::make_unique<Diagnostics>(sourceMgr, os);
  mlirHandler =
      std::make_unique<SourceMgrDiagnosticHandler>(sourceMgr, &context, os);
  sourceHandler =
      std::make_unique<SourceDiagnosticHandler>(sourceMgr, &context, os);
  errorCounter = std::make_unique<ScopedDiagnosticHandler>(
      &context, [this](Diagnostic &diag) {
        if (diag.getSeverity() == DiagnosticSeverity::Error)
          ++mlirErrors;
        return failure(); // Printed by the handlers above.
      });
}

// The handlers unregister themselves, the counter first.
mat::FrontEnd::~FrontEnd() = default;

const mat::ModuleAST &mat::FrontEnd::parse() {
  if (!ast)
    ast = parseModule(*diags, bufferId);
  return *ast;
}

OwningOpRef<ModuleOp> mat::FrontEnd::generate() {
  parse();
  if (diags->limitReached())
    return nullptr;
  OwningOpRef<ModuleOp> module = mlirGen(context, *ast, diags->getErrorCount());
  if (hadError())
    return nullptr;
  return module;
}

unsigned mat::FrontEnd::getErrorCount() const {
  return diags->getErrorCount() + mlirErrors;
}

bool mat::FrontEnd::limitReached() const { return diags->limitReached(); }

llvm::StringRef mat::FrontEnd::getName() const {
  return sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier();
}
