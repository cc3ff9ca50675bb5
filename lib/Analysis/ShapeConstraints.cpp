//===- ShapeConstraints.cpp - Run-time shape relations of Mat code --------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Analysis/ShapeConstraints.h"

#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/SymbolTable.h"

using namespace mlir;
using namespace mlir::matrix;

FailureOr<SymbolicDim> ShapeConstraintAnalysis::getDim(Value value,
                                                       unsigned dim) {
  auto type = dyn_cast<RankedTensorType>(value.getType());
  if (!type || type.getRank() != 2 || dim > 1)
    return failure();
  if (!type.isDynamicDim(dim))
    return SymbolicDim::constant(type.getDimSize(dim));
  auto key = std::make_pair(value, dim);
  auto it = dims.find(key);
  if (it != dims.end())
    return it->second;
  FailureOr<SymbolicDim> result = computeDim(value, dim);
  if (succeeded(result))
    dims.try_emplace(key, *result);
  return result;
}

FailureOr<SymbolicDim> ShapeConstraintAnalysis::computeDim(Value value,
                                                           unsigned dim) {
  if (auto arg = dyn_cast<BlockArgument>(value)) {
    if (!isa<func::FuncOp>(arg.getOwner()->getParentOp()) ||
        !arg.getOwner()->isEntryBlock())
      return failure();
    return SymbolicDim::ofParam(arg.getArgNumber(), dim);
  }
  Operation *op = value.getDefiningOp();
  if (auto matmul = dyn_cast<MatmulOp>(op)) {
    // `transpose_lhs`/`transpose_rhs`: that operand is stored transposed.
    if (dim == 0)
      return getDim(matmul.getLhs(), matmul.getTransposeLhs() ? 1 : 0);
    return getDim(matmul.getRhs(), matmul.getTransposeRhs() ? 0 : 1);
  }
  if (auto transpose = dyn_cast<TransposeOp>(op))
    return getDim(transpose.getInput(), 1 - dim);
  if (auto neg = dyn_cast<NegOp>(op))
    return getDim(neg.getInput(), dim);
  if (isa<AddOp, SubOp, MulOp>(op)) {
    // Either matrix operand gives the size: they are equal when it runs.
    for (Value operand : op->getOperands())
      if (isa<RankedTensorType>(operand.getType()))
        return getDim(operand, dim);
    return failure();
  }
  if (auto cast = dyn_cast<tensor::CastOp>(op))
    return getDim(cast.getSource(), dim);
  if (auto call = dyn_cast<func::CallOp>(op)) {
    FailureOr<const FunctionShapeFacts *> callee = getCalleeFacts(call);
    if (failed(callee) || (*callee)->resultDims.size() != 2 ||
        call.getNumResults() != 1)
      return failure();
    return substitute(call, (*callee)->resultDims[dim]);
  }
  return failure();
}

FailureOr<const FunctionShapeFacts *>
ShapeConstraintAnalysis::getCalleeFacts(func::CallOp call) {
  auto callee = SymbolTable::lookupNearestSymbolFrom<func::FuncOp>(
      call, call.getCalleeAttr());
  if (!callee || callee.isExternal())
    return failure();
  return getFacts(callee);
}

FailureOr<SymbolicDim> ShapeConstraintAnalysis::substitute(func::CallOp call,
                                                           SymbolicDim d) {
  if (d.isConstant())
    return d;
  if (d.getParam() >= call.getNumOperands())
    return failure();
  return getDim(call.getOperand(d.getParam()), d.getDim());
}

FailureOr<SmallVector<DimEquality>>
ShapeConstraintAnalysis::getCallPreconditions(func::CallOp call) {
  FailureOr<const FunctionShapeFacts *> callee = getCalleeFacts(call);
  if (failed(callee))
    return failure();
  SmallVector<DimEquality> result;
  for (const DimEquality &pre : (*callee)->preconditions) {
    FailureOr<SymbolicDim> lhs = substitute(call, pre.lhs);
    FailureOr<SymbolicDim> rhs = substitute(call, pre.rhs);
    if (failed(lhs) || failed(rhs))
      return failure();
    DimEquality translated{*lhs, *rhs, pre.relation, pre.origin};
    if (!translated.isTriviallyTrue())
      result.push_back(translated);
  }
  return result;
}

FailureOr<const FunctionShapeFacts *>
ShapeConstraintAnalysis::getFacts(func::FuncOp fn) {
  auto it = facts.find(fn);
  if (it != facts.end()) {
    if (!it->second)
      return failure(); // Being computed: recursion, which Mat rejects.
    return it->second.get();
  }
  facts[fn] = nullptr;

  auto result = std::make_unique<FunctionShapeFacts>();
  bool ok = true;
  auto require = [&](Operation *op, Value a, unsigned aDim, Value b,
                     unsigned bDim, ShapeRelation relation) {
    FailureOr<SymbolicDim> lhs = getDim(a, aDim);
    FailureOr<SymbolicDim> rhs = getDim(b, bDim);
    if (failed(lhs) || failed(rhs)) {
      op->emitError("cannot trace the sizes of a '?' dimension to the "
                    "parameters of the function");
      ok = false;
      return;
    }
    DimEquality eq{*lhs, *rhs, relation, op};
    if (eq.isViolated()) {
      op->emitError() << "shape mismatch: a dimension of size "
                      << lhs->getConstant() << " meets one of size "
                      << rhs->getConstant();
      ok = false;
      return;
    }
    if (!eq.isTriviallyTrue())
      result->preconditions.push_back(eq);
  };

  fn.walk([&](Operation *op) {
    if (!ok)
      return WalkResult::interrupt();
    if (auto matmul = dyn_cast<MatmulOp>(op)) {
      require(op, matmul.getLhs(), matmul.getTransposeLhs() ? 0 : 1,
              matmul.getRhs(), matmul.getTransposeRhs() ? 1 : 0,
              ShapeRelation::MatmulInner);
    } else if (isa<AddOp, SubOp, MulOp>(op)) {
      Value lhs = op->getOperand(0), rhs = op->getOperand(1);
      if (isa<RankedTensorType>(lhs.getType()) &&
          isa<RankedTensorType>(rhs.getType()))
        for (unsigned d = 0; d < 2; ++d)
          require(op, lhs, d, rhs, d, ShapeRelation::Elementwise);
    } else if (auto cast = dyn_cast<tensor::CastOp>(op)) {
      auto to = dyn_cast<RankedTensorType>(cast.getType());
      if (to && to.getRank() == 2)
        for (unsigned d = 0; d < 2; ++d)
          if (!to.isDynamicDim(d))
            require(op, cast.getSource(), d, cast.getResult(), d,
                    ShapeRelation::FixedSize);
    } else if (auto call = dyn_cast<func::CallOp>(op)) {
      FailureOr<SmallVector<DimEquality>> pres = getCallPreconditions(call);
      if (failed(pres)) {
        op->emitError("cannot derive the shape requirements of this call");
        ok = false;
        return WalkResult::interrupt();
      }
      for (const DimEquality &pre : *pres) {
        if (pre.isViolated()) {
          op->emitError() << "shape mismatch in this call: a dimension of "
                             "size "
                          << pre.lhs.getConstant() << " meets one of size "
                          << pre.rhs.getConstant();
          ok = false;
          continue;
        }
        result->preconditions.push_back(pre);
      }
    } else if (auto ret = dyn_cast<func::ReturnOp>(op)) {
      if (ret.getNumOperands() == 1 &&
          isa<RankedTensorType>(ret.getOperand(0).getType())) {
        for (unsigned d = 0; d < 2; ++d) {
          FailureOr<SymbolicDim> size = getDim(ret.getOperand(0), d);
          if (failed(size)) {
            op->emitError("cannot trace the sizes of the result to the "
                          "parameters of the function");
            ok = false;
            return WalkResult::interrupt();
          }
          result->resultDims.push_back(*size);
        }
      }
    }
    return WalkResult::advance();
  });
  if (!ok)
    return failure();

  // Keep one of each relation, in program order (a == b and b == a alike).
  SmallVector<DimEquality> unique;
  for (const DimEquality &eq : result->preconditions) {
    bool seen = llvm::any_of(unique, [&](const DimEquality &u) {
      return (u.lhs == eq.lhs && u.rhs == eq.rhs) ||
             (u.lhs == eq.rhs && u.rhs == eq.lhs);
    });
    if (!seen)
      unique.push_back(eq);
  }
  result->preconditions = std::move(unique);
  auto &slot = facts[fn];
  slot = std::move(result);
  return slot.get();
}

std::optional<ShapeContradiction>
mlir::matrix::findShapeContradiction(ArrayRef<DimEquality> relations) {
  // Union-find over encoded SymbolicDims (a constant is a node of its
  // own); a class remembers the constant it holds and the relation that
  // brought it in.
  struct Class {
    std::optional<int64_t> constant;
    const DimEquality *because = nullptr;
  };
  llvm::DenseMap<int64_t, int64_t> parent;
  llvm::DenseMap<int64_t, Class> classes;
  auto find = [&](int64_t node) {
    auto [it, inserted] = parent.try_emplace(node, node);
    if (inserted) {
      SymbolicDim dim = SymbolicDim::decode(node);
      if (dim.isConstant())
        classes[node].constant = dim.getConstant();
      return node;
    }
    int64_t root = node;
    while (parent[root] != root)
      root = parent[root];
    while (parent[node] != root)
      node = std::exchange(parent[node], root);
    return root;
  };
  for (const DimEquality &eq : relations) {
    int64_t a = find(eq.lhs.encode()), b = find(eq.rhs.encode());
    if (a == b)
      continue;
    Class ca = classes.lookup(a), cb = classes.lookup(b);
    if (ca.constant && cb.constant && *ca.constant != *cb.constant) {
      // `first` is the relation that gave a class its constant: the class
      // of `eq`'s parameter dimension when it has one, else the other.
      bool lhsIsDim = !eq.lhs.isConstant();
      const Class &dimSide = lhsIsDim ? ca : cb;
      const Class &first = dimSide.because ? dimSide : (lhsIsDim ? cb : ca);
      const Class &other = &first == &ca ? cb : ca;
      if (!first.because)
        continue; // Two constants: isViolated(), reported where it is made.
      return ShapeContradiction{lhsIsDim ? eq.lhs : eq.rhs, *first.because,
                                *first.constant, eq, *other.constant};
    }
    Class merged = ca.constant ? ca : cb;
    if (merged.constant && !merged.because)
      merged.because = &eq;
    parent[b] = a;
    classes[a] = merged;
  }
  return std::nullopt;
}

StringRef mlir::matrix::getShapeRelationName(ShapeRelation relation) {
  switch (relation) {
  case ShapeRelation::MatmulInner:
    return "matmul_inner";
  case ShapeRelation::Elementwise:
    return "elementwise";
  case ShapeRelation::FixedSize:
    return "fixed_size";
  }
  llvm_unreachable("unknown shape relation");
}

std::string mlir::matrix::describeShapeRelation(const DimEquality &eq) {
  Operation *origin = eq.origin;
  auto typeOf = [&](unsigned i) {
    return formatMatType(origin->getOperand(i).getType());
  };
  switch (eq.relation) {
  case ShapeRelation::MatmulInner:
    return "the inner dimensions of " + typeOf(0) + " @ " + typeOf(1) +
           " must agree";
  case ShapeRelation::Elementwise:
    return typeOf(0) + " and " + typeOf(1) + " must have the same shape";
  case ShapeRelation::FixedSize:
    return "a " + typeOf(0) + " is used as " +
           formatMatType(origin->getResult(0).getType());
  }
  llvm_unreachable("unknown shape relation");
}
