//===- NativeOutput.cpp - Executables, objects, libraries, headers --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Code generation follows llc: a TargetMachine from the target registry,
// the module's triple and data layout set from it, the LLVM optimization
// pipeline of the -O level (mlir::matrix::optimizeModule, with the
// target's cost model), then `addPassesToEmitFile` on a legacy pass manager.
// Executables and shared libraries are linked by `cc`, found on PATH, from
// a temporary object.
//
//===----------------------------------------------------------------------===//

#include "NativeOutput.h"

#include "CommandLine.h"
#include "OutputFile.h"

#include "MatrixDialect/Target/MatmulModel.h"
#include "MatrixDialect/Target/ParallelCodegen.h"
#include "MatrixDialect/Target/Target.h"

#include "mlir/Target/LLVMIR/Export.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FileUtilities.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/Threading.h"
#include "llvm/Support/ToolOutputFile.h"
#include "llvm/Support/WithColor.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

namespace cl = llvm::cl;
using llvm::StringRef;
using matc::fail;
using matc::writeOutputFile;

llvm::cl::OptionCategory &matc::getNativeOptionCategory() {
  static cl::OptionCategory category(
      "matc native outputs",
      "Without --run or --emit, matc writes an executable (-o FILE, "
      "default a.out)");
  return category;
}

static cl::opt<bool>
    compileOnly("c",
                cl::desc("Write a relocatable object (position independent; "
                         "default file <input stem>.o, a.o for standard input) and do not link"),
                cl::cat(matc::getNativeOptionCategory()));

static cl::opt<bool>
    sharedLibrary("shared",
                  cl::desc("Write a shared library (default file a.out)"),
                  cl::cat(matc::getNativeOptionCategory()));

static cl::opt<bool> emitHeader(
    "emit-header",
    cl::desc("Write the C header declaring the C entry point of every "
             "function (to stdout, or -o FILE)"),
    cl::cat(matc::getNativeOptionCategory()));

static cl::opt<std::string>
    targetTriple("target-triple",
                 cl::desc("Target triple of the native code (default: the "
                          "host's)"),
                 cl::value_desc("triple"), cl::init(""),
                 cl::cat(matc::getNativeOptionCategory()));

static cl::opt<std::string> targetCPU(
    "target-cpu",
    cl::desc("CPU the native code is tuned for and may use every feature of "
             "(default 'host': the CPU matc runs on); its vector registers "
             "also pick the tile sizes --emit shows"),
    cl::value_desc("cpu"), cl::init("host"),
    cl::cat(matc::getNativeOptionCategory()));

static cl::opt<std::string> targetL1D(
    "target-l1d",
    cl::desc("L1 data cache size for the tile sizes, e.g. 48K (default: the "
             "CPU's; the host's from sysfs)"),
    cl::value_desc("size"), cl::init(""),
    cl::cat(matc::getNativeOptionCategory()));
static cl::opt<std::string> targetL2(
    "target-l2", cl::desc("L2 cache size for the tile sizes, e.g. 2M"),
    cl::value_desc("size"), cl::init(""),
    cl::cat(matc::getNativeOptionCategory()));
static cl::opt<std::string> targetL3(
    "target-l3", cl::desc("L3 cache size for the tile sizes, e.g. 32M"),
    cl::value_desc("size"), cl::init(""),
    cl::cat(matc::getNativeOptionCategory()));

static cl::opt<unsigned> compileThreads(
    "compile-threads",
    cl::desc("Threads native code is lowered, optimized and compiled on, a "
             "part of the functions each (default 0: all cores; the JIT of "
             "--run uses one, and so does LLVM for --emit=asm)"),
    cl::value_desc("n"), cl::init(0),
    cl::cat(matc::getNativeOptionCategory()));
static cl::opt<int64_t> splitMinOps(
    "split-min-ops",
    cl::desc("Fewest MLIR ops of a program lowered in parts, one per compile "
             "thread (matrix-split-module; tests set 0)"),
    cl::value_desc("n"), cl::init(4000), cl::Hidden,
    cl::cat(matc::getNativeOptionCategory()));

static cl::opt<std::string> matmulF32(
    "matmul-f32",
    cl::desc("Tiles of f32 products replacing the model's: mr,nr,kc,mc,nc "
             "(see --print-target)"),
    cl::value_desc("sizes"), cl::init(""), cl::Hidden,
    cl::cat(matc::getNativeOptionCategory()));
static cl::opt<std::string> matmulF64(
    "matmul-f64",
    cl::desc("Tiles of f64 products replacing the model's: mr,nr,kc,mc,nc"),
    cl::value_desc("sizes"), cl::init(""), cl::Hidden,
    cl::cat(matc::getNativeOptionCategory()));

static llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

/// An error if `option` (written `name`) was given an empty value
/// (`--target-cpu=`): that is a missing value, not the default (new-user
/// findings).
static llvm::Error checkNotEmpty(const cl::opt<std::string> &option,
                                 StringRef name) {
  if (option.empty() && option.getNumOccurrences())
    return makeError(matc::missingValue(name));
  return llvm::Error::success();
}

llvm::Expected<mlir::matrix::TargetDescription> matc::resolveTargetOptions() {
  if (llvm::Error error = checkNotEmpty(targetTriple, "--target-triple"))
    return std::move(error);
  if (llvm::Error error = checkNotEmpty(targetCPU, "--target-cpu"))
    return std::move(error);
  mlir::matrix::TargetOptions options;
  options.triple = targetTriple;
  options.cpu = targetCPU;
  for (auto [text, size, name] :
       {std::make_tuple(&targetL1D, &options.l1dBytes, "--target-l1d"),
        std::make_tuple(&targetL2, &options.l2Bytes, "--target-l2"),
        std::make_tuple(&targetL3, &options.l3Bytes, "--target-l3")}) {
    if (llvm::Error error = checkNotEmpty(*text, name))
      return std::move(error);
    if (text->empty())
      continue;
    *size = mlir::matrix::parseByteSize(*text);
    if (!*size)
      return makeError(llvm::Twine(name) + ": '" + text->getValue() +
                       "' is not a size (e.g. 48K, 2M)");
  }
  return mlir::matrix::resolveTarget(options);
}

llvm::Error matc::applyTileOptions(mlir::matrix::LoweringOptions &options) {
  for (auto [text, tiles, name] :
       {std::make_tuple(&matmulF32, &options.matmulF32, "--matmul-f32"),
        std::make_tuple(&matmulF64, &options.matmulF64, "--matmul-f64")}) {
    if (llvm::Error error = checkNotEmpty(*text, name))
      return error;
    if (text->empty())
      continue;
    llvm::Expected<mlir::matrix::MatmulTiles> parsed =
        mlir::matrix::parseMatmulTiles(*text);
    if (!parsed)
      return makeError(llvm::Twine(name) + ": " +
                       llvm::toString(parsed.takeError()));
    *tiles = *parsed;
  }
  return llvm::Error::success();
}

/// The threads of --compile-threads, all cores for its default 0.
static unsigned getCompileThreads() {
  return compileThreads ? compileThreads.getValue()
                        : llvm::hardware_concurrency().compute_thread_count();
}

void matc::applyCompileThreads(mlir::matrix::LoweringOptions &options) {
  options.codegenParts = getCompileThreads();
  options.splitMinOps = splitMinOps;
}

llvm::SmallVector<StringRef> matc::getOutputFlagsGiven() {
  llvm::SmallVector<StringRef> flags;
  if (emitHeader)
    flags.push_back("--emit-header");
  if (compileOnly)
    flags.push_back("-c");
  if (sharedLibrary)
    flags.push_back("--shared");
  return flags;
}

llvm::Expected<matc::NativeRequest>
matc::resolveNativeRequest(bool emitStage, bool emitAsm, bool run,
                           bool outputGiven, StringRef output, StringRef input,
                           unsigned optLevel) {
  // As --threads (a new-user finding: 99999 was taken).
  if (compileThreads > 1024)
    return makeError("--compile-threads: '" + llvm::Twine(compileThreads) +
                     "' is not a thread count (0 to 1024)");
  // At most one thing to do.
  llvm::SmallVector<StringRef> modes;
  if (run)
    modes.push_back("--run");
  if (emitStage || emitAsm)
    modes.push_back("--emit");
  modes.append(getOutputFlagsGiven());
  if (modes.size() > 1)
    return makeError(modes[0] + " and " + modes[1] + " cannot be combined");

  NativeRequest request;
  if (emitAsm)
    request.kind = NativeKind::Assembly;
  else if (emitHeader)
    request.kind = NativeKind::Header;
  else if (compileOnly)
    request.kind = NativeKind::Object;
  else if (sharedLibrary)
    request.kind = NativeKind::SharedLibrary;
  else if (!run && !emitStage)
    request.kind = NativeKind::Executable;

  bool targetGiven = targetTriple.getNumOccurrences() ||
                     (targetCPU.getNumOccurrences() && targetCPU != "host");
  if (request.kind == NativeKind::None || request.kind == NativeKind::Header) {
    if (targetGiven && (run || request.kind == NativeKind::Header))
      return makeError(
          StringRef(targetTriple.getNumOccurrences() ? "--target-triple"
                                                     : "--target-cpu") +
          " applies only to code for a target (an executable, -c, --shared, "
          "--emit=asm, and the IR stages of --emit); " +
          (run ? "--run compiles for the host (--target-cpu=host)"
               : "the C header of --emit-header is the same for every "
                 "target"));
    if (run && outputGiven)
      return makeError("--run writes no file: -o cannot be used with it");
    // --run and the IR stages of --emit compile for a target too (the
    // schedule's sizes depend on it): the one given, by default the host.
    if (request.kind == NativeKind::None) {
      auto target = resolveTargetOptions();
      if (!target)
        return target.takeError();
      request.target = *target;
      auto machine = mlir::matrix::createTargetMachine(*target, optLevel);
      if (!machine)
        return machine.takeError();
      request.targetMachine = std::move(*machine);
    }
    return request;
  }

  switch (request.kind) {
  case NativeKind::Executable:
  case NativeKind::SharedLibrary:
    request.output = outputGiven ? output.str() : "a.out";
    if (request.output == "-")
      return makeError(StringRef(request.kind == NativeKind::Executable
                                     ? "an executable"
                                     : "a shared library") +
                       " cannot be written to standard output: give -o FILE");
    break;
  case NativeKind::Object: {
    StringRef stem = input == "-" ? "a" : llvm::sys::path::stem(input);
    request.output = outputGiven ? output.str() : (stem + ".o").str();
    break;
  }
  default:
    request.output = output.str();
    break;
  }

  auto target = resolveTargetOptions();
  if (!target)
    return target.takeError();
  request.target = *target;
  auto machine = mlir::matrix::createTargetMachine(*target, optLevel);
  if (!machine)
    return machine.takeError();
  request.targetMachine = std::move(*machine);

  llvm::Triple host(llvm::sys::getProcessTriple());
  const llvm::Triple &triple = request.targetMachine->getTargetTriple();
  if ((request.kind == NativeKind::Executable ||
       request.kind == NativeKind::SharedLibrary) &&
      (triple.getArch() != host.getArch() || triple.getOS() != host.getOS()))
    return makeError("cannot link for '" + triple.str() +
                     "': matc links only for the host (" + host.str() +
                     "); use -c or --emit=asm and link with that target's "
                     "tools");
  return request;
}

/// Adds to an executable's `module` a constructor that checks, before
/// anything else runs, that the CPU has the features of
/// mlir::matrix::getCheckedFeatures(target), and otherwise writes
/// `error: this program needs a CPU with AVX-512F` (the first missing one,
/// most demanding first) to stderr and exits with status 1 instead of
/// dying of SIGILL. It reads the feature word of `__cpu_model`, filled by
/// `__cpu_indicator_init`, as clang's __builtin_cpu_supports does (libgcc
/// and compiler-rt define both; bits from llvm/TargetParser/
/// X86TargetParser.def), and is compiled for the baseline x86-64, so that it
/// runs on any x86-64 CPU.
static void addCPUFeatureCheck(llvm::Module &module,
                               const mlir::matrix::TargetDescription &target) {
  llvm::SmallVector<std::string> features =
      mlir::matrix::getCheckedFeatures(target);
  if (features.empty())
    return;
  llvm::LLVMContext &context = module.getContext();
  llvm::Type *i32 = llvm::Type::getInt32Ty(context);
  llvm::Type *i64 = llvm::Type::getInt64Ty(context);
  llvm::Type *ptr = llvm::PointerType::getUnqual(context);
  llvm::StructType *model = llvm::StructType::get(
      context, {i32, i32, i32, llvm::ArrayType::get(i32, 1)});
  llvm::GlobalVariable *cpuModel = new llvm::GlobalVariable(
      module, model, /*isConstant=*/false, llvm::GlobalValue::ExternalLinkage,
      nullptr, "__cpu_model");
  llvm::FunctionCallee init = module.getOrInsertFunction(
      "__cpu_indicator_init", llvm::FunctionType::get(i32, false));
  llvm::FunctionCallee write = module.getOrInsertFunction(
      "write", llvm::FunctionType::get(i64, {i32, ptr, i64}, false));
  llvm::FunctionCallee exit = module.getOrInsertFunction(
      "_exit", llvm::FunctionType::get(llvm::Type::getVoidTy(context), {i32},
                                       false));

  llvm::Function *check = llvm::Function::Create(
      llvm::FunctionType::get(llvm::Type::getVoidTy(context), false),
      llvm::GlobalValue::InternalLinkage, "matc.check_cpu", module);
  check->addFnAttr("target-cpu", "x86-64");
  check->addFnAttr("target-features", "+cx8,+fxsr,+mmx,+sse,+sse2,+x87");
  check->addFnAttr(llvm::Attribute::NoInline);
  llvm::IRBuilder<> builder(llvm::BasicBlock::Create(context, "entry", check));
  builder.CreateCall(init);
  llvm::Value *word = builder.CreateLoad(
      i32, builder.CreateConstInBoundsGEP2_32(model, cpuModel, 0, 3));
  for (const std::string &feature : features) {
    uint32_t mask = llvm::X86::getCpuSupportsMask({feature})[0];
    if (mask == 0)
      continue;
    llvm::Value *present = builder.CreateICmpEQ(
        builder.CreateAnd(word, mask), builder.getInt32(mask));
    llvm::BasicBlock *fail = llvm::BasicBlock::Create(context, "missing", check);
    llvm::BasicBlock *next = llvm::BasicBlock::Create(context, "next", check);
    builder.CreateCondBr(present, next, fail);
    builder.SetInsertPoint(fail);
    std::string message = "error: this program needs a CPU with " +
                          mlir::matrix::getFeatureDisplayName(feature) +
                          " (it was compiled for " + target.cpu + ")\n";
    builder.CreateCall(write, {builder.getInt32(2),
                               builder.CreateGlobalString(message),
                               builder.getInt64(message.size())});
    builder.CreateCall(exit, {builder.getInt32(1)});
    builder.CreateUnreachable();
    builder.SetInsertPoint(next);
  }
  builder.CreateRetVoid();
  // Before every other constructor.
  llvm::appendToGlobalCtors(module, check, /*Priority=*/101);
}

/// Writes what mlir::matrix::generateCode makes to `path` ("-": stdout).
static int writeCode(llvm::Module &module, llvm::TargetMachine &machine,
                     llvm::CodeGenFileType type, StringRef path) {
  // raw_fd_ostream on a pipe cannot seek: buffer the object in memory.
  llvm::SmallVector<char, 0> buffer;
  llvm::raw_svector_ostream bufferStream(buffer);
  if (llvm::Error error =
          mlir::matrix::generateCode(module, machine, type, bufferStream))
    return fail(toString(std::move(error)));
  return writeOutputFile(path,
                         type == llvm::CodeGenFileType::AssemblyFile
                             ? llvm::sys::fs::OF_Text
                             : llvm::sys::fs::OF_None,
                         [&](llvm::raw_ostream &os) { os << buffer; });
}

/// Links `objects` into `output` with `cc` (`-shared` for a library,
/// `-r -nostdlib` for one relocatable object), adding for executables and
/// libraries the OpenMP runtime if the code calls it and MPICH if it calls
/// MPI (`matc --ranks`).
static int link(llvm::ArrayRef<std::string> objects,
                const matc::NativeRequest &request, bool needsOpenMP,
                bool needsMPI) {
  llvm::ErrorOr<std::string> cc = llvm::sys::findProgramByName("cc");
  if (!cc)
    return fail("cannot link: no 'cc' on PATH (install a C compiler, or "
                "write an object with -c and link it yourself)");
  // Check early that the output can be written, for a clear message.
  {
    std::error_code ec;
    llvm::raw_fd_ostream probe(request.output, ec, llvm::sys::fs::OF_None);
    if (ec)
      return fail("cannot write '" + request.output + "': " + ec.message());
  }
  llvm::SmallVector<std::string> args = {*cc};
  bool relocatable = request.kind == matc::NativeKind::Object;
  if (request.kind == matc::NativeKind::SharedLibrary)
    args.push_back("-shared");
  if (relocatable)
    args.append({"-r", "-nostdlib"});
  args.append({"-o", request.output});
  args.append(objects.begin(), objects.end());
  if (relocatable) {
    needsOpenMP = false;
    needsMPI = false;
  }
#ifdef MATC_LLVM_LIBRARY_DIR
  if (needsOpenMP)
    args.append({"-L" MATC_LLVM_LIBRARY_DIR,
                 "-Wl,-rpath," MATC_LLVM_LIBRARY_DIR, "-lomp"});
#endif
  if (needsMPI) {
#ifdef MATC_MPICH_LIBRARY_DIR
    args.append(
        {"-L" MATC_MPICH_LIBRARY_DIR, "-Wl,-rpath," MATC_MPICH_LIBRARY_DIR});
#endif
    args.push_back("-lmpich");
  }
  if (!relocatable)
    args.push_back("-lm");
  llvm::SmallVector<StringRef> argRefs(args.begin(), args.end());
  std::string error;
  int status = llvm::sys::ExecuteAndWait(*cc, argRefs, /*Env=*/std::nullopt,
                                         /*Redirects=*/{}, 0, 0, &error);
  if (status != 0) {
    llvm::sys::fs::remove(request.output);
    return fail("linking '" + request.output + "' with '" + *cc + "' failed" +
                (error.empty() ? "" : ": " + error) +
                (needsMPI ? " (an MPI program links MPICH: install "
                            "libmpich-dev)"
                          : ""));
  }
  return 0;
}

llvm::Error matc::setModuleTarget(llvm::Module &module,
                                  const NativeRequest &request) {
  const llvm::TargetMachine *machine = request.targetMachine.get();
  if (!machine)
    return makeError("no target for LLVM IR");
  module.setTargetTriple(machine->getTargetTriple());
  module.setDataLayout(machine->createDataLayout());
  for (llvm::Function &function : module) {
    if (function.isDeclaration())
      continue;
    function.addFnAttr("target-cpu", machine->getTargetCPU());
    if (!machine->getTargetFeatureString().empty())
      function.addFnAttr("target-features",
                         machine->getTargetFeatureString());
  }
  return llvm::Error::success();
}

int matc::writeNativeOutput(mlir::ModuleOp module, const NativeRequest &request,
                            unsigned optLevel, mlir::TimingScope &timing) {
  llvm::LLVMContext context;
  mlir::TimingScope translation = timing.nest("Translate to LLVM IR");
  std::unique_ptr<llvm::Module> llvmModule =
      mlir::translateModuleToLLVMIR(module, context, "matc");
  translation.stop();
  if (!llvmModule)
    return fail("internal compiler error: translation to LLVM IR failed");
  llvm::TargetMachine &machine = *request.targetMachine;
  llvmModule->setTargetTriple(machine.getTargetTriple());
  llvmModule->setDataLayout(machine.createDataLayout());

  mlir::TimingScope codegen =
      timing.nest("LLVM optimization and code generation");
  if (request.kind == NativeKind::Assembly) {
    if (llvm::Error error =
            mlir::matrix::optimizeModule(*llvmModule, optLevel, &machine))
      return fail("LLVM optimization failed: " + toString(std::move(error)));
    return writeCode(*llvmModule, machine, llvm::CodeGenFileType::AssemblyFile,
                     request.output);
  }

  if (request.kind == NativeKind::Executable && request.target) {
    addCPUFeatureCheck(*llvmModule, *request.target);
    llvm::SmallVector<std::string> missing =
        mlir::matrix::getFeaturesMissingOnHost(*request.target);
    if (!missing.empty())
      llvm::WithColor::warning(llvm::errs(), "matc")
          << "'" << request.output << "' is compiled for "
          << request.target->cpu << ", which has "
          << mlir::matrix::getFeatureDisplayName(missing.front())
          << "; this machine does not, and the program will refuse to run "
             "here\n";
  }
  bool needsOpenMP = llvm::any_of(llvmModule->functions(), [](auto &fn) {
    return fn.isDeclaration() && fn.getName().starts_with("__kmpc_");
  });
  bool needsMPI = llvm::any_of(llvmModule->functions(), [](auto &fn) {
    return fn.isDeclaration() && fn.getName() == "MPI_Init";
  });

  // For -c, more than one object needs `cc` to become one file, and
  // `objcopy` to make the symbols the partitions share local again; both
  // are the host's, which know the host's architecture and object format
  // only.
  unsigned threads = getCompileThreads();
  llvm::ErrorOr<std::string> objcopy = llvm::sys::findProgramByName("objcopy");
  llvm::Triple targetTriple(request.target->triple);
  llvm::Triple hostTriple(llvm::sys::getProcessTriple());
  bool hostFormat = targetTriple.getArch() == hostTriple.getArch() &&
                    targetTriple.getObjectFormat() ==
                        hostTriple.getObjectFormat();
  // objcopy rewrites a regular file only (not /dev/null, say).
  llvm::sys::fs::file_status outputStatus;
  bool special = !llvm::sys::fs::status(request.output, outputStatus) &&
                 llvm::sys::fs::exists(outputStatus) &&
                 !llvm::sys::fs::is_regular_file(outputStatus);
  if (request.kind == NativeKind::Object &&
      (request.output == "-" || special || !objcopy || !hostFormat ||
       !llvm::sys::findProgramByName("cc")))
    threads = 1;
  llvm::Expected<llvm::SmallVector<llvm::SmallString<0>>> objects =
      mlir::matrix::emitObjectsInParallel(*llvmModule, *request.target,
                                          optLevel, threads,
                                          mlir::matrix::kMinPartitionInstructions,
                                          &codegen);
  codegen.stop();
  if (!objects)
    return fail("LLVM code generation failed: " +
                toString(objects.takeError()));
  if (request.kind == NativeKind::Object && objects->size() == 1)
    return writeOutputFile(request.output, llvm::sys::fs::OF_None,
                           [&](llvm::raw_ostream &os) { os << (*objects)[0]; });

  llvm::SmallVector<std::string> paths;
  std::vector<std::unique_ptr<llvm::FileRemover>> removers;
  for (const llvm::SmallString<0> &object : *objects) {
    llvm::SmallString<128> path;
    int fd;
    if (std::error_code ec =
            llvm::sys::fs::createTemporaryFile("matc", "o", fd, path))
      return fail("cannot create a temporary object file: " + ec.message());
    removers.push_back(std::make_unique<llvm::FileRemover>(path));
    paths.push_back(path.str().str());
    llvm::raw_fd_ostream os(fd, /*shouldClose=*/true);
    os << object;
    os.flush();
    if (os.has_error())
      return fail("cannot write the temporary object '" + path + "'");
  }
  mlir::TimingScope linking = timing.nest("Link");
  if (int status = link(paths, request, needsOpenMP, needsMPI))
    return status;
  if (request.kind != NativeKind::Object)
    return 0;
  StringRef args[] = {*objcopy, "--localize-hidden", request.output};
  std::string error;
  if (llvm::sys::ExecuteAndWait(*objcopy, args, /*Env=*/std::nullopt,
                                /*Redirects=*/{}, 0, 0, &error) != 0) {
    llvm::sys::fs::remove(request.output);
    return fail("'" + *objcopy + " --localize-hidden " + request.output +
                "' failed" + (error.empty() ? "" : ": " + error));
  }
  return 0;
}
