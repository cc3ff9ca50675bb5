//===- Target.h - The machine matc compiles for ---------------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One description of the target, resolved once from `--target-triple`,
// `--target-cpu` (by default the host) and the override options, and used
// by everything that depends on the machine: the tile sizes of the code
// generation schedule (MatmulModel.h), LLVM's TargetMachine (objects,
// assembly, the target attributes of LLVM IR) and the driver's checks.
// `matc` and `matc-opt` build it through the same function.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_TARGET_TARGET_H
#define MATRIXDIALECT_TARGET_TARGET_H

#include "mlir/Support/LLVM.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace mlir {
namespace matrix {

/// One level of data cache, as the tile-size model sees it.
struct CacheDescription {
  /// Capacity in bytes (0: unknown or absent).
  int64_t sizeBytes = 0;
  /// Ways of set associativity (0: unknown; the model then assumes 8).
  int64_t associativity = 0;
  /// Line size in bytes.
  int64_t lineBytes = 64;
  /// Number of cores sharing one instance of this cache (1: private).
  int64_t sharedBy = 1;

  /// Number of sets (`sizeBytes / (associativity * lineBytes)`), at least 1.
  int64_t getNumSets() const;
};

/// What matc knows of the machine it compiles for.
struct TargetDescription {
  /// LLVM's normalized target triple, e.g. `x86_64-pc-linux-gnu`.
  std::string triple;
  /// LLVM's CPU name, e.g. `znver3`, `sapphirerapids`, `generic`.
  std::string cpu;
  /// LLVM subtarget features added to the CPU's own (`+avx2,+fma,...`);
  /// for the host, all of the host's features; else empty.
  std::string features;
  /// Whether this is the machine matc runs on (`--target-cpu=host` and no
  /// `--target-triple` of another architecture).
  bool isHost = false;

  /// Width in bits of the vector registers the generated code uses for
  /// f32 and f64 arithmetic: 512 with AVX-512F, 256 with AVX, 128 with SSE
  /// or NEON.
  unsigned vectorBits = 128;
  /// Number of such registers: 32 with AVX-512 or on AArch64, 16 with SSE
  /// and AVX.
  unsigned numVectorRegisters = 16;
  /// Whether the target has fused multiply-add instructions on those
  /// vectors (x86 `fma` or AVX-512F; always on AArch64).
  bool hasFMA = false;
  /// Vector FMA (or, without FMA, multiply and add) instructions of
  /// `vectorBits` bits the core can start per cycle.
  unsigned fmaPerCycle = 2;
  /// Cycles from the start of a vector FMA to the start of one that
  /// consumes its result.
  unsigned fmaLatency = 4;
  /// Vector loads of `vectorBits` bits the core can start per cycle.
  unsigned loadsPerCycle = 2;
  /// Products whose A and B have at most L2 bytes / `unpackedL2Divisor`
  /// elements together are computed unpacked, read in place
  /// (MatmulModel.cpp, computeCodegenSizes): where the caches behind the
  /// L2 are fast, the unpacked schedule wins for larger products.
  unsigned unpackedL2Divisor = 16;

  /// The data caches: L1 and L2 per core; L3 as one instance (shared by
  /// `l3.sharedBy` cores) or absent (sizeBytes 0).
  CacheDescription l1d, l2, l3;
  /// Cores of the machine (host: the online processors; named CPU: 1 unless
  /// overridden). The thread count is a separate option (getThreads).
  unsigned cores = 1;

  /// The threads code for this target runs on when `--threads` is
  /// `requested`: that number, or the cores for 0 (all cores).
  unsigned getThreads(unsigned requested) const {
    return requested ? requested : cores;
  }

  /// Where the microarchitecture numbers above come from: `table` (matc's
  /// table of named CPUs), `features` (defaults for the CPU's vector
  /// features) and, for the caches, `sysfs` (the host's
  /// /sys/devices/system/cpu) or `override`.
  std::string source;

  /// Whether the target is an x86-64 machine.
  bool isX86() const;
  /// Vector elements of `elementBytes` bytes per register.
  unsigned getVectorElements(unsigned elementBytes) const {
    return vectorBits / (8 * elementBytes);
  }

  /// Prints the description as `key: value` lines (`matc --print-target`).
  void print(llvm::raw_ostream &os) const;
};

/// The options a user gives to choose the target. Empty fields take their
/// default: the host's triple, its CPU and caches.
struct TargetOptions {
  /// `--target-triple`; empty: the host's.
  std::string triple;
  /// `--target-cpu`; `host` (the default): the CPU matc runs on, with all
  /// its features. `generic` or any CPU LLVM knows for the triple.
  std::string cpu = "host";
  /// `--target-l1d`, `--target-l2`, `--target-l3`: cache sizes in bytes
  /// replacing the table's or the host's.
  std::optional<int64_t> l1dBytes, l2Bytes, l3Bytes;
  /// `--target-cores`: replaces the number of cores.
  std::optional<unsigned> cores;
};

/// Resolves `options` into a description. Errors (for `matc: error:`): an
/// unknown triple, a CPU LLVM does not know for it, a 32-bit target (the
/// lowering assumes 64-bit indices), a cache size below 1 KiB.
llvm::Expected<TargetDescription> resolveTarget(const TargetOptions &options);

/// Parses a size in bytes with an optional `K`, `M` or `G` suffix (powers
/// of 1024), e.g. `48K`, `2M`, `1048576`. Returns nullopt if malformed.
std::optional<int64_t> parseByteSize(StringRef text);

/// Creates LLVM's TargetMachine for `target`: its triple, CPU and features,
/// position-independent code, the code generation level of `-O<optLevel>`.
/// Fails if LLVM has no backend for the triple.
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createTargetMachine(const TargetDescription &target, unsigned optLevel);

/// The x86 features of `target` whose absence would make its code die of
/// SIGILL (AVX-512F, AVX2, FMA, ... down to SSE3), as LLVM names them
/// (`avx512f`), most demanding first; empty for other architectures. An
/// executable checks them when it starts.
SmallVector<std::string> getCheckedFeatures(const TargetDescription &target);

/// The features of getCheckedFeatures(target) the host lacks: empty if the
/// host has them all or the target is not the host's architecture.
SmallVector<std::string> getFeaturesMissingOnHost(
    const TargetDescription &target);

/// The name users know a feature by: `avx512f` -> `AVX-512F`, `fma` ->
/// `FMA`, `sse4.2` -> `SSE4.2`.
std::string getFeatureDisplayName(StringRef feature);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_TARGET_TARGET_H
