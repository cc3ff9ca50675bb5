//===- CInterface.cpp - The C calling convention and header ---------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// The `matrix.c_interface` attribute, the C parameter list it implies,
// the description of a module's entry points (CModuleInterface), and the C
// header that declares them (`matc --emit-header`). Signatures.cpp prints
// the same description as JSON.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Conversion/CInterface.h"

#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>

using namespace mlir;
using namespace mlir::matrix;

//===----------------------------------------------------------------------===//
// The attribute
//===----------------------------------------------------------------------===//

DictionaryAttr CInterface::toAttr(MLIRContext *context) const {
  Builder b(context);
  SmallVector<int64_t> pres;
  for (auto [lhs, rhs] : preconditions) {
    pres.push_back(lhs.encode());
    pres.push_back(rhs.encode());
  }
  SmallVector<int64_t> result;
  for (SymbolicDim d : resultDims)
    result.push_back(d.encode());
  SmallVector<StringRef> names(argNames.begin(), argNames.end());
  SmallVector<NamedAttribute> entries = {
      b.getNamedAttr("name", b.getStringAttr(name)),
      b.getNamedAttr("arg_names", b.getStrArrayAttr(names)),
      b.getNamedAttr("function_type", TypeAttr::get(type)),
      b.getNamedAttr("preconditions", b.getDenseI64ArrayAttr(pres)),
      b.getNamedAttr("result_dims", b.getDenseI64ArrayAttr(result)),
  };
  if (!preconditionOrigins.empty()) {
    SmallVector<Attribute> origins;
    for (const CPreconditionOrigin &o : preconditionOrigins)
      origins.push_back(b.getDictionaryAttr({
          b.getNamedAttr("relation", b.getStringAttr(o.relation)),
          b.getNamedAttr("note", b.getStringAttr(o.note)),
          b.getNamedAttr("line", b.getI64IntegerAttr(o.line)),
          b.getNamedAttr("column", b.getI64IntegerAttr(o.column)),
      }));
    entries.push_back(
        b.getNamedAttr("precondition_origins", b.getArrayAttr(origins)));
  }
  if (temporaries) {
    SmallVector<int64_t> shapes;
    for (auto [rows, cols] : *temporaries) {
      shapes.push_back(rows.encode());
      shapes.push_back(cols.encode());
    }
    entries.push_back(
        b.getNamedAttr("temporaries", b.getDenseI64ArrayAttr(shapes)));
  }
  return b.getDictionaryAttr(entries);
}

FailureOr<CInterface> CInterface::fromAttr(DictionaryAttr attr) {
  if (!attr)
    return failure();
  auto name = attr.getAs<StringAttr>("name");
  auto argNames = attr.getAs<ArrayAttr>("arg_names");
  auto type = attr.getAs<TypeAttr>("function_type");
  auto pres = attr.getAs<DenseI64ArrayAttr>("preconditions");
  auto result = attr.getAs<DenseI64ArrayAttr>("result_dims");
  if (!name || !argNames || !type || !pres || !result || pres.size() % 2 != 0)
    return failure();
  CInterface fn;
  fn.name = name.str();
  fn.type = dyn_cast<FunctionType>(type.getValue());
  if (!fn.type || fn.type.getNumResults() != 1 ||
      argNames.size() != fn.type.getNumInputs())
    return failure();
  for (Attribute a : argNames) {
    auto s = dyn_cast<StringAttr>(a);
    if (!s)
      return failure();
    fn.argNames.push_back(s.str());
  }
  // Every parameter dimension named must exist and be a `?`.
  auto valid = [&](SymbolicDim d) {
    if (d.isConstant())
      return d.getConstant() >= 1;
    if (d.getParam() >= fn.type.getNumInputs())
      return false;
    auto t = dyn_cast<RankedTensorType>(fn.type.getInput(d.getParam()));
    return t && t.getRank() == 2 && t.isDynamicDim(d.getDim());
  };
  ArrayRef<int64_t> codes = pres.asArrayRef();
  for (size_t i = 0; i < codes.size(); i += 2) {
    SymbolicDim lhs = SymbolicDim::decode(codes[i]);
    SymbolicDim rhs = SymbolicDim::decode(codes[i + 1]);
    if (!valid(lhs) || !valid(rhs))
      return failure();
    fn.preconditions.emplace_back(lhs, rhs);
  }
  auto resultType = dyn_cast<RankedTensorType>(fn.type.getResult(0));
  if (result.size() != (resultType ? 2u : 0u))
    return failure();
  for (int64_t code : result.asArrayRef()) {
    if (!valid(SymbolicDim::decode(code)))
      return failure();
    fn.resultDims.push_back(SymbolicDim::decode(code));
  }
  if (Attribute a = attr.get("precondition_origins")) {
    auto origins = dyn_cast<ArrayAttr>(a);
    if (!origins || origins.size() != fn.preconditions.size())
      return failure();
    for (Attribute o : origins) {
      auto dict = dyn_cast<DictionaryAttr>(o);
      auto relation = dict ? dict.getAs<StringAttr>("relation") : nullptr;
      auto note = dict ? dict.getAs<StringAttr>("note") : nullptr;
      auto line = dict ? dict.getAs<IntegerAttr>("line") : nullptr;
      auto column = dict ? dict.getAs<IntegerAttr>("column") : nullptr;
      if (!relation || !note || !line || !column)
        return failure();
      fn.preconditionOrigins.push_back(
          {relation.str(), note.str(), line.getInt(), column.getInt()});
    }
  }
  if (Attribute a = attr.get("temporaries")) {
    auto shapes = dyn_cast<DenseI64ArrayAttr>(a);
    if (!shapes || shapes.size() % 2 != 0)
      return failure();
    fn.temporaries.emplace();
    ArrayRef<int64_t> codes = shapes.asArrayRef();
    for (size_t i = 0; i < codes.size(); i += 2) {
      SymbolicDim rows = SymbolicDim::decode(codes[i]);
      SymbolicDim cols = SymbolicDim::decode(codes[i + 1]);
      if (!valid(rows) || !valid(cols))
        return failure();
      fn.temporaries->emplace_back(rows, cols);
    }
  }
  return fn;
}

/// `name` with each run of `_` made one: C++ reserves every name holding
/// `__` ([lex.name]).
static std::string collapseUnderscores(StringRef name) {
  std::string collapsed;
  for (char c : name)
    if (c != '_' || collapsed.empty() || collapsed.back() != '_')
      collapsed += c;
  return collapsed;
}

std::string CInterface::getCSymbol() const {
  return collapseUnderscores("mat_" + name);
}

std::string CInterface::getMatSignature() const {
  std::string text;
  llvm::raw_string_ostream os(text);
  os << "def " << name << "(";
  for (auto [index, input] : llvm::enumerate(type.getInputs())) {
    if (index)
      os << ", ";
    os << argNames[index] << ": " << formatMatType(input);
  }
  os << ") -> " << formatMatType(type.getResult(0));
  return text;
}

//===----------------------------------------------------------------------===//
// C parameters
//===----------------------------------------------------------------------===//

/// Identifiers that begin with `__` or `_` + a capital letter are the
/// implementation's (C23 6.4.2.1, C++ [lex.name]); appending to them keeps
/// them so.
static bool isReservedForImplementation(StringRef name) {
  return name.starts_with("__") ||
         (name.size() > 1 && name[0] == '_' && llvm::isUpper(name[1]));
}

/// Names a header parameter must not take: C (up to C23) and C++ keywords,
/// the <stdint.h> and <stddef.h> types the header or its users name, and
/// macros of the C library and of compilers' GNU modes.
static bool isReservedInC(StringRef name) {
  static const llvm::StringSet<> reserved = {
      // C keywords.
      "auto", "break", "case", "char", "const", "continue", "default", "do",
      "double", "else", "enum", "extern", "float", "for", "goto", "if",
      "inline", "int", "long", "register", "restrict", "return", "short",
      "signed", "sizeof", "static", "struct", "switch", "typedef", "union",
      "unsigned", "void", "volatile", "while", "alignas", "alignof", "bool",
      "constexpr", "false", "nullptr", "static_assert", "thread_local", "true",
      "typeof", "typeof_unqual",
      // C++ keywords not in C.
      "and", "and_eq", "asm", "bitand", "bitor", "catch", "char8_t", "char16_t",
      "char32_t", "class", "co_await", "co_return", "co_yield", "compl",
      "concept", "const_cast", "consteval", "constinit", "decltype", "delete",
      "dynamic_cast", "explicit", "export", "friend", "mutable", "namespace",
      "new", "noexcept", "not", "not_eq", "operator", "or", "or_eq", "private",
      "protected", "public", "reinterpret_cast", "requires", "static_cast",
      "template", "this", "throw", "try", "typeid", "typename", "using",
      "virtual", "wchar_t", "xor", "xor_eq",
      // Types and macros a user's program may have in scope.
      "int8_t", "int16_t", "int32_t", "int64_t", "uint8_t", "uint16_t",
      "uint32_t", "uint64_t", "intptr_t", "uintptr_t", "size_t", "ptrdiff_t",
      "NULL", "EOF", "errno", "assert", "stdin", "stdout", "stderr", "offsetof",
      "complex", "imaginary", "I", "noreturn", "unix", "linux", "i386",
      // Object-like macros of <math.h>, <float.h>, <limits.h>, <stdint.h>,
      // <stdlib.h>, <stdio.h>, <signal.h> and <errno.h>.
      "NAN", "INFINITY", "HUGE_VAL", "HUGE_VALF", "HUGE_VALL", "M_E",
      "M_LOG2E", "M_LOG10E", "M_LN2", "M_LN10", "M_PI", "M_PI_2", "M_PI_4",
      "M_1_PI", "M_2_PI", "M_2_SQRTPI", "M_SQRT2", "M_SQRT1_2", "FP_NAN",
      "FP_INFINITE", "FP_ZERO", "FP_NORMAL", "FP_SUBNORMAL", "FLT_MAX",
      "FLT_MIN", "FLT_EPSILON", "FLT_DIG", "DBL_MAX", "DBL_MIN",
      "DBL_EPSILON", "DBL_DIG", "DECIMAL_DIG", "CHAR_BIT", "CHAR_MAX",
      "CHAR_MIN", "SCHAR_MAX", "SCHAR_MIN", "UCHAR_MAX", "SHRT_MAX",
      "SHRT_MIN", "USHRT_MAX", "INT_MAX", "INT_MIN", "UINT_MAX", "LONG_MAX",
      "LONG_MIN", "ULONG_MAX", "LLONG_MAX", "LLONG_MIN", "ULLONG_MAX",
      "PATH_MAX", "INT8_MAX", "INT8_MIN", "INT16_MAX", "INT16_MIN",
      "INT32_MAX", "INT32_MIN", "INT64_MAX", "INT64_MIN", "UINT8_MAX",
      "UINT16_MAX", "UINT32_MAX", "UINT64_MAX", "SIZE_MAX", "PTRDIFF_MAX",
      "PTRDIFF_MIN", "INTPTR_MAX", "INTPTR_MIN", "UINTPTR_MAX",
      "EXIT_SUCCESS", "EXIT_FAILURE", "RAND_MAX", "MB_CUR_MAX", "BUFSIZ",
      "FILENAME_MAX", "FOPEN_MAX", "TMP_MAX", "L_tmpnam", "SEEK_SET",
      "SEEK_CUR", "SEEK_END", "SIGABRT", "SIGFPE", "SIGILL", "SIGINT",
      "SIGSEGV", "SIGTERM", "SIG_DFL", "SIG_IGN", "SIG_ERR", "EDOM", "ERANGE",
      "EILSEQ",
      // Object-like macros with lowercase letters (the rest have the style
      // of isMacroLike).
      "math_errhandling", "P_tmpdir", "L_ctermid", "L_cuserid", "h_errno",
      "h_addr"};
  return reserved.contains(name) || isReservedForImplementation(name);
}

/// Whether `name` may be a macro that no list can cover: names in the
/// style of macros (a `-DNDEBUG`, <errno.h>'s `E*`, <signal.h>'s `SIG*`,
/// <fcntl.h>'s `O_*`, ...: two or more characters, capitals and no
/// lowercase letter), <inttypes.h>'s `PRI*`/`SCN*` family (C17 7.8.1,
/// `PRId64`), and the prefixes POSIX reserves to the members of its
/// structures, some of which glibc defines as macros (`st_atime` is
/// `st_atim.tv_sec`; `sa_handler`, `si_pid`, `sigev_notify_function`,
/// `s6_addr`, `ifr_name`: POSIX.1-2017 XSH 2.2.2). Such a name gets `_`
/// appended once, which none of these rules then applies to again.
static bool isMacroLike(StringRef name) {
  if (name.size() >= 2 && llvm::any_of(name, llvm::isUpper) &&
      llvm::none_of(name, llvm::isLower))
    return true;
  if (name.size() > 3 &&
      (name.starts_with("PRI") || name.starts_with("SCN")) &&
      (llvm::isLower(name[3]) || name[3] == 'X'))
    return true;
  static constexpr llvm::StringLiteral posixMemberPrefixes[] = {
      "st_", "sa_", "si_", "sigev_", "sival_", "s6_", "ifr_"};
  return llvm::any_of(posixMemberPrefixes, [&](llvm::StringLiteral prefix) {
    return name.starts_with(prefix);
  });
}

static StringRef cTypeName(Type element) {
  return element.isF32() ? "float" : "double";
}

std::string CParameter::getCType() const {
  switch (kind) {
  case Kind::Pointer:
    return (argIndex < 0 ? "" : "const ") + cTypeName(elementType).str() + " *";
  case Kind::Scalar:
    return cTypeName(elementType).str();
  case Kind::Size:
    return "int64_t";
  }
  llvm_unreachable("unknown C parameter kind");
}

std::string CParameter::getCDeclaration() const {
  std::string type = getCType();
  return type + (kind == Kind::Pointer ? "" : " ") + name;
}

SmallVector<CParameter> mlir::matrix::getCParameters(const CInterface &fn) {
  SmallVector<CParameter> params;
  llvm::StringSet<> used;
  auto add = [&](CParameter::Kind kind, std::string name, int argIndex,
                 unsigned dim, Type element) {
    // `_Foo`, `__x`: the leading underscores give way to `arg_` (`arg_Foo`,
    // `arg_x`); `_` appended could never make them the user's.
    if (isReservedForImplementation(name))
      name = "arg_" + StringRef(name).ltrim('_').str();
    std::string collapsed = collapseUnderscores(name);
    // A name in the style of a macro, a keyword, a macro of the list or a
    // name taken gets `_` appended, then `_2`, `_3`, ... (never a second
    // `_`: `int` is `int_`, its rows `int_rows`; `NDEBUG` is `NDEBUG_`).
    std::string stem = StringRef(collapsed).rtrim('_').str();
    std::string candidate =
        isMacroLike(collapsed) ? stem + "_" : collapsed;
    for (unsigned n = 1; isReservedInC(candidate) || used.contains(candidate);
         ++n)
      candidate = stem + "_" + (n == 1 ? "" : std::to_string(n));
    used.insert(candidate);
    params.push_back({kind, candidate, argIndex, dim, element});
  };
  auto addValue = [&](Type type, StringRef name, int argIndex) {
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor) {
      add(argIndex < 0 ? CParameter::Kind::Pointer : CParameter::Kind::Scalar,
          name.str(), argIndex, 0, type);
      return;
    }
    // A parameter's name comes first, then its sizes, so that `a_rows`
    // gets a `_` if another parameter is called `a_rows`, not `a`.
    add(CParameter::Kind::Pointer, name.str(), argIndex, 0,
        tensor.getElementType());
    std::string base = StringRef(params.back().name).rtrim('_').str();
    for (unsigned d = 0; d < 2; ++d)
      if (tensor.isDynamicDim(d))
        add(CParameter::Kind::Size, base + (d == 0 ? "_rows" : "_cols"),
            argIndex, d, Type());
  };
  for (auto [index, type] : llvm::enumerate(fn.type.getInputs()))
    addValue(type, fn.argNames[index], index);
  addValue(fn.type.getResult(0), "result", -1);
  return params;
}

//===----------------------------------------------------------------------===//
// The entry points of a module
//===----------------------------------------------------------------------===//

const CParameter *CEntryPoint::getSizeParam(int argIndex, unsigned dim) const {
  for (const CParameter &p : params)
    if (p.kind == CParameter::Kind::Size && p.argIndex == argIndex &&
        p.dim == dim)
      return &p;
  return nullptr;
}

std::string CEntryPoint::getSizeName(SymbolicDim d) const {
  if (d.isConstant())
    return std::to_string(d.getConstant());
  const CParameter *p = getSizeParam(int(d.getParam()), d.getDim());
  return p ? p->name : "?";
}

FailureOr<CModuleInterface> CModuleInterface::read(ModuleOp module) {
  CModuleInterface result;
  for (Operation &op : module.getBody()->getOperations()) {
    if (op.hasAttr(kCProgramAttrName))
      result.hasProgram = true;
    auto attr = op.getAttrOfType<DictionaryAttr>(kCInterfaceAttrName);
    if (!attr)
      continue;
    FailureOr<CInterface> fn = CInterface::fromAttr(attr);
    if (failed(fn))
      return op.emitError("malformed '")
             << kCInterfaceAttrName << "' attribute";
    SmallVector<CParameter> params = getCParameters(*fn);
    result.functions.push_back({std::move(*fn), std::move(params)});
  }
  return result;
}

//===----------------------------------------------------------------------===//
// The header
//===----------------------------------------------------------------------===//

/// Joins words that a comment line must not split (`a_cols != b_rows`).
static constexpr char kNoBreakSpace = '~';

/// Writes `text` as ` * ` lines of a block comment (C89 has no `//`), at
/// most 80 columns.
static void emitComment(StringRef text, raw_ostream &os) {
  SmallVector<StringRef> words;
  text.split(words, ' ', /*MaxSplit=*/-1, /*KeepEmpty=*/false);
  std::string line = " *";
  auto flush = [&] {
    std::replace(line.begin(), line.end(), kNoBreakSpace, ' ');
    os << line << "\n";
  };
  for (StringRef word : words) {
    if (line.size() > 2 && line.size() + 1 + word.size() > 80) {
      flush();
      line = " *";
    }
    line += " ";
    line += word;
  }
  flush();
}

static void emitFunction(const CEntryPoint &entry, raw_ostream &os) {
  const CInterface &fn = entry.fn;
  os << "/*\n";
  emitComment(fn.getMatSignature(), os);
  os << " *\n";
  // One line per matrix or scalar: its C names and its extent.
  for (const CParameter &p : entry.params) {
    if (p.kind == CParameter::Kind::Size)
      continue;
    Type type =
        p.argIndex < 0 ? fn.type.getResult(0) : fn.type.getInput(p.argIndex);
    std::string line = p.name + ": ";
    auto tensor = dyn_cast<RankedTensorType>(type);
    if (!tensor) {
      line += (p.argIndex < 0 ? "the scalar result (one " : "a scalar (") +
              cTypeName(p.elementType).str() + ")";
      emitComment(line, os);
      continue;
    }
    auto extent = [&](unsigned d) -> std::string {
      if (!tensor.isDynamicDim(d))
        return std::to_string(tensor.getDimSize(d));
      const CParameter *size = entry.getSizeParam(p.argIndex, d);
      return size ? size->name : "?";
    };
    line += extent(0) + " x " + extent(1) + " " +
            cTypeName(p.elementType).str() + "s, row-major" +
            (p.argIndex < 0 ? ", written by the call" : "");
    emitComment(line, os);
  }

  // When it returns 1: a size below 1, a broken relation, or an expected
  // result size that is not the one the function computes.
  SmallVector<std::string> failures;
  bool hasSizes = llvm::any_of(entry.params, [](const CParameter &p) {
    return p.kind == CParameter::Kind::Size;
  });
  if (hasSizes)
    failures.push_back("a size is below 1");
  for (auto [lhs, rhs] : fn.preconditions)
    failures.push_back(entry.getSizeName(lhs) + kNoBreakSpace +
                       "!=" + kNoBreakSpace + entry.getSizeName(rhs));
  for (auto [d, size] : llvm::enumerate(fn.resultDims)) {
    const CParameter *p = entry.getSizeParam(-1, d);
    if (p && entry.getSizeName(size) != p->name)
      failures.push_back(p->name + kNoBreakSpace + "!=" + kNoBreakSpace +
                         entry.getSizeName(size));
  }
  os << " *\n";
  if (failures.empty()) {
    emitComment("Returns " + std::to_string(kCStatusOk) +
                    " (there is no size to check).",
                os);
  } else {
    std::string text = "Returns " + std::to_string(kCStatusOk) + ", or " +
                       std::to_string(kCStatusShapeError) +
                       " without computing anything if ";
    for (auto [index, failure] : llvm::enumerate(failures)) {
      if (index)
        text += index + 1 == failures.size() ? " or " : ", ";
      text += failure;
    }
    emitComment(text + ".", os);
  }
  os << " */\n";

  // The prototype, one parameter per line when it is long.
  SmallVector<std::string> decls;
  for (const CParameter &p : entry.params)
    decls.push_back(p.getCDeclaration());
  std::string head = "int " + fn.getCSymbol() + "(";
  std::string oneLine = head + llvm::join(decls, ", ") + ");";
  if (oneLine.size() <= 80) {
    os << oneLine << "\n\n";
    return;
  }
  // Else as many per line as fit, aligned after the parenthesis.
  std::string line = head;
  for (auto [index, decl] : llvm::enumerate(decls)) {
    std::string piece = decl + (index + 1 == decls.size() ? ");" : ",");
    if (line.size() > head.size() && line.size() + 1 + piece.size() > 80) {
      os << line << "\n";
      line = std::string(head.size(), ' ');
    } else if (line.size() > head.size()) {
      line += " ";
    }
    line += piece;
  }
  os << line << "\n\n";
}

LogicalResult mlir::matrix::emitCHeader(ModuleOp module, raw_ostream &os,
                                        StringRef sourceName) {
  FailureOr<CModuleInterface> interface = CModuleInterface::read(module);
  if (failed(interface))
    return failure();

  StringRef file = llvm::sys::path::filename(sourceName);
  // The declarations first: the guard depends on them.
  std::string declarations;
  llvm::raw_string_ostream body(declarations);
  for (const CEntryPoint &entry : interface->functions)
    emitFunction(entry, body);
  if (interface->hasProgram)
    body << "/* Runs the top-level statements of " << file
         << " (what its executable does;\n * `print` writes to stdout). */\n"
         << "void " << kCProgramName << "(void);\n\n";

  // MATC_<STEM>_H_<HASH>, with one '_' for each run of other characters:
  // names with "__" are reserved in C and C++. Bytes beyond ASCII (UTF-8
  // letters) are spelled in hex, so that `é.mat` and `ü.mat` get guards of
  // their own. HASH, 8 hex digits of the xxh3 hash of the declarations,
  // tells apart the headers of files of one name in other directories
  // (`d1/kernels.mat`, `d2/kernels.mat`: a new-user finding, the second
  // header was skipped), of `x.mat` and `_x.mat`, and of standard input.
  std::string guard = "MATC_";
  for (char c : llvm::sys::path::stem(file)) {
    if (llvm::isAlnum(c))
      guard += llvm::toUpper(c);
    else if (!llvm::isASCII(c))
      guard += llvm::utohexstr(static_cast<unsigned char>(c));
    else if (guard.back() != '_')
      guard += '_';
  }
  if (guard.back() != '_')
    guard += '_';
  guard += "H_";
  guard += llvm::utohexstr(llvm::xxh3_64bits(declarations) & 0xffffffffu,
                           /*LowerCase=*/false, /*Width=*/8);

  os << "/* C entry points of the Mat functions of " << file
     << ", generated by matc --emit-header. */\n"
     << "/*\n"
     << " * Matrices are contiguous and row-major: element (i, j) of an R x C\n"
     << " * matrix m is m[i * C + j]. Inputs are only read. The caller\n"
     << " * allocates the result. Each `?` size of the Mat signature is an\n"
     << " * int64_t after its matrix, for the result too (the size expected).\n"
     << " * Each function returns " << kCStatusOk << " on success and "
     << kCStatusShapeError << " if the\n"
     << " * sizes do not fit the function: then it computes and writes "
        "nothing.\n"
     << " */\n"
     << "#ifndef " << guard << "\n#define " << guard << "\n\n"
     << "#include <stdint.h>\n\n"
     << "#ifdef __cplusplus\nextern \"C\" {\n#endif\n\n"
     << declarations;
  os << "#ifdef __cplusplus\n} /* extern \"C\" */\n#endif\n\n"
     << "#endif /* " << guard << " */\n";
  return success();
}
