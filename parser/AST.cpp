//===- AST.cpp - Printing the Mat AST -------------------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// dumpAST, the output of `matc --emit=ast`: one node per line, children
// indented by two spaces, each node followed by `@line:col`. For example
//
//   Module
//     Function gram @5:5
//       Param a: f64[?, 3] @5:10
//       Result f64[3, 3]
//       Return @6:5
//         Binary '@' @6:18
//           Transpose @6:13
//             Var a @6:12
//           Var a @6:20
//     Assign x: f32[1, 2] @1:1
//       Literal 1x2 (1-D) @1:16
//         Number 0.5 @1:17
//         Neg @1:22
//           Number 2 @1:23
//
//===----------------------------------------------------------------------===//

#include "parser/AST.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/ErrorHandling.h"

#include <charconv>

using namespace mat;

namespace {

/// Prints `value` in the shortest form that reads back as the same double,
/// fixed or scientific, whichever is shorter (`0.5`, `1000`, `1e+20`).
std::string formatNumber(double value) {
  char buffer[32];
  std::to_chars_result result =
      std::to_chars(buffer, buffer + sizeof(buffer), value);
  return std::string(buffer, result.ptr);
}

void printType(const TypeSpec &type, llvm::raw_ostream &os) {
  os << (type.element == ElementType::F32 ? "f32" : "f64");
  if (type.isScalar)
    return;
  auto printDim = [&](int64_t dim) {
    if (dim == TypeSpec::kDynamic)
      os << '?';
    else
      os << dim;
  };
  os << '[';
  printDim(type.rows);
  os << ", ";
  printDim(type.cols);
  os << ']';
}

class ASTDumper {
public:
  explicit ASTDumper(llvm::raw_ostream &os) : os(os) {}

  void dump(const ModuleAST &module) {
    os << "Module\n";
    Nest nest(*this);
    for (const TopLevelItem &item : module.items) {
      if (item.function)
        dump(*item.function);
      else
        dump(*item.statement);
    }
  }

private:
  /// Indents the lines printed during its lifetime one level deeper.
  struct Nest {
    explicit Nest(ASTDumper &dumper) : dumper(dumper) { ++dumper.depth; }
    ~Nest() { --dumper.depth; }
    ASTDumper &dumper;
  };

  /// Starts a line at the current depth.
  llvm::raw_ostream &line() { return os.indent(2 * depth); }

  void printLoc(const Location &loc) {
    os << " @" << loc.line << ':' << loc.col << '\n';
  }

  void dump(const FunctionAST &fn) {
    line() << "Function " << fn.name;
    printLoc(fn.loc);
    Nest nest(*this);
    for (const ParamAST &param : fn.params) {
      line() << "Param " << param.name << ": ";
      printType(param.type, os);
      printLoc(param.loc);
    }
    line() << "Result ";
    printType(fn.result, os);
    os << '\n';
    for (const StmtPtr &stmt : fn.body)
      dump(*stmt);
  }

  void dump(const StmtAST &stmt) {
    const ExprAST *child;
    if (auto *assign = llvm::dyn_cast<AssignStmtAST>(&stmt)) {
      line() << "Assign " << assign->getName();
      if (const std::optional<TypeSpec> &type = assign->getDeclaredType()) {
        os << ": ";
        printType(*type, os);
      }
      child = &assign->getValue();
    } else if (auto *ret = llvm::dyn_cast<ReturnStmtAST>(&stmt)) {
      line() << "Return";
      child = &ret->getValue();
    } else if (auto *invalid = llvm::dyn_cast<InvalidStmtAST>(&stmt)) {
      line() << "Invalid " << invalid->getName();
      printLoc(stmt.getLoc());
      return;
    } else {
      line() << "ExprStmt";
      child = &llvm::cast<ExprStmtAST>(stmt).getExpr();
    }
    printLoc(stmt.getLoc());
    Nest nest(*this);
    dump(*child);
  }

  void dump(const ExprAST &expr) {
    switch (expr.getKind()) {
    case ExprAST::Kind::Number:
      line() << "Number "
             << formatNumber(llvm::cast<NumberExprAST>(expr).getValue());
      printLoc(expr.getLoc());
      return;
    case ExprAST::Kind::Var:
      line() << "Var " << llvm::cast<VarExprAST>(expr).getName();
      printLoc(expr.getLoc());
      return;
    case ExprAST::Kind::Literal: {
      auto &literal = llvm::cast<LiteralExprAST>(expr);
      const auto &rows = literal.getRows();
      line() << "Literal " << rows.size() << 'x' << rows.front().size();
      if (literal.isOneDimensional())
        os << " (1-D)";
      printLoc(expr.getLoc());
      Nest nest(*this);
      for (const std::vector<ExprPtr> &row : rows)
        for (const ExprPtr &element : row)
          dump(*element);
      return;
    }
    case ExprAST::Kind::Call: {
      auto &call = llvm::cast<CallExprAST>(expr);
      line() << "Call " << call.getCallee();
      printLoc(expr.getLoc());
      Nest nest(*this);
      for (const ExprPtr &arg : call.getArgs())
        dump(*arg);
      return;
    }
    case ExprAST::Kind::Binary: {
      auto &binary = llvm::cast<BinaryExprAST>(expr);
      line() << "Binary '" << binary.getOp() << "'";
      printLoc(expr.getLoc());
      Nest nest(*this);
      dump(binary.getLHS());
      dump(binary.getRHS());
      return;
    }
    case ExprAST::Kind::Neg: {
      line() << "Neg";
      printLoc(expr.getLoc());
      Nest nest(*this);
      dump(llvm::cast<NegExprAST>(expr).getOperand());
      return;
    }
    case ExprAST::Kind::Transpose: {
      line() << "Transpose";
      printLoc(expr.getLoc());
      Nest nest(*this);
      dump(llvm::cast<TransposeExprAST>(expr).getOperand());
      return;
    }
    }
    llvm_unreachable("unknown expression kind");
  }

  llvm::raw_ostream &os;
  unsigned depth = 0;
};

} // namespace

void mat::dumpAST(const ModuleAST &module, llvm::raw_ostream &os) {
  ASTDumper(os).dump(module);
}
