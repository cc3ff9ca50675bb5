//===- Lexer.cpp - Tokenizer for Mat --------------------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The line-joining and indentation rules follow the Python reference's
// "Lexical analysis" chapter, with a stricter rule for tabs (see Lexer.h).
//
//===----------------------------------------------------------------------===//

#include "parser/Lexer.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/ConvertUTF.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/MemoryBuffer.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <optional>

using namespace mat;
using llvm::StringRef;

static bool isIdentifierChar(char c) { return llvm::isAlnum(c) || c == '_'; }

/// Decodes the UTF-8 sequence at `p` (before `end`) into `codePoint`.
/// Returns its length in bytes, or 0 if it is not valid UTF-8.
static unsigned decodeUTF8(const char *p, const char *end,
                           llvm::UTF32 &codePoint) {
  auto *source = reinterpret_cast<const llvm::UTF8 *>(p);
  auto *start = source;
  if (llvm::convertUTF8Sequence(
          &source, reinterpret_cast<const llvm::UTF8 *>(end), &codePoint,
          llvm::strictConversion) != llvm::conversionOK)
    return 0;
  return source - start;
}

/// The error for the comparison operator `op` (`==`, `<=`, ...).
static std::string getComparisonError(StringRef op) {
  return ("comparison '" + op + "' is not supported: Mat has no booleans")
      .str();
}

Lexer::Lexer(Diagnostics &diags, unsigned bufferId) : diags(diags) {
  const llvm::MemoryBuffer *buffer =
      diags.getSourceMgr().getMemoryBuffer(bufferId);
  file = std::make_shared<std::string>(buffer->getBufferIdentifier());
  lineStart = cur = buffer->getBufferStart();
  end = buffer->getBufferEnd();
  // Skip a UTF-8 byte order mark.
  if (StringRef(cur, end - cur).starts_with("\xEF\xBB\xBF"))
    cur += 3;
  indentStack.push_back("");
}

Location Lexer::getLoc(const char *p) const {
  return Location{file, line, static_cast<int>(p - lineStart) + 1,
                  llvm::SMLoc::getFromPointer(p)};
}

Token Lexer::makeToken(TokenKind kind, const char *start, const char *stop) {
  Token tok;
  tok.kind = kind;
  tok.spelling = StringRef(start, stop - start);
  tok.loc = getLoc(start);
  return tok;
}

Token Lexer::makeError(const char *at, const llvm::Twine &message) {
  diags.error(llvm::SMLoc::getFromPointer(at), message);
  return makeToken(TokenKind::Error, at, cur);
}

void Lexer::startLine(const char *p) {
  ++line;
  lineStart = p;
}

Token Lexer::next() {
  while (pending.empty()) {
    if (atLineStart) {
      // As in Python, a form feed resets the indentation: what counts is
      // the whitespace after the last one.
      const char *indentStart = cur;
      for (; cur != end && (*cur == ' ' || *cur == '\t' || *cur == '\f'); ++cur)
        if (*cur == '\f')
          indentStart = cur + 1;
      lineIndent = StringRef(indentStart, cur - indentStart);
      atLineStart = false;
    }
    Token tok = lexToken();
    if (tok.is(TokenKind::Newline)) {
      // Lines without tokens (blank, comment-only) produce nothing.
      atLineStart = true;
      if (!lineHasTokens)
        continue;
      lineHasTokens = false;
      return tok;
    }
    if (tok.is(TokenKind::Eof)) {
      // Close the last line and every open block, even if brackets are
      // still open: the parser reports those.
      Token closing = tok;
      if (lineHasTokens) {
        closing.kind = TokenKind::Newline;
        pending.push_back(closing);
        lineHasTokens = false;
      }
      closing.kind = TokenKind::Dedent;
      pending.insert(pending.end(), indentStack.size() - 1, closing);
      indentStack.resize(1);
      pending.push_back(tok);
      break;
    }
    if (lineHasTokens)
      return tok;
    lineHasTokens = true;
    handleIndentation(tok);
  }
  Token tok = pending.front();
  pending.pop_front();
  return tok;
}

void Lexer::handleIndentation(Token first) {
  if (lineIndent == indentStack.back()) {
    pending.push_back(first);
    return;
  }
  Token marker = first;
  marker.spelling = StringRef();
  if (lineIndent.starts_with(indentStack.back())) {
    indentStack.push_back(lineIndent);
    marker.kind = TokenKind::Indent;
    pending.push_back(marker);
    pending.push_back(first);
    return;
  }

  // Find the innermost block whose indentation this line's extends (the
  // outermost one, "", always qualifies).
  size_t level = indentStack.size() - 1;
  while (!lineIndent.starts_with(indentStack[level]))
    --level;
  if (lineIndent == indentStack[level]) {
    marker.kind = TokenKind::Dedent;
    pending.insert(pending.end(), indentStack.size() - 1 - level, marker);
    indentStack.resize(level + 1);
    pending.push_back(first);
    return;
  }

  // The line neither matches an open block nor extends the innermost one.
  // Report it and leave the stack alone: the parser skips the line.
  StringRef inner = indentStack[level + 1];
  if (inner.starts_with(lineIndent)) {
    pending.push_back(
        makeError(first.loc.ptr.getPointer(),
                  "unindent does not match any outer indentation level"));
  } else {
    size_t i = 0;
    while (lineIndent[i] == inner[i])
      ++i;
    pending.push_back(makeError(lineIndent.data() + i,
                                "inconsistent use of tabs and spaces in "
                                "indentation"));
  }
  pending.push_back(first);
}

void Lexer::skipComment() {
  bool reported = false;
  auto report = [&](const char *at, StringRef message) {
    if (!reported)
      diags.error(llvm::SMLoc::getFromPointer(at), message);
    reported = true;
  };
  while (cur != end && *cur != '\n') {
    if (*cur == '\0') {
      report(cur++, "NUL character in source");
      continue;
    }
    if (static_cast<unsigned char>(*cur) < 0x80) {
      ++cur;
      continue;
    }
    llvm::UTF32 codePoint;
    if (unsigned length = decodeUTF8(cur, end, codePoint)) {
      cur += length;
      continue;
    }
    report(cur++, "invalid UTF-8 in source");
  }
}

Token Lexer::lexToken() {
  while (true) {
    if (cur == end)
      return makeToken(TokenKind::Eof, cur, cur);
    const char *start = cur++;
    // Whitespace and comments are no tokens: a long token may end its
    // line, and a comment may start anywhere (new-user findings: a space
    // after a 70,000-letter name was reported as a token starting too late,
    // at byte 65537, inside the name; so was a comment after 70,000
    // spaces).
    if (start - lineStart >= kMaxLineLength && *start != '\n' &&
        *start != '\r' && *start != ' ' && *start != '\t' &&
        *start != '\f' && *start != '#') {
      // Skip to the end of the physical line; its newline still counts.
      cur = std::find(start, end, '\n');
      if (cur != start && cur[-1] == '\r')
        --cur;
      return makeError(start,
                       llvm::formatv("line too long: this token starts after "
                                     "the first {0} bytes of its line, where "
                                     "every token must start (comments may "
                                     "run past them)",
                                     kMaxLineLength));
    }
    switch (*start) {
    case ' ':
    case '\t':
    case '\f':
      continue;
    case '#':
      skipComment();
      continue;
    case '\r':
      if (cur == end || *cur != '\n')
        return lexUnexpected(start);
      ++cur;
      [[fallthrough]];
    case '\n': {
      Token tok = makeToken(TokenKind::Newline, start, cur);
      startLine(cur);
      if (bracketDepth == 0)
        return tok;
      continue;
    }
    case '\\': {
      // A continuation joins with the next line, so the file must go on
      // (Python: "unexpected EOF while parsing").
      int newline = cur != end && *cur == '\n'                          ? 1
                    : end - cur >= 2 && cur[0] == '\r' && cur[1] == '\n' ? 2
                                                                         : 0;
      if (newline == 0 && cur != end)
        return makeError(start, "unexpected character after line "
                                "continuation character");
      cur += newline;
      if (cur == end)
        return makeError(start, "unexpected end of file after line "
                                "continuation character");
      startLine(cur);
      continue;
    }
    case '(':
      ++bracketDepth;
      return makeToken(TokenKind::LParen, start, cur);
    case '[':
      ++bracketDepth;
      return makeToken(TokenKind::LBracket, start, cur);
    case ')':
      bracketDepth -= bracketDepth != 0;
      return makeToken(TokenKind::RParen, start, cur);
    case ']':
      bracketDepth -= bracketDepth != 0;
      return makeToken(TokenKind::RBracket, start, cur);
    case ',':
      return makeToken(TokenKind::Comma, start, cur);
    case ':':
      return makeToken(TokenKind::Colon, start, cur);
    case '=':
      if (cur != end && *cur == '=') {
        ++cur;
        return makeError(start, getComparisonError("=="));
      }
      return makeToken(TokenKind::Equal, start, cur);
    case '@':
      return makeToken(TokenKind::At, start, cur);
    case '*':
      return makeToken(TokenKind::Star, start, cur);
    case '+':
      return makeToken(TokenKind::Plus, start, cur);
    case '?':
      return makeToken(TokenKind::Question, start, cur);
    case '-':
      if (cur != end && *cur == '>') {
        ++cur;
        return makeToken(TokenKind::Arrow, start, cur);
      }
      return makeToken(TokenKind::Minus, start, cur);
    case '.':
      if (cur != end && llvm::isDigit(*cur))
        return lexNumber(start);
      return makeToken(TokenKind::Dot, start, cur);
    case '\0':
      while (cur != end && *cur == '\0')
        ++cur;
      return makeError(start, "NUL character in source");
    default:
      if (llvm::isDigit(*start))
        return lexNumber(start);
      if (llvm::isAlpha(*start) || *start == '_')
        return lexIdentifier(start);
      return lexUnexpected(start);
    }
  }
}

Token Lexer::lexIdentifier(const char *start) {
  while (cur != end && isIdentifierChar(*cur))
    ++cur;
  Token tok = makeToken(TokenKind::Identifier, start, cur);
  if (tok.spelling == "def")
    tok.kind = TokenKind::KwDef;
  else if (tok.spelling == "return")
    tok.kind = TokenKind::KwReturn;
  return tok;
}

/// number   ::= digits ['.' [digits]] [exponent] | '.' digits [exponent]
/// digits   ::= digit ('_'? digit)*
/// exponent ::= ('e' | 'E') ['+' | '-'] digits
///
/// As in Python 3, an integer (no '.', no exponent) other than zero cannot
/// start with '0': `012` is an error, `00`, `0_0`, `012.5` and `012e3` are
/// not.
Token Lexer::lexNumber(const char *start) {
  cur = start;
  // Set if the literal is malformed: why, if there is more to say.
  std::optional<StringRef> problem;
  auto lexDigits = [&] {
    while (true) {
      while (cur != end && llvm::isDigit(*cur))
        ++cur;
      if (cur == end || *cur != '_')
        return;
      if (++cur == end || !llvm::isDigit(*cur)) {
        problem = "'_' must be between digits";
        return;
      }
    }
  };
  lexDigits();
  if (!problem && *start == '0' &&
      (cur == end || (*cur != '.' && *cur != 'e' && *cur != 'E')))
    if (std::optional<Token> error = checkLeadingZeros(start))
      return *error;
  if (!problem && cur != end && *cur == '.' && ++cur != end &&
      llvm::isDigit(*cur))
    lexDigits();
  if (!problem && cur != end && (*cur == 'e' || *cur == 'E')) {
    if (++cur != end && (*cur == '+' || *cur == '-'))
      ++cur;
    if (cur != end && llvm::isDigit(*cur))
      lexDigits();
    else
      problem = "the exponent has no digits";
  }
  // A letter right after a number (`1abc`, `1.T`) is malformed too.
  if (!problem && cur != end && isIdentifierChar(*cur))
    problem = "";
  if (problem) {
    while (cur != end && (isIdentifierChar(*cur) || *cur == '.'))
      ++cur;
    std::string message =
        ("invalid numeric literal '" + StringRef(start, cur - start) + "'")
            .str();
    if (!problem->empty())
      message += (": " + *problem).str();
    return makeError(start, message);
  }

  Token tok = makeToken(TokenKind::Number, start, cur);
  std::string digits;
  for (char c : tok.spelling)
    if (c != '_')
      digits.push_back(c);
  tok.value = std::strtod(digits.c_str(), nullptr);
  if (std::isinf(tok.value))
    return makeError(start, "numeric literal overflows to infinity");
  return tok;
}

std::optional<Token> Lexer::checkLeadingZeros(const char *start) {
  StringRef integer(start, cur - start);
  size_t zeros = integer.find_first_not_of("0_");
  if (zeros == StringRef::npos)
    return std::nullopt;
  // Python's message, whose hint about octal does not apply: Mat has none.
  // The zeros (and the '_' among them) are underlined.
  std::string message =
      "leading zeros in decimal integer literals are not permitted";
  if (cur == end || !isIdentifierChar(*cur))
    message += ("; write '" + integer.drop_front(zeros) + "'").str();
  diags.error(llvm::SMLoc::getFromPointer(start), message,
              llvm::SMRange(llvm::SMLoc::getFromPointer(start),
                            llvm::SMLoc::getFromPointer(start + zeros)));
  // The rest of a malformed literal (`012abc`) goes with it.
  while (cur != end && (isIdentifierChar(*cur) || *cur == '.'))
    ++cur;
  return makeToken(TokenKind::Error, start, cur);
}

bool Lexer::isUnexpected(const char *p) const {
  if (*p == '\r')
    return end - p < 2 || p[1] != '\n';
  return *p != '\0' && !isIdentifierChar(*p) &&
         !StringRef(" \t\f#\n\\()[],:=@*+-.?").contains(*p);
}

Token Lexer::lexUnexpected(const char *start) {
  auto c = static_cast<unsigned char>(*start);
  llvm::UTF32 codePoint = c;
  unsigned length = c < 0x80 ? 1 : decodeUTF8(start, end, codePoint);
  std::string message;
  if (length == 0)
    message = "invalid UTF-8 in source";
  else if (c == '\r')
    message = "carriage return (U+000D) not followed by a newline: lines "
              "must end with LF or CR LF";
  else if (c == '/')
    message = "'/' is not supported: Mat has no division (multiply by the "
              "reciprocal: a * 0.5)";
  else if (c == '%')
    message = "'%' is not supported: Mat has no remainder operator";
  else if (c == '<' || c == '>' ||
           (c == '!' && start + 1 != end && start[1] == '=')) {
    cur = start + 1 + (start + 1 != end && start[1] == '=');
    return makeError(start, getComparisonError(StringRef(start, cur - start)));
  } else if (c == '"' || c == '\'') {
    // One error for the whole literal: through its closing quote on this
    // line (a triple-quoted one's closing triple), or to the line's end.
    StringRef line = StringRef(start, end - start).take_until([](char ch) {
      return ch == '\n' || ch == '\r';
    });
    StringRef quote =
        line.take_front(line.starts_with(std::string(3, c)) ? 3 : 1);
    size_t close = line.find(quote, quote.size());
    cur =
        start + (close == StringRef::npos ? line.size() : close + quote.size());
    return makeError(start,
                     "strings are not supported: Mat has numbers and matrices "
                     "only");
  } else if (llvm::isPrint(c))
    message = ("unexpected character '" + StringRef(start, 1) + "'").str();
  else
    message = llvm::formatv("unexpected character U+{0:X-4}", codePoint).str();
  // One error for a whole run of unexpected characters is enough.
  cur = start + std::max(length, 1u);
  while (cur != end && isUnexpected(cur))
    ++cur;
  return makeError(start, message);
}
