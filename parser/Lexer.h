//===- Lexer.h - Tokenizer for Mat ------------------------------*- C++ -*-===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Turns a source buffer into tokens, following Python's lexical rules:
// comments, implicit line joining inside brackets, backslash continuation,
// and INDENT/DEDENT tokens computed from an indentation stack.
//
//===----------------------------------------------------------------------===//

#ifndef MATC_PARSER_LEXER_H
#define MATC_PARSER_LEXER_H

#include "parser/AST.h"
#include "parser/Diagnostics.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"

#include <deque>
#include <optional>

namespace mat {

enum class TokenKind {
  Eof,
  Newline, ///< The end of a logical line.
  Indent,  ///< Indentation deeper than the enclosing block's.
  Dedent,  ///< One closed block.
  Error,   ///< Something already diagnosed by the lexer; the parser skips it.
  Identifier,
  Number,
  KwDef,
  KwReturn,
  LParen,
  RParen,
  LBracket,
  RBracket,
  Comma,
  Colon,
  Equal,
  At,
  Star,
  Plus,
  Minus,
  Dot,
  Question,
  Arrow,
};

/// A token: its kind, its spelling in the source buffer (empty for the
/// synthesized Newline at end of file, Indent, Dedent and Eof), its
/// location, and for numbers the value (always finite).
struct Token {
  TokenKind kind = TokenKind::Eof;
  llvm::StringRef spelling;
  double value = 0;
  Location loc;

  bool is(TokenKind k) const { return kind == k; }
};

/// Produces the tokens of one SourceMgr buffer on demand. Lexical errors
/// (unexpected characters, malformed numbers, bad indentation, NUL bytes,
/// invalid UTF-8) are reported through `diags` as they are met, and the
/// offending text becomes an Error token so that the parser can skip the
/// rest of the line without reporting it again.
///
/// Logical lines follow Python: a Newline token ends each line that holds
/// tokens (blank and comment-only lines produce none); newlines inside
/// `(...)` and `[...]` and after a trailing backslash are ignored. Before the
/// first token of a line, its indentation is compared with the stack of
/// enclosing blocks' indentation strings: a longer string that extends the
/// innermost one yields Indent; a string equal to an outer one yields one
/// Dedent per closed block. Any other string is an error: each string must
/// extend the enclosing block's exact string, so a tab where the block has a
/// space (or the reverse) is "inconsistent use of tabs and spaces". A form
/// feed resets the indentation, as Python resets its column count there:
/// only the spaces and tabs after the last one count. (Between tokens, a
/// form feed is whitespace, as a space or a tab is.) At end
/// of file the lexer yields Newline (if the last line holds tokens), a Dedent
/// per open block, then Eof forever.
class Lexer {
public:
  /// Tokens must start within the first kMaxLineLength bytes of their
  /// physical line; the rest of a longer line is reported once and skipped.
  static constexpr int kMaxLineLength = 65536;

  Lexer(Diagnostics &diags, unsigned bufferId);

  /// Returns the next token.
  Token next();

private:
  /// Lexes one token of the current logical line (Newline at a newline
  /// outside brackets), skipping whitespace, comments and continuations.
  Token lexToken();
  Token lexNumber(const char *start);
  /// After the integer part [start, cur) of a number that starts with '0'
  /// and has neither '.' nor an exponent: reports it and returns an Error
  /// token if it has a nonzero digit (leading zeros, as Python 3 rejects).
  std::optional<Token> checkLeadingZeros(const char *start);
  Token lexIdentifier(const char *start);
  /// Reports the character at `start`, which starts no token, and returns
  /// an Error token covering it and the unexpected characters after it.
  Token lexUnexpected(const char *start);
  /// Returns true if no token starts with the byte at `p`.
  bool isUnexpected(const char *p) const;

  /// Skips a comment, diagnosing NUL bytes and invalid UTF-8 in it.
  void skipComment();
  /// Compares `lineIndent` with the indentation stack before `first`, the
  /// first token of a line, and queues the resulting tokens (with `first`).
  void handleIndentation(Token first);
  /// Records that a newline ends just before `p`.
  void startLine(const char *p);

  Token makeToken(TokenKind kind, const char *start, const char *stop);
  Token makeError(const char *at, const llvm::Twine &message);
  Location getLoc(const char *p) const;

  Diagnostics &diags;
  std::shared_ptr<std::string> file;
  const char *cur, *end;
  /// Line number and first byte of the physical line holding `cur`.
  int line = 1;
  const char *lineStart;

  /// Open '(' and '[' count: newlines are ignored while it is positive.
  unsigned bracketDepth = 0;
  /// True before the first token of a logical line has been lexed.
  bool atLineStart = true;
  bool lineHasTokens = false;
  /// The indentation of the current logical line.
  llvm::StringRef lineIndent;
  /// The indentation strings of the open blocks; the first is "".
  llvm::SmallVector<llvm::StringRef, 8> indentStack;
  /// Tokens decided but not yet returned (Indent/Dedent before a line's
  /// first token, the end-of-file sequence).
  std::deque<Token> pending;
};

} // namespace mat

#endif // MATC_PARSER_LEXER_H
