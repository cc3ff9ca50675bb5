//===- OutputFile.h - Errors and output files of the matc driver -*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATC_OUTPUTFILE_H
#define MATC_OUTPUTFILE_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

namespace matc {

/// Prints `matc: error: MESSAGE` (an error without a source location) to
/// stderr. Returns 1, the exit status of a failed compilation.
int fail(const llvm::Twine &message);

/// Writes what `print` produces to `path` ("-": standard output), opened
/// with `flags`; the file is kept only if everything was written. Reports
/// `cannot write 'PATH': REASON` (or `cannot write standard output: ...`)
/// through fail() when the file cannot be created or a write fails (a full
/// disk, a closed pipe). Returns the exit status (0 or 1).
int writeOutputFile(llvm::StringRef path, llvm::sys::fs::OpenFlags flags,
                    llvm::function_ref<void(llvm::raw_ostream &)> print);

} // namespace matc

#endif // MATC_OUTPUTFILE_H
