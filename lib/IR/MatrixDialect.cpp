//===- MatrixDialect.cpp - Matrix dialect, verifiers and folders ----------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/IR/Ops.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/IR/TypeUtilities.h"
#include "mlir/Transforms/InliningUtils.h"
#include "llvm/ADT/TypeSwitch.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace mlir::matrix;

#include "MatrixDialect/IR/Dialect.cpp.inc"

namespace {
/// Every Matrix op may be inlined: they compute values from their operands
/// (or print them) and refer to nothing outside the function. The
/// distributed pipeline inlines Mat functions into `main` before sharding
/// it (MatrixDialect/Distributed/Passes.td).
struct MatrixInlinerInterface : DialectInlinerInterface {
  using DialectInlinerInterface::DialectInlinerInterface;

  bool isLegalToInline(Operation *, Region *, bool, IRMapping &) const final {
    return true;
  }
};
} // namespace

void MatrixDialect::initialize() {
  addOperations<
#define GET_OP_LIST
#include "MatrixDialect/IR/Ops.cpp.inc"
      >();
  addInterfaces<MatrixInlinerInterface>();
}

//===----------------------------------------------------------------------===//
// Shape inference shared by the verifiers and MLIRGen
//===----------------------------------------------------------------------===//

std::string mlir::matrix::formatMatType(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  auto tensor = dyn_cast<RankedTensorType>(type);
  if (!tensor) {
    os << type;
    return text;
  }
  os << tensor.getElementType() << '[';
  llvm::interleave(
      tensor.getShape(), os,
      [&](int64_t dim) {
        if (ShapedType::isDynamic(dim))
          os << '?';
        else
          os << dim;
      },
      ", ");
  os << ']';
  return text;
}

/// Two dimensions agree unless both are known and differ.
static bool dimsAgree(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) || ShapedType::isDynamic(b) || a == b;
}

/// The more precise of two agreeing dimensions.
static int64_t mergeDims(int64_t a, int64_t b) {
  return ShapedType::isDynamic(a) ? b : a;
}

FailureOr<RankedTensorType>
mlir::matrix::inferMatmulType(Type lhs, Type rhs,
                              function_ref<InFlightDiagnostic()> emitError) {
  auto lhsTensor = dyn_cast<RankedTensorType>(lhs);
  auto rhsTensor = dyn_cast<RankedTensorType>(rhs);
  auto fail = [&]() {
    return emitError() << "cannot multiply " << formatMatType(lhs) << " by "
                       << formatMatType(rhs);
  };
  if (!lhsTensor || !rhsTensor) {
    fail() << ": '@' needs two matrices (use '*' to scale by a scalar)";
    return failure();
  }
  if (lhsTensor.getElementType() != rhsTensor.getElementType()) {
    fail() << ": element types " << formatMatType(lhsTensor.getElementType())
           << " and " << formatMatType(rhsTensor.getElementType())
           << " differ";
    return failure();
  }
  int64_t lhsK = lhsTensor.getDimSize(1), rhsK = rhsTensor.getDimSize(0);
  if (!dimsAgree(lhsK, rhsK)) {
    fail() << ": inner dimensions " << lhsK << " and " << rhsK << " differ";
    return failure();
  }
  return RankedTensorType::get(
      {lhsTensor.getDimSize(0), rhsTensor.getDimSize(1)},
      lhsTensor.getElementType());
}

FailureOr<RankedTensorType> mlir::matrix::inferElementwiseType(
    StringRef verb, Type lhs, Type rhs,
    function_ref<InFlightDiagnostic()> emitError) {
  auto lhsTensor = dyn_cast<RankedTensorType>(lhs);
  auto rhsTensor = dyn_cast<RankedTensorType>(rhs);
  auto fail = [&]() {
    return emitError() << "cannot " << verb << " " << formatMatType(lhs)
                       << " and " << formatMatType(rhs);
  };
  auto elementType = [](Type t) { return getElementTypeOrSelf(t); };
  if (!lhsTensor && !rhsTensor) {
    fail() << ": at least one operand must be a matrix";
    return failure();
  }
  if (elementType(lhs) != elementType(rhs)) {
    fail() << ": element types " << formatMatType(elementType(lhs))
           << " and " << formatMatType(elementType(rhs)) << " differ";
    return failure();
  }
  if (!lhsTensor)
    return rhsTensor;
  if (!rhsTensor)
    return lhsTensor;
  SmallVector<int64_t, 2> shape;
  for (auto [a, b] : llvm::zip(lhsTensor.getShape(), rhsTensor.getShape())) {
    if (!dimsAgree(a, b)) {
      fail() << ": shapes differ";
      return failure();
    }
    shape.push_back(mergeDims(a, b));
  }
  return RankedTensorType::get(shape, lhsTensor.getElementType());
}

RankedTensorType mlir::matrix::inferTransposeType(RankedTensorType input) {
  return RankedTensorType::get({input.getDimSize(1), input.getDimSize(0)},
                               input.getElementType());
}

/// Checks that an op's declared result type is the one inference gives.
static LogicalResult verifyResultType(Operation *op,
                                      FailureOr<RankedTensorType> inferred) {
  if (failed(inferred))
    return failure();
  Type result = op->getResult(0).getType();
  if (result != *inferred)
    return op->emitOpError("result type ")
           << formatMatType(result) << " does not match the expected "
           << formatMatType(*inferred);
  return success();
}

//===----------------------------------------------------------------------===//
// ConstantOp
//===----------------------------------------------------------------------===//

OpFoldResult ConstantOp::fold(FoldAdaptor) { return getValue(); }

//===----------------------------------------------------------------------===//
// FullOp, EyeOp
//===----------------------------------------------------------------------===//

LogicalResult FullOp::verify() {
  Type elementType = getResult().getType().getElementType();
  if (getValue().getType() != elementType)
    return emitOpError("value type ")
           << formatMatType(getValue().getType())
           << " does not match the element type " << formatMatType(elementType)
           << " of the result";
  return success();
}

LogicalResult EyeOp::verify() {
  RankedTensorType type = getResult().getType();
  if (type.getDimSize(0) != type.getDimSize(1))
    return emitOpError("result must be square, got ") << formatMatType(type);
  return success();
}

//===----------------------------------------------------------------------===//
// MatmulOp
//===----------------------------------------------------------------------===//

RankedTensorType MatmulOp::getEffectiveLhsType() {
  auto type = cast<RankedTensorType>(getLhs().getType());
  return getTransposeLhs() ? inferTransposeType(type) : type;
}

RankedTensorType MatmulOp::getEffectiveRhsType() {
  auto type = cast<RankedTensorType>(getRhs().getType());
  return getTransposeRhs() ? inferTransposeType(type) : type;
}

LogicalResult MatmulOp::verify() {
  // Shapes are checked as the product reads the operands; the message then
  // names the shapes as read and says which operand is transposed.
  StringRef transposed = getTransposeLhs()
                            ? (getTransposeRhs() ? "both operands" : "the lhs")
                            : (getTransposeRhs() ? "the rhs" : "");
  auto emitError = [&]() {
    InFlightDiagnostic diag = emitOpError();
    if (!transposed.empty())
      diag << "with " << transposed << " transposed: ";
    return diag;
  };
  return verifyResultType(*this, inferMatmulType(getEffectiveLhsType(),
                                                 getEffectiveRhsType(),
                                                 emitError));
}

//===----------------------------------------------------------------------===//
// Elementwise binary ops
//===----------------------------------------------------------------------===//

LogicalResult AddOp::verify() {
  return verifyResultType(
      *this, inferElementwiseType("add", getLhs().getType(),
                                  getRhs().getType(),
                                  [&]() { return emitOpError(); }));
}

LogicalResult SubOp::verify() {
  return verifyResultType(
      *this, inferElementwiseType("subtract", getLhs().getType(),
                                  getRhs().getType(),
                                  [&]() { return emitOpError(); }));
}

LogicalResult MulOp::verify() {
  return verifyResultType(
      *this, inferElementwiseType("multiply elementwise", getLhs().getType(),
                                  getRhs().getType(),
                                  [&]() { return emitOpError(); }));
}

//===----------------------------------------------------------------------===//
// NegOp, TransposeOp
//===----------------------------------------------------------------------===//

OpFoldResult NegOp::fold(FoldAdaptor) {
  // -(-x) -> x
  if (auto inner = getInput().getDefiningOp<NegOp>())
    return inner.getInput();
  return {};
}

LogicalResult TransposeOp::verify() {
  return verifyResultType(*this, inferTransposeType(getInput().getType()));
}

OpFoldResult TransposeOp::fold(FoldAdaptor) {
  // transpose(transpose(x)) -> x
  if (auto inner = getInput().getDefiningOp<TransposeOp>())
    if (inner.getInput().getType() == getType())
      return inner.getInput();
  return {};
}

#define GET_OP_CLASSES
#include "MatrixDialect/IR/Ops.cpp.inc"
