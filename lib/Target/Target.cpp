//===- Target.cpp - The machine matc compiles for -------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The triple, CPU and features come from LLVM (its target registry, the
// host's CPU name and features, MCSubtargetInfo for a named CPU); the
// numbers LLVM does not give - FMA throughput and latency, caches - come
// from a table of named CPUs below (vendors' optimization manuals, Agner
// Fog's instruction tables), with defaults by vector features for the CPUs
// it does not list, and for the host from Linux's sysfs
// (/sys/devices/system/cpu/cpu0/cache, as `lscpu` reads it).
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Target/Target.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/SubtargetFeature.h"
#include "llvm/TargetParser/Triple.h"

#include <thread>

using namespace mlir;
using namespace mlir::matrix;

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

int64_t CacheDescription::getNumSets() const {
  int64_t ways = associativity > 0 ? associativity : 8;
  int64_t line = lineBytes > 0 ? lineBytes : 64;
  return std::max<int64_t>(1, sizeBytes / (ways * line));
}

bool TargetDescription::isX86() const {
  return llvm::Triple(triple).isX86();
}

//===----------------------------------------------------------------------===//
// Named CPUs
//===----------------------------------------------------------------------===//

namespace {
/// What the table knows of one microarchitecture. Cache sizes in KiB; the
/// L3 is per core (the model's share), associativity in ways.
struct CPUEntry {
  const char *names; // LLVM CPU names, separated by spaces
  unsigned fmaPerCycle, fmaLatency, loadsPerCycle;
  int64_t l1KiB, l1Ways, l2KiB, l2Ways, l3KiBPerCore, l3Ways;
  /// TargetDescription::unpackedL2Divisor: 16 (measured on Sapphire
  /// Rapids) unless measured otherwise. Zen 4: 4, measured (1 MiB L2, f32
  /// and f64, 1 and 2 threads, medians of 3): unpacked against packed, 256
  /// x 256 f32 112 / 93 GFLOPS on 1 thread, 196 / 94 on 2; 361 x 361 f32
  /// 103 / 90 and 186 / 127, f64 51 / 44 and 92 / 65; at 512 the packed
  /// schedule wins (f64 47 / 43 on 1 thread, f32 192 / 113 on 2).
  unsigned unpackedL2Divisor = 16;
};
} // namespace

/// Throughput and latency are for FMAs and loads of the CPU's widest
/// vectors (`vectorBits`): Zen 4 runs a 512-bit FMA in two halves (one per
/// cycle) and loads 2 x 256 bits per cycle, one 512-bit vector (AMD,
/// "Software Optimization Guide for the AMD Zen4 Microarchitecture", 57647;
/// measured, f32 at n = 1024, 1 thread: with 2 loads per
/// cycle the model picks a 24 x 16 tile, 0.92x OpenBLAS; with 1, 12 x 32,
/// 1.01x-1.04x); client Ice Lake / Tiger Lake / Rocket Lake have one
/// 512-bit FMA unit.
static const CPUEntry kCPUTable[] = {
    // Intel, AVX2.
    {"haswell broadwell", 2, 5, 2, 32, 8, 256, 8, 2048, 16},
    {"skylake kabylake coffeelake cometlake", 2, 4, 2, 32, 8, 256, 4, 2048, 16},
    {"alderlake raptorlake meteorlake arrowlake", 2, 4, 3, 48, 12, 1280, 10,
     3072, 12},
    // Intel, AVX-512.
    {"skylake-avx512 cascadelake cooperlake", 2, 4, 2, 32, 8, 1024, 16, 1408,
     11},
    {"icelake-client tigerlake rocketlake", 1, 4, 2, 48, 12, 512, 8, 2048, 16},
    {"icelake-server", 2, 4, 2, 48, 12, 1280, 20, 1536, 12},
    {"sapphirerapids emeraldrapids graniterapids", 2, 4, 2, 48, 12, 2048, 16,
     1920, 15},
    // AMD, AVX2 (Zen 1 splits 256-bit ops in two halves).
    {"znver1", 1, 5, 2, 32, 8, 512, 8, 2048, 16},
    {"znver2", 2, 5, 2, 32, 8, 512, 8, 4096, 16},
    {"znver3", 2, 4, 2, 32, 8, 512, 8, 4096, 16},
    // AMD, AVX-512.
    {"znver4", 1, 4, 1, 32, 8, 1024, 8, 4096, 16, 4},
    {"znver5", 2, 4, 2, 48, 12, 1024, 16, 4096, 16},
    // Generic levels: a conservative machine of each level.
    {"x86-64 x86-64-v2 generic", 2, 4, 2, 32, 8, 256, 4, 2048, 16},
    {"x86-64-v3", 2, 5, 2, 32, 8, 256, 4, 2048, 16},
    {"x86-64-v4", 2, 4, 2, 32, 8, 1024, 16, 1408, 11},
};

static const CPUEntry *lookupCPU(StringRef cpu) {
  for (const CPUEntry &entry : kCPUTable) {
    SmallVector<StringRef> names;
    StringRef(entry.names).split(names, ' ');
    if (llvm::is_contained(names, cpu))
      return &entry;
  }
  return nullptr;
}

/// Fills the microarchitecture numbers and caches of `target` from the
/// table entry of its CPU, or from defaults for its vector features. A VM
/// may give the host another CPU model than its own (seen: a Sapphire
/// Rapids reported as model 167, which LLVM names Rocket Lake, a client
/// part with one 512-bit FMA unit): a host with AMX, which only Sapphire
/// Rapids and later server parts have, takes their entry.
static void applyCPUEntry(TargetDescription &target) {
  // The table describes x86 CPUs only.
  const CPUEntry *entry =
      target.isX86() ? lookupCPU(target.cpu) : nullptr;
  if (target.isHost &&
      StringRef(target.features).contains("+amx-tile") &&
      (!entry || entry->l2KiB < 2048))
    entry = lookupCPU("sapphirerapids");
  CPUEntry defaults = {"", 2, 4, 2, 32, 8, 256, 8, 2048, 16};
  if (!llvm::Triple(target.triple).isX86())
    defaults = {"", 2, 4, 2, 64, 4, 1024, 8, 2048, 16};
  const CPUEntry &e = entry ? *entry : defaults;
  target.source = entry ? "table" : "features";
  target.fmaPerCycle = e.fmaPerCycle;
  target.fmaLatency = e.fmaLatency;
  target.loadsPerCycle = e.loadsPerCycle;
  target.unpackedL2Divisor = e.unpackedL2Divisor;
  target.l1d = {e.l1KiB * 1024, e.l1Ways, 64, 1};
  target.l2 = {e.l2KiB * 1024, e.l2Ways, 64, 1};
  target.l3 = {e.l3KiBPerCore * 1024, e.l3Ways, 64, 1};
}

//===----------------------------------------------------------------------===//
// The host's caches
//===----------------------------------------------------------------------===//

/// The contents of a sysfs file, trimmed, or "" if unreadable.
static std::string readSysfs(const llvm::Twine &path) {
  // sysfs files report a size they do not have: read to the end.
  auto buffer = llvm::MemoryBuffer::getFileAsStream(path);
  if (!buffer)
    return "";
  return (*buffer)->getBuffer().trim().str();
}

/// Number of CPUs in a sysfs CPU list such as `0-3,8`.
static int64_t countCPUList(StringRef list) {
  int64_t count = 0;
  SmallVector<StringRef> ranges;
  list.split(ranges, ',', -1, /*KeepEmpty=*/false);
  for (StringRef range : ranges) {
    auto [first, last] = range.split('-');
    unsigned a = 0, b = 0;
    if (first.trim().getAsInteger(10, a))
      continue;
    if (last.empty() || last.trim().getAsInteger(10, b))
      b = a;
    count += b >= a ? b - a + 1 : 1;
  }
  return std::max<int64_t>(count, 1);
}

/// Replaces the caches of `target` by the host's data caches, as Linux
/// reports them for CPU 0. Leaves a level alone where sysfs says nothing.
/// Returns whether any level was read.
static bool readHostCaches(TargetDescription &target) {
  bool any = false;
  for (unsigned index = 0; index < 16; ++index) {
    std::string dir =
        "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(index);
    std::string type = readSysfs(dir + "/type");
    if (type.empty())
      break;
    if (type != "Data" && type != "Unified")
      continue;
    unsigned level = 0;
    if (StringRef(readSysfs(dir + "/level")).getAsInteger(10, level))
      continue;
    std::optional<int64_t> size = parseByteSize(readSysfs(dir + "/size"));
    if (!size || *size <= 0)
      continue;
    CacheDescription cache;
    cache.sizeBytes = *size;
    StringRef(readSysfs(dir + "/ways_of_associativity"))
        .getAsInteger(10, cache.associativity);
    int64_t line = 0;
    if (!StringRef(readSysfs(dir + "/coherency_line_size"))
             .getAsInteger(10, line) &&
        line > 0)
      cache.lineBytes = line;
    cache.sharedBy = countCPUList(readSysfs(dir + "/shared_cpu_list"));
    if (level == 1)
      target.l1d = cache;
    else if (level == 2)
      target.l2 = cache;
    else if (level == 3)
      target.l3 = cache;
    else
      continue;
    any = true;
  }
  return any;
}

//===----------------------------------------------------------------------===//
// Resolution
//===----------------------------------------------------------------------===//

std::optional<int64_t> mlir::matrix::parseByteSize(StringRef text) {
  text = text.trim();
  int64_t scale = 1;
  if (text.consume_back("K") || text.consume_back("k") ||
      text.consume_back("KiB"))
    scale = 1024;
  else if (text.consume_back("M") || text.consume_back("MiB"))
    scale = 1024 * 1024;
  else if (text.consume_back("G") || text.consume_back("GiB"))
    scale = int64_t(1024) * 1024 * 1024;
  uint64_t value = 0;
  if (text.empty() || text.getAsInteger(10, value) ||
      value > (uint64_t(1) << 50) / scale)
    return std::nullopt;
  return int64_t(value) * scale;
}

static void initializeLLVMTargets() {
  static const bool initialized = [] {
    llvm::InitializeAllTargetInfos();
    llvm::InitializeAllTargets();
    llvm::InitializeAllTargetMCs();
    llvm::InitializeAllAsmPrinters();
    llvm::InitializeAllAsmParsers();
    return true;
  }();
  (void)initialized;
}

/// Sets the vector width, register count and FMA of `target` from what its
/// subtarget (CPU and features) supports.
static void applyVectorFeatures(TargetDescription &target,
                                const llvm::MCSubtargetInfo &subtarget) {
  llvm::Triple triple(target.triple);
  if (triple.isX86()) {
    if (subtarget.checkFeatures("+avx512f")) {
      target.vectorBits = 512;
      target.numVectorRegisters = 32;
    } else if (subtarget.checkFeatures("+avx")) {
      target.vectorBits = 256;
      target.numVectorRegisters = 16;
    } else {
      target.vectorBits = 128;
      target.numVectorRegisters = 16;
    }
    target.hasFMA = subtarget.checkFeatures("+fma") ||
                    subtarget.checkFeatures("+avx512f");
    return;
  }
  if (triple.isAArch64()) {
    target.vectorBits = 128;
    target.numVectorRegisters = 32;
    target.hasFMA = true;
    return;
  }
  target.vectorBits = 128;
  target.numVectorRegisters = 16;
  target.hasFMA = false;
}

llvm::Expected<TargetDescription>
mlir::matrix::resolveTarget(const TargetOptions &options) {
  initializeLLVMTargets();
  llvm::Triple host(llvm::sys::getProcessTriple());
  llvm::Triple triple = options.triple.empty()
                            ? host
                            : llvm::Triple(llvm::Triple::normalize(
                                  options.triple));
  std::string error;
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend || triple.getArch() == llvm::Triple::UnknownArch)
    return makeError("unknown target triple '" + options.triple + "'" +
                     (error.empty() ? "" : ": " + error));
  if (!triple.isArch64Bit())
    return makeError("target '" + triple.str() +
                     "' is not 64-bit: matc's lowering uses 64-bit indices "
                     "and sizes, and supports 64-bit targets only");
  // GPUs and virtual machines take kernels, not programs that call the C
  // library: LLVM fails on what the lowering makes (printf, varargs).
  if (triple.isAMDGPU() || triple.isNVPTX() || triple.isSPIRV() ||
      triple.isBPF() || triple.isWasm())
    return makeError("target '" + triple.str() +
                     "' is not a CPU: matc compiles for CPUs (for example "
                     "x86_64, aarch64, riscv64)");

  TargetDescription target;
  target.triple = triple.str();
  target.cpu = options.cpu.empty() ? "host" : options.cpu;
  if (target.cpu == "host") {
    if (triple.getArch() == host.getArch() && triple.getOS() == host.getOS()) {
      target.isHost = true;
      target.cpu = llvm::sys::getHostCPUName().str();
      llvm::SubtargetFeatures features;
      for (const auto &feature : llvm::sys::getHostCPUFeatures())
        features.AddFeature(feature.first(), feature.second);
      target.features = features.getString();
    } else {
      target.cpu = "generic";
      // As clang does for Linux on RISC-V 64: RV64GC, with the lp64d ABI
      // (createTargetMachine). LLVM's generic RISC-V CPU alone is RV64I with
      // soft float, objects a Linux toolchain will not link with its C
      // library (a new-user finding).
      if (triple.isRISCV64() && triple.isOSLinux() && target.features.empty())
        target.features = "+m,+a,+f,+d,+c,+zicsr,+zifencei";
    }
  }
  // An empty CPU keeps the subtarget from warning about an unknown one.
  std::unique_ptr<llvm::MCSubtargetInfo> probe(
      backend->createMCSubtargetInfo(triple, "", ""));
  if (!probe ||
      (target.cpu != "generic" && !probe->isCPUStringValid(target.cpu)))
    return makeError("unknown CPU '" + target.cpu + "' for target '" +
                     triple.str() + "' (see llc -mtriple=" + triple.str() +
                     " -mcpu=help)");
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      backend->createMCSubtargetInfo(triple, target.cpu, target.features));
  // A 32-bit CPU of a 64-bit architecture (`--target-cpu=pentium` for
  // x86-64): LLVM's code generator would stop with a fatal error.
  if (triple.getArch() == llvm::Triple::x86_64 &&
      !subtarget->checkFeatures("+64bit"))
    return makeError("CPU '" + target.cpu + "' is not 64-bit: it cannot run "
                     "code for '" + triple.str() + "' (matc supports 64-bit "
                     "targets only)");
  applyVectorFeatures(target, *subtarget);
  applyCPUEntry(target);
  if (target.isHost) {
    if (readHostCaches(target))
      target.source += ", caches from sysfs";
    target.cores = std::max(1u, std::thread::hardware_concurrency());
  }

  // The largest size each level may be given: well above any CPU's (the
  // largest L1 data caches are 192 KiB, the largest L2 32 MiB per core, on
  // IBM z16), so that a typo (`--target-l1d=48M`) is an error, not tiles of
  // millions of steps of k.
  constexpr int64_t kMiB = 1024 * 1024;
  bool overridden = false;
  for (auto [given, cache, name, largest, largestText] :
       {std::make_tuple(options.l1dBytes, &target.l1d, "--target-l1d",
                        kMiB, "1M"),
        std::make_tuple(options.l2Bytes, &target.l2, "--target-l2", 256 * kMiB,
                        "256M"),
        std::make_tuple(options.l3Bytes, &target.l3, "--target-l3",
                        16 * 1024 * kMiB, "16G")}) {
    if (!given)
      continue;
    if (*given < 1024)
      return makeError(llvm::Twine(name) + ": a cache of " +
                       llvm::Twine(*given) +
                       (*given == 1 ? " byte" : " bytes") +
                       " is too small (at least 1K)");
    if (*given > largest)
      return makeError(llvm::Twine(name) + ": a cache of " +
                       llvm::Twine(*given / 1024) +
                       " KiB is larger than any CPU's (at most " +
                       largestText + ")");
    cache->sizeBytes = *given;
    overridden = true;
  }
  if (options.cores) {
    if (*options.cores < 1)
      return makeError("--target-cores: at least 1 core");
    target.cores = *options.cores;
  }
  if (overridden)
    target.source += ", caches overridden";
  return target;
}

void TargetDescription::print(llvm::raw_ostream &os) const {
  auto printCache = [&](StringRef name, const CacheDescription &cache) {
    os << name << ": ";
    if (cache.sizeBytes == 0) {
      os << "none\n";
      return;
    }
    os << cache.sizeBytes / 1024 << " KiB, " << cache.associativity
       << "-way, " << cache.lineBytes << "-byte lines";
    if (cache.sharedBy > 1)
      os << ", shared by " << cache.sharedBy << " cores";
    else if (&cache == &l3 && !isHost)
      os << " (one core's share)";
    os << "\n";
  };
  os << "triple: " << triple << "\n";
  os << "cpu: " << cpu << (isHost ? " (host)" : "") << "\n";
  os << "vector registers: " << numVectorRegisters << " x " << vectorBits
     << " bits\n";
  os << "fma: " << (hasFMA ? "yes" : "no (multiply and add)") << ", "
     << fmaPerCycle << " per cycle, latency " << fmaLatency << " cycles\n";
  os << "vector loads per cycle: " << loadsPerCycle << "\n";
  printCache("l1d", l1d);
  printCache("l2", l2);
  printCache("l3", l3);
  os << "cores: " << cores << "\n";
  os << "source: " << source << "\n";
}

//===----------------------------------------------------------------------===//
// LLVM's TargetMachine, feature checks
//===----------------------------------------------------------------------===//

/// `-O<n>` for LLVM's code generator.
static llvm::CodeGenOptLevel getCodeGenOptLevel(unsigned optLevel) {
  switch (optLevel) {
  case 0:
    return llvm::CodeGenOptLevel::None;
  case 1:
    return llvm::CodeGenOptLevel::Less;
  case 2:
    return llvm::CodeGenOptLevel::Default;
  default:
    return llvm::CodeGenOptLevel::Aggressive;
  }
}

llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
mlir::matrix::createTargetMachine(const TargetDescription &target,
                                  unsigned optLevel) {
  initializeLLVMTargets();
  llvm::Triple triple(target.triple);
  std::string error;
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return makeError("cannot generate code for '" + target.triple +
                     "': " + error);
  llvm::TargetOptions options;
  // RISC-V's ABI follows the floating-point registers the subtarget has, as
  // clang's default does (lp64d with D, lp64f with F only, else lp64);
  // LLVM's own default is lp64 whatever the CPU.
  if (triple.isRISCV64()) {
    std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
        backend->createMCSubtargetInfo(triple, target.cpu, target.features));
    options.MCOptions.ABIName =
        subtarget && subtarget->checkFeatures("+d")   ? "lp64d"
        : subtarget && subtarget->checkFeatures("+f") ? "lp64f"
                                                      : "lp64";
  }
  std::unique_ptr<llvm::TargetMachine> machine(backend->createTargetMachine(
      triple, target.cpu, target.features, options, llvm::Reloc::PIC_,
      std::nullopt, getCodeGenOptLevel(optLevel)));
  if (!machine)
    return makeError("cannot generate code for '" + target.triple + "'");
  return machine;
}

/// The features whose absence makes generated code die of SIGILL, in the
/// order they are reported (the first missing one names the CPU needed).
/// All of them are in the first word of libgcc's and compiler-rt's
/// `__cpu_model` (llvm/TargetParser/X86TargetParser.def), which an
/// executable's start-up check reads. Not SSE4A (AMD's), which LLVM emits
/// only for its intrinsics: code for Zen runs on Intel CPUs with the same
/// vector features.
static const char *const kCheckedFeatures[] = {
    "avx512f", "avx512dq", "avx512bw", "avx512vl", "avx512cd", "avx2",
    "fma",     "fma4",     "xop",      "avx",      "bmi2",     "bmi",
    "popcnt",  "sse4.2",   "sse4.1",   "ssse3",    "sse3",
};

SmallVector<std::string>
mlir::matrix::getCheckedFeatures(const TargetDescription &target) {
  SmallVector<std::string> features;
  initializeLLVMTargets();
  llvm::Triple triple(target.triple);
  if (!triple.isX86())
    return features;
  std::string error;
  const llvm::Target *backend =
      llvm::TargetRegistry::lookupTarget(triple, error);
  if (!backend)
    return features;
  std::unique_ptr<llvm::MCSubtargetInfo> subtarget(
      backend->createMCSubtargetInfo(triple, target.cpu, target.features));
  for (const char *feature : kCheckedFeatures)
    if (subtarget->checkFeatures(std::string("+") + feature))
      features.push_back(feature);
  return features;
}

SmallVector<std::string>
mlir::matrix::getFeaturesMissingOnHost(const TargetDescription &target) {
  SmallVector<std::string> missing;
  llvm::Triple triple(target.triple);
  llvm::Triple host(llvm::sys::getProcessTriple());
  if (target.isHost || triple.getArch() != host.getArch())
    return missing;
  llvm::StringMap<bool> hostFeatures = llvm::sys::getHostCPUFeatures();
  for (const std::string &feature : getCheckedFeatures(target)) {
    auto it = hostFeatures.find(feature);
    if (it == hostFeatures.end() || !it->second)
      missing.push_back(feature);
  }
  return missing;
}

std::string mlir::matrix::getFeatureDisplayName(StringRef feature) {
  if (feature.consume_front("avx512"))
    return ("AVX-512" + feature.upper());
  return feature.upper();
}
