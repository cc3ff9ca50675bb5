//===- Diagnostics.h - Located error reporting for the front end -*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Clang-style diagnostics (`FILE:LINE:COL: error: MESSAGE`, the source line,
// a caret, '~' under related ranges), with an error count and a cap.
//
//===----------------------------------------------------------------------===//

#ifndef MATC_PARSER_DIAGNOSTICS_H
#define MATC_PARSER_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace mat {

/// Prints one diagnostic, clang-style:
///
///   FILE:LINE:COL: error: MESSAGE
///   the source line
///   ~~~~ ^ ~~~~
///
/// LINE and COL are 1-based (COL counts bytes, as clang does); the caret is
/// under the character at `loc`, the byte COL, and '~' marks the bytes of
/// `ranges` on the same line. The source line is made safe to print: tabs
/// expand to multiples of 8 (a caret at a tab is under its first column), a
/// UTF-8 character is one column, a control byte (a form feed too) or
/// invalid UTF-8 byte shows as '?', and a line longer than 160 columns is cut to a window around the
/// caret ("..." marks the cuts). Colors when `os` supports them. A `loc`
/// outside `sourceMgr`'s buffers falls back to SourceMgr::PrintMessage.
void printSourceDiagnostic(llvm::raw_ostream &os,
                           const llvm::SourceMgr &sourceMgr, llvm::SMLoc loc,
                           llvm::SourceMgr::DiagKind kind,
                           const llvm::Twine &message,
                           llvm::ArrayRef<llvm::SMRange> ranges = {});

/// The error cap of the front end: a file's first kMaxErrors errors are
/// reported, the parser's and MLIRGen's together; the next one is replaced
/// by kTooManyErrorsMessage at its location, and the tools stop.
inline constexpr unsigned kMaxErrors = 20;
inline constexpr const char *kTooManyErrorsMessage =
    "too many errors emitted, stopping now";

/// Reports front-end errors and notes to `os` (stderr by default), counting
/// errors. The first `maxErrors` errors are printed; the next one is
/// replaced by kTooManyErrorsMessage at its location, and later ones are
/// dropped. Callers check limitReached() and stop early.
class Diagnostics {
public:
  explicit Diagnostics(llvm::SourceMgr &sourceMgr,
                       llvm::raw_ostream &os = llvm::errs(),
                       unsigned maxErrors = kMaxErrors)
      : sourceMgr(sourceMgr), os(os), maxErrors(maxErrors) {}

  /// Reports an error at `loc` (a pointer into a SourceMgr buffer),
  /// underlining `ranges`.
  void error(llvm::SMLoc loc, const llvm::Twine &message,
             llvm::ArrayRef<llvm::SMRange> ranges = {}) {
    if (errorCount > maxErrors)
      return;
    ++errorCount;
    if (errorCount > maxErrors)
      printSourceDiagnostic(os, sourceMgr, loc, llvm::SourceMgr::DK_Error,
                            kTooManyErrorsMessage);
    else
      printSourceDiagnostic(os, sourceMgr, loc, llvm::SourceMgr::DK_Error,
                            message, ranges);
  }

  /// Attaches a note (e.g. "previous definition is here") to the last error.
  void note(llvm::SMLoc loc, const llvm::Twine &message) {
    if (errorCount > maxErrors)
      return;
    printSourceDiagnostic(os, sourceMgr, loc, llvm::SourceMgr::DK_Note,
                          message);
  }

  unsigned getErrorCount() const { return errorCount; }
  bool hadError() const { return errorCount != 0; }
  /// True once the "too many errors" line was printed.
  bool limitReached() const { return errorCount > maxErrors; }
  llvm::SourceMgr &getSourceMgr() { return sourceMgr; }

private:
  llvm::SourceMgr &sourceMgr;
  llvm::raw_ostream &os;
  unsigned maxErrors;
  unsigned errorCount = 0;
};

} // namespace mat

#endif // MATC_PARSER_DIAGNOSTICS_H
