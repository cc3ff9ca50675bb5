//===- AST.h - Abstract syntax tree of Mat ----------------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The AST the parser builds and MLIRGen consumes. Every node carries the
// source Location of its first token (for binary operators: the operator).
// Depends on LLVMSupport only.
//
//===----------------------------------------------------------------------===//

#ifndef MATC_PARSER_AST_H
#define MATC_PARSER_AST_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Casting.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace mat {

/// A position in a source file: `file` is the name diagnostics print,
/// `line` and `col` count from 1 (col in bytes). `ptr` points into the
/// buffer held by the llvm::SourceMgr, for caret diagnostics.
struct Location {
  std::shared_ptr<std::string> file;
  int line = 0;
  int col = 0;
  llvm::SMLoc ptr;
};

/// Element types of Mat.
enum class ElementType { F64, F32 };

/// A type written in source: `f64` (scalar) or `f32[2, ?]` (matrix).
/// A dimension written `?` is kDynamic.
struct TypeSpec {
  static constexpr int64_t kDynamic = -1;
  ElementType element = ElementType::F64;
  bool isScalar = true;
  int64_t rows = 0, cols = 0;
  Location loc;
};

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

class ExprAST {
public:
  enum class Kind { Number, Literal, Var, Call, Binary, Neg, Transpose };
  ExprAST(Kind kind, Location loc) : kind(kind), loc(std::move(loc)) {}
  virtual ~ExprAST() = default;
  Kind getKind() const { return kind; }
  const Location &getLoc() const { return loc; }

  /// The source text of the whole expression, parentheses included:
  /// [getBegin(), getEnd()), getEnd() just past its last character. Set by
  /// the parser; diagnostics underline it.
  const Location &getBegin() const { return begin; }
  const Location &getEnd() const { return end; }
  void setExtent(Location first, Location pastLast) {
    begin = std::move(first);
    end = std::move(pastLast);
  }

private:
  const Kind kind;
  Location loc;
  Location begin, end;
};

using ExprPtr = std::unique_ptr<ExprAST>;

/// A numeric literal: `1`, `1.5`, `.5`, `1e-3`, `1_000` (always finite).
/// isInteger() is true for a literal spelled without a point or an exponent
/// (`12`, `1_000`), an int in Python; only those can be dimensions.
class NumberExprAST : public ExprAST {
public:
  NumberExprAST(Location loc, double value, bool integer)
      : ExprAST(Kind::Number, std::move(loc)), value(value), integer(integer) {}
  double getValue() const { return value; }
  bool isInteger() const { return integer; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Number; }

private:
  double value;
  bool integer;
};

/// A bracketed matrix literal. `[[1, 2], [3, 4]]` has two rows;
/// the 1-D form `[1, 2, 3]` is stored as one row (a 1x3 matrix) with
/// isOneDimensional() true. Rows are non-empty and of equal length (the
/// parser checks). Elements are arbitrary expressions; MLIRGen requires
/// them to be scalars.
class LiteralExprAST : public ExprAST {
public:
  LiteralExprAST(Location loc, std::vector<std::vector<ExprPtr>> rows,
                 bool oneDimensional)
      : ExprAST(Kind::Literal, std::move(loc)), rows(std::move(rows)),
        oneDimensional(oneDimensional) {}
  const std::vector<std::vector<ExprPtr>> &getRows() const { return rows; }
  bool isOneDimensional() const { return oneDimensional; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Kind::Literal;
  }

private:
  std::vector<std::vector<ExprPtr>> rows;
  bool oneDimensional;
};

/// A use of a name.
class VarExprAST : public ExprAST {
public:
  VarExprAST(Location loc, std::string name)
      : ExprAST(Kind::Var, std::move(loc)), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Var; }

private:
  std::string name;
};

/// A call `callee(args...)`: a user function or a builtin (zeros, ones,
/// full, eye, iota, transpose, print). Location is the callee's name.
class CallExprAST : public ExprAST {
public:
  CallExprAST(Location loc, std::string callee, std::vector<ExprPtr> args)
      : ExprAST(Kind::Call, std::move(loc)), callee(std::move(callee)),
        args(std::move(args)) {}
  llvm::StringRef getCallee() const { return callee; }
  const std::vector<ExprPtr> &getArgs() const { return args; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Call; }

private:
  std::string callee;
  std::vector<ExprPtr> args;
};

/// `lhs op rhs` with op one of '@', '*', '+', '-'. Location is the operator.
class BinaryExprAST : public ExprAST {
public:
  BinaryExprAST(Location loc, char op, ExprPtr lhs, ExprPtr rhs)
      : ExprAST(Kind::Binary, std::move(loc)), op(op), lhs(std::move(lhs)),
        rhs(std::move(rhs)) {}
  char getOp() const { return op; }
  const ExprAST &getLHS() const { return *lhs; }
  const ExprAST &getRHS() const { return *rhs; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Binary; }

private:
  char op;
  ExprPtr lhs, rhs;
};

/// `-operand`. Location is the '-'.
class NegExprAST : public ExprAST {
public:
  NegExprAST(Location loc, ExprPtr operand)
      : ExprAST(Kind::Neg, std::move(loc)), operand(std::move(operand)) {}
  const ExprAST &getOperand() const { return *operand; }
  static bool classof(const ExprAST *e) { return e->getKind() == Kind::Neg; }

private:
  ExprPtr operand;
};

/// `operand.T`. Location is the '.'.
class TransposeExprAST : public ExprAST {
public:
  TransposeExprAST(Location loc, ExprPtr operand)
      : ExprAST(Kind::Transpose, std::move(loc)), operand(std::move(operand)) {}
  const ExprAST &getOperand() const { return *operand; }
  static bool classof(const ExprAST *e) {
    return e->getKind() == Kind::Transpose;
  }

private:
  ExprPtr operand;
};

//===----------------------------------------------------------------------===//
// Statements, functions, module
//===----------------------------------------------------------------------===//

class StmtAST {
public:
  enum class Kind { Assign, Expr, Return, Invalid };
  StmtAST(Kind kind, Location loc) : kind(kind), loc(std::move(loc)) {}
  virtual ~StmtAST() = default;
  Kind getKind() const { return kind; }
  const Location &getLoc() const { return loc; }

private:
  const Kind kind;
  Location loc;
};

using StmtPtr = std::unique_ptr<StmtAST>;

/// `name = value` or `name: TYPE = value`. Location is the name.
class AssignStmtAST : public StmtAST {
public:
  AssignStmtAST(Location loc, std::string name,
                std::optional<TypeSpec> declared, ExprPtr value)
      : StmtAST(Kind::Assign, std::move(loc)), name(std::move(name)),
        declared(std::move(declared)), value(std::move(value)) {}
  llvm::StringRef getName() const { return name; }
  const std::optional<TypeSpec> &getDeclaredType() const { return declared; }
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Assign; }

private:
  std::string name;
  std::optional<TypeSpec> declared;
  ExprPtr value;
};

/// A top-level assignment to `name` with a syntax error (already reported):
/// kept in place of the statement so that MLIRGen poisons `name` there, and
/// later uses of it report nothing more. Location is the name.
class InvalidStmtAST : public StmtAST {
public:
  InvalidStmtAST(Location loc, std::string name)
      : StmtAST(Kind::Invalid, std::move(loc)), name(std::move(name)) {}
  llvm::StringRef getName() const { return name; }
  static bool classof(const StmtAST *s) {
    return s->getKind() == Kind::Invalid;
  }

private:
  std::string name;
};

/// An expression evaluated for its effect, e.g. `print(x)` or `f(A)`.
class ExprStmtAST : public StmtAST {
public:
  ExprStmtAST(Location loc, ExprPtr expr)
      : StmtAST(Kind::Expr, std::move(loc)), expr(std::move(expr)) {}
  const ExprAST &getExpr() const { return *expr; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Expr; }

private:
  ExprPtr expr;
};

/// `return value` (only as the last statement of a function body).
class ReturnStmtAST : public StmtAST {
public:
  ReturnStmtAST(Location loc, ExprPtr value)
      : StmtAST(Kind::Return, std::move(loc)), value(std::move(value)) {}
  const ExprAST &getValue() const { return *value; }
  static bool classof(const StmtAST *s) { return s->getKind() == Kind::Return; }

private:
  ExprPtr value;
};

/// One parameter `name: TYPE`.
struct ParamAST {
  std::string name;
  TypeSpec type;
  Location loc;
};

/// `def name(params) -> result:` and its body, the last statement of which
/// is a ReturnStmtAST (the parser checks). Location is the name.
struct FunctionAST {
  std::string name;
  std::vector<ParamAST> params;
  TypeSpec result;
  std::vector<StmtPtr> body;
  Location loc;
};

/// One top-level item, in source order: exactly one member is set.
struct TopLevelItem {
  std::unique_ptr<FunctionAST> function;
  StmtPtr statement;
};

/// A whole source file. The top-level statements, in order, form `main`.
struct ModuleAST {
  std::vector<TopLevelItem> items;
  /// Functions whose definition had a syntax error (already reported), left
  /// out of `items`: calls to them report nothing more.
  std::vector<std::string> invalidFunctions;
};

/// Prints `module` as an indented tree (the output of `matc --emit=ast`),
/// each node followed by `@line:col`.
void dumpAST(const ModuleAST &module, llvm::raw_ostream &os);

} // namespace mat

#endif // MATC_PARSER_AST_H
