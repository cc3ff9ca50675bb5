//===- Pipelines.cpp - Lowering pipelines from Matrix to LLVM -------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Everything below Linalg is upstream passes, written here in the textual
// pipeline syntax so that each stage reads exactly as one would type it to
// mlir-opt.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Pipelines.h"

#include "MatrixDialect/Codegen/Passes.h"
#include "MatrixDialect/Conversion/Passes.h"
#include "MatrixDialect/Distributed/Passes.h"
#include "MatrixDialect/Transforms/Passes.h"
#include "mlir/Pass/PassRegistry.h"
#include "llvm/Support/ErrorHandling.h"

using namespace mlir;
using namespace mlir::matrix;

/// The upstream passes of each stage, in the textual pipeline syntax.
/// Upstream's buffer-deallocation-pipeline
/// (mlir/lib/Dialect/Bufferization/Pipelines/BufferizationPipelines.cpp),
/// with matrix-split-deallocs before the deallocations are lowered: the
/// results of Mat functions are freed each on its own, not together with a
/// run-time test of every pair of pointers at the end of the block (and
/// matrix-free-buffers-early can then free them after their last use).
#define MATC_DEALLOCATION_PIPELINE                                             \
  "expand-realloc{emit-deallocs=false}, func.func(canonicalize), "            \
  "ownership-based-buffer-deallocation, func.func(canonicalize), "             \
  "matrix-split-deallocs, buffer-deallocation-simplification, "                \
  "bufferization-lower-deallocations, func.func(cse, canonicalize)"

static StringRef getStagePipeline(LoweringStage stage) {
  switch (stage) {
  case LoweringStage::Matrix:
    return "canonicalize";
  case LoweringStage::Linalg:
    return "convert-matrix-to-linalg, canonicalize, cse";
  case LoweringStage::Affine:
    // Function results are returned in fresh buffers owned by the caller;
    // identity layouts keep every memref contiguous and row-major. The copy
    // into a C caller's buffer (`.into` variants) becomes loops.
    return "matrix-split-shared-destinations, "
           "one-shot-bufferize{bufferize-function-boundaries "
           "function-boundary-type-conversion=identity-layout-map}, "
           "canonicalize, " MATC_DEALLOCATION_PIPELINE ", "
           "convert-bufferization-to-memref, matrix-free-buffers-early, "
           "matrix-lower-memref-copy, "
           "convert-linalg-to-affine-loops, canonicalize, cse, "
           "matrix-outline-long-blocks";
  case LoweringStage::LLVM:
    // Nested as the optimizing LLVM stage's (see there).
    return "func.func(lower-affine, convert-scf-to-cf, "
           "expand-strided-metadata), "
           "finalize-memref-to-llvm{use-generic-functions}, "
           "func.func(convert-math-to-llvm, convert-arith-to-llvm, "
           "convert-index-to-llvm), convert-cf-to-llvm, "
           "convert-func-to-llvm, reconcile-unrealized-casts, "
           "matrix-checked-allocation, llvm.func(canonicalize)";
  }
  llvm_unreachable("unknown lowering stage");
}

/// The target of `options`: the one given, else the host's.
static TargetDescription getTarget(const LoweringOptions &options) {
  if (options.target)
    return *options.target;
  llvm::Expected<TargetDescription> host = resolveTarget(TargetOptions());
  if (!host)
    llvm::report_fatal_error(llvm::Twine("matc: cannot describe the host: ") +
                             llvm::toString(host.takeError()));
  return *host;
}

CodegenSizes LoweringOptions::getCodegenSizes() const {
  TargetDescription target = getTarget(*this);
  CodegenSizes sizes = computeCodegenSizes(target, tileStackBytes,
                                          target.getThreads(numThreads));
  if (matmulF32)
    sizes.f32 = *matmulF32;
  if (matmulF64)
    sizes.f64 = *matmulF64;
  return sizes;
}

/// The passes of the Linalg, Affine and LLVM stages from -O1 up (the
/// Matrix stage is the same at every level). Keep the LLVM stage in step
/// with the -O0 one above: the same conversions, plus vector and OpenMP.
///
/// - Linalg: transposes become linalg.generic and elementwise chains fuse
///   into one linalg.generic (no temporary matrices).
/// - Affine: results that go to a caller's buffer (the C entry points'
///   `.into` variants) are computed there (eliminate-empty-tensors,
///   function by function, after matrix-split-shared-destinations: a zero
///   fill CSE shared between two products must not become one product's
///   result buffer, which the other would then overwrite), first before
///   matrix-outline-products, which passes that buffer to the product
///   function as its C (after the outlining, the call would hide it: the
///   `.into` function computed a product in a temporary and copied it);
///   the matrix-codegen schedule
///   (lib/Codegen/Schedule.mlir, with the sizes of the target's model,
///   lib/Target/MatmulModel.cpp) tiles, packs and vectorizes products and
///   elementwise ops on tensors; the packed tiles get static shapes
///   (matrix-bound-tile-temporaries, up to the stack budget of the model),
///   and eliminate-empty-tensors runs again, function by function (the
///   module-wide pass analyses all functions together, serially, and found
///   nothing more on any test program); after bufferization, the
///   scf.forall over tiles becomes an scf.parallel (run on OpenMP threads)
///   or, for one thread, a plain scf.for, and the packed tiles go on the
///   stack (matrix-promote-tile-buffers, after the last canonicalize, which
///   would hoist them out of their alloca scopes into the function's frame).
///   What the schedule leaves (fills, copies) becomes scf loops
///   (convert-linalg-to-loops: unlike the affine loops of -O0, their bounds
///   may be any index, e.g. the size of a ragged tile inside the
///   scf.parallel, which is no valid affine dimension); so do the copies
///   bufferization makes between strided buffers (matrix-lower-memref-copy),
///   which would otherwise call a runtime library matc does not load.
/// - LLVM: vector transfers are unrolled to 1-D ones, rows a mask may leave
///   out guarded by an scf.if each rather than accessed with every lane off
///   (matrix-guard-masked-rows), the masked ones no
///   wider than 256 bits (matrix-split-masked-vectors: LLVM 22 miscompiles
///   wider ones on AVX2: no wider than the target's registers); scf.parallel
///   becomes
///   omp.parallel + omp.wsloop with `num_threads` when numThreads > 0 (0:
///   the OpenMP runtime picks, all cores by default), forking a team only
///   for more than one iteration (matrix-omp-if-multiple-iterations).
///   convert-scf-to-cf runs after finalize-memref-to-llvm, which must still
///   see the memref.alloca_scope ops convert-scf-to-openmp creates. The
///   passes that work one function at a time are nested (`func.func(...)`,
///   `llvm.func(...)`), so that MLIR runs them on the functions of a long
///   program in parallel; the conversions that add declarations to the
///   module (finalize-memref-to-llvm, OpenMP, control flow, func) stay on
///   the module, and so does convert-ub-to-llvm (nested, it left some
///   ub.poison of vector type unconverted; not investigated further).
static std::string getOptimizingStagePipeline(LoweringStage stage,
                                              const LoweringOptions &options) {
  bool openmp = options.numThreads != 1;
  switch (stage) {
  case LoweringStage::Matrix:
    return getStagePipeline(stage).str();
  case LoweringStage::Linalg:
    return "convert-matrix-to-linalg, func.func(canonicalize, cse), "
           "matrix-codegen{entry-point=matc_generalize}, "
           "func.func(linalg-fuse-elementwise-ops, canonicalize, cse)";
  case LoweringStage::Affine: {
    TargetDescription target = getTarget(options);
    CodegenSizes sizes = options.getCodegenSizes();
    std::string stackBytes = std::to_string(
        std::max(sizes.f32.getStackBound(4, options.tileStackBytes),
                 sizes.f64.getStackBound(8, options.tileStackBytes)));
    std::string maxRhs = std::to_string(sizes.unpackedMaxRhsElements);
    std::string narrow = " narrow-f32=" + std::to_string(sizes.f32.nr) +
                         " narrow-f64=" + std::to_string(sizes.f64.nr);
    std::string unpackedRows =
        " unpacked-rows-f32=" + std::to_string(sizes.f32.getUnpackedRows()) +
        " unpacked-rows-f64=" + std::to_string(sizes.f64.getUnpackedRows());
    return "matrix-split-shared-destinations, "
           "func.func(eliminate-empty-tensors), "
           "matrix-outline-products{static-rhs-elements=" + maxRhs + narrow +
           "}, matrix-version-products{max-elements=" +
           std::to_string(sizes.unpackedMaxElements) +
           " max-rhs-elements=" + maxRhs +
           " vector-bits=" + std::to_string(target.vectorBits) + narrow +
           unpackedRows + " few-columns-max-lhs-bytes=" +
           std::to_string(target.l3.sizeBytes ? target.l3.sizeBytes
                                              : target.l2.sizeBytes) +
           "}, matrix-codegen{entry-point=matc_codegen matmul-f32=" +
           sizes.f32.str() + " matmul-f64=" + sizes.f64.str() +
           " elementwise-f32=" + std::to_string(sizes.elementwiseF32) +
           " elementwise-f64=" + std::to_string(sizes.elementwiseF64) +
           " vector-bits=" + std::to_string(target.vectorBits) +
           " threads=" + std::to_string(target.getThreads(options.numThreads)) +
           (target.isX86() && target.vectorBits >= 256 ? " x86-avx=true" : "") +
           "}, func.func(canonicalize, cse), "
           "matrix-bound-tile-temporaries{max-bytes=" + stackBytes +
           "}, matrix-split-shared-destinations, "
           "func.func(eliminate-empty-tensors), "
           "one-shot-bufferize{bufferize-function-boundaries "
           "function-boundary-type-conversion=identity-layout-map}, "
           "func.func(canonicalize), drop-equivalent-buffer-results, "
           MATC_DEALLOCATION_PIPELINE ", "
           "convert-bufferization-to-memref, matrix-free-buffers-early, "
           "matrix-lower-memref-copy, " +
           (openmp ? "scf-forall-to-parallel, " : "scf-forall-to-for, ") +
           "func.func(convert-linalg-to-loops, canonicalize, cse), "
           "matrix-promote-tile-buffers{max-bytes=" + stackBytes +
           " max-scope-bytes=" + stackBytes + "}, matrix-outline-long-blocks";
  }
  case LoweringStage::LLVM:
    return "func.func(matrix-forward-masked-stores, "
           "matrix-prefetch-accumulator-tiles, matrix-unmask-row-writes, "
           "matrix-guard-masked-rows, "
           "convert-vector-to-scf{full-unroll}, "
           "matrix-split-masked-vectors{max-bits=" +
           std::to_string(getTarget(options).vectorBits) +
           "}, matrix-scalarize-extracted-reads, lower-affine), " +
           (openmp ? "convert-scf-to-openmp{num-threads=" +
                         std::to_string(options.numThreads) +
                         "}, matrix-omp-if-multiple-iterations, "
                   : std::string()) +
           "func.func(expand-strided-metadata, lower-affine), "
           "finalize-memref-to-llvm{use-generic-functions}, "
           "func.func(convert-scf-to-cf, "
           "convert-vector-to-llvm{reassociate-fp-reductions}), " +
           (openmp ? "convert-openmp-to-llvm, " : "") +
           "func.func(convert-math-to-llvm, convert-arith-to-llvm, "
           "convert-index-to-llvm), convert-ub-to-llvm, convert-cf-to-llvm, "
           "convert-func-to-llvm, reconcile-unrealized-casts, "
           "matrix-checked-allocation, llvm.func(canonicalize)";
  }
  llvm_unreachable("unknown lowering stage");
}

/// With `ranks` > 1, `pipeline` (the one-process passes of `stage`) with the
/// passes that distribute the program over the ranks (docs/distributed.md):
///
/// - Linalg: prints stay `matrix.print` and every function is inlined into
///   `main` (and then erased: the MPI program is `main`, its executable
///   exports no C entry points of Mat functions); after the one-process passes
///   (elementwise fusion from -O1 up), matrix-shard annotates every value of
///   `main` (so there is nothing left for sharding-propagation to infer),
///   upstream's shard-partition turns it into the program of one rank with
///   shard collectives, matrix-mpi-program adds MPI_Init, the process count
///   check and MPI_Finalize and puts each print on rank 0, and the prints are
///   lowered.
/// - Affine: first the collectives become the mpi dialect
///   (matrix-lower-shard-collectives for those convert-shard-to-mpi lacks;
///   matrix-flatten-mpi-buffers for MPIToLLVM's element counts), so that
///   the schedule, bufferization and deallocation see their buffers.
/// - LLVM: the mpi dialect to MPI calls (MPIToLLVM, through
///   convert-to-llvm), MPICH's ABI, after the subviews of the communication
///   buffers (dynamic offsets) are expanded.
static std::string getDistributedStagePipeline(LoweringStage stage,
                                               StringRef pipeline,
                                               const LoweringOptions &options) {
  std::string ranks = std::to_string(options.ranks);
  switch (stage) {
  case LoweringStage::Matrix:
    return pipeline.str();
  case LoweringStage::Linalg: {
    StringRef convert = "convert-matrix-to-linalg";
    assert(pipeline.starts_with(convert) && "the Linalg stage converts first");
    return ("symbol-privatize{exclude=main}, "
            "convert-matrix-to-linalg{lower-print=false}, inline, symbol-dce" +
            pipeline.drop_front(convert.size()) +
            ", matrix-shard{ranks=" + ranks +
            " min-elements=" + std::to_string(options.shardMinElements) +
            "}, func.func(shard-partition), "
            "canonicalize, cse, matrix-mpi-program{ranks=" +
            ranks + "}, convert-matrix-to-linalg, canonicalize, cse")
        .str();
  }
  case LoweringStage::Affine:
    return ("matrix-lower-shard-collectives, convert-shard-to-mpi, "
            "matrix-erase-shard-grids, matrix-flatten-mpi-buffers, "
            "canonicalize, cse, " +
            pipeline)
        .str();
  case LoweringStage::LLVM:
    // The subviews of the communication buffers have dynamic offsets
    // (rank * block): their affine.apply is lowered first, for -O0 too.
    return ("expand-strided-metadata, lower-affine, "
            "convert-to-llvm{filter-dialects=mpi}, " +
            pipeline)
        .str();
  }
  llvm_unreachable("unknown lowering stage");
}

/// The stages are written in the textual syntax, so every pass they name
/// must be registered before one is parsed.
static void registerPipelinePasses() {
  static const bool registered = [] {
    registerPipelineUpstreamPasses();
    registerConvertMatrixToLinalgPass();
    registerMatrixCodegenPasses();
    registerMatrixDistributedPasses();
    registerMatrixTransformsPasses();
    return true;
  }();
  (void)registered;
}

void mlir::matrix::addLoweringStage(OpPassManager &pm, LoweringStage stage,
                                    const LoweringOptions &options) {
  registerPipelinePasses();
  std::string pipeline = options.optLevel == 0
                             ? getStagePipeline(stage).str()
                             : getOptimizingStagePipeline(stage, options);
  if (options.ranks > 1)
    pipeline = getDistributedStagePipeline(stage, pipeline, options);
  if (failed(parsePassPipeline(pipeline, pm)))
    llvm::report_fatal_error("matc: malformed built-in pass pipeline");
  // From -O1 up the Matrix stage also rewrites products by flop count
  // (lib/Transforms); -O0 keeps the program as written, canonicalized.
  if (stage == LoweringStage::Matrix && options.optLevel >= 1 &&
      failed(parsePassPipeline("cse, matrix-optimize, canonicalize, cse", pm)))
    llvm::report_fatal_error("matc: malformed built-in pass pipeline");
}

void mlir::matrix::buildMatrixLoweringPipeline(OpPassManager &pm,
                                               LoweringStage last,
                                               const LoweringOptions &options) {
  bool split = options.codegenParts > 1 && options.ranks == 1;
  OpPassManager *stages = &pm;
  for (LoweringStage stage :
       {LoweringStage::Matrix, LoweringStage::Linalg, LoweringStage::Affine,
        LoweringStage::LLVM}) {
    if (stage == LoweringStage::LLVM && split) {
      pm.addPass(createMatrixSplitModule(
          {options.codegenParts, options.splitMinOps}));
      stages = &pm.nest<ModuleOp>();
    }
    addLoweringStage(*stages, stage, options);
    if (stage == last)
      break;
  }
  if (stages != &pm)
    pm.addPass(createMatrixMergeModules());
}

namespace {
/// The LoweringOptions of the registered pipelines, as matc-opt options:
/// `--matrix-to-llvm="opt-level=0 threads=1 target-cpu=znver3"`.
struct PipelineOptions : PassPipelineOptions<PipelineOptions> {
  Option<unsigned> optLevel{
      *this, "opt-level",
      llvm::cl::desc("0: the plain reference lowering; 1-3: optimize"),
      llvm::cl::init(2)};
  Option<unsigned> numThreads{
      *this, "threads",
      llvm::cl::desc("Threads for the outer tiles (0: all cores, 1: no "
                     "OpenMP)"),
      llvm::cl::init(0)};
  Option<std::string> targetCPU{
      *this, "target-cpu",
      llvm::cl::desc("CPU the code is for (default: host)"),
      llvm::cl::init("host")};
  Option<std::string> targetTriple{
      *this, "target-triple",
      llvm::cl::desc("Target triple (default: the host's)"),
      llvm::cl::init("")};
  Option<std::string> l1d{*this, "target-l1d",
                          llvm::cl::desc("L1 data cache size, e.g. 48K"),
                          llvm::cl::init("")};
  Option<std::string> l2{*this, "target-l2",
                         llvm::cl::desc("L2 cache size, e.g. 2M"),
                         llvm::cl::init("")};
  Option<std::string> l3{*this, "target-l3",
                         llvm::cl::desc("L3 cache size, e.g. 32M"),
                         llvm::cl::init("")};
  Option<int64_t> tileStackBytes{
      *this, "tile-stack-bytes",
      llvm::cl::desc("Stack budget of one product's packed tiles"),
      llvm::cl::init(kDefaultTileStackBytes)};
  ListOption<int64_t> matmulF32{
      *this, "matmul-f32",
      llvm::cl::desc("Tiles of f32 products, mr,nr,kc,mc,nc (default: the "
                     "model's)")};
  ListOption<int64_t> matmulF64{
      *this, "matmul-f64",
      llvm::cl::desc("Tiles of f64 products, mr,nr,kc,mc,nc (default: the "
                     "model's)")};
  Option<unsigned> ranks{
      *this, "ranks",
      llvm::cl::desc("MPI processes to partition the program for (1: one "
                     "process, no MPI)"),
      llvm::cl::init(1)};
  Option<int64_t> shardMinElements{
      *this, "shard-min-elements",
      llvm::cl::desc("With ranks > 1: matrices with fewer elements stay "
                     "replicated"),
      llvm::cl::init(65536)};
  Option<unsigned> codegenParts{
      *this, "codegen-parts",
      llvm::cl::desc("Nested modules the LLVM stage lowers in parallel "
                     "(0, 1: one module)"),
      llvm::cl::init(0)};
  Option<int64_t> splitMinOps{
      *this, "split-min-ops",
      llvm::cl::desc("Fewest ops of a module split into codegen-parts"),
      llvm::cl::init(4000)};
};
} // namespace

/// LoweringOptions from the registered pipelines' options; an error message
/// if they are malformed.
static llvm::Expected<LoweringOptions>
getLoweringOptions(const PipelineOptions &cl) {
  LoweringOptions options;
  options.optLevel = cl.optLevel;
  options.numThreads = cl.numThreads;
  options.tileStackBytes = cl.tileStackBytes;
  options.ranks = cl.ranks;
  options.shardMinElements = cl.shardMinElements;
  options.codegenParts = cl.codegenParts;
  options.splitMinOps = cl.splitMinOps;
  TargetOptions target;
  target.cpu = cl.targetCPU;
  target.triple = cl.targetTriple;
  for (auto [text, size, name] :
       {std::make_tuple(&cl.l1d, &target.l1dBytes, "target-l1d"),
        std::make_tuple(&cl.l2, &target.l2Bytes, "target-l2"),
        std::make_tuple(&cl.l3, &target.l3Bytes, "target-l3")}) {
    if (text->empty())
      continue;
    *size = parseByteSize(*text);
    if (!*size)
      return llvm::createStringError(llvm::Twine(name) + ": '" + *text +
                                     "' is not a size (e.g. 48K, 2M)");
  }
  llvm::Expected<TargetDescription> resolved = resolveTarget(target);
  if (!resolved)
    return resolved.takeError();
  options.target = *resolved;
  for (auto [list, tiles, name] :
       {std::make_tuple(&cl.matmulF32, &options.matmulF32, "matmul-f32"),
        std::make_tuple(&cl.matmulF64, &options.matmulF64, "matmul-f64")}) {
    if (list->empty())
      continue;
    llvm::Expected<MatmulTiles> parsed = makeMatmulTiles(*list);
    if (!parsed)
      return llvm::createStringError(llvm::Twine(name) + ": " +
                                     llvm::toString(parsed.takeError()));
    *tiles = *parsed;
  }
  return options;
}

void mlir::matrix::registerMatrixPipelines() {
  registerPipelinePasses();
  auto registerUpTo = [](StringRef name, StringRef summary,
                         LoweringStage last) {
    registerPassPipeline(
        name, summary,
        [last](OpPassManager &pm, StringRef text,
               function_ref<LogicalResult(const Twine &)> errorHandler) {
          PipelineOptions cl;
          if (failed(cl.parseFromString(text)))
            return failure();
          llvm::Expected<LoweringOptions> options = getLoweringOptions(cl);
          if (!options)
            return errorHandler(llvm::toString(options.takeError()));
          buildMatrixLoweringPipeline(pm, last, *options);
          return success();
        },
        [](function_ref<void(const detail::PassOptions &)> optHandler) {
          optHandler(PipelineOptions());
        });
  };
  registerUpTo("matrix-to-linalg",
               "Lower the Matrix dialect to Linalg on tensors",
               LoweringStage::Linalg);
  registerUpTo("matrix-to-affine",
               "Lower the Matrix dialect to affine loops on memrefs",
               LoweringStage::Affine);
  registerUpTo("matrix-to-llvm",
               "Lower the Matrix dialect to the LLVM dialect (what matc runs)",
               LoweringStage::LLVM);
}
