//===- NativeOutput.h - Executables, objects, libraries, headers -*- C++
//-*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The part of the `matc` driver that writes native code: the options
// `-c`, `--shared`, `--emit-header`, `--target-triple`, `--target-cpu`, and
// the code generation through LLVM's TargetMachine, then the system linker
// (`cc`) for executables and shared libraries.
//
//===----------------------------------------------------------------------===//

#ifndef MATC_NATIVEOUTPUT_H
#define MATC_NATIVEOUTPUT_H

#include "MatrixDialect/Pipelines.h"
#include "MatrixDialect/Target/Target.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/Timing.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <optional>
#include <string>

namespace matc {

/// The options this file defines, for `--help`.
llvm::cl::OptionCategory &getNativeOptionCategory();

/// What a matc command writes, when it is not `--run` or an IR stage.
enum class NativeKind {
  /// Neither: `--run` or `--emit=<IR stage>`.
  None,
  /// An executable (`-o FILE` alone; the default).
  Executable,
  /// A relocatable object (`-c`).
  Object,
  /// A shared library (`--shared`).
  SharedLibrary,
  /// Native assembly (`--emit=asm`).
  Assembly,
  /// The C header of the C entry points (`--emit-header`).
  Header,
};

/// A checked request for native output.
struct NativeRequest {
  NativeKind kind = NativeKind::None;
  /// The file to write; "-" is standard output.
  std::string output;
  /// The LLVM TargetMachine for every kind but Header (for `--run` and the
  /// IR stages of `--emit`, it sets the schedule and LLVM IR's target): triple from `--target-triple` (default: the host), CPU and
  /// features from `--target-cpu` (default `host`: the host's CPU and all
  /// its features), PIC, code generation level from `-O<optLevel>`.
  std::unique_ptr<llvm::TargetMachine> targetMachine;
  /// The target description targetMachine was made from (all but Header):
  /// it sets the tile sizes of the lowering (matrix::LoweringOptions).
  std::optional<mlir::matrix::TargetDescription> target;
};

/// The target of `--target-triple`, `--target-cpu` and the cache overrides
/// (`--target-l1d`, `--target-l2`, `--target-l3`), through
/// mlir::matrix::resolveTarget. Returns a message for `matc: error:`.
llvm::Expected<mlir::matrix::TargetDescription> resolveTargetOptions();

/// Sets the tiles `--matmul-f32` and `--matmul-f64` give (replacing the
/// model's) in `options`. Returns a message for `matc: error:` if one is
/// malformed.
llvm::Error applyTileOptions(mlir::matrix::LoweringOptions &options);

/// Sets in `options` the threads the lowering splits the program's functions
/// over (`--compile-threads`, by default every core; see
/// LoweringOptions::codegenParts), for native outputs.
void applyCompileThreads(mlir::matrix::LoweringOptions &options);

/// The output flags of this file given on the command line, as written, in
/// the order `--emit-header`, `-c`, `--shared`.
llvm::SmallVector<llvm::StringRef> getOutputFlagsGiven();

/// Works out what to write from the command line: `emitStage` is whether
/// `--emit=` names an IR stage, `emitAsm` whether it is `--emit=asm`,
/// `outputGiven`/`output` the `-o` option, `input` the input file name.
/// Creates the TargetMachine (all but `--emit-header`). Returns a message for `matc: error:`
/// when the options conflict, the target or CPU is unknown, or an executable or a
/// library is asked for a target matc cannot link for.
llvm::Expected<NativeRequest> resolveNativeRequest(bool emitStage, bool emitAsm,
                                                   bool run, bool outputGiven,
                                                   llvm::StringRef output,
                                                   llvm::StringRef input,
                                                   unsigned optLevel);

/// Sets the target triple and data layout of `module`, and the target-cpu
/// and target-features attributes of its functions, to the request's
/// target (`--target-triple`, `--target-cpu`; by default the host), so that
/// `--emit=llvmir` says what it was compiled for. Fails without a
/// TargetMachine (an `--emit-header` request).
llvm::Error setModuleTarget(llvm::Module &module,
                            const NativeRequest &request);

/// Translates `module` (the LLVM dialect, after `matrix-export-c-interface`)
/// to LLVM IR, optimizes it at `-O<optLevel>` for the request's target
/// machine and writes assembly, an object, or (through a temporary object
/// and `cc`) an executable or a shared library. LLVM optimizes and compiles
/// objects in partitions of whole functions on `--compile-threads` threads
/// (mlir::matrix::emitObjectsInParallel); -c merges them with `cc -r` and
/// `objcopy --localize-hidden` (one partition when either is missing, or
/// for `-o -`).
/// The translation, LLVM's work and the link are timed in `timing`
/// (`--mlir-timing`). Errors are printed as `matc: error: ...`; returns the
/// exit status (0 or 1).
int writeNativeOutput(mlir::ModuleOp module, const NativeRequest &request,
                      unsigned optLevel, mlir::TimingScope &timing);

} // namespace matc

#endif // MATC_NATIVEOUTPUT_H
