//===- Diagnostics.cpp - Clang-style source diagnostics --------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "parser/Diagnostics.h"

#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/WithColor.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace mat;

namespace {
/// One column of the displayed source line and the bytes it stands for.
struct Cell {
  std::string text; // what is printed (one column wide, or spaces for tabs)
  const char *begin; // the source bytes
  const char *end;
};
} // namespace

/// Splits `line` into display cells: printable ASCII as is, a tab as the
/// spaces up to the next multiple of 8, a valid UTF-8 sequence as one
/// column, and a control byte or a byte of invalid UTF-8 as '?' (so that no
/// raw control byte reaches the terminal and the caret stays aligned).
static std::vector<Cell> toCells(const char *begin, const char *end) {
  std::vector<Cell> cells;
  const char *p = begin;
  while (p < end) {
    unsigned char c = static_cast<unsigned char>(*p);
    if (c == '\t') {
      // Every cell of a tab stands for it, so that a caret at the tab goes
      // under its first column.
      size_t width = 8 - cells.size() % 8;
      for (size_t i = 0; i < width; ++i)
        cells.push_back({" ", p, p + 1});
      ++p;
      continue;
    }
    if (c >= 0x20 && c < 0x7f) {
      cells.push_back({std::string(1, *p), p, p + 1});
      ++p;
      continue;
    }
    if (c >= 0x80) {
      auto *source = reinterpret_cast<const llvm::UTF8 *>(p);
      llvm::UTF32 codePoint;
      auto *start = source;
      if (llvm::convertUTF8Sequence(
              &source, reinterpret_cast<const llvm::UTF8 *>(end), &codePoint,
              llvm::strictConversion) == llvm::conversionOK) {
        const char *next = p + (source - start);
        cells.push_back({std::string(p, next), p, next});
        p = next;
        continue;
      }
    }
    cells.push_back({"?", p, p + 1});
    ++p;
  }
  return cells;
}

void mat::printSourceDiagnostic(llvm::raw_ostream &os,
                                const llvm::SourceMgr &sourceMgr,
                                llvm::SMLoc loc,
                                llvm::SourceMgr::DiagKind kind,
                                const llvm::Twine &message,
                                llvm::ArrayRef<llvm::SMRange> ranges) {
  unsigned bufferId = sourceMgr.FindBufferContainingLoc(loc);
  if (!bufferId) {
    sourceMgr.PrintMessage(os, loc, kind, message);
    return;
  }
  const llvm::MemoryBuffer *buffer = sourceMgr.getMemoryBuffer(bufferId);
  // Lines end at '\n' only (SourceMgr's columns also restart after a lone
  // '\r', which the lexer rejects): find the line's start ourselves.
  unsigned line = sourceMgr.getLineAndColumn(loc, bufferId).first;
  const char *bufferStart = buffer->getBufferStart();
  const char *bufferEnd = buffer->getBufferEnd();
  const char *at = loc.getPointer();
  const char *lineBegin = at;
  while (lineBegin != bufferStart && lineBegin[-1] != '\n')
    --lineBegin;
  size_t column = at - lineBegin + 1;
  const char *lineEnd = std::find(at, bufferEnd, '\n');
  if (lineEnd != lineBegin && lineEnd != bufferStart && lineEnd[-1] == '\r' &&
      lineEnd - 1 >= at)
    --lineEnd;

  // FILE:LINE:COL: KIND: MESSAGE
  {
    llvm::WithColor bold(os, llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true);
    bold << buffer->getBufferIdentifier() << ":" << line << ":" << column
         << ": ";
  }
  switch (kind) {
  case llvm::SourceMgr::DK_Error:
    llvm::WithColor(os, llvm::HighlightColor::Error) << "error: ";
    break;
  case llvm::SourceMgr::DK_Warning:
    llvm::WithColor(os, llvm::HighlightColor::Warning) << "warning: ";
    break;
  case llvm::SourceMgr::DK_Remark:
    llvm::WithColor(os, llvm::HighlightColor::Remark) << "remark: ";
    break;
  case llvm::SourceMgr::DK_Note:
    llvm::WithColor(os, llvm::HighlightColor::Note) << "note: ";
    break;
  }
  llvm::WithColor(os, llvm::raw_ostream::SAVEDCOLOR, /*Bold=*/true)
      << message << "\n";

  // The source line and, under it, '~' under each range and '^' at `loc`.
  // Only the bytes near `loc` are made cells (the window below shows 160
  // columns at most): a line of megabytes costs no more than a short one.
  constexpr ptrdiff_t kViewBytes = 2048;
  const char *viewBegin = lineBegin, *viewEnd = lineEnd;
  if (at - lineBegin > kViewBytes) {
    viewBegin = at - kViewBytes;
    // Not inside a UTF-8 sequence: past its continuation bytes.
    while (viewBegin < at &&
           (static_cast<unsigned char>(*viewBegin) & 0xC0) == 0x80)
      ++viewBegin;
  }
  if (lineEnd - at > kViewBytes)
    viewEnd = at + kViewBytes;
  std::vector<Cell> cells = toCells(viewBegin, viewEnd);
  std::string marks(cells.size() + 1, ' ');
  size_t caret = cells.size();
  for (size_t i = 0; i < cells.size(); ++i) {
    for (const llvm::SMRange &range : ranges)
      if (cells[i].begin >= range.Start.getPointer() &&
          cells[i].begin < range.End.getPointer())
        marks[i] = '~';
    if (caret == cells.size() && cells[i].end > at)
      caret = i;
  }
  marks[caret] = '^';

  // Long lines: a window of kWindow columns around the caret, with "..." on
  // the sides that are cut.
  constexpr size_t kWindow = 160;
  size_t first = 0, last = cells.size() + 1;
  if (last > kWindow) {
    first = caret > kWindow / 2 ? caret - kWindow / 2 : 0;
    last = std::min(last, first + kWindow);
  }
  std::string source, underline;
  if (first > 0 || viewBegin != lineBegin) {
    source += "...";
    underline += "   ";
  }
  for (size_t i = first; i < last; ++i) {
    if (i < cells.size())
      source += cells[i].text;
    underline += marks[i];
  }
  if (last < cells.size() || viewEnd != lineEnd)
    source += "...";
  while (!underline.empty() && underline.back() == ' ')
    underline.pop_back();
  os << source << "\n";
  llvm::WithColor(os, llvm::raw_ostream::GREEN, /*Bold=*/true) << underline;
  os << "\n";
}
