//===- MLIRGen.cpp - Mat AST to the Matrix dialect ------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Walks the AST once, in source order, building `func` + Matrix dialect IR
// and checking names, element types and shapes on the way (the structure of
// mlir/examples/toy/Ch7/mlir/MLIRGen.cpp, with a scoped symbol table).
//
// Numbers are "weak", as Python numbers are next to NumPy arrays: an
// expression made only of numeric literals is folded here to a double and
// takes the element type of whatever it meets (`a32 * 2` stays f32). Every
// other value has a fixed element type, and f32 never meets f64 silently.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/MLIRGen/MLIRGen.h"
#include "MatrixDialect/MLIRGen/SourceDiagnostics.h"

#include "MatrixDialect/Analysis/ShapeConstraints.h"
#include "MatrixDialect/IR/Ops.h"
#include "parser/AST.h"
#include "parser/Diagnostics.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Verifier.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSwitch.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>

using namespace mlir;
using namespace mlir::matrix;

namespace {

/// The value of a Mat expression: a typed SSA value (a tensor or an f32/f64
/// scalar), or a weak numeric constant not yet given an element type. A weak
/// constant is `integral` when it is an int in Python's sense: integer
/// literals and their sums, differences, products and negations.
struct MatValue {
  Value value;
  double weak = 0;
  bool integral = false;

  static MatValue weakNumber(double number, bool integral = false) {
    return {Value(), number, integral};
  }
  bool isWeak() const { return !value; }
  bool isMatrix() const {
    return value && isa<RankedTensorType>(value.getType());
  }
};

/// A name's binding. A name whose defining statement had an error is
/// `poisoned`: using it fails without a second, cascading, error.
struct Binding {
  MatValue value;
  bool poisoned = false;
};

/// A user function of the file, and how far generation has got with it.
struct FunctionInfo {
  enum class State {
    /// Defined later in the file than the current statement.
    Ahead,
    /// Its body is being generated: a call now would be recursion.
    Generating,
    Defined,
    /// Its body had errors: calls to it check their arguments against its
    /// signature, and their results are poisoned.
    Failed,
  };
  const mat::FunctionAST *ast = nullptr;
  func::FuncOp op;
  State state = State::Ahead;
  /// Defined again later in the file (an error): which signature a call
  /// after the second definition meant is unknown, so calls from there on
  /// are poisoned without checking their arguments against either.
  bool redefined = false;
};

/// Marker for "an error was already reported" in the generator's results.
using Result = FailureOr<MatValue>;

const char *const kBuiltins[] = {"zeros", "ones",      "full", "eye",
                                 "iota",  "transpose", "print"};

class MLIRGenImpl {
public:
  /// `priorErrors`: errors already reported on this file (by the parser),
  /// which count towards the front end's cap of mat::kMaxErrors.
  MLIRGenImpl(MLIRContext &context, unsigned priorErrors)
      : builder(&context), errorCount(priorErrors) {}

  OwningOpRef<ModuleOp> generate(const mat::ModuleAST &ast);

private:
  OpBuilder builder;
  ModuleOp module;
  /// Variables of the top level (`main`). Function bodies do not see them.
  llvm::StringMap<Binding> topLevelSymbols;
  /// Where each top-level name was first bound, to explain to a function
  /// body why it cannot see it.
  llvm::StringMap<mat::Location> topLevelNames;
  /// Variables of the function being generated.
  llvm::StringMap<Binding> functionSymbols;
  /// True while generating a function body (not `main`).
  bool inFunction = false;
  llvm::StringMap<FunctionInfo> functions;

  /// The variables visible here: a function's own, or the top level's.
  llvm::StringMap<Binding> &symbols() {
    return inFunction ? functionSymbols : topLevelSymbols;
  }
  unsigned errorCount = 0;

  //===--------------------------------------------------------------------===//
  // Locations and errors
  //===--------------------------------------------------------------------===//

  Location loc(const mat::Location &l) {
    return FileLineColLoc::get(builder.getStringAttr(*l.file), l.line, l.col);
  }

  /// The source text of `expr` (FileLineColRange from its first character
  /// to just past its last), or its anchor if the parser set no extent.
  Location extent(const mat::ExprAST &expr) {
    const mat::Location &begin = expr.getBegin(), &end = expr.getEnd();
    if (!begin.file || !end.file)
      return loc(expr.getLoc());
    return FileLineColRange::get(builder.getStringAttr(*begin.file),
                                 begin.line, begin.col, end.line, end.col);
  }

  InFlightDiagnostic error(const mat::Location &l) {
    ++errorCount;
    return emitError(loc(l));
  }

  /// True once mat::kMaxErrors errors were reported; the first time, also
  /// says so at `next`, the statement that will not be looked at.
  bool stopForErrorLimit(const mat::Location &next) {
    if (errorCount < mat::kMaxErrors)
      return false;
    if (!reportedErrorLimit)
      emitError(loc(next)) << mat::kTooManyErrorsMessage;
    reportedErrorLimit = true;
    return true;
  }
  bool reportedErrorLimit = false;

  //===--------------------------------------------------------------------===//
  // Types
  //===--------------------------------------------------------------------===//

  FloatType elementType(mat::ElementType t) {
    if (t == mat::ElementType::F32)
      return builder.getF32Type();
    return builder.getF64Type();
  }

  /// The MLIR type of a written type: f32/f64 or tensor<RxCxT> (`?` dynamic).
  Type toMLIRType(const mat::TypeSpec &spec) {
    Type element = elementType(spec.element);
    if (spec.isScalar)
      return element;
    auto dim = [](int64_t d) {
      return d == mat::TypeSpec::kDynamic ? ShapedType::kDynamic : d;
    };
    return RankedTensorType::get({dim(spec.rows), dim(spec.cols)}, element);
  }

  std::string describe(const MatValue &v) {
    return v.isWeak() ? std::string("a number") : formatMatType(v.value.getType());
  }

  /// Gives a weak number the element type `type` (a float type).
  Value materialize(const MatValue &v, Type type, Location l) {
    if (!v.isWeak())
      return v.value;
    return arith::ConstantOp::create(
        builder, l, FloatAttr::get(type, toElement(v.weak, type, l)));
  }

  /// Rounds the number `value` to the float type `type`. A finite number
  /// too large for it (1e39 as f32) is an error reported at `l`, as a
  /// literal overflowing f64 is in the lexer.
  APFloat toElement(double value, Type type, Location l) {
    APFloat element(value);
    bool losesInfo;
    element.convert(cast<FloatType>(type).getFloatSemantics(),
                    APFloat::rmNearestTiesToEven, &losesInfo);
    if (element.isInfinity() && std::isfinite(value)) {
      ++errorCount;
      // The shortest text that reads back as `value`, as Python's repr:
      // 3.4028236e38 must not show as the f32 maximum 3.40282e+38.
      char text[32];
      for (int digits = 1; digits <= 17; ++digits) {
        std::snprintf(text, sizeof(text), "%.*g", digits, value);
        if (std::strtod(text, nullptr) == value)
          break;
      }
      emitError(l) << "number " << text << " overflows " << formatMatType(type);
    }
    return element;
  }

  /// Converts `v` to the declared `type`, reporting at `l` what does not fit
  /// (`what` names the place, e.g. "cannot assign" or "argument 1 of 'f'").
  /// Dimensions declared `?` accept any size; a value of unknown size meets
  /// a known one through tensor.cast. A number is rounded to the type at
  /// `numberLoc` (default `l`), where an overflow is reported.
  FailureOr<Value> coerce(const MatValue &v, Type type,
                          const mat::Location &l, const Twine &what,
                          std::optional<Location> numberLoc = std::nullopt) {
    Location mlirLoc = loc(l);
    if (v.isWeak()) {
      if (isa<FloatType>(type))
        return materialize(v, type, numberLoc.value_or(mlirLoc));
      error(l) << what << ": expected " << formatMatType(type)
               << ", got a number";
      return failure();
    }
    Type actual = v.value.getType();
    if (actual == type)
      return v.value;
    auto fail = [&]() -> FailureOr<Value> {
      error(l) << what << ": expected " << formatMatType(type) << ", got "
               << formatMatType(actual);
      return failure();
    };
    auto expected = dyn_cast<RankedTensorType>(type);
    auto got = dyn_cast<RankedTensorType>(actual);
    if (!expected || !got ||
        expected.getElementType() != got.getElementType())
      return fail();
    for (auto [e, g] : llvm::zip(expected.getShape(), got.getShape()))
      if (!ShapedType::isDynamic(e) && !ShapedType::isDynamic(g) && e != g)
        return fail();
    return tensor::CastOp::create(builder, mlirLoc, expected, v.value)
        .getResult();
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// Generates `expr`. `hint` is the element type literals and builtins take
  /// (from the enclosing declaration), if any.
  Result genExpr(const mat::ExprAST &expr, std::optional<FloatType> hint);

  Result genVar(const mat::VarExprAST &var) {
    if (std::optional<Binding> binding = lookup(var.getName())) {
      if (binding->poisoned)
        return failure();
      return binding->value;
    }
    StringRef name = var.getName();
    if (functions.count(name) || isBuiltin(name)) {
      error(var.getLoc()) << "'" << name
                          << "' is a function; call it with arguments";
      return failure();
    }
    auto diag = error(var.getLoc()) << "use of undefined name '" << name << "'";
    auto global = topLevelNames.find(name);
    if (inFunction && global != topLevelNames.end())
      diag.attachNote(loc(global->second))
          << "a function sees only its parameters; '" << name
          << "' is a top-level name defined here";
    return failure();
  }

  std::optional<Binding> lookup(StringRef name) {
    auto it = symbols().find(name);
    if (it == symbols().end())
      return std::nullopt;
    return it->second;
  }

  static bool isBuiltin(StringRef name) {
    return llvm::is_contained(kBuiltins, name);
  }

  Result genLiteral(const mat::LiteralExprAST &lit,
                    std::optional<FloatType> hint);
  Result genBinary(const mat::BinaryExprAST &bin,
                   std::optional<FloatType> hint);
  Result genNeg(const mat::NegExprAST &neg, std::optional<FloatType> hint);
  Result genTranspose(const mat::TransposeExprAST &tr,
                      std::optional<FloatType> hint);
  Result genCall(const mat::CallExprAST &call, std::optional<FloatType> hint);
  Result genBuiltinCall(const mat::CallExprAST &call,
                        std::optional<FloatType> hint);
  /// The arguments of a call to `fn`, coerced to its parameter types; the
  /// arity and every argument that does not fit are reported at `call`.
  FailureOr<SmallVector<Value>>
  genCallArguments(const mat::CallExprAST &call, const mat::FunctionAST &fn);
  Result genUserCall(const mat::CallExprAST &call, FunctionInfo &callee);
  /// Checks, on the sizes known here, the shape preconditions of the callee
  /// of `callOp` (relations between its `?` sizes, see ShapeConstraints.h):
  /// one that compile-time sizes break is an error at `call`. Returns the
  /// call's result, cast to a static type where the sizes of its `?`
  /// dimensions are known here (always, in `main`).
  Result checkCallShapes(const mat::CallExprAST &call,
                         const mat::FunctionAST &fn, func::CallOp callOp);
  /// Reports, at the operation concerned, a body of `fn` (generated as
  /// `func`, without errors) whose shape relations no sizes satisfy: one
  /// `?` dimension required to be two different sizes
  /// (findShapeContradiction). Every call of it would fail at run time.
  void checkShapesSatisfiable(const mat::FunctionAST &fn, func::FuncOp func);

  /// Reads argument `index` of builtin `call` as a positive integer constant.
  FailureOr<int64_t> getDimension(const mat::CallExprAST &call,
                                  unsigned index);

  //===--------------------------------------------------------------------===//
  // Statements and functions
  //===--------------------------------------------------------------------===//

  /// Generates one statement; failures are reported and the statement's
  /// target name, if any, is poisoned.
  void genStatement(const mat::StmtAST &stmt, const mat::FunctionAST *fn);
  void genPrint(const mat::CallExprAST &call);
  void genFunction(const mat::FunctionAST &fn);
};

} // namespace

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

Result MLIRGenImpl::genExpr(const mat::ExprAST &expr,
                            std::optional<FloatType> hint) {
  switch (expr.getKind()) {
  case mat::ExprAST::Kind::Number:
  {
    const auto &number = cast<mat::NumberExprAST>(expr);
    return MatValue::weakNumber(number.getValue(), number.isInteger());
  }
  case mat::ExprAST::Kind::Literal:
    return genLiteral(cast<mat::LiteralExprAST>(expr), hint);
  case mat::ExprAST::Kind::Var:
    return genVar(cast<mat::VarExprAST>(expr));
  case mat::ExprAST::Kind::Call:
    return genCall(cast<mat::CallExprAST>(expr), hint);
  case mat::ExprAST::Kind::Binary:
    return genBinary(cast<mat::BinaryExprAST>(expr), hint);
  case mat::ExprAST::Kind::Neg:
    return genNeg(cast<mat::NegExprAST>(expr), hint);
  case mat::ExprAST::Kind::Transpose:
    return genTranspose(cast<mat::TransposeExprAST>(expr), hint);
  }
  llvm_unreachable("unknown expression kind");
}

Result MLIRGenImpl::genLiteral(const mat::LiteralExprAST &lit,
                               std::optional<FloatType> hint) {
  const auto &rows = lit.getRows();
  SmallVector<MatValue> elements;
  SmallVector<const mat::ExprAST *> elementExprs; // co-indexed with elements
  std::optional<Type> typed; // element type of the first typed element
  bool failed = false;
  for (const auto &row : rows) {
    for (const auto &element : row) {
      Result v = genExpr(*element, hint);
      if (llvm::failed(v)) {
        failed = true;
        continue;
      }
      if (v->isMatrix()) {
        error(element->getLoc())
            << "matrix literal elements must be numbers or scalars, got "
            << describe(*v);
        failed = true;
        continue;
      }
      if (!v->isWeak()) {
        if (typed && *typed != v->value.getType()) {
          error(element->getLoc())
              << "matrix literal mixes element types "
              << formatMatType(*typed) << " and "
              << formatMatType(v->value.getType());
          failed = true;
          continue;
        }
        typed = v->value.getType();
      }
      elements.push_back(*v);
      elementExprs.push_back(element.get());
    }
  }
  if (failed)
    return failure();
  Type element = typed ? *typed : (hint ? Type(*hint) : builder.getF64Type());
  if (hint && typed && *hint != *typed) {
    error(lit.getLoc()) << "matrix literal of " << formatMatType(*typed)
                        << " elements where " << formatMatType(*hint)
                        << " is declared";
    return failure();
  }
  auto type = RankedTensorType::get(
      {(int64_t)rows.size(), (int64_t)rows.front().size()}, element);
  Location l = loc(lit.getLoc());
  if (!typed) {
    SmallVector<APFloat> values;
    // An overflow is reported at the number, not at the bracket.
    for (auto [v, expr] : llvm::zip(elements, elementExprs))
      values.push_back(toElement(v.weak, element, loc(expr->getLoc())));
    return MatValue{
        ConstantOp::create(builder, l, DenseElementsAttr::get(type, values))};
  }
  SmallVector<Value> values;
  for (const MatValue &v : elements)
    values.push_back(materialize(v, element, l));
  return MatValue{tensor::FromElementsOp::create(builder, l, type, values)};
}

Result MLIRGenImpl::genBinary(const mat::BinaryExprAST &bin,
                              std::optional<FloatType> hint) {
  Result lhs = genExpr(bin.getLHS(), hint);
  Result rhs = genExpr(bin.getRHS(), hint);
  if (failed(lhs) || failed(rhs))
    return failure();
  char op = bin.getOp();
  Location l = loc(bin.getLoc());
  // Errors point at the operator and underline both operands.
  auto emit = [&]() {
    ++errorCount;
    return emitError(mat::getCaretWithRanges(
        l, {extent(bin.getLHS()), extent(bin.getRHS())}));
  };

  // Numbers fold here, as Python would compute them.
  if (lhs->isWeak() && rhs->isWeak() && op != '@') {
    double a = lhs->weak, b = rhs->weak;
    double r = op == '+' ? a + b : op == '-' ? a - b : a * b;
    return MatValue::weakNumber(r, lhs->integral && rhs->integral);
  }
  if (op == '@' && (!lhs->isMatrix() || !rhs->isMatrix())) {
    emit() << "cannot multiply " << describe(*lhs) << " by " << describe(*rhs)
           << " with '@': both operands must be matrices (use '*' to scale "
              "by a scalar)";
    return failure();
  }
  // A number meets a typed value: it takes that value's element type.
  Type lhsElement = lhs->isWeak() ? Type() : getElementTypeOrSelf(lhs->value);
  Type rhsElement = rhs->isWeak() ? Type() : getElementTypeOrSelf(rhs->value);
  // A number overflowing the element type is reported at the number.
  Value a = materialize(*lhs, lhsElement ? lhsElement : rhsElement,
                        extent(bin.getLHS()));
  Value b = materialize(*rhs, rhsElement ? rhsElement : lhsElement,
                        extent(bin.getRHS()));

  if (op == '@') {
    FailureOr<RankedTensorType> type =
        inferMatmulType(a.getType(), b.getType(), emit);
    if (failed(type))
      return failure();
    // Each operand has at most 2^40 elements, the product may have 2^80.
    if (type->hasStaticShape() &&
        type->getDimSize(0) > (int64_t(1) << 40) / type->getDimSize(1)) {
      emit() << "the product " << formatMatType(*type)
             << " would have more than 2^40 elements";
      return failure();
    }
    return MatValue{MatmulOp::create(builder, l, *type, a, b)};
  }

  StringRef verb = op == '+'   ? "add"
                   : op == '-' ? "subtract"
                               : "multiply elementwise";
  // Two scalars: plain arith on the element type.
  if (!isa<RankedTensorType>(a.getType()) &&
      !isa<RankedTensorType>(b.getType())) {
    if (a.getType() != b.getType()) {
      std::string lhsType = formatMatType(a.getType());
      std::string rhsType = formatMatType(b.getType());
      emit() << "cannot " << verb << " " << lhsType << " and " << rhsType
             << ": element types " << lhsType << " and " << rhsType
             << " differ";
      return failure();
    }
    if (op == '+')
      return MatValue{arith::AddFOp::create(builder, l, a, b)};
    if (op == '-')
      return MatValue{arith::SubFOp::create(builder, l, a, b)};
    return MatValue{arith::MulFOp::create(builder, l, a, b)};
  }
  FailureOr<RankedTensorType> type =
      inferElementwiseType(verb, a.getType(), b.getType(), emit);
  if (failed(type))
    return failure();
  if (op == '+')
    return MatValue{AddOp::create(builder, l, *type, a, b)};
  if (op == '-')
    return MatValue{SubOp::create(builder, l, *type, a, b)};
  return MatValue{MulOp::create(builder, l, *type, a, b)};
}

Result MLIRGenImpl::genNeg(const mat::NegExprAST &neg,
                           std::optional<FloatType> hint) {
  Result operand = genExpr(neg.getOperand(), hint);
  if (failed(operand))
    return failure();
  if (operand->isWeak())
    return MatValue::weakNumber(-operand->weak, operand->integral);
  Location l = loc(neg.getLoc());
  if (operand->isMatrix())
    return MatValue{NegOp::create(builder, l, operand->value)};
  return MatValue{arith::NegFOp::create(builder, l, operand->value)};
}

Result MLIRGenImpl::genTranspose(const mat::TransposeExprAST &tr,
                                 std::optional<FloatType> hint) {
  Result operand = genExpr(tr.getOperand(), hint);
  if (failed(operand))
    return failure();
  if (!operand->isMatrix()) {
    error(tr.getLoc()) << "cannot transpose " << describe(*operand)
                       << ": not a matrix";
    return failure();
  }
  auto type = cast<RankedTensorType>(operand->value.getType());
  return MatValue{TransposeOp::create(builder, loc(tr.getLoc()),
                                      inferTransposeType(type),
                                      operand->value)};
}

Result MLIRGenImpl::genCall(const mat::CallExprAST &call,
                            std::optional<FloatType> hint) {
  StringRef name = call.getCallee();
  if (isBuiltin(name))
    return genBuiltinCall(call, hint);
  if (lookup(name)) {
    error(call.getLoc()) << "'" << name << "' is a variable, not a function";
    return failure();
  }
  auto it = functions.find(name);
  if (it == functions.end()) {
    error(call.getLoc()) << "use of undefined function '" << name << "'";
    return failure();
  }
  FunctionInfo &callee = it->second;
  switch (callee.state) {
  case FunctionInfo::State::Defined:
    return genUserCall(call, callee);
  case FunctionInfo::State::Failed:
    // The body had errors, but the signature stands: the call's arity and
    // argument types are still checked against it (and its arguments
    // generated, with their own errors). The shapes its body would require
    // are not known, and the result is poisoned. A function with syntax
    // errors has no signature to check against.
    if (callee.ast && !callee.redefined)
      (void)genCallArguments(call, *callee.ast);
    return failure();
  case FunctionInfo::State::Generating:
    error(call.getLoc()) << "function '" << name
                         << "' cannot call itself: recursion is not "
                            "supported";
    return failure();
  case FunctionInfo::State::Ahead: {
    InFlightDiagnostic diag = error(call.getLoc())
                              << "function '" << name
                              << "' is used before its definition";
    diag.attachNote(loc(callee.ast->loc)) << "'" << name << "' is defined here";
    return failure();
  }
  }
  llvm_unreachable("unknown function state");
}

FailureOr<int64_t> MLIRGenImpl::getDimension(const mat::CallExprAST &call,
                                             unsigned index) {
  const mat::ExprAST &arg = *call.getArgs()[index];
  Result v = genExpr(arg, std::nullopt);
  if (failed(v))
    return failure();
  // Dimensions must be positive integers known at compile time, and a
  // matrix must stay addressable: rows * cols at most 2^40 elements.
  constexpr double kMaxDim = double(int64_t(1) << 40);
  if (v->isWeak() && !v->integral) {
    // As in NumPy: np.zeros((2.0, 2)) is a TypeError.
    error(arg.getLoc()) << "dimension of '" << call.getCallee()
                        << "' must be an integer, not a float";
    return failure();
  }
  if (!v->isWeak() || v->weak != std::floor(v->weak) || v->weak < 1 ||
      v->weak > kMaxDim) {
    error(arg.getLoc()) << "dimension of '" << call.getCallee()
                        << "' must be a positive integer constant, at most 2^40";
    return failure();
  }
  return int64_t(v->weak);
}

Result MLIRGenImpl::genBuiltinCall(const mat::CallExprAST &call,
                                   std::optional<FloatType> hint) {
  StringRef name = call.getCallee();
  const auto &args = call.getArgs();
  Location l = loc(call.getLoc());
  unsigned arity = llvm::StringSwitch<unsigned>(name)
                       .Cases({"zeros", "ones", "iota"}, 2)
                       .Case("full", 3)
                       .Default(1);
  if (name == "print") {
    error(call.getLoc()) << "'print' does not return a value";
    return failure();
  }
  if (args.size() != arity) {
    error(call.getLoc()) << "'" << name << "' takes " << arity
                         << (arity == 1 ? " argument" : " arguments")
                         << ", got " << args.size();
    return failure();
  }
  if (name == "transpose") {
    Result operand = genExpr(*args[0], hint);
    if (failed(operand))
      return failure();
    if (!operand->isMatrix()) {
      error(args[0]->getLoc())
          << "cannot transpose " << describe(*operand) << ": not a matrix";
      return failure();
    }
    auto type = cast<RankedTensorType>(operand->value.getType());
    return MatValue{
        TransposeOp::create(builder, l, inferTransposeType(type), operand->value)};
  }

  FailureOr<int64_t> rows = getDimension(call, 0);
  FailureOr<int64_t> cols = name == "eye" ? rows : getDimension(call, 1);
  if (failed(rows) || failed(cols))
    return failure();
  if (*rows > (int64_t(1) << 40) / *cols) {
    error(call.getLoc()) << "'" << name << "' of " << *rows << "x" << *cols
                         << " is too large (at most 2^40 elements)";
    return failure();
  }
  Type element = hint ? Type(*hint) : builder.getF64Type();
  if (name == "full") {
    Result value = genExpr(*args[2], hint);
    if (failed(value))
      return failure();
    if (value->isMatrix()) {
      error(args[2]->getLoc()) << "fill value of 'full' must be a number or "
                                  "a scalar, got "
                               << describe(*value);
      return failure();
    }
    if (!value->isWeak()) {
      if (hint && value->value.getType() != *hint) {
        error(args[2]->getLoc())
            << "fill value of 'full' is "
            << formatMatType(value->value.getType()) << " but "
            << formatMatType(*hint) << " is declared";
        return failure();
      }
      element = value->value.getType();
    }
    auto type = RankedTensorType::get({*rows, *cols}, element);
    return MatValue{
        FullOp::create(builder, l, type, materialize(*value, element, l))};
  }
  auto type = RankedTensorType::get({*rows, *cols}, element);
  if (name == "zeros" || name == "ones")
    return MatValue{FullOp::create(
        builder, l, type,
        materialize(MatValue::weakNumber(name == "ones" ? 1 : 0), element,
                    l))};
  if (name == "eye")
    return MatValue{EyeOp::create(builder, l, type)};
  return MatValue{IotaOp::create(builder, l, type)};
}

FailureOr<SmallVector<Value>>
MLIRGenImpl::genCallArguments(const mat::CallExprAST &call,
                              const mat::FunctionAST &fn) {
  const auto &args = call.getArgs();
  if (args.size() != fn.params.size()) {
    InFlightDiagnostic diag = error(call.getLoc())
                              << "'" << fn.name << "' takes "
                              << fn.params.size() << " argument"
                              << (fn.params.size() == 1 ? "" : "s") << ", got "
                              << args.size();
    diag.attachNote(loc(fn.loc)) << "'" << fn.name << "' is defined here";
    return failure();
  }
  SmallVector<Value> operands;
  bool failed = false;
  for (auto [index, arg] : llvm::enumerate(args)) {
    const mat::ParamAST &param = fn.params[index];
    Type paramType = toMLIRType(param.type);
    Result v = genExpr(*arg, cast<FloatType>(getElementTypeOrSelf(paramType)));
    if (llvm::failed(v)) {
      failed = true;
      continue;
    }
    FailureOr<Value> operand =
        coerce(*v, paramType, arg->getLoc(),
               "argument " + Twine(index + 1) + " ('" + param.name +
                   "') of '" + fn.name + "'");
    if (llvm::failed(operand)) {
      failed = true;
      continue;
    }
    operands.push_back(*operand);
  }
  if (failed)
    return failure();
  return operands;
}

Result MLIRGenImpl::genUserCall(const mat::CallExprAST &call,
                                FunctionInfo &callee) {
  FailureOr<SmallVector<Value>> operands =
      genCallArguments(call, *callee.ast);
  if (failed(operands))
    return failure();
  auto callOp = func::CallOp::create(builder, loc(call.getLoc()), callee.op,
                                     *operands);
  return checkCallShapes(call, *callee.ast, callOp);
}

/// `rows of 'a'`, `columns of 'b'`: a parameter's `?` size, for messages.
static std::string describeParamDim(const mat::FunctionAST &fn, SymbolicDim d) {
  return std::string(d.getDim() == 0 ? "rows" : "columns") + " of '" +
         fn.params[d.getParam()].name + "'";
}

void MLIRGenImpl::checkShapesSatisfiable(const mat::FunctionAST &fn,
                                         func::FuncOp func) {
  ShapeConstraintAnalysis analysis;
  FailureOr<const FunctionShapeFacts *> facts = analysis.getFacts(func);
  if (failed(facts)) {
    ++errorCount; // The analysis said why.
    return;
  }
  std::optional<ShapeContradiction> contradiction =
      findShapeContradiction((*facts)->preconditions);
  if (!contradiction)
    return;
  ++errorCount;
  InFlightDiagnostic diag = emitError(contradiction->second.origin->getLoc());
  diag << "no call of '" << fn.name << "' can succeed: "
       << describeParamDim(fn, contradiction->dim) << " must be "
       << contradiction->firstSize << " and " << contradiction->secondSize
       << ": " << describeShapeRelation(contradiction->second);
  diag.attachNote(contradiction->first.origin->getLoc())
      << "and " << describeShapeRelation(contradiction->first);
}

Result MLIRGenImpl::checkCallShapes(const mat::CallExprAST &call,
                                    const mat::FunctionAST &fn,
                                    func::CallOp callOp) {
  // A fresh analysis each time: functions with errors get erased.
  ShapeConstraintAnalysis analysis;
  FailureOr<const FunctionShapeFacts *> facts =
      analysis.getFacts(module.lookupSymbol<func::FuncOp>(callOp.getCallee()));
  if (failed(facts)) {
    ++errorCount; // The analysis said why.
    return failure();
  }
  bool ok = true;
  for (const DimEquality &pre : (*facts)->preconditions) {
    FailureOr<SymbolicDim> lhs = analysis.substitute(callOp, pre.lhs);
    FailureOr<SymbolicDim> rhs = analysis.substitute(callOp, pre.rhs);
    if (failed(lhs) || failed(rhs)) {
      error(call.getLoc()) << "internal compiler error: cannot trace the "
                              "argument sizes of this call";
      return failure();
    }
    if (!lhs->isConstant() || !rhs->isConstant() || *lhs == *rhs)
      continue;
    ok = false;
    // A constant, if any, is on the right in the callee's terms.
    SymbolicDim param = pre.lhs.isConstant() ? pre.rhs : pre.lhs;
    SymbolicDim other = pre.lhs.isConstant() ? pre.lhs : pre.rhs;
    int64_t paramSize = (pre.lhs.isConstant() ? rhs : lhs)->getConstant();
    int64_t otherSize = (pre.lhs.isConstant() ? lhs : rhs)->getConstant();
    InFlightDiagnostic diag = error(call.getLoc());
    diag << "cannot call '" << fn.name << "': " << describeParamDim(fn, param);
    if (other.isConstant())
      diag << " must be " << otherSize << ", not " << paramSize;
    else
      diag << " (" << paramSize << ") must equal "
           << describeParamDim(fn, other) << " (" << otherSize << ")";
    diag.attachNote(pre.origin->getLoc())
        << "required here: " << describeShapeRelation(pre);
  }
  if (!ok)
    return failure();

  // Sizes known here make the result's type static.
  Value result = callOp.getResult(0);
  auto type = dyn_cast<RankedTensorType>(result.getType());
  if (!type || type.hasStaticShape())
    return MatValue{result};
  SmallVector<int64_t, 2> shape(type.getShape());
  for (unsigned d = 0; d < 2; ++d) {
    FailureOr<SymbolicDim> size = analysis.getDim(result, d);
    if (succeeded(size) && size->isConstant())
      shape[d] = size->getConstant();
  }
  auto refined = RankedTensorType::get(shape, type.getElementType());
  if (refined == type)
    return MatValue{result};
  return MatValue{
      tensor::CastOp::create(builder, callOp.getLoc(), refined, result)};
}

//===----------------------------------------------------------------------===//
// Statements and functions
//===----------------------------------------------------------------------===//

void MLIRGenImpl::genPrint(const mat::CallExprAST &call) {
  if (call.getArgs().size() != 1) {
    error(call.getLoc()) << "'print' takes 1 argument, got "
                         << call.getArgs().size();
    return;
  }
  Result v = genExpr(*call.getArgs()[0], std::nullopt);
  if (failed(v))
    return;
  Location l = loc(call.getLoc());
  PrintOp::create(builder, l, materialize(*v, builder.getF64Type(), l));
}

void MLIRGenImpl::genStatement(const mat::StmtAST &stmt,
                               const mat::FunctionAST *fn) {
  if (auto *invalid = dyn_cast<mat::InvalidStmtAST>(&stmt)) {
    Binding poisoned;
    poisoned.poisoned = true;
    symbols()[invalid->getName()] = poisoned;
    if (!inFunction)
      topLevelNames.try_emplace(invalid->getName(), invalid->getLoc());
    return;
  }
  if (auto *exprStmt = dyn_cast<mat::ExprStmtAST>(&stmt)) {
    auto *call = dyn_cast<mat::CallExprAST>(&exprStmt->getExpr());
    if (call && call->getCallee() == "print") {
      genPrint(*call);
      return;
    }
    (void)genExpr(exprStmt->getExpr(), std::nullopt);
    return;
  }

  if (auto *ret = dyn_cast<mat::ReturnStmtAST>(&stmt)) {
    Type resultType = toMLIRType(fn->result);
    Result v = genExpr(ret->getValue(),
                       cast<FloatType>(getElementTypeOrSelf(resultType)));
    if (failed(v))
      return;
    FailureOr<Value> result =
        coerce(*v, resultType, ret->getValue().getLoc(),
               "cannot return from '" + fn->name + "'");
    if (succeeded(result))
      func::ReturnOp::create(builder, loc(ret->getLoc()), *result);
    return;
  }

  auto &assign = cast<mat::AssignStmtAST>(stmt);
  std::optional<FloatType> hint;
  std::optional<Type> declared;
  bool ok = true;
  // The parser has rejected `?` dimensions outside function signatures.
  if (const auto &spec = assign.getDeclaredType()) {
    hint = elementType(spec->element);
    declared = toMLIRType(*spec);
  }
  Result v = genExpr(assign.getValue(), hint);
  Binding binding;
  if (ok && succeeded(v)) {
    binding.value = *v;
    if (declared) {
      FailureOr<Value> coerced =
          coerce(*v, *declared, assign.getLoc(),
                 "cannot assign to '" + assign.getName() + "'",
                 extent(assign.getValue()));
      if (failed(coerced))
        ok = false;
      else
        binding.value = MatValue{*coerced};
    }
  } else {
    ok = false;
  }
  binding.poisoned = !ok;
  symbols()[assign.getName()] = binding;
  if (!inFunction)
    topLevelNames.try_emplace(assign.getName(), assign.getLoc());
}

void MLIRGenImpl::genFunction(const mat::FunctionAST &fn) {
  FunctionInfo &info = functions[fn.name];
  SmallVector<Type> paramTypes;
  for (const mat::ParamAST &param : fn.params)
    paramTypes.push_back(toMLIRType(param.type));
  auto type = builder.getFunctionType(paramTypes, toMLIRType(fn.result));
  OpBuilder::InsertionGuard guard(builder);
  builder.setInsertionPointToEnd(module.getBody());
  auto func = func::FuncOp::create(builder, loc(fn.loc),
                                   std::string(mat::kUserFunctionPrefix) + fn.name, type);
  info.op = func;
  info.state = FunctionInfo::State::Generating;
  Block *entry = func.addEntryBlock();
  builder.setInsertionPointToStart(entry);

  functionSymbols.clear();
  inFunction = true;
  unsigned errorsBefore = errorCount;
  // The parser has rejected duplicate parameter names.
  for (auto [param, arg] : llvm::zip(fn.params, entry->getArguments())) {
    // The C interface (matrix-prepare-c-interface) names parameters so.
    arg.setLoc(NameLoc::get(builder.getStringAttr(param.name), loc(param.loc)));
    functionSymbols[param.name] = Binding{MatValue{arg}};
  }
  for (const mat::StmtPtr &stmt : fn.body) {
    if (stopForErrorLimit(stmt->getLoc()))
      break;
    genStatement(*stmt, &fn);
  }
  inFunction = false;
  info.state = FunctionInfo::State::Defined;
  // A body with errors may lack its terminator: drop it. So is one whose
  // `return` failed without an error of its own (it used a poisoned name or
  // called a function that failed): its callers then report nothing more
  // either, instead of failing to analyze an incomplete body.
  bool complete = !entry->empty() && isa<func::ReturnOp>(entry->back());
  if (errorCount == errorsBefore && complete)
    checkShapesSatisfiable(fn, func);
  if (errorCount != errorsBefore || !complete) {
    func.erase();
    info.op = {};
    info.state = FunctionInfo::State::Failed;
  }
}

OwningOpRef<ModuleOp> MLIRGenImpl::generate(const mat::ModuleAST &ast) {
  module = ModuleOp::create(builder.getUnknownLoc());
  // Owns the module: erased on every error return.
  OwningOpRef<ModuleOp> owned(module);
  // Every function is known before generation starts, so that a call ahead
  // of its definition is told apart from a call to an unknown name. The
  // first definition of a name wins; later ones are errors, below.
  for (const mat::TopLevelItem &item : ast.items)
    if (item.function)
      functions.try_emplace(item.function->name,
                            FunctionInfo{item.function.get(), {}, {}});
  // Functions with syntax errors: calls to them report nothing more.
  for (const std::string &name : ast.invalidFunctions)
    functions.try_emplace(name,
                          FunctionInfo{nullptr, {}, FunctionInfo::State::Failed});

  builder.setInsertionPointToEnd(module.getBody());
  auto main = func::FuncOp::create(builder, builder.getUnknownLoc(), "main",
                                   builder.getFunctionType({}, {}));
  Block *mainBlock = main.addEntryBlock();
  for (const mat::TopLevelItem &item : ast.items) {
    if (stopForErrorLimit(item.function ? item.function->loc
                                        : item.statement->getLoc()))
      break;
    if (item.function) {
      const mat::FunctionAST &fn = *item.function;
      const mat::FunctionAST *first = functions[fn.name].ast;
      if (first == &fn) {
        // As in Python, `def f` rebinds the name `f`: a top-level variable
        // of that name before it is gone (`f = 5` then `def f` then `f(2)`
        // calls the function).
        topLevelSymbols.erase(fn.name);
        topLevelNames.erase(fn.name);
        genFunction(fn);
        continue;
      }
      InFlightDiagnostic diag = error(fn.loc) << "redefinition of function '"
                                              << fn.name << "'";
      diag.attachNote(loc(first->loc)) << "first defined here";
      FunctionInfo &info = functions[fn.name];
      info.state = FunctionInfo::State::Failed;
      info.redefined = true;
      continue;
    }
    builder.setInsertionPointToEnd(mainBlock);
    genStatement(*item.statement, nullptr);
  }
  builder.setInsertionPointToEnd(mainBlock);
  func::ReturnOp::create(builder, builder.getUnknownLoc());
  // Keep `main` last, after the functions it calls, for readable output.
  main->moveBefore(module.getBody(), module.getBody()->end());

  if (errorCount)
    return nullptr;
  if (failed(verify(module))) {
    module.emitError("internal compiler error: generated IR does not verify");
    return nullptr;
  }
  return owned;
}

OwningOpRef<ModuleOp> mat::mlirGen(MLIRContext &context,
                                   const ModuleAST &module,
                                   unsigned priorErrors) {
  context.loadDialect<MatrixDialect, func::FuncDialect, arith::ArithDialect,
                      tensor::TensorDialect>();
  return MLIRGenImpl(context, priorErrors).generate(module);
}
