//===- MatrixCodegen.cpp - The matrix-codegen pass ------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Parses the embedded schedule (Schedule.mlir) once per pass instance,
// merges into it the sequences generated from the pass's sizes (the entry
// point binding them as params, and the packing of products, whose sizes
// transform.structured.pack takes only as static attributes), and applies
// one named sequence to the module with the upstream transform interpreter,
// as `transform-interpreter` would with the schedule preloaded from a file;
// embedding it keeps matc free of data files.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Codegen/Passes.h"
#include "MatrixDialect/Codegen/TransformOps.h"
#include "MatrixDialect/Target/MatmulModel.h"

#include "mlir/Dialect/Transform/IR/Utils.h"
#include "mlir/Dialect/Transform/Interfaces/TransformInterfaces.h"
#include "mlir/Dialect/Transform/Transforms/TransformInterpreterUtils.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MathExtras.h"

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXCODEGEN
#include "MatrixDialect/Codegen/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

static const char kScheduleSource[] =
#include "Schedule.mlir.inc"
    ;

StringRef mlir::matrix::getCodegenScheduleSource() {
  return StringRef(kScheduleSource, sizeof(kScheduleSource) - 1);
}

namespace {
struct MatrixCodegen : matrix::impl::MatrixCodegenBase<MatrixCodegen> {
  using MatrixCodegenBase::MatrixCodegenBase;

  /// The schedule uses matc's transform ops (transform.matc.*) too.
  void getDependentDialects(DialectRegistry &registry) const override {
    MatrixCodegenBase::getDependentDialects(registry);
    registerMatrixTransformExtension(registry);
  }

  LogicalResult initialize(MLIRContext *context) override {
    // Only @matc_codegen needs the sizes (and calls the pack sequences the
    // library declares).
    FailureOr<std::string> generated =
        entryPoint == "matc_codegen"
            ? generateSequences(context)
            : FailureOr<std::string>(std::string(
                  "module attributes {transform.with_named_sequence} {}"));
    if (failed(generated))
      return failure();
    // The pass may be cloned (one copy per pass manager thread); the parsed
    // library is immutable and shared between the copies.
    auto library = parseSourceString<ModuleOp>(getCodegenScheduleSource(),
                                               context,
                                               "matc-codegen-schedule.mlir");
    OwningOpRef<Operation *> sizes = parseSourceString<ModuleOp>(
        *generated, context, "matc-codegen-sizes.mlir");
    if (!library || !sizes)
      return emitError(UnknownLoc::get(context))
             << "matrix-codegen: the embedded schedule does not parse";
    if (failed(transform::detail::mergeSymbolsInto(library->getOperation(),
                                                   std::move(sizes))))
      return failure();
    schedule = std::make_shared<OwningOpRef<ModuleOp>>(std::move(library));
    return success();
  }

  /// The tiles of one element type: the option's if given, else the model's
  /// for the host. Fails (with an error) on a malformed option.
  FailureOr<MatmulTiles> getTiles(MLIRContext *context, StringRef option,
                                  ArrayRef<int64_t> given,
                                  unsigned elementBytes) {
    if (given.empty()) {
      llvm::Expected<TargetDescription> host = resolveTarget(TargetOptions());
      if (!host) {
        emitError(UnknownLoc::get(context))
            << "matrix-codegen: " << llvm::toString(host.takeError());
        return failure();
      }
      return computeMatmulTiles(*host, elementBytes);
    }
    llvm::Expected<MatmulTiles> tiles = makeMatmulTiles(given);
    if (!tiles) {
      emitError(UnknownLoc::get(context))
          << "matrix-codegen: " << option << ": "
          << llvm::toString(tiles.takeError());
      return failure();
    }
    return *tiles;
  }

  /// The sequences the library declares and the entry point, for the sizes
  /// of the options, in the transform dialect's syntax.
  FailureOr<std::string> generateSequences(MLIRContext *context) {
    FailureOr<MatmulTiles> f32 = getTiles(context, "matmul-f32", matmulF32, 4);
    FailureOr<MatmulTiles> f64 = getTiles(context, "matmul-f64", matmulF64, 8);
    if (failed(f32) || failed(f64))
      return failure();
    if (elementwiseF32 < 1 || elementwiseF64 < 1) {
      emitError(UnknownLoc::get(context))
          << "matrix-codegen: elementwise-f32 and elementwise-f64 must be "
             "positive";
      return failure();
    }
    if (vectorBits < 64 || !llvm::isPowerOf2_64(vectorBits)) {
      emitError(UnknownLoc::get(context))
          << "matrix-codegen: vector-bits must be a power of two, at least 64";
      return failure();
    }
    std::string text =
        "module attributes {transform.with_named_sequence} {\n";
    for (auto [name, tiles] : {std::make_pair("f32", *f32),
                               std::make_pair("f64", *f64)})
      text += llvm::formatv(
          "  transform.named_sequence @matc_pack_matmul_{0}("
          "%mm: !transform.any_op {{transform.consumed}) -> "
          "!transform.any_op {{\n"
          "    %packed = transform.structured.pack %mm packed_sizes = "
          "[{1}, {2}, 0] : (!transform.any_op) -> !transform.any_op\n"
          "    transform.yield %packed : !transform.any_op\n"
          "  }\n",
          name, tiles.mr, tiles.nr);
    text += llvm::formatv(
        "  transform.named_sequence @matc_lower_transposes(%root: "
        "!transform.any_op {{transform.readonly}) {{\n"
        "    transform.apply_patterns to %root {{\n"
        "      transform.apply_patterns.matc.unroll_transposes size = {1}\n"
        "    } : !transform.any_op\n"
        "    transform.apply_patterns to %root {{\n"
        "      transform.apply_patterns.vector.lower_transpose "
        "lowering_strategy = \"shuffle_16x16\" avx2_lowering_strategy = {0}\n"
        "    } : !transform.any_op\n"
        "    transform.yield\n  }\n",
        x86AVX ? "true" : "false", vectorBits / 32);
    if (threads < 1) {
      emitError(UnknownLoc::get(context))
          << "matrix-codegen: threads must be positive";
      return failure();
    }
    // The blocks of rows of the unpacked products with a long k-range, one
    // per thread: ceil(M / threads) rows each (scf.forall's num_threads),
    // with the fill of C fused into each block when C is one. Nothing with
    // one thread.
    text += "  transform.named_sequence @matc_thread_rows(%root: "
            "!transform.any_op {transform.readonly}) {\n";
    if (threads > 1)
      text += llvm::formatv(
          "    %long = transform.structured.match ops{{[\"linalg.generic\"]} "
          "attributes{{matc.unpacked_long_k} in %root : (!transform.any_op) "
          "-> !transform.any_op\n"
          "    transform.foreach %long : !transform.any_op {{\n"
          "    ^bb0(%mm: !transform.any_op):\n"
          "      %rows, %forall = transform.structured.tile_using_forall %mm "
          "num_threads [{0}, 0, 0] : (!transform.any_op) -> "
          "(!transform.any_op, !transform.any_op)\n"
          "      transform.sequence %forall : !transform.any_op "
          "failures(suppress) {{\n"
          "      ^bb0(%f: !transform.any_op):\n"
          "        %fill = transform.get_producer_of_operand %f[0] : "
          "(!transform.any_op) -> !transform.any_op\n"
          "        transform.match.operation_name %fill [\"linalg.fill\"] : "
          "!transform.any_op\n"
          "        %fused, %loop = transform.structured.fuse_into_containing_op "
          "%fill into %f : (!transform.any_op, !transform.any_op) -> "
          "(!transform.any_op, !transform.any_op)\n"
          "      }\n"
          "    }\n",
          threads);
    text += "    transform.yield\n  }\n";
    text += "  transform.named_sequence @matc_codegen(%root: "
            "!transform.any_op {transform.consumed}) {\n";
    SmallVector<std::string> params;
    auto addParam = [&](int64_t value) {
      std::string param = "%p" + std::to_string(params.size());
      text += "    " + param + " = transform.param.constant " +
              std::to_string(value) + " : i64 -> !transform.param<i64>\n";
      params.push_back(param);
    };
    for (auto [tiles, bits] : {std::make_pair(*f32, 32), std::make_pair(*f64, 64)}) {
      // The column blocks count micro-panels of B: NC / NR.
      for (int64_t size :
           {tiles.mr, tiles.nr, tiles.kc, tiles.mc, tiles.nc / tiles.nr})
        addParam(size);
      // The packing of A moves squares of 16 x 16 elements (AVX-512: 16
      // lanes of f32; for f64 too, measured faster than 8 x 16), else of one
      // vector length when MR fits in one, else steps of one vector length
      // by the power of two above MR.
      int64_t lanes = vectorBits / bits;
      int64_t width = std::max<int64_t>(lanes, llvm::PowerOf2Ceil(tiles.mr));
      addParam(std::max<int64_t>(lanes, std::min<int64_t>(width, 16)));
      addParam(width);
      addParam(tiles.getUnpackedRows());
    }
    addParam(elementwiseF32);
    addParam(elementwiseF64);
    // The width of the register tiles of unpacked products tagged
    // "f32_narrow" / "f64_narrow" (matrix-version-products): one vector
    // (and of "f32_narrow_half": the second, one vector of f64 lanes).
    addParam(vectorBits / 32);
    addParam(vectorBits / 64);
    // The columns of a block of C of a packed product (Schedule.mlir): A
    // is packed once per block of columns, ceil(N / NCB) times; 16 NC
    // makes that once for most products while bounding the block of C
    // (MC x NCB, on the heap) for very wide ones.
    addParam(16 * f32->nc);
    addParam(16 * f64->nc);
    // The width of the tiles of C of vector-matrix products
    // (@schedule_vector_matrix): matrix::kVectorMatrixTileBits of elements.
    addParam(matrix::kVectorMatrixTileBits / 32);
    addParam(matrix::kVectorMatrixTileBits / 64);
    // The threads that share the blocks of rows of packed products
    // (transform.matc.thread_row_block).
    addParam(threads);
    SmallVector<StringRef> types(params.size(), "!transform.param<i64>");
    text += "    transform.include @schedule_all failures(propagate) (%root, " +
            llvm::join(params, ", ") + ") : (!transform.any_op, " +
            llvm::join(types, ", ") + ") -> ()\n";
    text += "    transform.yield\n  }\n";
    // The library's @schedule_all, declared so that this module verifies on
    // its own before the merge.
    SmallVector<std::string> arguments = {
        "%root: !transform.any_op {transform.consumed}"};
    for (size_t i = 0; i < params.size(); ++i)
      arguments.push_back("%a" + std::to_string(i) +
                          ": !transform.param<i64> {transform.readonly}");
    text += "  transform.named_sequence @schedule_all(" +
            llvm::join(arguments, ", ") + ")\n}\n";
    return text;
  }

  void runOnOperation() override {
    ModuleOp library = schedule->get();
    Operation *entry = transform::detail::findTransformEntryPoint(
        getOperation(), library, entryPoint);
    if (!entry) {
      getOperation()->emitError() << "matrix-codegen: no sequence '"
                                  << entryPoint << "' in the schedule";
      return signalPassFailure();
    }
    // The expensive checks (handle invalidation, on by default) cost more
    // than the rest of the compilation; the lit tests run the schedule with
    // them, through transform-interpreter (test/Codegen).
    if (entryPoint == "matc_codegen")
      tagTransposedElementwise(getOperation());
    transform::TransformOptions options;
    options.enableExpensiveChecks(false);
    if (failed(transform::applyTransformNamedSequence(getOperation(), entry,
                                                      library, options)))
      signalPassFailure();
  }

  /// Tags `matc.transpose = "f32"` (or "f64") each elementwise
  /// linalg.generic on tensors of f32 (f64) that reads an operand
  /// transposed: two parallel loops, C written in place (identity map), every
  /// input a matrix read in place or transposed, at least one transposed (a
  /// Mat `a.T` made a matrix, `a.T + b`). The schedule then computes it in
  /// square blocks of a vector register's lanes read whole and transposed
  /// in registers (@schedule_transposed_copy), as matrix-version-products'
  /// transposed copies, not in rows of vectors whose transposed reads are
  /// a gather of a column each; also tagged `matc.transpose_rows`: in
  /// blocks of rows split between the threads first, as the other
  /// elementwise ops. From Python, Zen 4, 1 thread, f64, `return a.T`:
  /// 256 x 256 151 -> 25 us, 1024 x 1024 3.4 -> 0.72 ms, 2000 x 2000 6.9
  /// -> 5.5 ms (NumPy's copy 145 us, 3.6 ms, 7.0 ms).
  static void tagTransposedElementwise(Operation *root) {
    MLIRContext *context = root->getContext();
    AffineMap identity = AffineMap::getMultiDimIdentityMap(2, context);
    AffineMap transposed =
        AffineMap::getPermutationMap(ArrayRef<unsigned>{1, 0}, context);
    root->walk([&](linalg::GenericOp op) {
      if (op->hasAttr("matc.transpose") || !op.hasPureTensorSemantics() ||
          op.getNumLoops() != 2 || op.getNumParallelLoops() != 2 ||
          op.getNumDpsInits() != 1 || op->getNumResults() != 1)
        return;
      Type element = getElementTypeOrSelf(op.getResult(0).getType());
      if (!element.isF32() && !element.isF64())
        return;
      if (op.getMatchingIndexingMap(op.getDpsInitOperand(0)) != identity)
        return;
      bool anyTransposed = false;
      for (OpOperand *input : op.getDpsInputOperands()) {
        AffineMap map = op.getMatchingIndexingMap(input);
        if (map == transposed)
          anyTransposed = true;
        else if (map != identity)
          return;
      }
      if (!anyTransposed)
        return;
      op->setAttr("matc.transpose",
                  StringAttr::get(context, element.isF32() ? "f32" : "f64"));
      op->setAttr("matc.transpose_rows", UnitAttr::get(context));
    });
  }

  std::shared_ptr<OwningOpRef<ModuleOp>> schedule;
};
} // namespace
