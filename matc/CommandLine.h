//===- CommandLine.h - The matc command line, in matc's words ---*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// LLVM's option parser (llvm/Support/CommandLine.h) parses matc's command
// line; this file makes its errors speak as matc's other errors do.
//
//===----------------------------------------------------------------------===//

#ifndef MATC_COMMANDLINE_H
#define MATC_COMMANDLINE_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/CommandLine.h"

#include <string>

namespace matc {

/// An option whose value is one of a list (`cl::values`), so that a wrong
/// value is answered with the list: `{emitAction, emitAction.getParser()}`.
struct OptionValues {
  const llvm::cl::Option &option;
  const llvm::cl::generic_parser_base &values;
};

/// Parses `args` (argv, the program first) as cl::ParseCommandLineOptions
/// does, with `overview` at the top of `--help`. `--help`, `--help-hidden`
/// and `--version` print to stdout and exit with status 0, as they do
/// there. Every error of the command line is reported in matc's words, one
/// `matc: error: MESSAGE` line on stderr each (see fail()), instead of
/// LLVM's: an unknown option (with the closest one when it is a likely
/// misspelling, among the options `--help-hidden` lists and
/// `ownOptionNames`, the options matc takes out of argv before cl sees
/// them), a missing or unexpected value, a value that is not of the
/// option's type or not in its list (`valueLists`), no input file or more
/// than one. Returns false after an error: exit status 1.
bool parseCommandLine(llvm::ArrayRef<const char *> args,
                      llvm::StringRef overview,
                      llvm::ArrayRef<llvm::StringRef> ownOptionNames = {},
                      llvm::ArrayRef<OptionValues> valueLists = {});

/// The error of an option given without a value, or with an empty one
/// (`--emit`, `--emit=`, `--target-cpu=`): "OPTION needs a value (see matc
/// --help)", one wording for every option.
std::string missingValue(llvm::StringRef option);

} // namespace matc

#endif // MATC_COMMANDLINE_H
