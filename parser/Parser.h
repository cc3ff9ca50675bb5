//===- Parser.h - Recursive-descent parser for Mat --------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATC_PARSER_PARSER_H
#define MATC_PARSER_PARSER_H

#include "parser/AST.h"
#include "parser/Diagnostics.h"

#include <memory>

namespace mat {

/// Parses the whole buffer `bufferId` of `diags.getSourceMgr()` (its buffer
/// identifier is the file name diagnostics print) into a ModuleAST.
/// Syntax errors are reported through `diags`, recovering at the next
/// statement so that independent errors are all reported (up to the cap).
/// After errors (diags.hadError()), the module holds what parsed: a
/// top-level statement with an error is left out, or kept as an
/// InvalidStmtAST if it assigned a name; a function with an error is left
/// out and named in `invalidFunctions`; so that MLIRGen can still report
/// the independent errors of the rest without cascades. Never returns null,
/// never aborts on bad input.
std::unique_ptr<ModuleAST> parseModule(Diagnostics &diags, unsigned bufferId);

} // namespace mat

#endif // MATC_PARSER_PARSER_H
