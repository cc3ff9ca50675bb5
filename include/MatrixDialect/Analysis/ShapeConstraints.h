//===- ShapeConstraints.h - Run-time shape relations of Mat code -*- C++
//-*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Mat has no shape arithmetic: inside a function, every dimension of every
// matrix is either a constant or the run-time size of one `?` dimension of
// one of the function's parameters. This analysis names each dimension that
// way (a SymbolicDim) and turns every shape relation the compiler could not
// check, because one side is `?`, into an equality between two SymbolicDims
// that must hold when the function is entered: a precondition on its
// parameters' sizes.
//
// Callers discharge the preconditions of their callees: MLIRGen substitutes
// the argument sizes at each call (constants in `main`, so there every
// relation is checked at compile time), and the C entry points that
// `matrix-export-c-interface` generates evaluate them on the sizes a C
// caller passes, before the Mat code runs. So no Mat function ever runs on
// shapes that would make it read or write out of bounds.
//
// The analysis reads the IR that MLIRGen builds: `func.func` and `func.call`
// on tensors, the Matrix dialect, `tensor.cast` (where a `?` meets a size).
//
//===----------------------------------------------------------------------===//

#ifndef MATRIXDIALECT_ANALYSIS_SHAPECONSTRAINTS_H
#define MATRIXDIALECT_ANALYSIS_SHAPECONSTRAINTS_H

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "mlir/Support/LLVM.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>

#include <memory>

namespace mlir {
namespace matrix {

/// The size of one dimension of a matrix inside a function, as known at
/// compile time: a constant (a positive number of elements), or the run-time
/// size of dimension `dim` (0: rows, 1: columns) of parameter `param` of the
/// function.
class SymbolicDim {
public:
  static SymbolicDim constant(int64_t size) { return SymbolicDim(size); }
  static SymbolicDim ofParam(unsigned param, unsigned dim) {
    return SymbolicDim(-1 - int64_t(2 * param + dim));
  }

  bool isConstant() const { return code >= 0; }
  int64_t getConstant() const {
    assert(isConstant() && "not a constant");
    return code;
  }
  unsigned getParam() const {
    assert(!isConstant() && "not a parameter dimension");
    return unsigned((-1 - code) / 2);
  }
  unsigned getDim() const {
    assert(!isConstant() && "not a parameter dimension");
    return unsigned((-1 - code) % 2);
  }

  /// One int64 per SymbolicDim, for attributes: a constant as itself,
  /// dimension `d` of parameter `p` as `-1 - (2 * p + d)`.
  int64_t encode() const { return code; }
  static SymbolicDim decode(int64_t code) { return SymbolicDim(code); }

  bool operator==(const SymbolicDim &other) const { return code == other.code; }
  bool operator!=(const SymbolicDim &other) const { return code != other.code; }

private:
  explicit SymbolicDim(int64_t code) : code(code) {}
  int64_t code;
};

/// Why a DimEquality must hold.
enum class ShapeRelation {
  /// The inner dimensions of `matrix.matmul` (`a @ b`).
  MatmulInner,
  /// The same dimension of both operands of `matrix.add/sub/mul`.
  Elementwise,
  /// A `?` dimension given a fixed size by `tensor.cast`: an argument
  /// passed to a fixed-size parameter, a returned value, a declared type.
  FixedSize,
};

/// `lhs == rhs` must hold when the function runs. `origin` is the operation
/// that needs it (in the function that was analyzed, or in a function it
/// calls, directly or not).
struct DimEquality {
  SymbolicDim lhs;
  SymbolicDim rhs;
  ShapeRelation relation;
  Operation *origin;

  /// Both sides are the same dimension, or the same constant.
  bool isTriviallyTrue() const { return lhs == rhs; }
  /// Both sides are constants, and they differ.
  bool isViolated() const {
    return lhs.isConstant() && rhs.isConstant() && lhs != rhs;
  }
};

/// `matmul_inner`, `elementwise`, `fixed_size`: the relation's name in
/// machine-readable output (`matc --emit=signatures`).
llvm::StringRef getShapeRelationName(ShapeRelation relation);

/// Why `eq` must hold, in Mat terms, for a note or a message: "the inner
/// dimensions of f64[?, 3] @ f64[?, ?] must agree", "f64[?, ?] and
/// f64[2, ?] must have the same shape", "a f64[?, ?] is used as f64[2, ?]"
/// (the operand types of `eq.origin`).
std::string describeShapeRelation(const DimEquality &eq);

/// What a function requires of, and promises about, its shapes.
struct FunctionShapeFacts {
  /// The relations between parameter sizes (and constants) that must hold
  /// on entry; none is trivially true or violated, no two are the same.
  SmallVector<DimEquality> preconditions;
  /// The result's rows and columns in terms of the parameters; empty for a
  /// scalar result.
  SmallVector<SymbolicDim, 2> resultDims;
};

/// Two relations of one function that no sizes satisfy together: through
/// the relations before `second`, `dim` (a parameter's `?` dimension) must
/// be `firstSize`, because of `first`, and `secondSize`, because of
/// `second`.
struct ShapeContradiction {
  SymbolicDim dim;
  DimEquality first;
  int64_t firstSize;
  DimEquality second;
  int64_t secondSize;
};

/// The first contradiction among `relations` (a function's preconditions,
/// in program order): a `?` dimension that they make equal, directly or
/// through other dimensions (union-find over the dimensions), to two
/// different constants. `def f(a: f64[?, ?]) -> f64[?, ?]: return
/// a @ ones(2, 3) + a` needs the columns of `a` to be 2 and 3, so no call
/// can succeed. None when some sizes satisfy them all.
std::optional<ShapeContradiction>
findShapeContradiction(llvm::ArrayRef<DimEquality> relations);

/// Computes SymbolicDims and FunctionShapeFacts for the functions of one
/// module, on demand and once per function. The module may still be under
/// construction (MLIRGen asks about each call as it builds it), but each
/// function it asks about must be complete.
class ShapeConstraintAnalysis {
public:
  /// The size of dimension `dim` (0 or 1) of the 2-D tensor `value`, in
  /// terms of the parameters of the function holding `value`. Fails (and
  /// reports nothing) for values made by operations the analysis does not
  /// know and for calls to functions whose facts fail.
  FailureOr<SymbolicDim> getDim(Value value, unsigned dim);

  /// The facts of `fn`, a `func.func` on tensors. Fails, with an error at
  /// the operation concerned, if a relation is violated (two constants
  /// differ: MLIRGen reports those first, with Mat's wording) or if the
  /// size of a `?` cannot be traced to a parameter.
  FailureOr<const FunctionShapeFacts *> getFacts(func::FuncOp fn);

  /// The preconditions of the callee of `call`, with the argument sizes
  /// substituted, so in terms of the caller's parameters. Those that became
  /// trivially true are left out; violated ones are kept, for the caller to
  /// report.
  FailureOr<SmallVector<DimEquality>> getCallPreconditions(func::CallOp call);

  /// `d`, a size in terms of the parameters of the callee of `call`, in
  /// terms of the caller's: the size of the argument `call` passes.
  FailureOr<SymbolicDim> substitute(func::CallOp call, SymbolicDim d);

private:
  FailureOr<SymbolicDim> computeDim(Value value, unsigned dim);
  /// The callee of `call` and its facts.
  FailureOr<const FunctionShapeFacts *> getCalleeFacts(func::CallOp call);

  llvm::DenseMap<std::pair<Value, unsigned>, SymbolicDim> dims;
  llvm::DenseMap<Operation *, std::unique_ptr<FunctionShapeFacts>> facts;
};

} // namespace matrix
} // namespace mlir

#endif // MATRIXDIALECT_ANALYSIS_SHAPECONSTRAINTS_H
