//===- MLIRGen.h - Mat AST to the Matrix dialect ----------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_MLIRGEN_MLIRGEN_H
#define MATRIXDIALECT_MLIRGEN_MLIRGEN_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/OwningOpRef.h"

namespace mat {
struct ModuleAST;

/// Prefix of the symbol of every user function: `def f` becomes `@mat_f`, so
/// that user names never collide with `main` (the top-level program) or the
/// C library (`malloc`, `free`, `printf`).
inline constexpr const char *kUserFunctionPrefix = "mat_";

/// Emits `module` as `func.func`s over the Matrix dialect: one per `def`
/// (named kUserFunctionPrefix + name) and `@main() -> ()` holding the
/// top-level statements. Types and shapes are checked here, at the user's
/// source locations (FileLineColLoc from the AST), with the same messages
/// the op verifiers use; errors are emitted as MLIR diagnostics on `context`
/// and generation goes on with the next statement, up to the front end's
/// cap (mat::kMaxErrors, parser/Diagnostics.h), which counts `priorErrors`,
/// those the parser reported: after syntax errors, `module` is what parsed
/// (see parseModule) and the independent type and shape errors of the rest
/// are still reported. Returns null if any error was reported,
/// `priorErrors` included. Tools call it through mat::FrontEnd.
mlir::OwningOpRef<mlir::ModuleOp> mlirGen(mlir::MLIRContext &context,
                                          const ModuleAST &module,
                                          unsigned priorErrors = 0);

} // namespace mat

#endif // MATRIXDIALECT_MLIRGEN_MLIRGEN_H
