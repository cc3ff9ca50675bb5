//===- OutputFile.cpp - Errors and output files of the matc driver --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "OutputFile.h"

#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <string>

int matc::fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "matc") << message << "\n";
  return 1;
}

int matc::writeOutputFile(llvm::StringRef path, llvm::sys::fs::OpenFlags flags,
                          llvm::function_ref<void(llvm::raw_ostream &)> print) {
  std::string name =
      path == "-" ? std::string("standard output") : "'" + path.str() + "'";
  std::error_code ec;
  llvm::ToolOutputFile out(path, ec, flags);
  if (ec)
    return fail("cannot write " + name + ": " + ec.message());
  print(out.os());
  out.os().flush();
  if (std::error_code error = out.os().error()) {
    // Cleared, or raw_fd_ostream's destructor aborts on the pending error.
    out.os().clear_error();
    return fail("cannot write " + name + ": " + error.message());
  }
  out.keep();
  return 0;
}
