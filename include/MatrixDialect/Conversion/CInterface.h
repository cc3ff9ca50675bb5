//===- CInterface.h - The C calling convention of Mat functions -*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Every Mat function `def f(...)` gets a C entry point `int mat_f(...)`:
//
//   - a matrix parameter `a: f64[R, C]` is `const double *a`, R x C elements
//     in row-major order, contiguous (element (i, j) at a[i * C + j]),
//     followed by `int64_t a_rows` if R is `?` and `int64_t a_cols` if C is
//     `?`; f32 is `float`;
//   - a scalar parameter `s: f64` is `double s`;
//   - then the result: `double *result`, a caller-allocated buffer of
//     R x C elements (row-major) or of one element for a scalar result,
//     followed by `int64_t result_rows` / `result_cols` for each `?` of the
//     result type: the size the caller expects (and allocated for);
//   - the return value is 0 on success and 1 if a `?` size is below 1 or
//     the sizes break a shape relation of the function (its preconditions,
//     including the expected result sizes); then nothing is computed and
//     `result` is not written.
//   - a matrix result is computed directly in `result` when that buffer
//     overlaps no matrix parameter (checked on every call); otherwise in a
//     buffer of its own, copied to `result` at the end, so that
//     `mat_f(a, ..., a)` (result over a parameter) stays correct.
//
// The entry point is made of two passes: `matrix-prepare-c-interface`, on
// the Matrix dialect, records each function's signature and shape
// preconditions in a `matrix.c_interface` attribute (that the lowering
// carries to the `llvm.func`); `matrix-export-c-interface`, on the LLVM
// dialect, builds the entry points from it. `emitCHeader` writes the
// matching declarations.
//
// Symbols of a native output: `mat_<name>` for the C entry points,
// `matc_main` for the top-level statements (when there are any), and `main`
// (which calls `matc_main` and returns 0) in executables only. Everything
// else, the Mat functions themselves included (renamed `mat_<name>.impl`,
// taking memref descriptors), has internal linkage, so objects from several
// Mat files link into one program.
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_CONVERSION_CINTERFACE_H
#define MATRIXDIALECT_CONVERSION_CINTERFACE_H

#include "MatrixDialect/Analysis/ShapeConstraints.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Support/LLVM.h"

#include <optional>
#include <string>

namespace mlir {
namespace matrix {

/// Dictionary attribute on a Mat function (a `func.func`, later an
/// `llvm.func`) that describes its C entry point; see CInterface.
inline constexpr const char *kCInterfaceAttrName = "matrix.c_interface";
/// Unit attribute on `main` when the top level does something, so that
/// `matc_main` is exported.
inline constexpr const char *kCProgramAttrName = "matrix.c_program";
/// String attribute on a Mat function with a matrix result: the symbol of
/// its destination-passing variant (`@mat_f.into`, made by
/// `matrix-prepare-c-interface`), which takes the caller's result buffer as
/// one more memref argument and writes the result there.
inline constexpr const char *kCIntoAttrName = "matrix.c_into";
/// Suffix of the destination-passing variant's symbol.
inline constexpr const char *kCIntoSuffix = ".into";
/// Symbol of the C function running the top-level statements.
inline constexpr const char *kCProgramName = "matc_main";
/// Status a C entry point returns on success, and when sizes do not fit.
inline constexpr int kCStatusOk = 0;
inline constexpr int kCStatusShapeError = 1;
/// What a Mat program reports when its output could not be written (a full
/// disk, a closed pipe): `matc --run` after `matc: error: `, an executable's
/// `main` after `error: ` (it then exits 1).
inline constexpr llvm::StringLiteral kLostOutputText =
    "cannot write the program's output to standard output";

/// Where a precondition of a C entry point comes from: the operation whose
/// shapes need it (in the function or in one it calls).
struct CPreconditionOrigin {
  /// getShapeRelationName: `matmul_inner`, `elementwise`, `fixed_size`.
  std::string relation;
  /// describeShapeRelation: "the inner dimensions of ... must agree".
  std::string note;
  /// The operation's source position (1-based); 0 when it has none.
  int64_t line = 0;
  int64_t column = 0;
};

/// The rows and columns of one matrix a function may allocate.
using CShape = std::pair<SymbolicDim, SymbolicDim>;

/// The C entry point of one Mat function, as recorded in its
/// `matrix.c_interface` attribute:
/// `{name = "f", arg_names = [...], function_type = (...) -> ...,
///   precondition_origins = [{relation = "...", note = "...", line = L,
///   column = C}, ...], preconditions = array<i64: lhs0, rhs0, lhs1, rhs1,
///   ...>, result_dims = array<i64: rows, cols>,
///   temporaries = array<i64: rows0, cols0, ...>}`, each SymbolicDim
/// encoded as by SymbolicDim::encode (empty `result_dims` for a scalar
/// result). `precondition_origins` (one per precondition) and `temporaries`
/// are optional: hand-written IR may leave them out.
struct CInterface {
  /// The Mat name (`f` of `def f`).
  std::string name;
  /// The Mat parameter names, one per parameter.
  SmallVector<std::string> argNames;
  /// The Mat signature on tensors and f32/f64 scalars.
  FunctionType type;
  /// Pairs of sizes that must be equal; see FunctionShapeFacts.
  SmallVector<std::pair<SymbolicDim, SymbolicDim>> preconditions;
  /// The result's sizes in terms of the parameters (empty for a scalar).
  SmallVector<SymbolicDim, 2> resultDims;
  /// Why each precondition holds: one per precondition, or none.
  SmallVector<CPreconditionOrigin> preconditionOrigins;
  /// The shapes of every matrix the function computes, in terms of the
  /// parameters, its callees' included (each at most one heap allocation of
  /// rows x cols elements: an upper bound, fusion and deallocation make the
  /// live memory smaller); std::nullopt when unknown.
  std::optional<SmallVector<CShape>> temporaries;

  DictionaryAttr toAttr(MLIRContext *context) const;
  /// Reads `attr`; fails (reporting nothing) if it is malformed.
  static FailureOr<CInterface> fromAttr(DictionaryAttr attr);

  /// The C symbol: `mat_<name>`, each run of `_` made one (C++ reserves
  /// names holding `__`): `def _x` is `mat_x`, `def a__b` `mat_a_b`.
  std::string getCSymbol() const;
  /// The Mat signature: `def gram(a: f64[?, 3]) -> f64[3, 3]`.
  std::string getMatSignature() const;
};

/// The C parameter of one Mat parameter (or of the result) in C-ABI order.
struct CParameter {
  enum class Kind {
    /// `const T *` (a matrix parameter) or `T *` (the result buffer).
    Pointer,
    /// `T`: a scalar parameter.
    Scalar,
    /// `int64_t`: the run-time size of a `?` dimension.
    Size,
  };
  Kind kind;
  /// The C name: the Mat name, `<name>_rows`, `<name>_cols`, `result`, ...,
  /// with `_` appended where that would clash with a C or C++ keyword, a
  /// common macro or typedef, or an earlier parameter.
  std::string name;
  /// The Mat parameter (or the result, for `argIndex == -1`) it belongs to.
  int argIndex;
  /// For Size: 0 (rows) or 1 (columns).
  unsigned dim = 0;
  /// For Pointer and Scalar: f32 or f64.
  Type elementType;

  /// Its C type: `const double *` (a matrix parameter), `double *` (the
  /// result), `double`, `int64_t`.
  std::string getCType() const;
  /// Its declaration in the prototype: `const double *a`, `int64_t a_rows`.
  std::string getCDeclaration() const;
};

/// The C parameters of `fn`'s entry point, in order: each Mat parameter's
/// pointer or value and its `?` sizes, then the result pointer and its `?`
/// sizes.
SmallVector<CParameter> getCParameters(const CInterface &fn);

/// Everything a caller of one C entry point needs: its interface and its C
/// parameters. The C header and the signatures (`--emit=signatures`) are
/// both printed from it.
struct CEntryPoint {
  CInterface fn;
  /// getCParameters(fn).
  SmallVector<CParameter> params;

  /// The size parameter of dimension `dim` of Mat parameter `argIndex`
  /// (-1: the result), or null when that dimension is fixed.
  const CParameter *getSizeParam(int argIndex, unsigned dim) const;
  /// How the header names size `d`: its C parameter (`a_rows`) or the
  /// constant (`3`).
  std::string getSizeName(SymbolicDim d) const;
};

/// The C interface of a module: the entry points of the functions carrying
/// a `matrix.c_interface` attribute (in module order), and whether there is
/// a `matc_main` (`main` carries `matrix.c_program`).
struct CModuleInterface {
  SmallVector<CEntryPoint, 0> functions;
  bool hasProgram = false;

  /// Reads the attributes of `module` (after matrix-prepare-c-interface).
  /// Fails, with an error on the operation, on a malformed attribute.
  static FailureOr<CModuleInterface> read(ModuleOp module);
};

/// Checks that no two Mat functions of `module` (the `mat_`-prefixed public
/// func.func ops of MLIRGen) have the same C symbol (CInterface::getCSymbol:
/// `x` and `_x` are both `mat_x`). Fails with an error at the second
/// function naming both. Run by matrix-prepare-c-interface, and by matc
/// before any pass, so that it is a user's error, not a pipeline failure.
LogicalResult verifyCSymbols(ModuleOp module);

/// Writes a C header (C89, C99 and C++) declaring the C entry point of
/// every function of `module` that carries a `matrix.c_interface`, and
/// `matc_main` if `main` carries `matrix.c_program`. `sourceName` is the
/// Mat file it comes from (named in comments and in the include guard).
/// Fails, with an error on the module, on a malformed attribute.
LogicalResult emitCHeader(ModuleOp module, raw_ostream &os,
                          StringRef sourceName);

/// Writes, as JSON (`matc --emit=signatures`, documented with its schema in
/// docs/python.md), what `emitCHeader` declares: for each entry point its
/// name, C symbol, Mat signature, parameters and result (kind, element
/// type, shape with `?`, C names of the sizes that follow), the C arguments
/// in order, the size relations it checks (with where each comes from),
/// the matrices it may allocate; and whether there is a `matc_main`.
/// Fails like `emitCHeader`.
LogicalResult emitCSignatures(ModuleOp module, raw_ostream &os,
                              StringRef sourceName);

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_CONVERSION_CINTERFACE_H
