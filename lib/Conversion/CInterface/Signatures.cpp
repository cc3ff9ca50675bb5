//===- Signatures.cpp - The C entry points as JSON ------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// `matc --emit=signatures`: the description the C header is printed from
// (CModuleInterface), printed as JSON for programs that call the entry
// points without a C compiler (the Python package, python/matc, through
// ctypes). The schema is in docs/python.md; its "format" and "version"
// fields change when it does.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Conversion/CInterface.h"

#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"

using namespace mlir;
using namespace mlir::matrix;

/// The version of the schema: bumped when a field changes meaning or goes.
static constexpr int64_t kSignaturesVersion = 1;

static StringRef dtypeName(Type element) {
  return element.isF32() ? "f32" : "f64";
}

/// A size: the constant, or `{"param": P, "dim": D}` for dimension D (0:
/// rows, 1: columns) of Mat parameter P (0-based).
static llvm::json::Value sizeValue(SymbolicDim d) {
  if (d.isConstant())
    return d.getConstant();
  return llvm::json::Object{{"param", int64_t(d.getParam())},
                            {"dim", int64_t(d.getDim())}};
}

/// One parameter (`argIndex` >= 0) or the result (-1): kind, element type,
/// shape (`"?"` for a run-time size), its C name and the C names of the
/// sizes that follow it.
static void writeValue(llvm::json::OStream &j, const CEntryPoint &entry,
                       int argIndex) {
  const CInterface &fn = entry.fn;
  Type type = argIndex < 0 ? fn.type.getResult(0) : fn.type.getInput(argIndex);
  auto tensor = dyn_cast<RankedTensorType>(type);
  const CParameter *value = nullptr;
  for (const CParameter &p : entry.params)
    if (p.argIndex == argIndex && p.kind != CParameter::Kind::Size)
      value = &p;
  j.object([&] {
    if (argIndex >= 0)
      j.attribute("name", fn.argNames[argIndex]);
    j.attribute("kind", tensor ? "matrix" : "scalar");
    j.attribute("dtype", dtypeName(tensor ? tensor.getElementType() : type));
    j.attribute("c_name", value ? value->name : "");
    if (!tensor)
      return;
    j.attributeArray("shape", [&] {
      for (int64_t size : tensor.getShape())
        if (ShapedType::isDynamic(size))
          j.value("?");
        else
          j.value(size);
    });
    j.attributeArray("size_args", [&] {
      for (unsigned d = 0; d < 2; ++d)
        if (const CParameter *size = entry.getSizeParam(argIndex, d))
          j.value(size->name);
    });
    if (argIndex < 0)
      j.attributeArray("dims", [&] {
        for (SymbolicDim d : fn.resultDims)
          j.value(sizeValue(d));
      });
  });
}

static void writeFunction(llvm::json::OStream &j, const CEntryPoint &entry) {
  const CInterface &fn = entry.fn;
  j.object([&] {
    j.attribute("name", fn.name);
    j.attribute("symbol", fn.getCSymbol());
    j.attribute("signature", fn.getMatSignature());
    j.attributeArray("params", [&] {
      for (unsigned i = 0; i < fn.type.getNumInputs(); ++i)
        writeValue(j, entry, i);
    });
    j.attributeBegin("result");
    writeValue(j, entry, -1);
    j.attributeEnd();
    // The prototype, in order.
    j.attributeArray("c_args", [&] {
      for (const CParameter &p : entry.params)
        j.object([&] {
          j.attribute("name", p.name);
          j.attribute("type", p.getCType());
          j.attribute("kind", p.kind == CParameter::Kind::Pointer  ? "pointer"
                              : p.kind == CParameter::Kind::Scalar ? "scalar"
                                                                   : "size");
          if (p.argIndex < 0)
            j.attribute("param", "result");
          else
            j.attribute("param", p.argIndex);
          if (p.kind == CParameter::Kind::Size)
            j.attribute("dim", p.dim);
        });
    });
    // Besides these, every size argument must be at least 1, and each `?`
    // size of the result must be its entry of result.dims.
    j.attributeArray("preconditions", [&] {
      for (size_t index = 0; index < fn.preconditions.size(); ++index) {
        SymbolicDim lhs = fn.preconditions[index].first;
        SymbolicDim rhs = fn.preconditions[index].second;
        j.object([&] {
          j.attribute("lhs", sizeValue(lhs));
          j.attribute("rhs", sizeValue(rhs));
          j.attribute("c",
                      entry.getSizeName(lhs) + " == " + entry.getSizeName(rhs));
          if (index >= fn.preconditionOrigins.size())
            return;
          const CPreconditionOrigin &origin = fn.preconditionOrigins[index];
          j.attribute("relation", origin.relation);
          j.attribute("note", origin.note);
          j.attribute("line", origin.line);
          j.attribute("column", origin.column);
        });
      }
    });
    j.attributeBegin("temporaries");
    if (!fn.temporaries) {
      j.value(nullptr);
    } else {
      j.array([&] {
        for (const CShape &shape : *fn.temporaries)
          j.array([&] {
            j.value(sizeValue(shape.first));
            j.value(sizeValue(shape.second));
          });
      });
    }
    j.attributeEnd();
  });
}

LogicalResult mlir::matrix::emitCSignatures(ModuleOp module, raw_ostream &os,
                                            StringRef sourceName) {
  FailureOr<CModuleInterface> interface = CModuleInterface::read(module);
  if (failed(interface))
    return failure();
  llvm::json::OStream j(os, /*IndentSize=*/2);
  j.object([&] {
    j.attribute("format", "matc-signatures");
    j.attribute("version", kSignaturesVersion);
    j.attribute("source", llvm::sys::path::filename(sourceName));
    j.attributeObject("status", [&] {
      j.attribute("ok", int64_t(kCStatusOk));
      j.attribute("shape_error", int64_t(kCStatusShapeError));
    });
    if (interface->hasProgram)
      j.attribute("program", kCProgramName);
    else
      j.attribute("program", nullptr);
    j.attributeArray("functions", [&] {
      for (const CEntryPoint &entry : interface->functions)
        writeFunction(j, entry);
    });
  });
  os << "\n";
  return success();
}
