//===- matc.cpp - The Mat compiler driver ---------------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Reads a Mat file, then either prints one stage of its compilation
// (`--emit=ast|mlir|linalg|affine|llvm|llvmir`) or JIT-compiles it with
// MLIR's ExecutionEngine and runs it (`--run`).
//
// Exit status: 0 on success; 1 when the program has errors (syntax, names,
// types, shapes), the input cannot be read, the output cannot be written,
// or the command line is wrong.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Dialect.h"
#include "MatrixDialect/MLIRGen/MLIRGen.h"
#include "MatrixDialect/Pipelines.h"
#include "parser/AST.h"
#include "parser/Parser.h"

#include "mlir/ExecutionEngine/ExecutionEngine.h"
#include "mlir/ExecutionEngine/OptUtils.h"
#include "mlir/IR/AsmState.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Pass/PassManager.h"
#include "mlir/Support/Timing.h"
#include "mlir/Target/LLVMIR/Dialect/All.h"
#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/InitLLVM.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"

using namespace mlir;
namespace cl = llvm::cl;

namespace {
enum class Emit { None, AST, Matrix, Linalg, Affine, LLVMDialect, LLVMIR };
} // namespace

static cl::OptionCategory matcCategory("matc options");

static cl::opt<std::string> inputFilename(cl::Positional,
                                          cl::desc("<input .mat file, or - for stdin>"),
                                          cl::init("-"),
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
                   "affine loops on memrefs (after bufferization)"),
        clEnumValN(Emit::LLVMDialect, "llvm",
                   "the LLVM dialect (input of mlir-runner)"),
        clEnumValN(Emit::LLVMIR, "llvmir", "LLVM IR")),
    cl::cat(matcCategory));

static cl::opt<bool> runProgram("run",
                                cl::desc("JIT-compile the program and run it; "
                                         "its output goes to stdout"),
                                cl::cat(matcCategory));

static cl::opt<unsigned>
    optLevel("O", cl::Prefix, cl::init(2),
             cl::desc("Optimization level: -O0 is the plain reference "
                      "lowering, -O1..-O3 optimize (default -O2)"),
             cl::value_desc("level"), cl::cat(matcCategory));

/// `--threads N`: libLLVM already registers a global option named
/// "threads", so matc takes this one out of argv before cl sees it.
static unsigned numThreads = 0;
static cl::extrahelp threadsHelp(
    "  --threads <n>     Threads for the optimized code (default 0: all "
    "cores)\n");

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
      if (i + 1 == args.size())
        return std::string("--threads needs a value");
      value = args[i + 1];
      taken = 2;
    } else {
      continue;
    }
    if (value.getAsInteger(10, numThreads) || numThreads > 1024)
      return "--threads: '" + value.str() +
             "' is not a thread count (0 to 1024)";
    args.erase(args.begin() + i, args.begin() + i + taken);
    --i;
  }
  return std::nullopt;
}

/// Prints `matc: error: MESSAGE` (for errors without a source location).
static int fail(const llvm::Twine &message) {
  llvm::WithColor::error(llvm::errs(), "matc") << message << "\n";
  return 1;
}

/// Writes whatever `print` produces to the -o file (stdout by default).
static int writeOutput(llvm::function_ref<void(llvm::raw_ostream &)> print) {
  std::error_code ec;
  llvm::ToolOutputFile out(outputFilename, ec, llvm::sys::fs::OF_Text);
  if (ec)
    return fail("cannot write '" + outputFilename + "': " + ec.message());
  print(out.os());
  out.os().flush();
  if (out.os().has_error())
    return fail("cannot write '" + outputFilename + "'");
  out.keep();
  return 0;
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

/// JIT-compiles `module` (in the LLVM dialect) and calls its `main`.
static int runJit(ModuleOp module) {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto optimize = makeOptimizingTransformer(optLevel, /*sizeLevel=*/0,
                                            /*targetMachine=*/nullptr);
  ExecutionEngineOptions options;
  options.transformer = optimize;
  auto engine = ExecutionEngine::create(module, options);
  if (!engine)
    return fail("JIT compilation failed: " + toString(engine.takeError()));
  auto entry = (*engine)->lookup("main");
  if (!entry)
    return fail("JIT: no 'main': " + toString(entry.takeError()));
  reinterpret_cast<void (*)()>(*entry)();
  return 0;
}

int main(int argc, char **argv) {
  llvm::InitLLVM initLLVM(argc, argv);
  // MLIR's own inspection options (--mlir-print-debuginfo,
  // --mlir-print-ir-after-all, --mlir-timing, ...), listed by --help-hidden.
  registerAsmPrinterCLOptions();
  registerMLIRContextCLOptions();
  registerPassManagerCLOptions();
  registerDefaultTimingManagerCLOptions();
  cl::HideUnrelatedOptions(matcCategory);
  llvm::SmallVector<const char *> args(argv, argv + argc);
  if (std::optional<std::string> error = extractThreadsOption(args))
    return fail(*error);
  cl::ParseCommandLineOptions(
      args.size(), args.data(),
      "matc: the Mat compiler (Mat -> Matrix dialect -> Linalg -> Affine -> "
      "LLVM)\n\n"
      "  matc prog.mat --run            run the program (JIT)\n"
      "  matc prog.mat --emit=llvm      print the LLVM dialect\n");

  if (emitAction == Emit::None && !runProgram)
    return fail("nothing to do: give --run or --emit=<stage> (see --help)");
  if (emitAction != Emit::None && runProgram)
    return fail("--run and --emit cannot be combined");
  if (optLevel > 3)
    return fail("-O" + llvm::Twine(optLevel.getValue()) +
                ": the optimization level must be 0, 1, 2 or 3");

  auto buffer = llvm::MemoryBuffer::getFileOrSTDIN(inputFilename,
                                                   /*IsText=*/true);
  if (std::error_code ec = buffer.getError())
    return fail("cannot read '" + inputFilename + "': " + ec.message());
  std::string bufferName =
      inputFilename == "-" ? std::string("<stdin>") : inputFilename.getValue();
  llvm::SourceMgr sourceMgr;
  unsigned bufferId = sourceMgr.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy((*buffer)->getBuffer(), bufferName),
      llvm::SMLoc());

  mat::Diagnostics diags(sourceMgr);
  std::unique_ptr<mat::ModuleAST> ast = mat::parseModule(diags, bufferId);
  if (!ast)
    return 1;
  if (emitAction == Emit::AST)
    return writeOutput(
        [&](llvm::raw_ostream &os) { mat::dumpAST(*ast, os); });

  DialectRegistry registry;
  registerAllDialects(registry);
  registerAllExtensions(registry);
  registerAllToLLVMIRTranslations(registry);
  registry.insert<matrix::MatrixDialect>();
  MLIRContext context(registry);
  SourceMgrDiagnosticHandler diagHandler(sourceMgr, &context);

  OwningOpRef<ModuleOp> module = mat::mlirGen(context, *ast);
  if (!module)
    return 1;

  PassManager pm(&context);
  if (failed(applyPassManagerCLOptions(pm)))
    return fail("bad pass manager options");
  applyDefaultTimingPassManagerCLOptions(pm);
  matrix::LoweringOptions lowering;
  lowering.optLevel = optLevel;
  lowering.numThreads = numThreads;
  matrix::buildMatrixLoweringPipeline(pm, stageFor(emitAction), lowering);
  if (failed(pm.run(*module)))
    return fail("internal compiler error: the lowering pipeline failed");

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
    return writeOutput([&](llvm::raw_ostream &os) { llvmModule->print(os, nullptr); });
  }
  case Emit::AST:
  case Emit::None:
    break;
  }
  return runJit(*module);
}
