//===- SourceDiagnostics.cpp - MLIR diagnostics on Mat source --------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/MLIRGen/SourceDiagnostics.h"

#include "parser/Diagnostics.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/MLIRContext.h"

using namespace mlir;

Location mat::getCaretWithRanges(Location caret, ArrayRef<Location> ranges) {
  SmallVector<Location> locations{caret};
  llvm::append_range(locations, ranges);
  return FusedLoc::get(caret->getContext(), locations);
}

mat::SourceDiagnosticHandler::SourceDiagnosticHandler(
    llvm::SourceMgr &sourceMgr, MLIRContext *context, llvm::raw_ostream &os)
    : sourceMgr(sourceMgr), context(context), os(os) {
  id = context->getDiagEngine().registerHandler(
      [this](Diagnostic &diag) { return handle(diag); });
}

mat::SourceDiagnosticHandler::~SourceDiagnosticHandler() {
  context->getDiagEngine().eraseHandler(id);
}

bool mat::SourceDiagnosticHandler::resolve(
    Location loc, llvm::SMLoc &caret,
    llvm::SmallVectorImpl<llvm::SMRange> &ranges) {
  if (auto fused = dyn_cast<FusedLoc>(loc)) {
    ArrayRef<Location> parts = fused.getLocations();
    if (parts.empty() || !resolve(parts.front(), caret, ranges))
      return false;
    for (Location part : parts.drop_front()) {
      llvm::SMLoc start;
      llvm::SmallVector<llvm::SMRange> partRanges;
      if (resolve(part, start, partRanges))
        ranges.append(partRanges.begin(), partRanges.end());
    }
    return true;
  }
  if (auto name = dyn_cast<NameLoc>(loc))
    return resolve(name.getChildLoc(), caret, ranges);
  auto file = dyn_cast<FileLineColRange>(loc);
  if (!file)
    return false;
  unsigned bufferId = sourceMgr.getMainFileID();
  if (!bufferId || file.getFilename().getValue() !=
                       sourceMgr.getMemoryBuffer(bufferId)->getBufferIdentifier())
    return false;
  caret = sourceMgr.FindLocForLineAndColumn(bufferId, file.getStartLine(),
                                            file.getStartColumn());
  if (!caret.isValid())
    return false;
  if (file.getEndLine() != file.getStartLine() ||
      file.getEndColumn() != file.getStartColumn()) {
    llvm::SMLoc end = sourceMgr.FindLocForLineAndColumn(
        bufferId, file.getEndLine(), file.getEndColumn());
    if (end.isValid())
      ranges.push_back({caret, end});
  }
  return true;
}

static llvm::SourceMgr::DiagKind toDiagKind(DiagnosticSeverity severity) {
  switch (severity) {
  case DiagnosticSeverity::Note:
    return llvm::SourceMgr::DK_Note;
  case DiagnosticSeverity::Warning:
    return llvm::SourceMgr::DK_Warning;
  case DiagnosticSeverity::Remark:
    return llvm::SourceMgr::DK_Remark;
  case DiagnosticSeverity::Error:
    break;
  }
  return llvm::SourceMgr::DK_Error;
}

void mat::SourceDiagnosticHandler::print(Location loc,
                                         DiagnosticSeverity severity,
                                         const llvm::Twine &message) {
  llvm::SMLoc caret;
  llvm::SmallVector<llvm::SMRange> ranges;
  if (!resolve(loc, caret, ranges)) {
    // A note somewhere else (e.g. in generated code): message only.
    sourceMgr.PrintMessage(os, llvm::SMLoc(), toDiagKind(severity), message);
    return;
  }
  mat::printSourceDiagnostic(os, sourceMgr, caret, toDiagKind(severity),
                             message, ranges);
}

LogicalResult mat::SourceDiagnosticHandler::handle(Diagnostic &diag) {
  llvm::SMLoc caret;
  llvm::SmallVector<llvm::SMRange> ranges;
  if (!resolve(diag.getLocation(), caret, ranges))
    return failure();
  print(diag.getLocation(), diag.getSeverity(), diag.str());
  for (Diagnostic &note : diag.getNotes())
    print(note.getLocation(), note.getSeverity(), note.str());
  return success();
}
