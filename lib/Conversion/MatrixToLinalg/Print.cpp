//===- Print.cpp - matrix.print to printf loops ---------------------------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// matrix.print of a matrix becomes a call of one private function per
// element type, `@matc.print.f32` / `@matc.print.f64` (of a
// tensor<?x?xfN>), whose scf.for loops over the rows and columns call the
// C library's printf with "%g" (the first element of a row) or " %g" (the
// others) and "\n" after each row, as mlir/examples/toy/Ch6 prints. One
// function, not loops at every print: a program of many prints is compiled
// (and LLVM unrolls its loops) once. printf is in every process, so the
// code runs unchanged in the JIT, under mlir-runner and in native
// executables, with no runtime library of ours. A scalar is one printf.
//
//===----------------------------------------------------------------------===//

#include "Patterns.h"

#include "MatrixDialect/IR/Dialect.h"
#include "MatrixDialect/IR/Ops.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Transforms/DialectConversion.h"

using namespace mlir;
using namespace mlir::matrix;

/// Returns the `printf` declaration of `module`, adding
/// `llvm.func @printf(!llvm.ptr, ...) -> i32` if it is missing.
static LLVM::LLVMFuncOp getOrInsertPrintf(OpBuilder &b, ModuleOp module) {
  if (auto printf = module.lookupSymbol<LLVM::LLVMFuncOp>("printf"))
    return printf;
  MLIRContext *ctx = b.getContext();
  auto type = LLVM::LLVMFunctionType::get(IntegerType::get(ctx, 32),
                                          LLVM::LLVMPointerType::get(ctx),
                                          /*isVarArg=*/true);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::LLVMFuncOp::create(b, module.getLoc(), "printf", type);
}

/// Returns a pointer to the NUL-terminated string `value`, kept in an
/// internal constant global `name` of `module` (created on first use).
static Value getFormatString(OpBuilder &b, Location loc, ModuleOp module,
                             StringRef name, StringRef value) {
  auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
  if (!global) {
    std::string text = value.str();
    text.push_back('\0');
    auto type =
        LLVM::LLVMArrayType::get(IntegerType::get(b.getContext(), 8),
                                 text.size());
    OpBuilder::InsertionGuard guard(b);
    b.setInsertionPointToStart(module.getBody());
    global = LLVM::GlobalOp::create(b, loc, type, /*isConstant=*/true,
                                    LLVM::Linkage::Internal, name,
                                    b.getStringAttr(text), /*alignment=*/0);
  }
  return LLVM::AddressOfOp::create(b, loc, global);
}

/// Widens `x` to f64 and replaces any NaN with a positive quiet NaN, since
/// glibc prints a NaN with its sign bit set as "-nan" and Mat prints "nan".
static Value toPrintableDouble(OpBuilder &b, Location loc, Value x) {
  if (!x.getType().isF64())
    x = arith::ExtFOp::create(b, loc, b.getF64Type(), x);
  Value isNan =
      arith::CmpFOp::create(b, loc, arith::CmpFPredicate::UNO, x, x);
  Value quietNan = arith::ConstantOp::create(
      b, loc, b.getF64FloatAttr(std::numeric_limits<double>::quiet_NaN()));
  return arith::SelectOp::create(b, loc, isNan, quietNan, x);
}

/// Calls printf with `format` and, if given, `number` (made printable).
static void callPrintf(OpBuilder &b, Location loc, LLVM::LLVMFuncOp printf,
                       Value format, std::optional<Value> number) {
  SmallVector<Value, 2> args{format};
  if (number)
    args.push_back(toPrintableDouble(b, loc, *number));
  LLVM::CallOp::create(b, loc, printf, args);
}

/// Returns `@matc.print.<element type>` of `module`, creating it on first
/// use: `(tensor<?x?xT>) -> ()`, printing its matrix a row per line.
static func::FuncOp getOrInsertPrintMatrix(OpBuilder &b, ModuleOp module,
                                           Type elementType) {
  std::string name;
  llvm::raw_string_ostream(name) << "matc.print." << elementType;
  if (auto existing = module.lookupSymbol<func::FuncOp>(name))
    return existing;
  MLIRContext *ctx = b.getContext();
  Location loc = module.getLoc();
  auto matrixType = RankedTensorType::get(
      {ShapedType::kDynamic, ShapedType::kDynamic}, elementType);
  OpBuilder::InsertionGuard guard(b);
  LLVM::LLVMFuncOp printf = getOrInsertPrintf(b, module);
  b.setInsertionPointToEnd(module.getBody());
  auto function = func::FuncOp::create(
      b, loc, name, FunctionType::get(ctx, {matrixType}, {}));
  function.setPrivate();
  // LLVM would inline its loops back into every print.
  matrix::setNoInline(function);
  Block *body = function.addEntryBlock();
  b.setInsertionPointToStart(body);
  Value input = body->getArgument(0);
  Value first = getFormatString(b, loc, module, "matc.fmt.first", "%g");
  Value rest = getFormatString(b, loc, module, "matc.fmt.rest", " %g");
  Value newline =
      getFormatString(b, loc, module, "matc.fmt.newline", "\n");
  Value zero = arith::ConstantIndexOp::create(b, loc, 0);
  Value one = arith::ConstantIndexOp::create(b, loc, 1);
  Value rows = tensor::DimOp::create(b, loc, input, 0);
  Value cols = tensor::DimOp::create(b, loc, input, 1);
  scf::ForOp::create(
      b, loc, zero, rows, one, {},
      [&](OpBuilder &rb, Location l, Value i, ValueRange) {
        scf::ForOp::create(
            rb, l, zero, cols, one, {},
            [&](OpBuilder &cb, Location cl, Value j, ValueRange) {
              Value x =
                  tensor::ExtractOp::create(cb, cl, input, ValueRange{i, j});
              Value isFirst = arith::CmpIOp::create(
                  cb, cl, arith::CmpIPredicate::eq, j, zero);
              Value format =
                  arith::SelectOp::create(cb, cl, isFirst, first, rest);
              callPrintf(cb, cl, printf, format, x);
              scf::YieldOp::create(cb, cl);
            });
        callPrintf(rb, l, printf, newline, std::nullopt);
        scf::YieldOp::create(rb, l);
      });
  func::ReturnOp::create(b, loc);
  return function;
}

namespace {

struct PrintLowering : OpConversionPattern<PrintOp> {
  using OpConversionPattern::OpConversionPattern;
  LogicalResult
  matchAndRewrite(PrintOp op, OpAdaptor adaptor,
                  ConversionPatternRewriter &rewriter) const override {
    Location loc = op.getLoc();
    auto module = op->getParentOfType<ModuleOp>();
    Value input = adaptor.getInput();
    auto matrixType = dyn_cast<RankedTensorType>(input.getType());
    if (!matrixType) {
      callPrintf(rewriter, loc, getOrInsertPrintf(rewriter, module),
                 getFormatString(rewriter, loc, module, "matc.fmt.scalar",
                                 "%g\n"),
                 input);
      rewriter.eraseOp(op);
      return success();
    }
    func::FuncOp print =
        getOrInsertPrintMatrix(rewriter, module, matrixType.getElementType());
    Value matrix = tensor::CastOp::create(
        rewriter, loc, print.getArgumentTypes()[0], input);
    rewriter.replaceOpWithNewOp<func::CallOp>(op, print, ValueRange{matrix});
    return success();
  }
};

} // namespace

void mlir::matrix::lowering::populatePrintPatterns(RewritePatternSet &patterns) {
  patterns.add<PrintLowering>(patterns.getContext());
}
