//===- Parser.cpp - Recursive-descent parser for Mat ----------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// One parseX() per grammar rule, the rule in its doc comment; binary
// operators by precedence climbing (after mlir/examples/toy/Ch7's parser).
//
// Error recovery: a syntax error is reported once, then the rest of the
// logical line is skipped. An indented block that follows a line in error
// is skipped silently, so that a mistake does not cascade into
// "unexpected indent" and friends.
//
//===----------------------------------------------------------------------===//

#include "parser/Parser.h"
#include "parser/Lexer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/ScopeExit.h"
#include "llvm/Support/FormatVariadic.h"

#include <algorithm>

using namespace mat;
using llvm::StringRef;

namespace {

/// Parentheses, brackets, unary minus and call arguments nest at most this
/// deep (inside the outermost expression), so that parsing cannot exhaust
/// the stack.
constexpr unsigned kMaxNesting = 200;
/// Expression trees are at most this tall (a long chain `a + b + ...` is a
/// tall tree), so that recursive consumers of the AST (dumpAST, MLIRGen,
/// the destructors) cannot exhaust the stack either.
constexpr unsigned kMaxExprHeight = 1000;

/// Builtins and types: they cannot be rebound.
bool isReservedName(StringRef name) {
  return llvm::is_contained({"zeros", "ones", "full", "eye", "iota",
                             "transpose", "print", "f32", "f64"},
                            name);
}

/// Binding strength of a binary operator token, or -1 for other tokens.
int getPrecedence(TokenKind kind) {
  switch (kind) {
  case TokenKind::At:
  case TokenKind::Star:
    return 2;
  case TokenKind::Plus:
  case TokenKind::Minus:
    return 1;
  default:
    return -1;
  }
}

/// A parsed expression and the height of its tree (a leaf has height 1).
/// A null `ast` means an error was reported.
struct ParsedExpr {
  ExprPtr ast;
  unsigned height = 0;
  explicit operator bool() const { return ast != nullptr; }
};

class Parser {
public:
  Parser(Diagnostics &diags, unsigned bufferId)
      : diags(diags), lexer(diags, bufferId) {
    consume();
  }

  std::unique_ptr<ModuleAST> parseModule();

private:
  /// Parses a function definition into `fn`. Returns false after an error
  /// (fn.name is set if the name was read).
  bool parseFuncDef(FunctionAST &fn);
  bool parseSignature(FunctionAST &fn);
  bool parseParams(FunctionAST &fn);
  bool parseParam(ParamAST &param);
  bool parseBody(FunctionAST &fn);
  StmtPtr parseStatement();
  StmtPtr parseAssignOrExprStatement();
  std::optional<TypeSpec> parseType(bool allowDynamic);
  std::optional<int64_t> parseDim(bool allowDynamic);

  ParsedExpr parseExpr();
  ParsedExpr parseBinaryRHS(int minPrecedence, ParsedExpr lhs);
  ParsedExpr parseUnary();
  ParsedExpr parsePostfix();
  ParsedExpr parsePrimary();
  ParsedExpr parseParenExpr();
  ParsedExpr parseCall(const Token &name);
  ParsedExpr parseMatrixLiteral();
  bool parseRows(const Token &open, std::vector<std::vector<ExprPtr>> &rows,
                 unsigned &height);
  bool parseRow(bool inner, std::vector<ExprPtr> &row, unsigned &height);
  ParsedExpr makeExpr(ExprPtr node, unsigned childHeight);

  void consume() {
    previousEnd = tok.loc;
    previousEnd.col += tok.spelling.size();
    previousEnd.ptr = llvm::SMLoc::getFromPointer(tok.spelling.end());
    tok = lexer.next();
  }
  /// Sets the extent of `expr` to [begin, end of the last consumed token).
  void setExtent(ParsedExpr &expr, const Location &begin) {
    if (expr)
      expr.ast->setExtent(begin, previousEnd);
  }
  /// Reports `message` at `at` unless it is an Error token, which the lexer
  /// already reported. At end of file, adds a note at the innermost open
  /// bracket.
  void error(const Token &at, const llvm::Twine &message);
  /// If the current token is of `kind`, consumes it (unless `consumeIt` is
  /// false: the caller reads it first) and returns true. Otherwise reports
  /// `message` at the current token as error() does and returns false; when
  /// `kind` continues or closes a bracket (',', ')', ']') and one is open,
  /// the note is "to match this" at the innermost open bracket.
  bool expect(TokenKind kind, const llvm::Twine &message,
              bool consumeIt = true);
  void skipLine();
  void skipBlock();
  void skipUnexpectedBlock(bool afterError);

  /// Consumes the current token, an opening bracket, and keeps it on
  /// openBrackets for its lifetime.
  class BracketScope {
  public:
    explicit BracketScope(Parser &parser) : parser(parser) {
      parser.openBrackets.push_back(parser.tok);
      parser.consume();
    }
    ~BracketScope() { parser.openBrackets.pop_back(); }

  private:
    Parser &parser;
  };

  Diagnostics &diags;
  Lexer lexer;
  /// The current token.
  Token tok;
  /// Just past the last consumed token.
  Location previousEnd;
  /// The name (and its location) a statement with an error was assigning,
  /// when the error came after a valid target.
  std::optional<std::pair<std::string, Location>> failedTarget;
  /// The brackets being parsed, innermost last.
  std::vector<Token> openBrackets;
  /// The number of parseUnary() calls in progress.
  unsigned nesting = 0;
  /// Set by a `def` without an indented block, until the next `def`: a
  /// top-level `return` then belongs to the misplaced body, already
  /// reported.
  bool inBodylessFunction = false;
};

} // namespace

//===----------------------------------------------------------------------===//
// Helpers
//===----------------------------------------------------------------------===//

/// Returns true for the Newline and Eof tokens the lexer adds at end of
/// file.
static bool isAtEndOfFile(const Token &tok) {
  return tok.is(TokenKind::Eof) ||
         (tok.is(TokenKind::Newline) && tok.spelling.empty());
}

void Parser::error(const Token &at, const llvm::Twine &message) {
  if (at.is(TokenKind::Error))
    return;
  diags.error(at.loc.ptr, message);
  if (isAtEndOfFile(at) && !openBrackets.empty()) {
    const Token &open = openBrackets.back();
    diags.note(open.loc.ptr, "unclosed '" + open.spelling + "' is here");
  }
}

bool Parser::expect(TokenKind kind, const llvm::Twine &message,
                    bool consumeIt) {
  if (tok.is(kind)) {
    if (consumeIt)
      consume();
    return true;
  }
  bool inBracket = kind == TokenKind::Comma || kind == TokenKind::RParen ||
                   kind == TokenKind::RBracket;
  if (!inBracket || openBrackets.empty()) {
    error(tok, message);
    return false;
  }
  if (tok.is(TokenKind::Error))
    return false;
  diags.error(tok.loc.ptr, message);
  const Token &open = openBrackets.back();
  diags.note(open.loc.ptr, "to match this '" + open.spelling + "'");
  return false;
}

/// Skips the rest of the logical line, through its Newline.
void Parser::skipLine() {
  while (!tok.is(TokenKind::Newline) && !tok.is(TokenKind::Eof))
    consume();
  if (tok.is(TokenKind::Newline))
    consume();
}

/// Skips an indented block, from its Indent through the matching Dedent.
void Parser::skipBlock() {
  unsigned depth = 0;
  do {
    if (tok.is(TokenKind::Indent))
      ++depth;
    else if (tok.is(TokenKind::Dedent))
      --depth;
    consume();
  } while (depth != 0 && !tok.is(TokenKind::Eof));
}

/// Skips an indented block that no statement introduces, reporting it
/// unless it follows a line in error (e.g. `for i in x:`).
void Parser::skipUnexpectedBlock(bool afterError) {
  if (!afterError)
    error(tok, "unexpected indent");
  skipBlock();
}

/// Returns `node` as a ParsedExpr, or reports it as too complex.
ParsedExpr Parser::makeExpr(ExprPtr node, unsigned childHeight) {
  if (childHeight >= kMaxExprHeight) {
    diags.error(node->getLoc().ptr,
                llvm::formatv("expression too complex: more than {0} nested "
                              "operations",
                              kMaxExprHeight));
    return {};
  }
  return {std::move(node), childHeight + 1};
}

//===----------------------------------------------------------------------===//
// Module, functions, statements
//===----------------------------------------------------------------------===//

/// module ::= (funcdef | statement)* EOF
std::unique_ptr<ModuleAST> Parser::parseModule() {
  auto module = std::make_unique<ModuleAST>();
  bool lastFailed = false;
  while (!tok.is(TokenKind::Eof) && !diags.limitReached()) {
    TopLevelItem item;
    if (tok.is(TokenKind::KwDef)) {
      auto fn = std::make_unique<FunctionAST>();
      if (parseFuncDef(*fn))
        item.function = std::move(fn);
      else if (!fn->name.empty())
        module->invalidFunctions.push_back(fn->name);
      lastFailed = false;
    } else if (tok.is(TokenKind::KwReturn)) {
      if (!inBodylessFunction)
        error(tok, "'return' outside a function");
      skipLine();
      lastFailed = true;
    } else if (tok.is(TokenKind::Indent)) {
      skipUnexpectedBlock(lastFailed);
      lastFailed = true;
    } else {
      failedTarget.reset();
      item.statement = parseStatement();
      lastFailed = !item.statement;
      if (lastFailed && failedTarget)
        item.statement = std::make_unique<InvalidStmtAST>(
            failedTarget->second, failedTarget->first);
    }
    if (item.function || item.statement)
      module->items.push_back(std::move(item));
  }
  return module;
}

/// funcdef ::= 'def' IDENT '(' [param (',' param)* [',']] ')' '->' type ':'
///             NEWLINE INDENT statement+ DEDENT
///
/// The body's last statement, and only that one, is a `return`. After an
/// error in the header, the body is still parsed for errors of its own.
bool Parser::parseFuncDef(FunctionAST &fn) {
  Location defLoc = tok.loc;
  consume(); // 'def'
  inBodylessFunction = false;
  bool signatureOk = parseSignature(fn);
  // A header without a name still locates the body's errors (at `def`).
  if (!fn.loc.ptr.isValid())
    fn.loc = defLoc;
  bool ok = signatureOk &&
            expect(TokenKind::Newline,
                   "expected end of line: the function body must be an "
                   "indented block",
                   /*consumeIt=*/false);
  skipLine();
  if (!tok.is(TokenKind::Indent)) {
    if (ok)
      error(tok, "expected an indented block after function definition");
    inBodylessFunction = true;
    return false;
  }
  ok &= parseBody(fn);
  return ok;
}

/// Parses `IDENT params '->' type ':'`.
bool Parser::parseSignature(FunctionAST &fn) {
  if (!expect(TokenKind::Identifier, "expected function name after 'def'",
              /*consumeIt=*/false))
    return false;
  fn.name = tok.spelling.str();
  fn.loc = tok.loc;
  if (isReservedName(fn.name)) {
    error(tok, "cannot define a function with reserved name '" + fn.name + "'");
    return false;
  }
  consume();

  if (!parseParams(fn))
    return false;
  if (!expect(TokenKind::Arrow, "expected '->' and a result type"))
    return false;
  std::optional<TypeSpec> result = parseType(/*allowDynamic=*/true);
  if (!result)
    return false;
  fn.result = *result;
  return expect(TokenKind::Colon, "expected ':' after the result type");
}

/// params ::= '(' [param (',' param)* [',']] ')'
bool Parser::parseParams(FunctionAST &fn) {
  if (!expect(TokenKind::LParen, "expected '(' after function name",
              /*consumeIt=*/false))
    return false;
  BracketScope parens(*this);
  while (!tok.is(TokenKind::RParen)) {
    ParamAST param;
    if (!parseParam(param))
      return false;
    auto previous = llvm::find_if(fn.params, [&](const ParamAST &other) {
      return other.name == param.name;
    });
    if (previous != fn.params.end()) {
      diags.error(param.loc.ptr, "duplicate parameter '" + param.name + "'");
      diags.note(previous->loc.ptr, "previous parameter is here");
      return false;
    }
    fn.params.push_back(std::move(param));
    if (tok.is(TokenKind::Comma)) {
      consume();
      continue;
    }
    if (!expect(TokenKind::RParen, "expected ',' or ')'",
                /*consumeIt=*/false))
      return false;
  }
  consume(); // ')'
  return true;
}

/// param ::= IDENT ':' type
bool Parser::parseParam(ParamAST &param) {
  if (!expect(TokenKind::Identifier, "expected parameter name",
              /*consumeIt=*/false))
    return false;
  param.name = tok.spelling.str();
  param.loc = tok.loc;
  if (isReservedName(param.name)) {
    error(tok, "cannot use reserved name '" + param.name + "' as a parameter");
    return false;
  }
  consume();
  if (!expect(TokenKind::Colon,
              "expected ':' and a type after parameter '" + param.name + "'"))
    return false;
  std::optional<TypeSpec> type = parseType(/*allowDynamic=*/true);
  if (!type)
    return false;
  param.type = *type;
  return true;
}

/// body ::= INDENT statement+ DEDENT
///
/// Reports a `return` that is not last, a nested `def`, and a body that
/// does not end with `return` (unless its last line is in error, as it may
/// have been meant as the return).
bool Parser::parseBody(FunctionAST &fn) {
  consume(); // INDENT
  bool ok = true, lastFailed = false, misplacedReturn = false;
  std::optional<Location> lastReturn;
  while (!tok.is(TokenKind::Dedent) && !tok.is(TokenKind::Eof) &&
         !diags.limitReached()) {
    // A line in error (its first token an error, as a bad unindent's is)
    // is skipped below: it does not make the return "not the last".
    if (lastReturn && !tok.is(TokenKind::Error)) {
      diags.error(lastReturn->ptr,
                  "'return' must be the last statement of a function");
      lastReturn.reset();
      misplacedReturn = true;
      ok = false;
    }
    if (tok.is(TokenKind::Indent)) {
      skipUnexpectedBlock(lastFailed);
      ok = false;
      lastFailed = true;
      continue;
    }
    if (tok.is(TokenKind::KwDef)) {
      error(tok, "nested function definitions are not supported");
      skipLine();
      if (tok.is(TokenKind::Indent))
        skipBlock();
      ok = false;
      lastFailed = true;
      continue;
    }
    StmtPtr stmt = parseStatement();
    lastFailed = !stmt;
    if (!stmt) {
      ok = false;
      continue;
    }
    if (llvm::isa<ReturnStmtAST>(*stmt))
      lastReturn = stmt->getLoc();
    fn.body.push_back(std::move(stmt));
  }
  if (tok.is(TokenKind::Dedent))
    consume();
  if (!ok)
    return false;
  if (!lastFailed && !misplacedReturn && !lastReturn) {
    diags.error(fn.loc.ptr, fn.name.empty()
                                ? std::string("a function must end with 'return'")
                                : "function '" + fn.name +
                                      "' must end with 'return'");
    return false;
  }
  return true;
}

/// statement ::= IDENT [':' type] '=' expr NEWLINE
///             | 'return' expr NEWLINE
///             | expr NEWLINE
///
/// On error, skips the rest of the line and returns null.
StmtPtr Parser::parseStatement() {
  StmtPtr stmt;
  if (tok.is(TokenKind::KwReturn)) {
    Location loc = tok.loc;
    consume();
    if (ParsedExpr value = parseExpr())
      stmt = std::make_unique<ReturnStmtAST>(loc, std::move(value.ast));
  } else {
    stmt = parseAssignOrExprStatement();
  }
  // `if x:`, `for i in r:`, `import numpy`: a Python keyword (a plain name
  // in Mat) followed by more than an operator can. Said so, rather than
  // "expected end of line" after the keyword.
  if (stmt && !tok.is(TokenKind::Newline))
    if (const auto *expr = llvm::dyn_cast<ExprStmtAST>(stmt.get()))
      if (const auto *var = llvm::dyn_cast<VarExprAST>(&expr->getExpr()))
        if (llvm::is_contained(
                {"if", "elif", "else", "for", "while", "import", "from",
                 "class", "lambda", "with", "try", "except", "finally",
                 "raise", "assert", "del", "global", "nonlocal", "yield",
                 "async", "await", "pass", "break", "continue"},
                var->getName())) {
          diags.error(var->getLoc().ptr,
                      "'" + var->getName() +
                          "' is not supported: Mat has assignments, "
                          "print, def and return, no other statements");
          skipLine();
          return nullptr;
        }
  if (stmt && (tok.is(TokenKind::RParen) || tok.is(TokenKind::RBracket))) {
    error(tok, "unmatched '" + tok.spelling + "'");
    skipLine();
    return nullptr;
  }
  if (stmt && expect(TokenKind::Newline, "expected end of line"))
    return stmt;
  skipLine();
  return nullptr;
}

/// Parses `IDENT [':' type] '=' expr` or `expr`, without the NEWLINE.
StmtPtr Parser::parseAssignOrExprStatement() {
  Token first = tok;
  ParsedExpr target = parseExpr();
  if (!target)
    return nullptr;
  if (!tok.is(TokenKind::Colon) && !tok.is(TokenKind::Equal))
    return std::make_unique<ExprStmtAST>(first.loc, std::move(target.ast));

  // An assignment: keep parsing after a bad target to report the value's
  // errors too.
  bool ok = true;
  auto *var = llvm::dyn_cast<VarExprAST>(target.ast.get());
  if (!var) {
    diags.error(first.loc.ptr, "cannot assign to expression");
    ok = false;
  } else if (isReservedName(var->getName())) {
    diags.error(var->getLoc().ptr,
                "cannot assign to reserved name '" + var->getName() + "'");
    ok = false;
  }
  if (ok)
    failedTarget.emplace(var->getName().str(), var->getLoc());
  std::optional<TypeSpec> declared;
  if (tok.is(TokenKind::Colon)) {
    consume();
    declared = parseType(/*allowDynamic=*/false);
    if (!declared)
      return nullptr;
  }
  if (!expect(TokenKind::Equal, "expected '=' after the declared type"))
    return nullptr;
  ParsedExpr value = parseExpr();
  if (!value || !ok)
    return nullptr;
  return std::make_unique<AssignStmtAST>(var->getLoc(), var->getName().str(),
                                         std::move(declared),
                                         std::move(value.ast));
}

/// type ::= ('f64' | 'f32') ['[' dim ',' dim ']']
std::optional<TypeSpec> Parser::parseType(bool allowDynamic) {
  TypeSpec type;
  type.loc = tok.loc;
  if (!expect(TokenKind::Identifier, "expected a type: 'f64' or 'f32'",
              /*consumeIt=*/false))
    return std::nullopt;
  if (tok.spelling == "f32") {
    type.element = ElementType::F32;
  } else if (tok.spelling != "f64") {
    error(tok, "unknown type '" + tok.spelling + "': expected 'f64' or 'f32'");
    return std::nullopt;
  }
  consume();
  if (!tok.is(TokenKind::LBracket))
    return type;

  BracketScope bracket(*this);
  type.isScalar = false;
  std::optional<int64_t> rows = parseDim(allowDynamic);
  if (!rows)
    return std::nullopt;
  type.rows = *rows;
  if (tok.is(TokenKind::RBracket)) {
    error(tok, "a matrix type has two dimensions, e.g. 'f64[2, 3]'");
    return std::nullopt;
  }
  if (!expect(TokenKind::Comma, "expected ','"))
    return std::nullopt;
  std::optional<int64_t> cols = parseDim(allowDynamic);
  if (!cols)
    return std::nullopt;
  type.cols = *cols;
  if (tok.is(TokenKind::Comma)) {
    error(tok, "a matrix type has two dimensions, e.g. 'f64[2, 3]'");
    return std::nullopt;
  }
  if (!expect(TokenKind::RBracket, "expected ']'"))
    return std::nullopt;
  // As for the builtins: a matrix stays addressable (LANGUAGE choices in
  // the README): at most 2^40 elements.
  constexpr int64_t kMaxElements = int64_t(1) << 40;
  if (type.rows != TypeSpec::kDynamic && type.cols != TypeSpec::kDynamic &&
      type.rows > kMaxElements / type.cols) {
    diags.error(type.loc.ptr,
                llvm::formatv("matrix type {0}[{1}, {2}] has more than 2^40 "
                              "elements",
                              type.element == ElementType::F32 ? "f32" : "f64",
                              type.rows, type.cols));
    return std::nullopt;
  }
  return type;
}

/// dim ::= INTEGER | '?'
///
/// '?' (a dimension known at run time) only in parameter and result types.
std::optional<int64_t> Parser::parseDim(bool allowDynamic) {
  if (tok.is(TokenKind::Question)) {
    if (!allowDynamic) {
      error(tok, "'?' dimensions are only allowed in function parameter and "
                 "result types");
      return std::nullopt;
    }
    consume();
    return TypeSpec::kDynamic;
  }
  if (tok.is(TokenKind::Number) &&
      tok.spelling.find_first_of(".eE") == StringRef::npos) {
    std::string digits = tok.spelling.str();
    llvm::erase(digits, '_');
    int64_t value;
    if (StringRef(digits).getAsInteger(10, value) ||
        value > (int64_t(1) << 40)) {
      error(tok, "matrix dimension is too large: at most 2^40");
      return std::nullopt;
    }
    if (value > 0) {
      consume();
      return value;
    }
  }
  error(tok, "matrix dimension must be a positive integer or '?'");
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Expressions
//===----------------------------------------------------------------------===//

/// expr ::= unary (binop unary)*
/// binop ::= '@' | '*' (binding tighter) | '+' | '-'; all left-associative
ParsedExpr Parser::parseExpr() {
  ParsedExpr lhs = parseUnary();
  if (!lhs)
    return {};
  return parseBinaryRHS(0, std::move(lhs));
}

/// Precedence climbing: extends `lhs` with the operators binding at least
/// as tightly as `minPrecedence`.
///
/// binoprhs ::= (binop unary)*
ParsedExpr Parser::parseBinaryRHS(int minPrecedence, ParsedExpr lhs) {
  while (true) {
    int precedence = getPrecedence(tok.kind);
    if (precedence < minPrecedence)
      return lhs;
    Token op = tok;
    consume();
    // Python operators Mat lacks, spelled with two tokens here: say so
    // rather than "expected expression" at the second one.
    bool adjacent = tok.spelling.data() == op.spelling.end();
    if (adjacent && tok.is(TokenKind::Equal)) {
      const auto *var = llvm::dyn_cast<VarExprAST>(lhs.ast.get());
      llvm::StringRef name = var ? var->getName() : "x";
      error(op, "augmented assignment '" + op.spelling +
                    "=' is not supported: write '" + name + " = " + name +
                    " " + op.spelling + " ...'");
      return {};
    }
    if (adjacent && op.is(TokenKind::Star) && tok.is(TokenKind::Star)) {
      error(op, "'**' is not supported: Mat has no power operator");
      return {};
    }
    ParsedExpr rhs = parseUnary();
    if (!rhs)
      return {};
    // A tighter operator after rhs takes rhs as its left operand.
    if (getPrecedence(tok.kind) > precedence) {
      rhs = parseBinaryRHS(precedence + 1, std::move(rhs));
      if (!rhs)
        return {};
    }
    unsigned height = std::max(lhs.height, rhs.height);
    Location begin = lhs.ast->getBegin();
    lhs = makeExpr(std::make_unique<BinaryExprAST>(op.loc, op.spelling[0],
                                                   std::move(lhs.ast),
                                                   std::move(rhs.ast)),
                   height);
    if (!lhs)
      return {};
    setExtent(lhs, begin);
  }
}

/// unary ::= '-' unary | postfix
ParsedExpr Parser::parseUnary() {
  if (nesting > kMaxNesting) {
    error(tok, "expression nested too deeply");
    return {};
  }
  ++nesting;
  llvm::scope_exit restoreNesting([&] { --nesting; });

  if (tok.is(TokenKind::Plus)) {
    error(tok, "unary '+' is not supported");
    return {};
  }
  Location begin = tok.loc;
  if (!tok.is(TokenKind::Minus)) {
    ParsedExpr postfix = parsePostfix();
    setExtent(postfix, begin);
    return postfix;
  }
  consume();
  ParsedExpr operand = parseUnary();
  if (!operand)
    return {};
  ParsedExpr neg = makeExpr(
      std::make_unique<NegExprAST>(begin, std::move(operand.ast)),
      operand.height);
  setExtent(neg, begin);
  return neg;
}

/// postfix ::= primary ('.' 'T')*
ParsedExpr Parser::parsePostfix() {
  Location begin = tok.loc;
  ParsedExpr expr = parsePrimary();
  setExtent(expr, begin);
  while (expr) {
    if (tok.is(TokenKind::LParen)) {
      error(tok, "only a function name can be called");
      return {};
    }
    // After a matrix literal, '[' is more likely a row missing its comma.
    if (tok.is(TokenKind::LBracket) &&
        !llvm::isa<LiteralExprAST>(expr.ast.get())) {
      error(tok, "indexing is not supported: Mat computes with whole "
                 "matrices (no a[i, j])");
      return {};
    }
    if (!tok.is(TokenKind::Dot))
      return expr;
    Location loc = tok.loc;
    consume();
    if (!expect(TokenKind::Identifier, "expected 'T' (transpose) after '.'",
                /*consumeIt=*/false))
      return {};
    if (tok.spelling != "T") {
      error(tok, "unknown attribute '" + tok.spelling +
                     "': only '.T' (transpose) is supported");
      return {};
    }
    consume();
    expr =
        makeExpr(std::make_unique<TransposeExprAST>(loc, std::move(expr.ast)),
                 expr.height);
    setExtent(expr, begin);
  }
  return {};
}

/// primary ::= NUMBER | IDENT | call | '(' expr ')' | matrix
ParsedExpr Parser::parsePrimary() {
  Token first = tok;
  switch (tok.kind) {
  case TokenKind::Number:
    consume();
    return {std::make_unique<NumberExprAST>(
                first.loc, first.value,
                first.spelling.find_first_of(".eE") == llvm::StringRef::npos),
            1};
  case TokenKind::Identifier:
    consume();
    if (tok.is(TokenKind::LParen))
      return parseCall(first);
    return {std::make_unique<VarExprAST>(first.loc, first.spelling.str()), 1};
  case TokenKind::LParen:
    return parseParenExpr();
  case TokenKind::LBracket:
    return parseMatrixLiteral();
  default:
    error(tok, "expected expression");
    return {};
  }
}

/// parenexpr ::= '(' expr ')'
ParsedExpr Parser::parseParenExpr() {
  BracketScope paren(*this);
  ParsedExpr expr = parseExpr();
  if (!expr)
    return {};
  if (!expect(TokenKind::RParen, "expected ')'"))
    return {};
  return expr;
}

/// call ::= IDENT '(' [expr (',' expr)* [',']] ')'
ParsedExpr Parser::parseCall(const Token &name) {
  BracketScope parens(*this);
  std::vector<ExprPtr> args;
  unsigned height = 0;
  while (!tok.is(TokenKind::RParen)) {
    Token argStart = tok;
    ParsedExpr arg = parseExpr();
    if (!arg)
      return {};
    if (tok.is(TokenKind::Equal) && llvm::isa<VarExprAST>(arg.ast.get())) {
      error(argStart, "keyword arguments are not supported: Mat passes "
                      "arguments by position");
      return {};
    }
    height = std::max(height, arg.height);
    args.push_back(std::move(arg.ast));
    if (tok.is(TokenKind::Comma)) {
      consume();
      continue;
    }
    if (!expect(TokenKind::RParen, "expected ',' or ')'",
                /*consumeIt=*/false))
      return {};
  }
  consume();
  return makeExpr(std::make_unique<CallExprAST>(name.loc, name.spelling.str(),
                                                std::move(args)),
                  height);
}

/// matrix ::= '[' expr (',' expr)* [','] ']'     (1-D: a single row)
///          | '[' rows                          (2-D)
///
/// Rows are non-empty and of equal length.
ParsedExpr Parser::parseMatrixLiteral() {
  Token open = tok;
  BracketScope bracket(*this);
  std::vector<std::vector<ExprPtr>> rows;
  unsigned height = 0;
  bool oneDimensional = !tok.is(TokenKind::LBracket);
  if (oneDimensional) {
    rows.emplace_back();
    if (!parseRow(/*inner=*/false, rows[0], height))
      return {};
    if (rows[0].empty()) {
      error(open, "empty matrix literal");
      return {};
    }
  } else if (!parseRows(open, rows, height)) {
    return {};
  }
  return makeExpr(std::make_unique<LiteralExprAST>(open.loc, std::move(rows),
                                                   oneDimensional),
                  height);
}

/// rows ::= row (',' row)* [','] ']'
/// row  ::= '[' expr (',' expr)* [','] ']'
///
/// `open` is the literal's '['.
bool Parser::parseRows(const Token &open,
                       std::vector<std::vector<ExprPtr>> &rows,
                       unsigned &height) {
  while (!tok.is(TokenKind::RBracket)) {
    if (!tok.is(TokenKind::LBracket)) {
      error(tok, "cannot mix elements and rows in a matrix literal");
      return false;
    }
    Token rowOpen = tok;
    std::vector<ExprPtr> row;
    {
      BracketScope rowBracket(*this);
      if (!parseRow(/*inner=*/true, row, height))
        return false;
    }
    if (rows.empty() && row.empty()) {
      error(open, "empty matrix literal");
      return false;
    }
    if (!rows.empty() && row.size() != rows[0].size()) {
      error(rowOpen,
            llvm::formatv("row {0} has {1} element{2} but row 1 has {3}",
                          rows.size() + 1, row.size(),
                          row.size() == 1 ? "" : "s", rows[0].size()));
      return false;
    }
    rows.push_back(std::move(row));
    if (tok.is(TokenKind::Comma)) {
      consume();
    } else if (!expect(TokenKind::RBracket, "expected ',' or ']'",
                       /*consumeIt=*/false)) {
      return false;
    }
  }
  consume(); // ']'
  return true;
}

/// Parses the elements of a row through its closing ']', after its '['.
/// `inner` tells a row of a 2-D literal from a 1-D literal.
bool Parser::parseRow(bool inner, std::vector<ExprPtr> &row, unsigned &height) {
  while (!tok.is(TokenKind::RBracket)) {
    if (tok.is(TokenKind::LBracket)) {
      error(tok, inner ? "matrix literals have at most two dimensions"
                       : "cannot mix elements and rows in a matrix literal");
      return false;
    }
    ParsedExpr element = parseExpr();
    if (!element)
      return false;
    height = std::max(height, element.height);
    row.push_back(std::move(element.ast));
    if (tok.is(TokenKind::Comma)) {
      consume();
    } else if (!expect(TokenKind::RBracket, "expected ',' or ']'",
                       /*consumeIt=*/false)) {
      return false;
    }
  }
  consume(); // ']'
  return true;
}

std::unique_ptr<ModuleAST> mat::parseModule(Diagnostics &diags,
                                            unsigned bufferId) {
  return Parser(diags, bufferId).parseModule();
}
