//===- matc.cpp - The Mat compiler driver ---------------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads a Mat file, then either prints one stage of its compilation
// (`--emit=ast|mlir|linalg|affine|llvm|llvmir|asm`), JIT-compiles it with
// MLIR's ExecutionEngine and runs it (`--run`), or writes native code: an
// executable (the default, `-o FILE`), an object (`-c`), a shared library
// (`--shared`) or the C header of its functions (`--emit-header`; as JSON:
// `--emit=signatures`); see NativeOutput.h and
// MatrixDialect/Conversion/CInterface.h.
//
// Exit status: 0 on success; 1 when the program has errors (syntax, names,
// types, shapes), the input cannot be read, the output cannot be written,
// or the command line is wrong.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Conversion/CInterface.h"
#include "MatrixDialect/Conversion/Passes.h"
#include "MatrixDialect/Distributed/CommunicationCost.h"
#include "MatrixDialect/Distributed/Passes.h"
#include "MatrixDialect/IR/Dialect.h"
#include "MatrixDialect/MLIRGen/FrontEnd.h"
#include "MatrixDialect/Pipelines.h"
#include "MatrixDialect/Target/MatmulModel.h"
#include "MatrixDialect/Target/ParallelCodegen.h"
#include "MatrixDialect/Transforms/FlopCount.h"
#include "parser/AST.h"

#include "CommandLine.h"
#include "NativeOutput.h"
#include "OutputFile.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/IR/Verifier.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/ExecutionEngine/Orc/Mangling.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#if defined(__linux__) && defined(__x86_64__)
#include <ucontext.h>
#include <unistd.h>
#endif

#include <cstdio>
#include <dlfcn.h>

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit {
  None,
  AST,
  Matrix,
  Linalg,
  Affine,
  LLVMDialect,
  LLVMIR,
  Asm,
  Signatures
};
} // namespace

static cl::OptionCategory matcCategory("matc options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mat file, or - for stdin>"),
                                          cl::cat(matcCategory));

static cl::opt<std::string> outputFilename("o", cl::desc("Write output to <file>"),
                                           cl::value_desc("file"),
                                           cl::init("-"),
                                           cl::cat(matcCategory));

static cl::opt<Emit> emitAction(
    "emit", cl::desc("Print one stage of the compilation and stop:"),
    cl::init(Emit::None),
    cl::values(
        clEnumValN(Emit::AST, "ast", "the syntax tree"),
        clEnumValN(Emit::Matrix, "mlir", "the Matrix dialect, as generated"),
        clEnumValN(Emit::Linalg, "linalg", "Linalg on tensors"),
        clEnumValN(Emit::Affine, "affine",
                   "loops on memrefs, after bufferization (affine at -O0)"),
        clEnumValN(Emit::LLVMDialect, "llvm",
                   "the LLVM dialect (input of mlir-runner)"),
        clEnumValN(Emit::LLVMIR, "llvmir", "LLVM IR"),
        clEnumValN(Emit::Asm, "asm",
                   "native assembly (of what -c writes; stdout or -o)"),
        clEnumValN(Emit::Signatures, "signatures",
                   "the C entry points as JSON (docs/python.md)")),
    cl::cat(matcCategory));

static cl::opt<bool> printTarget(
    "print-target",
    cl::desc("Print the target matc compiles for (--target-cpu, "
             "--target-triple, cache overrides; default the host) and the "
             "tile sizes its model gives, then exit"),
    cl::cat(matcCategory));

static cl::opt<bool> runProgram("run",
                                cl::desc("JIT-compile the program and run it; "
                                         "its output goes to stdout"),
                                cl::cat(matcCategory));

/// MLIR's verifier after every pass costs about an eighth of a compile
/// (measured on Zen 5: 300 small functions at -O2 -c, 0.6-0.9 s of 5.7-7 s
/// wall, 1.3 s of CPU): most passes are module passes, and each verifies
/// the whole module. So matc verifies what the pipeline produced once, at
/// the end, and after every pass only when asked: its lit tests ask
/// (test/lit.cfg.py), so that a pass that breaks the IR is caught where it
/// does. The environment variable reaches the matc that scripts and the
/// Python package start.
static cl::opt<bool> verifyEach(
    "verify-each",
    cl::desc("Run MLIR's verifier after every pass, not only on the "
             "lowered module (for matc's developers; also set by "
             "MATC_VERIFY_EACH, unless empty, 0, false, off or no, as the "
             "tests do)"),
    cl::Hidden, cl::cat(matcCategory));

namespace {
/// -O's value: one of 0 .. 3, else the error says which levels exist
/// (`-Ofast`, `-Os` and `-O7` alike).
struct OptLevelParser : cl::parser<unsigned> {
  using cl::parser<unsigned>::parser;
  bool parse(cl::Option &option, StringRef name, StringRef value,
             unsigned &level) {
    // `-O --run`: cl's own error, which reportCommandLineErrors words as
    // "-O needs a value ('--run' is an option)".
    if (value.size() > 1 && value[0] == '-' && !llvm::isDigit(value[1]))
      return cl::parser<unsigned>::parse(option, name, value, level);
    if (value.getAsInteger(10, level) || level > 3)
      return option.error("'" + value +
                          "' is not an optimization level: write -O0, -O1, "
                          "-O2 or -O3");
    return false;
  }
};
} // namespace

static cl::opt<unsigned, false, OptLevelParser>
    optLevel("O", cl::Prefix, cl::init(2),
             cl::desc("Optimization level: -O0 is the plain reference "
                      "lowering, -O1..-O3 optimize (default -O2)"),
             cl::value_desc("level"), cl::cat(matcCategory));

static cl::opt<unsigned> numRanks(
    "ranks", cl::init(1),
    cl::desc("Build an MPI program for <n> processes, run with 'mpiexec -n "
             "<n> ./prog' (default 1: one process, no MPI); see "
             "docs/distributed.md"),
    cl::value_desc("n"), cl::cat(matcCategory));

static cl::opt<int64_t> shardMinElements(
    "shard-min-elements", cl::init(65536),
    cl::desc("With --ranks: matrices with fewer elements are replicated on "
             "every rank instead of split by rows (default 65536)"),
    cl::value_desc("n"), cl::cat(matcCategory));

/// Checks the MPI options against the rest of the command line; returns
/// the message for `matc: error:` if they conflict.
static std::optional<std::string>
checkRanksOptions(const matc::NativeRequest &native) {
  if (numRanks == 0)
    return std::string("--ranks 0: an MPI program needs at least 1 process");
  if (shardMinElements.getNumOccurrences() && numRanks < 2)
    return std::string("--shard-min-elements applies only with --ranks 2 "
                       "or more");
  if (shardMinElements < 1)
    return "--shard-min-elements must be at least 1, got " +
           std::to_string(shardMinElements);
  if (numRanks < 2)
    return std::nullopt;
  if (runProgram)
    return "--run cannot start MPI processes: build an executable (-o "
           "prog) and run it with 'mpiexec -n " +
           std::to_string(numRanks) + " ./prog'";
  // Its executable exports no C entry points of Mat functions
  // (docs/distributed.md): nothing a header or signatures would describe.
  if (native.kind == matc::NativeKind::SharedLibrary ||
      native.kind == matc::NativeKind::Header ||
      emitAction == Emit::Signatures)
    return std::string("--ranks builds an MPI program: an executable, an "
                       "object (-c) or an --emit stage, not a shared library, "
                       "a C header or --emit=signatures");
  return std::nullopt;
}

/// `--threads N`: libLLVM already registers a global option named
/// "threads", so matc takes this one out of argv before cl sees it.
static unsigned numThreads = 0;
static bool threadsGiven = false;
static cl::extrahelp threadsHelp(
    "  --threads <n>            - Threads for the optimized code (default 0: "
    "all cores)\n");

/// Removes `--threads N` / `--threads=N` (or `-threads`) from `args` into
/// numThreads. Returns an error message for a bad value.
static std::optional<std::string>
extractThreadsOption(llvm::SmallVectorImpl<const char *> &args) {
  for (size_t i = 1; i < args.size(); ++i) {
    llvm::StringRef arg = args[i];
    if (!arg.consume_front("--") && !arg.consume_front("-"))
      continue;
    if (!arg.consume_front("threads"))
      continue;
    llvm::StringRef value;
    size_t taken = 1;
    if (arg.consume_front("=")) {
      value = arg;
    } else if (arg.empty()) {
      if (i + 1 < args.size()) {
        value = args[i + 1];
        taken = 2;
      }
    } else {
      continue;
    }
    // Last on the line, or `--threads=`.
    if (value.empty())
      return matc::missingValue("--threads");
    if (value.getAsInteger(10, numThreads) || numThreads > 1024)
      return "--threads: '" + value.str() +
             "' is not a thread count (0 to 1024)";
    threadsGiven = true;
    args.erase(args.begin() + i, args.begin() + i + taken);
    --i;
  }
  return std::nullopt;
}

/// `--stats`: libLLVM registers a global "stats" option too, so matc takes
/// this one out of argv before cl sees it, like --threads.
static bool showStats = false;
static cl::extrahelp statsHelp(
    "  --stats                  - Print to stderr the flop count of the "
    "Matrix-level program before\n"
    "                             and after the Matrix-level rewrites of the "
    "-O level;\n"
    "                             with --ranks, the bytes each collective "
    "sends\n");

/// Removes every `--stats` (or `-stats`) from `args` into showStats.
static void extractStatsOption(llvm::SmallVectorImpl<const char *> &args) {
  auto isStats = [](const char *arg) {
    return llvm::StringRef(arg) == "--stats" ||
           llvm::StringRef(arg) == "-stats";
  };
  auto it = std::remove_if(args.begin() + 1, args.end(), isStats);
  showStats = it != args.end();
  args.erase(it, args.end());
}

using matc::fail;

/// Writes whatever `print` produces to the -o file (stdout by default).
static int writeOutput(llvm::function_ref<void(llvm::raw_ostream &)> print) {
  return matc::writeOutputFile(outputFilename, llvm::sys::fs::OF_Text, print);
}

/// The pipeline stage that produces the IR `emit` asks for.
static matrix::LoweringStage stageFor(Emit emit) {
  switch (emit) {
  case Emit::Matrix:
    return matrix::LoweringStage::Matrix;
  case Emit::Linalg:
    return matrix::LoweringStage::Linalg;
  case Emit::Affine:
    return matrix::LoweringStage::Affine;
  default:
    return matrix::LoweringStage::LLVM;
  }
}

/// `--stats`: prints to stderr the flop count (lib/Transforms/FlopCount.cpp)
/// of `module` as MLIRGen built it and after the Matrix stage of the
/// pipeline (the Matrix-level rewrites `options` enable), run on a copy.
static int printFlopStats(ModuleOp module,
                          const matrix::LoweringOptions &options) {
  OwningOpRef<ModuleOp> rewritten = module.clone();
  PassManager pm(module.getContext());
  matrix::addLoweringStage(pm, matrix::LoweringStage::Matrix, options);
  if (failed(pm.run(*rewritten)))
    return fail("internal compiler error: the Matrix stage failed");
  matrix::FlopCount before = matrix::countFlops(module);
  matrix::FlopCount after = matrix::countFlops(*rewritten);
  llvm::raw_ostream &os = llvm::errs();
  os << "matc: stats: before Matrix rewrites: ";
  matrix::printFlopCount(os, before);
  os << "\nmatc: stats: after Matrix rewrites (-O" << options.optLevel
     << "): ";
  matrix::printFlopCount(os, after);
  if (after.total() != 0 && before.total() != after.total())
    os << llvm::format(" (%.2fx fewer flops)",
                       double(before.total()) / double(after.total()));
  os << "\n";
  return 0;
}

/// `--stats --ranks N`: prints to stderr the bytes each collective of the
/// partitioned program sends (MatrixDialect/Distributed/CommunicationCost.h),
/// from the Linalg stage run on a copy of `module`.
static int printCommunicationStats(ModuleOp module,
                                   const matrix::LoweringOptions &options) {
  llvm::raw_ostream &os = llvm::errs();
  OwningOpRef<ModuleOp> partitioned = module.clone();
  PassManager linalg(module.getContext());
  matrix::buildMatrixLoweringPipeline(linalg, matrix::LoweringStage::Linalg,
                                      options);
  if (failed(linalg.run(*partitioned)))
    return fail("internal compiler error: the Linalg stage failed");
  matrix::printCommunicationCost(
      os, matrix::estimateCommunication(*partitioned, options.ranks),
      options.ranks);
  return 0;
}

/// The largest source matc reads, in bytes: 2,000 times a program of 1000
/// lines, and a bound on what reading an endless input (a device, a pipe)
/// takes before it is refused.
static constexpr size_t kMaxSourceBytes = size_t(64) << 20;

/// Reads the source `name` ("-": stdin) whole, as text. Fails with the
/// system's message when it cannot be opened or read (a directory, a
/// missing file), or when it holds more than kMaxSourceBytes bytes.
static llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readSource(StringRef name) {
  llvm::Expected<llvm::sys::fs::file_t> file =
      name == "-" ? llvm::sys::fs::convertFDToNativeFile(0)
                  : llvm::sys::fs::openNativeFileForRead(
                        name, llvm::sys::fs::OF_Text);
  if (!file)
    return file.takeError();
  llvm::scope_exit close([&] {
    if (name != "-")
      llvm::sys::fs::closeFile(*file);
  });
  llvm::SmallString<0> text;
  size_t chunk = 1 << 16;
  while (true) {
    size_t size = text.size();
    text.resize_for_overwrite(size + chunk);
    llvm::Expected<size_t> read = llvm::sys::fs::readNativeFile(
        *file, llvm::MutableArrayRef<char>(text.data() + size, chunk));
    if (!read)
      return read.takeError();
    text.truncate(size + *read);
    if (*read == 0)
      break;
    if (text.size() > kMaxSourceBytes)
      return llvm::createStringError("a source file is at most " +
                                     std::to_string(kMaxSourceBytes >> 20) +
                                     " MiB");
    chunk = std::min<size_t>(chunk * 2, size_t(16) << 20);
  }
  return llvm::MemoryBuffer::getMemBufferCopy(text, name);
}

/// The C library's allocation functions, for the program the JIT runs.
/// matc itself allocates with jemalloc (matc/CMakeLists.txt), and the JIT
/// would otherwise resolve the program's `malloc` to it. The program must
/// allocate as its executable does, through the C library: jemalloc maps
/// memory with MAP_NORESERVE, so that an allocation larger than the machine
/// (80 GB on 24) succeeds and the process is killed when it touches the
/// pages, where glibc's malloc returns NULL and the program reports "out of
/// memory" (test/matc/out-of-memory.mat). The program frees only what it
/// allocated, and OpenMP's runtime frees only its own memory, so no pointer
/// crosses from one allocator to the other. Empty when matc uses the C
/// library's malloc itself.
static llvm::orc::SymbolMap
getCLibraryAllocator(llvm::orc::MangleAndInterner mangle) {
  llvm::orc::SymbolMap symbols;
#ifdef MATC_JEMALLOC
  void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  if (!libc)
    return symbols;
  for (const char *name : {"malloc", "free", "calloc", "realloc",
                           "aligned_alloc", "posix_memalign"})
    if (void *address = dlsym(libc, name))
      symbols[mangle(name)] = {llvm::orc::ExecutorAddr::fromPtr(address),
                               llvm::JITSymbolFlags::Exported};
  dlclose(libc);
#else
  (void)mangle;
#endif
  return symbols;
}

namespace {
/// While the program `--run` runs, its faults are reported in a sentence,
/// not by LLVM's crash handler (a stack dump asking for a bug report, which
/// InitLLVM installs for matc's own crashes). A fault from 64 KiB below
/// the stack pointer to 64 MiB above it is in the frames of the faulting
/// thread, which the kernel would have mapped had the stack room for them:
/// the end of the thread's stack (a product function's frame holds the
/// packed blocks, megabytes, and its prologue moves the stack pointer below
/// them at once); that is `error: out of stack` and exit status 1, as
/// `error: out of memory` is for the heap. Any other fault is a bug in
/// matc: a sentence saying so, then the signal's own death (status 128 +
/// signal). The handler runs on an
/// alternate stack (the faulting one has no room), which the main thread
/// has; an OpenMP worker that runs out of its OMP_STACKSIZE dies of the
/// signal without a word. Linux on x86-64 only (the stack pointer is read
/// from the signal's context), which is every host matc runs on.
class ProgramFaultReport {
public:
  ProgramFaultReport();
  ~ProgramFaultReport();

private:
  static void report(int signal, siginfo_t *info, void *context);
#if defined(__linux__) && defined(__x86_64__)
  static constexpr int kSignals[] = {SIGSEGV, SIGBUS};
  struct sigaction previous[2];
  stack_t previousStack;
  bool alternateStack = false;
#endif
};
} // namespace

#if defined(__linux__) && defined(__x86_64__)
ProgramFaultReport::ProgramFaultReport() {
  static char stack[1 << 16];
  stack_t alternate = {};
  alternate.ss_sp = stack;
  alternate.ss_size = sizeof(stack);
  alternateStack = sigaltstack(&alternate, &previousStack) == 0;
  struct sigaction action = {};
  action.sa_sigaction = report;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (auto [i, signal] : llvm::enumerate(kSignals))
    sigaction(signal, &action, &previous[i]);
}

ProgramFaultReport::~ProgramFaultReport() {
  for (auto [i, signal] : llvm::enumerate(kSignals))
    sigaction(signal, &previous[i], nullptr);
  if (alternateStack)
    sigaltstack(&previousStack, nullptr);
}

void ProgramFaultReport::report(int signal, siginfo_t *info, void *context) {
  auto address = reinterpret_cast<uintptr_t>(info->si_addr);
  auto stackPointer = static_cast<uintptr_t>(
      static_cast<ucontext_t *>(context)->uc_mcontext.gregs[REG_RSP]);
  bool inFrames = address >= stackPointer
                      ? address - stackPointer < (uintptr_t(64) << 20)
                      : stackPointer - address < (uintptr_t(64) << 10);
  // Only async-signal-safe calls here: write and _exit, signal and raise.
  auto say = [](const char *text) {
    ssize_t ignored = ::write(2, text, std::strlen(text));
    (void)ignored;
  };
  if (signal == SIGSEGV && inFrames) {
    say("error: out of stack: a thread of the program ran past the end of "
        "its stack (a large matrix product keeps its packed blocks there: "
        "'matc --print-target' shows how much; raise 'ulimit -s', or "
        "OMP_STACKSIZE for OpenMP's threads)\n");
    ::_exit(1);
  }
  say(signal == SIGSEGV
          ? "matc: error: the program crashed (segmentation fault); this is "
            "a bug in matc, please report it with the program\n"
          : "matc: error: the program crashed (bus error); this is a bug in "
            "matc, please report it with the program\n");
  std::signal(signal, SIG_DFL);
  std::raise(signal);
}
#else
ProgramFaultReport::ProgramFaultReport() {}
ProgramFaultReport::~ProgramFaultReport() {}
#endif

/// At exit: a write to standard output that failed and that nothing
/// reported (LLVM's option parser prints --help and --version to
/// llvm::outs() and exits) is matc's error, exit status 1, instead of
/// raw_fd_ostream's "LLVM ERROR: IO failure on output stream" from its
/// destructor (a new-user finding: `matc --version > /dev/full`).
static void reportUnwrittenStandardOutput() {
  llvm::raw_fd_ostream &out = llvm::outs();
  out.flush();
  if (std::error_code error = out.error()) {
    out.clear_error();
    matc::fail("cannot write standard output: " + error.message());
    std::_Exit(1);
  }
}

/// JIT-compiles `module` (in the LLVM dialect) and calls its `main`.
static int runJit(ModuleOp module) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto optimize = [](llvm::Module *module) {
    return matrix::optimizeModule(*module, optLevel, /*machine=*/nullptr);
  };
  ExecutionEngineOptions options;
  options.transformer = optimize;
  // The perf listener (on by default) writes a jitdump file per run under
  // $JITDUMPDIR or /tmp/.debug/jit and may take over a closed stdout's fd.
  options.enablePerfNotificationListener = false;
  // From -O1 up the outer tiles run on OpenMP threads (omp.parallel), which
  // call the OpenMP runtime: load libomp then.
  SmallVector<StringRef, 1> sharedLibs;
#ifdef MATC_LLVM_LIBRARY_DIR
  bool usesOpenMP = module
                        .walk([](Operation *op) {
                          return op->getName().getDialectNamespace() == "omp"
                                     ? WalkResult::interrupt()
                                     : WalkResult::advance();
                        })
                        .wasInterrupted();
  if (usesOpenMP)
    sharedLibs.push_back(MATC_LLVM_LIBRARY_DIR "/libomp.so");
#endif
  // OpenMP's workers get 16 MiB of stack unless OMP_STACKSIZE (or
  // KMP_STACKSIZE) says otherwise: libomp's own default shrinks to a small
  // `ulimit -s`, and a worker that runs out of stack dies without a word
  // (ProgramFaultReport). The main thread's stack is the shell's to set.
  if (!std::getenv("OMP_STACKSIZE") && !std::getenv("KMP_STACKSIZE"))
    ::setenv("OMP_STACKSIZE", "16M", /*overwrite=*/0);
  options.sharedLibPaths = sharedLibs;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return fail("JIT compilation failed: " + toString(engine.takeError()));
  (*engine)->registerSymbols(getCLibraryAllocator);
  auto entry = (*engine)->lookup("main");
  if (!entry)
    return fail("JIT: no 'main': " + toString(entry.takeError()));
  {
    ProgramFaultReport faults;
    reinterpret_cast<void (*)()>(*entry)();
  }
  // The program prints with the C library's stdio: a full disk or a closed
  // pipe shows up only when its buffer is flushed.
  if (std::fflush(stdout) != 0 || std::ferror(stdout))
    return fail(matrix::kLostOutputText);
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // llvm::outs() first, so that the handler runs before its destructor.
  (void)llvm::outs();
  std::atexit(reportUnwrittenStandardOutput);
  // MLIR's own inspection options (--mlir-print-debuginfo,
  // --mlir-print-ir-after-all, --mlir-timing, ...), listed by --help-hidden.
  // The passes of the pipeline first, so that --mlir-print-ir-before=PASS
  // and the like know their names.
  matrix::registerMatrixPipelines();
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions({&matcCategory, &matc::getNativeOptionCategory()});
  // MLIR's options stay listed by --help-hidden (and near a misspelling).
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (name.starts_with("mlir-"))
      option->setHiddenFlag(cl::Hidden);
  // `matc --version`: matc's own version, then LLVM's.
  cl::SetVersionPrinter([](llvm::raw_ostream &os) {
    os << "matc " MATC_VERSION " (the Mat compiler)\n";
    cl::PrintVersionMessage();
  });
  llvm::SmallVector<const char *> args(argv, argv + argc);
  if (std::optional<std::string> error = extractThreadsOption(args))
    return fail(*error);
  extractStatsOption(args);
  // Every error of the command line in matc's words (CommandLine.h).
  bool parsed = matc::parseCommandLine(
      args,
      "matc: the Mat compiler (Mat -> Matrix dialect -> Linalg -> Affine -> "
      "LLVM)\n\n"
      "  matc prog.mat --run            run the program (JIT)\n"
      "  matc prog.mat --emit=llvm      print the LLVM dialect\n"
      "  matc prog.mat -o prog          write an executable\n"
      "  matc prog.mat -c -o prog.o     write an object; --emit-header -o "
      "prog.h\n"
      "                                 declares its C entry points\n",
      /*ownOptionNames=*/{"threads", "stats"},
      /*valueLists=*/{{emitAction, emitAction.getParser()}});
  if (!parsed)
    return 1;
  if (!verifyEach.getNumOccurrences())
    if (const char *value = std::getenv("MATC_VERIFY_EACH"))
      verifyEach = !llvm::is_contained({"", "0", "false", "off", "no"},
                                       StringRef(value).lower());

  if (printTarget) {
    // It prints and exits: an input or an output given too would be
    // ignored (a new-user finding: `--print-target missing.mat` said
    // nothing of the file).
    llvm::SmallVector<StringRef> outputs;
    if (runProgram)
      outputs.push_back("--run");
    if (emitAction != Emit::None)
      outputs.push_back("--emit");
    outputs.append(matc::getOutputFlagsGiven());
    if (outputFilename.getNumOccurrences())
      outputs.push_back("-o");
    if (!outputs.empty())
      return fail("--print-target prints the target and exits: it cannot be "
                  "combined with " + outputs.front());
    if (inputFilename.getNumOccurrences())
      return fail("--print-target prints the target and exits: it takes no "
                  "input file (given '" + inputFilename + "')");
    llvm::Expected<matrix::TargetDescription> target =
        matc::resolveTargetOptions();
    if (!target)
      return fail(toString(target.takeError()));
    // The tiles depend on the threads the code runs on (--threads; 0: the
    // target's cores), as in the pipeline (LoweringOptions).
    unsigned threads = target->getThreads(numThreads);
    matrix::CodegenSizes sizes = matrix::computeCodegenSizes(
        *target, matrix::kDefaultTileStackBytes, threads);
    // --matmul-f32/--matmul-f64 replace the model's tiles, as in the
    // pipeline (a new-user finding: they were ignored here, bad ones too).
    matrix::LoweringOptions tileOptions;
    if (llvm::Error error = matc::applyTileOptions(tileOptions))
      return fail(toString(std::move(error)));
    if (tileOptions.matmulF32)
      sizes.f32 = *tileOptions.matmulF32;
    if (tileOptions.matmulF64)
      sizes.f64 = *tileOptions.matmulF64;
    llvm::outs() << "matc target\n";
    target->print(llvm::outs());
    llvm::outs() << "matmul f32 tiles (mr,nr,kc,mc,nc): " << sizes.f32.str()
                 << " ("
                 << sizes.f32.getStackBound(4, matrix::kDefaultTileStackBytes) /
                        1024
                 << " KiB of stack per thread, " << threads
                 << (threads == 1 ? " thread)\n" : " threads)\n")
                 << "matmul f64 tiles (mr,nr,kc,mc,nc): " << sizes.f64.str()
                 << " ("
                 << sizes.f64.getStackBound(8, matrix::kDefaultTileStackBytes) /
                        1024
                 << " KiB of stack per thread, " << threads
                 << (threads == 1 ? " thread)\n" : " threads)\n")
                 << "elementwise vectors: f32 " << sizes.elementwiseF32
                 << ", f64 " << sizes.elementwiseF64 << " elements\n"
                 << "products unpacked up to: " << sizes.unpackedMaxElements
                 << " elements of A and B\n";
    return 0;
  }
  // The input is optional for --print-target only. An empty name given
  // (`matc ''`) is a file that cannot be read, not a missing input.
  if (inputFilename.empty() && inputFilename.getNumOccurrences())
    return fail("cannot read '': a file name cannot be empty");
  if (inputFilename.empty())
    return fail("no input file: give a .mat file, or - for standard input "
                "(see matc --help)");
  if (emitAction != Emit::None && runProgram)
    return fail("--run and --emit cannot be combined");
  llvm::Expected<matc::NativeRequest> native = matc::resolveNativeRequest(
      emitAction != Emit::None && emitAction != Emit::Asm,
      emitAction == Emit::Asm, runProgram,
      outputFilename.getNumOccurrences() > 0, outputFilename, inputFilename,
      optLevel);
  if (!native)
    return fail(toString(native.takeError()));
  if (std::optional<std::string> error = checkRanksOptions(*native))
    return fail(*error);
  // As --target-cpu: the entry points of the header and the signatures are
  // the same for every thread count (a new-user finding: it was silently
  // ignored).
  if (threadsGiven && (native->kind == matc::NativeKind::Header ||
                       emitAction == Emit::Signatures))
    return fail(std::string("--threads applies only to compiled code; the ") +
                (emitAction == Emit::Signatures
                     ? "signatures of --emit=signatures are"
                     : "C header of --emit-header is") +
                " the same for every thread count");
  // Never write over the source: `-o prog.mat` is a slip, not a request.
  if (inputFilename != "-") {
    StringRef output = native->kind == matc::NativeKind::None ||
                               native->kind == matc::NativeKind::Header
                           ? StringRef(outputFilename)
                           : StringRef(native->output);
    if (output != "-" && !runProgram && llvm::sys::fs::equivalent(inputFilename, output))
      return fail("output file '" + output + "' is the input file");
  }

  llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>> buffer =
      readSource(inputFilename);
  if (!buffer)
    return fail((inputFilename == "-"
                     ? std::string("cannot read standard input")
                     : "cannot read '" + inputFilename + "'") +
                ": " + llvm::toString(buffer.takeError()));
  std::string bufferName =
      inputFilename == "-" ? std::string("<stdin>") : inputFilename.getValue();

  DialectRegistry registry;
  // Only what the pipelines use (Registration.cpp), not all of MLIR.
  matrix::registerPipelineDialects(registry);
  registry.insert<matrix::MatrixDialect>();
  matrix::registerMPIMemoryEffectModels(registry);
  MLIRContext context(registry);
  // An error a pass reports on the user's program is said on its source,
  // without the IR of the op appended ("see current operation"), unless
  // --mlir-print-op-on-diagnostic asks for it.
  auto printOp = cl::getRegisteredOptions().find("mlir-print-op-on-diagnostic");
  if (printOp == cl::getRegisteredOptions().end() ||
      !printOp->second->getNumOccurrences())
    context.printOpOnDiagnostic(false);
  // Parser, MLIRGen, the error cap; prints every error on the source.
  mat::FrontEnd frontEnd(context, (*buffer)->getBuffer(), bufferName);
  if (emitAction == Emit::AST) {
    // As compilers say of an argument a compilation does not use.
    if (showStats)
      llvm::errs() << "matc: warning: --stats is unused with --emit=ast (it "
                      "counts the flops of the Matrix dialect)\n";
    const mat::ModuleAST &ast = frontEnd.parse();
    if (frontEnd.hadError())
      return 1;
    return writeOutput([&](llvm::raw_ostream &os) { mat::dumpAST(ast, os); });
  }
  OwningOpRef<ModuleOp> module = frontEnd.generate();
  if (!module)
    return 1;
  // --stats, for every output past the syntax tree (the header and the
  // signatures too).
  matrix::LoweringOptions lowering;
  lowering.optLevel = optLevel;
  lowering.numThreads = numThreads;
  lowering.target = native->target;
  if (llvm::Error error = matc::applyTileOptions(lowering))
    return fail(toString(std::move(error)));
  lowering.ranks = numRanks;
  lowering.shardMinElements = shardMinElements;
  if (showStats && printFlopStats(*module, lowering) != 0)
    return 1;
  if (showStats && numRanks > 1 &&
      printCommunicationStats(*module, lowering) != 0)
    return 1;
  // Outputs with C entry points: two functions of one C symbol are the
  // user's error, said on the source before any pass runs.
  if (native->kind != matc::NativeKind::None ||
      emitAction == Emit::Signatures)
    if (failed(matrix::verifyCSymbols(*module)))
      return 1;
  // The C header and the signatures: one description, two printers.
  if (native->kind == matc::NativeKind::Header ||
      emitAction == Emit::Signatures) {
    PassManager prepare(&context);
    prepare.addPass(matrix::createMatrixPrepareCInterface());
    std::string header;
    llvm::raw_string_ostream headerStream(header);
    auto print = emitAction == Emit::Signatures ? matrix::emitCSignatures
                                                : matrix::emitCHeader;
    if (failed(prepare.run(*module)) ||
        failed(print(*module, headerStream, bufferName)))
      return fail("internal compiler error: cannot describe the C entry "
                  "points");
    return writeOutput([&](llvm::raw_ostream &os) { os << header; });
  }
  bool nativeCode = native->kind != matc::NativeKind::None;

  PassManager pm(&context);
  pm.enableVerifier(verifyEach);
  if (failed(applyPassManagerCLOptions(pm)))
    return fail("bad pass manager options");
  // --mlir-timing: the passes, then what native outputs do after them.
  DefaultTimingManager timing;
  applyDefaultTimingManagerCLOptions(timing);
  TimingScope rootTiming = timing.getRootScope();
  pm.enableTiming(rootTiming);
  // Native code gets C entry points (MatrixDialect/Conversion/CInterface.h)
  // and is lowered on several threads.
  if (nativeCode) {
    pm.addPass(matrix::createMatrixPrepareCInterface());
    matc::applyCompileThreads(lowering);
  }
  matrix::buildMatrixLoweringPipeline(pm, stageFor(emitAction), lowering);
  if (nativeCode)
    pm.addPass(matrix::createMatrixExportCInterface(
        {/*executable=*/native->kind == matc::NativeKind::Executable}));
  if (failed(pm.run(*module)))
    return fail("internal compiler error: the lowering pipeline failed");
  if (!verifyEach && failed(verify(*module)))
    return fail("internal compiler error: the lowering pipeline produced "
                "invalid IR (--verify-each finds the pass)");
  if (nativeCode)
    return matc::writeNativeOutput(*module, *native, optLevel, rootTiming);

  switch (emitAction) {
  case Emit::Matrix:
  case Emit::Linalg:
  case Emit::Affine:
  case Emit::LLVMDialect:
    return writeOutput([&](llvm::raw_ostream &os) { module->print(os); });
  case Emit::LLVMIR: {
    llvm::LLVMContext llvmContext;
    auto llvmModule = translateModuleToLLVMIR(*module, llvmContext);
    if (!llvmModule)
      return fail("internal compiler error: translation to LLVM IR failed");
    if (llvm::Error error =
            matc::setModuleTarget(*llvmModule, *native))
      return fail(toString(std::move(error)));
    return writeOutput([&](llvm::raw_ostream &os) { llvmModule->print(os, nullptr); });
  }
  case Emit::AST:
  case Emit::None:
  case Emit::Asm:
  case Emit::Signatures:
    break;
  }
  return runJit(*module);
}
