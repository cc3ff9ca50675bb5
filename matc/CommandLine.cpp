//===- CommandLine.cpp - The matc command line, in matc's words -----------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// cl::ParseCommandLineOptions stays the one parser of matc's options (and
// of MLIR's, which matc registers). It prints its errors itself, those of
// option values always to llvm::errs(), whatever stream it is given; so
// matc parses with stderr (file descriptor 2) sent to a temporary file,
// then says each error again in its own words. The wording matched is
// LLVM 22's (llvm/lib/Support/CommandLine.cpp, CommandLine.h); a line it
// does not know is passed on after `matc: error: `, so that after a change
// there an error still reads as matc's, only in LLVM's words, and
// test/matc/command-line.test fails.
//
//===----------------------------------------------------------------------===//

#include "CommandLine.h"
#include "OutputFile.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <string>
#include <unistd.h>

namespace cl = llvm::cl;
using llvm::StringRef;
using matc::fail;

//===----------------------------------------------------------------------===//
// Capturing what the parser prints
//===----------------------------------------------------------------------===//

namespace {

/// While active, whatever the process writes to stderr (file descriptor
/// 2) goes to a temporary file. If the process exits meanwhile (`--help`,
/// `--version` exit from inside the parser), stderr is given back first
/// and what was captured is written to it, so that nothing is lost (a
/// sanitizer's report at exit included).
class StderrCapture {
public:
  /// Starts capturing; if no temporary file can be made, captures nothing.
  StderrCapture();
  ~StderrCapture() { release(); }
  StderrCapture(const StderrCapture &) = delete;
  StderrCapture &operator=(const StderrCapture &) = delete;

  /// Gives stderr back and returns what was written to it.
  std::string release();

private:
  static void releaseAtExit();

  std::FILE *file = nullptr;
  int savedStderr = -1;
};

/// The capture in progress, for releaseAtExit().
StderrCapture *activeCapture = nullptr;

} // namespace

StderrCapture::StderrCapture() {
  llvm::errs().flush();
  std::fflush(stderr);
  file = std::tmpfile();
  if (!file)
    return;
  savedStderr = dup(STDERR_FILENO);
  if (savedStderr < 0 || dup2(fileno(file), STDERR_FILENO) < 0) {
    if (savedStderr >= 0)
      close(savedStderr);
    savedStderr = -1;
    std::fclose(file);
    file = nullptr;
    return;
  }
  static const bool registered = std::atexit(releaseAtExit) == 0;
  (void)registered;
  activeCapture = this;
}

void StderrCapture::releaseAtExit() {
  if (activeCapture)
    llvm::errs() << activeCapture->release();
}

std::string StderrCapture::release() {
  if (!file)
    return "";
  llvm::errs().flush();
  std::fflush(stderr);
  dup2(savedStderr, STDERR_FILENO);
  close(savedStderr);
  activeCapture = nullptr;
  std::string text;
  std::rewind(file);
  char buffer[4096];
  while (size_t size = std::fread(buffer, 1, sizeof(buffer), file))
    text.append(buffer, size);
  std::fclose(file);
  file = nullptr;
  return text;
}

//===----------------------------------------------------------------------===//
// Saying it in matc's words
//===----------------------------------------------------------------------===//

namespace {

/// What the errors are said with: the options and their value lists.
struct Vocabulary {
  /// Names an option can be written with (those `--help-hidden` lists, and
  /// matc's own), and whether it takes a value (unknown: true).
  llvm::SmallVector<std::pair<StringRef, bool>> options;
  llvm::ArrayRef<matc::OptionValues> valueLists;
};

} // namespace

/// `name` as written on the command line: `-O`, `--emit`.
static std::string spell(StringRef name) {
  return (name.size() == 1 ? "-" : "--") + name.str();
}

/// The edits that make `word` into `name`, as a typist makes them: LLVM's
/// edit distance (insertions, deletions, replacements) of the lower-case
/// spellings, where two adjacent letters swapped count as one edit
/// (`rnu` -> `run`, `MLIR` -> `mlir`: one edit and none). Stops counting
/// above `limit`.
static unsigned countTypos(StringRef word, StringRef name, unsigned limit) {
  std::string lowerWord = word.lower(), lowerName = name.lower();
  unsigned distance = StringRef(lowerWord).edit_distance(
      lowerName, /*AllowReplacements=*/true, /*MaxEditDistance=*/limit);
  if (distance < 2 || lowerWord.size() != lowerName.size())
    return distance;
  // Exactly one pair of adjacent letters swapped.
  size_t first = 0;
  while (lowerWord[first] == lowerName[first])
    ++first;
  if (first + 1 < lowerWord.size() &&
      lowerWord[first] == lowerName[first + 1] &&
      lowerWord[first + 1] == lowerName[first] &&
      StringRef(lowerWord).drop_front(first + 2) ==
          StringRef(lowerName).drop_front(first + 2))
    return 1;
  return distance;
}

/// The index of the closest of `names` to `word`, if it is close enough to
/// be what a misspelling of `word` meant: at most 2 edits (countTypos), and
/// fewer than half of its letters. Ties go to the first name.
static std::optional<size_t> findClosest(StringRef word,
                                         llvm::ArrayRef<StringRef> names) {
  if (word.size() < 2)
    return std::nullopt;
  unsigned limit = std::min<unsigned>(2, (word.size() - 1) / 2);
  std::optional<size_t> best;
  unsigned bestDistance = limit + 1;
  for (auto [i, name] : llvm::enumerate(names)) {
    if (name.size() < 2)
      continue;
    unsigned distance = countTypos(word, name, limit);
    if (distance < bestDistance) {
      best = i;
      bestDistance = distance;
    }
  }
  return best;
}

/// The error for the unknown command-line argument `arg`.
static std::string unknownOption(StringRef arg, const Vocabulary &words) {
  StringRef name = arg.drop_while([](char c) { return c == '-'; });
  auto [word, value] = name.split('=');
  bool hasValue = name.contains('=');
  llvm::SmallVector<StringRef> names;
  for (const auto &option : words.options)
    names.push_back(option.first);
  if (std::optional<size_t> closest = findClosest(word, names)) {
    std::string suggestion = spell(names[*closest]);
    if (hasValue && words.options[*closest].second)
      suggestion += ("=" + value).str();
    return ("unknown option '" + arg + "'; did you mean '" + suggestion + "'?")
        .str();
  }
  return ("unknown option '" + arg + "' (see matc --help)").str();
}

/// The error for `value`, not in the list of `option` (written `written`).
static std::string unknownValue(StringRef written, StringRef option,
                                StringRef value, const Vocabulary &words) {
  if (value.empty())
    return matc::missingValue(written);
  std::string message = (written + ": unknown value '" + value + "'").str();
  const matc::OptionValues *list =
      llvm::find_if(words.valueLists, [&](const matc::OptionValues &candidate) {
        return candidate.option.ArgStr == option;
      });
  if (list == words.valueLists.end())
    return message + " (see matc --help)";
  llvm::SmallVector<StringRef> names;
  for (unsigned i = 0, e = list->values.getNumOptions(); i != e; ++i)
    names.push_back(list->values.getOption(i));
  if (std::optional<size_t> closest = findClosest(value, names))
    message += ("; did you mean '" + names[*closest] + "'?").str();
  message += " (one of ";
  for (auto [i, name] : llvm::enumerate(names))
    message += (i == 0                  ? ""
                : i + 1 == names.size() ? " or "
                                        : ", ") +
               name.str();
  return message + ")";
}

std::string matc::missingValue(StringRef option) {
  return (option + " needs a value (see matc --help)").str();
}

/// Whether cl's type name `type` is an unsigned integer type.
static bool isUnsignedType(StringRef type) {
  return type == "uint" || type == "ulong" || type == "ullong";
}

/// What a value of the C++ type cl names `type` ("uint", ...) is.
static StringRef describeType(StringRef type) {
  if (isUnsignedType(type))
    return "a non-negative integer";
  if (type == "integer" || type == "long" || type == "llong")
    return "an integer";
  if (type == "floating point")
    return "a number";
  return "a valid value";
}

/// Says again in matc's words `message`, which cl gave for the option
/// written `written` ("--emit", "-O").
static std::string optionError(StringRef written, StringRef message,
                               const Vocabulary &words) {
  StringRef option = written.drop_while([](char c) { return c == '-'; });
  if (message == "requires a value!")
    return matc::missingValue(written);
  if (message == "must be specified at least once!")
    return (written + " is required (see matc --help)").str();
  if (message == "may not occur within a group!")
    return (written + " takes a value: it cannot be grouped with other "
                      "options")
        .str();
  if (message == "not enough values!")
    return (written + " needs more values (see matc --help)").str();
  StringRef value = message;
  if (value.consume_front("Cannot find option named '") &&
      value.consume_back("'!"))
    return unknownValue(written, option, value, words);
  value = message;
  if (value.consume_front("does not allow a value! '") &&
      value.consume_back("' specified."))
    return (written + " takes no value (given '" + value + "')").str();
  value = message;
  if (value.consume_front("'") &&
      value.consume_back("' is invalid value for boolean argument! Try 0 or 1"))
    return (written + ": '" + value + "' is not a boolean (write " + written +
            " alone, or " + written + "=true or " + written + "=false)")
        .str();
  value = message;
  size_t invalid = value.rfind("' value invalid for ");
  if (value.consume_front("'") && invalid != StringRef::npos &&
      value.ends_with(" argument!")) {
    StringRef type = message.substr(invalid + 20).drop_back(10);
    value = message.substr(1, invalid - 1);
    // `--compile-threads=`: as a value missing at the end of the line.
    if (value.empty())
      return matc::missingValue(written);
    // `-O --run`: the next argument was taken as the missing value.
    if (value.size() > 1 && value[0] == '-' && !llvm::isDigit(value[1]))
      return (written + " needs a value ('" + value + "' is an option)").str();
    // Digits that cl refused for an unsigned option: out of its range.
    if (isUnsignedType(type) && llvm::all_of(value, llvm::isDigit))
      return (written + ": '" + value + "' is too large (at most " +
              std::to_string(type == "uint"
                                 ? uint64_t(std::numeric_limits<unsigned>::max())
                                 : std::numeric_limits<uint64_t>::max()) +
              ")")
          .str();
    return (written + ": '" + value + "' is not " + describeType(type) +
            " (see matc --help)")
        .str();
  }
  return (written + ": " + message).str();
}

/// Says again in matc's words every error in `text`, what cl printed for
/// the program `program`; each line is one error, but for the second lines
/// cl adds, which matc's messages do not need. After an unknown option,
/// "too many positional arguments" is left out: the extra argument is most
/// likely the value of that option (`--thread 2`), and a second input file
/// would mislead.
static llvm::SmallVector<std::string>
translate(StringRef text, StringRef program, const Vocabulary &words) {
  std::string prefix = (program + ": ").str();
  llvm::SmallVector<std::string> errors;
  llvm::SmallVector<StringRef> lines;
  text.split(lines, '\n', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  bool unknownSeen = false;
  for (StringRef line : lines) {
    if (line.starts_with("Must specify at least ") ||
        line.starts_with("Can specify at most "))
      continue;
    if (!line.consume_front(prefix)) {
      errors.push_back(line.str());
      continue;
    }
    if (line.starts_with("Did you mean '"))
      continue;
    StringRef rest = line;
    if (rest.consume_front("Unknown command line argument '")) {
      size_t end = rest.rfind("'.  Try: '");
      errors.push_back(unknownOption(rest.take_front(end), words));
      unknownSeen = true;
      continue;
    }
    if (line == "Too many positional arguments specified!") {
      if (unknownSeen)
        continue;
      errors.push_back("more than one input file: matc compiles one file at "
                       "a time (see matc --help)");
      continue;
    }
    rest = line;
    size_t optionEnd = rest.find(" option: ");
    if (rest.consume_front("for the ") && optionEnd != StringRef::npos) {
      StringRef written = line.substr(8, optionEnd - 8);
      errors.push_back(optionError(written, line.substr(optionEnd + 9), words));
      continue;
    }
    errors.push_back(line.str());
  }
  return errors;
}

bool matc::parseCommandLine(llvm::ArrayRef<const char *> args,
                            StringRef overview,
                            llvm::ArrayRef<StringRef> ownOptionNames,
                            llvm::ArrayRef<OptionValues> valueLists) {
  Vocabulary words;
  words.valueLists = valueLists;
  for (auto &[name, option] : cl::getRegisteredOptions())
    if (option->getOptionHiddenFlag() != cl::ReallyHidden)
      words.options.push_back(
          {name, option->getValueExpectedFlag() != cl::ValueDisallowed});
  for (StringRef name : ownOptionNames)
    words.options.push_back({name, true});
  // The same suggestion whatever the order of the map.
  llvm::sort(words.options);

  // cl takes any option that starts with the name of a help option as that
  // option (`--helpx` prints the help and exits 0): such a name must be
  // exactly an option's.
  bool misspelledHelp = false;
  for (const char *arg : args.drop_front()) {
    StringRef name = StringRef(arg).drop_while([](char c) { return c == '-'; });
    if (name.size() == StringRef(arg).size() || !name.starts_with("help"))
      continue;
    StringRef word = name.split('=').first;
    if (!llvm::any_of(words.options,
                      [&](const auto &option) { return option.first == word; })) {
      fail(unknownOption(arg, words));
      misspelledHelp = true;
    }
  }
  if (misspelledHelp)
    return false;

  bool parsed;
  std::string printed;
  {
    // cl prints some errors to the stream it is given (which makes it
    // return instead of exiting), the others to llvm::errs(): give it
    // llvm::errs() too, so that they stay in order.
    StderrCapture capture;
    parsed = cl::ParseCommandLineOptions(args.size(), args.data(), overview,
                                         &llvm::errs());
    printed = capture.release();
  }
  if (parsed) {
    llvm::errs() << printed;
    return true;
  }

  StringRef program = llvm::sys::path::filename(args.front());
  llvm::SmallVector<std::string> errors = translate(printed, program, words);
  if (errors.empty())
    errors.push_back("the command line is not valid (see matc --help)");
  for (const std::string &error : errors)
    fail(error);
  return false;
}
