//===- ExportCInterface.cpp - The matrix-export-c-interface pass ----------===//
//
// Part of the matc project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//
//
// Builds, in the LLVM dialect, the C entry point of each Mat function (the
// convention is in CInterface.h). A lowered Mat function takes each matrix
// as an expanded memref descriptor (allocated pointer, aligned pointer,
// offset, two sizes, two strides: upstream `convert-func-to-llvm`) and
// returns one as a struct, in a buffer the caller owns (ownership-based
// buffer deallocation hands results to the caller); the entry point builds
// the descriptors over the caller's row-major buffers, checks the sizes
// first, and calls the destination-passing variant `mat_f.into` on the
// caller's result buffer, or, when that buffer overlaps a parameter,
// `mat_f.impl` and copies the result out.
//
//===----------------------------------------------------------------------===//

#include "MatrixDialect/Conversion/CInterface.h"
#include "MatrixDialect/Conversion/Passes.h"

#include "mlir/Dialect/LLVMIR/FunctionCallUtils.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/IR/SymbolTable.h"

#include <limits>

namespace mlir {
namespace matrix {
#define GEN_PASS_DEF_MATRIXEXPORTCINTERFACE
#include "MatrixDialect/Conversion/Passes.h.inc"
} // namespace matrix
} // namespace mlir

using namespace mlir;
using namespace mlir::matrix;

/// Number of LLVM arguments of one 2-D memref descriptor, expanded.
static constexpr unsigned kDescriptorArgs = 7;
/// The most elements a matrix may have: 2^63 bytes of f64.
static constexpr int64_t kMaxTemporaryElements = int64_t(1) << 60;

/// The C library's `FILE *` global `name` (`stdout`, `stderr`; glibc and
/// musl both define them), declared in `module` if it is not yet.
static LLVM::GlobalOp getOrCreateStream(OpBuilder &b, ModuleOp module,
                                        StringRef name) {
  if (auto global = module.lookupSymbol<LLVM::GlobalOp>(name))
    return global;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  return LLVM::GlobalOp::create(
      b, module.getLoc(), LLVM::LLVMPointerType::get(b.getContext()),
      /*isConstant=*/false, LLVM::Linkage::External, name,
      /*value=*/Attribute());
}

namespace {

/// Builds the body of one C entry point.
class EntryPointBuilder {
public:
  EntryPointBuilder(OpBuilder &b, Location loc, const CInterface &c,
                    LLVM::LLVMFuncOp impl, LLVM::LLVMFuncOp into,
                    LLVM::LLVMFuncOp freeFn)
      : b(b), loc(loc), c(c), impl(impl), into(into), freeFn(freeFn),
        ptrType(LLVM::LLVMPointerType::get(b.getContext())),
        i64(b.getI64Type()), i32(b.getI32Type()) {}

  /// Creates `llvm.func @mat_<name>` after `impl`.
  LLVM::LLVMFuncOp build();

private:
  /// The i64 constant `v`, made once at the top of the entry block.
  Value constI64(int64_t v) {
    Value &c = constants[v];
    if (!c) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(entryBlock);
      c = LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(v));
    }
    return c;
  }
  Value constI32(int64_t v) {
    return LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(v));
  }
  Value eq(Value x, Value y) {
    return LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::eq, x, y);
  }
  Value both(Value x, Value y) { return LLVM::AndOp::create(b, loc, x, y); }
  /// Appends to `args` the expanded descriptor of the contiguous row-major
  /// rows x cols buffer at `ptr`: (ptr, ptr, 0, rows, cols, cols, 1).
  void appendRowMajorDescriptor(SmallVectorImpl<Value> &args, Value ptr,
                                Value rows, Value cols) {
    args.append({ptr, ptr, constI64(0), rows, cols, cols, constI64(1)});
  }
  void returnStatus(int status) {
    LLVM::ReturnOp::create(b, loc, constI32(status));
  }

  /// The size `d` stands for: a constant, or a `?` size the caller passed.
  Value sizeOf(SymbolicDim d) {
    if (d.isConstant())
      return constI64(d.getConstant());
    return sizeArgs.lookup({int(d.getParam()), d.getDim()});
  }
  /// Dimension `dim` of Mat parameter `arg` (-1: the result), as the C
  /// caller gives it.
  Value dimOf(int arg, unsigned dim) {
    Type type = arg < 0 ? c.type.getResult(0) : c.type.getInput(arg);
    auto tensor = cast<RankedTensorType>(type);
    if (!tensor.isDynamicDim(dim))
      return constI64(tensor.getDimSize(dim));
    return sizeArgs.lookup({arg, dim});
  }

  /// The address of the module's "matrix too large" message, a global made
  /// the first time.
  Value getTooLargeMessage(ModuleOp module) {
    StringRef name = "matc.too_large.message";
    auto global = module.lookupSymbol<LLVM::GlobalOp>(name);
    if (!global) {
      OpBuilder::InsertionGuard guard(b);
      b.setInsertionPointToStart(module.getBody());
      std::string text = "error: out of memory: a matrix of %llu x %llu "
                         "elements is too large to allocate\n";
      text += '\0';
      global = LLVM::GlobalOp::create(
          b, loc, LLVM::LLVMArrayType::get(b.getI8Type(), text.size()),
          /*isConstant=*/true, LLVM::Linkage::Internal, name,
          b.getStringAttr(text));
    }
    return LLVM::AddressOfOp::create(b, loc, ptrType, name);
  }

  /// Checks the result descriptor `desc` against the expected sizes, copies
  /// it to `out` and frees it; returns the status from every path.
  void copyResult(Value desc, Value out, LLVM::LLVMFuncOp entry);

  /// The byte range [begin, end) of the R x C buffer at `ptr` holding Mat
  /// parameter `arg` (-1: the result), as two i64.
  std::pair<Value, Value> byteRange(Value ptr, int arg);

  /// True (i1) if the result buffer `out` overlaps no matrix parameter of
  /// `args` (the C arguments by Mat parameter).
  Value resultIsSeparate(Value out, const DenseMap<int, Value> &args);

  OpBuilder &b;
  Location loc;
  const CInterface &c;
  LLVM::LLVMFuncOp impl;
  /// The destination-passing variant of `impl`, or null.
  LLVM::LLVMFuncOp into;
  LLVM::LLVMFuncOp freeFn;
  Type ptrType, i64, i32;
  /// The C arguments holding `?` sizes, by (Mat parameter or -1, dim).
  llvm::DenseMap<std::pair<int, unsigned>, Value> sizeArgs;
  Block *entryBlock = nullptr;
  llvm::DenseMap<int64_t, Value> constants;
};

} // namespace

LLVM::LLVMFuncOp EntryPointBuilder::build() {
  SmallVector<CParameter> params = getCParameters(c);
  SmallVector<Type> argTypes;
  for (const CParameter &p : params)
    argTypes.push_back(p.kind == CParameter::Kind::Pointer ? ptrType
                       : p.kind == CParameter::Kind::Size  ? i64
                                                           : p.elementType);
  auto entry = LLVM::LLVMFuncOp::create(
      b, loc, c.getCSymbol(), LLVM::LLVMFunctionType::get(i32, argTypes));
  Block *body = entry.addEntryBlock(b);
  entryBlock = body;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(body);

  // The C arguments of each Mat parameter, and of the result.
  DenseMap<int, Value> valueArgs;
  for (auto [p, arg] : llvm::zip(params, body->getArguments())) {
    if (p.kind == CParameter::Kind::Size)
      sizeArgs[{p.argIndex, p.dim}] = arg;
    else
      valueArgs[p.argIndex] = arg;
  }

  // Every check before any work: sizes, preconditions, expected result.
  Value ok = LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(1));
  for (const CParameter &p : params)
    if (p.kind == CParameter::Kind::Size)
      ok = both(ok, LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::sge,
                                         sizeArgs.lookup({p.argIndex, p.dim}),
                                         constI64(1)));
  for (auto [lhs, rhs] : c.preconditions)
    ok = both(ok, eq(sizeOf(lhs), sizeOf(rhs)));
  for (auto [d, size] : llvm::enumerate(c.resultDims))
    if (cast<RankedTensorType>(c.type.getResult(0)).isDynamicDim(d))
      ok = both(ok, eq(dimOf(-1, d), sizeOf(size)));

  Block *callBlock = entry.addBlock();
  Block *failBlock = entry.addBlock();
  LLVM::CondBrOp::create(b, loc, ok, callBlock, failBlock);
  b.setInsertionPointToStart(failBlock);
  returnStatus(kCStatusShapeError);

  // A `?` size can make a matrix the function computes (a temporary) too
  // large to count in bytes: its allocation's size would wrap around and
  // malloc succeed with a few bytes. Such sizes are reported as out of
  // memory, as a failed malloc is (matrix-checked-allocation), before any
  // work.
  b.setInsertionPointToStart(callBlock);
  auto module = impl->getParentOfType<ModuleOp>();
  bool dynamicTemporary =
      c.temporaries && llvm::any_of(*c.temporaries, [](const CShape &shape) {
        return !shape.first.isConstant() || !shape.second.isConstant();
      });
  FailureOr<LLVM::LLVMFuncOp> fprintfFn, exitFn;
  if (dynamicTemporary) {
    fprintfFn = LLVM::lookupOrCreateFn(b, module, "fprintf",
                                       {ptrType, ptrType}, i32,
                                       /*isVarArg=*/true);
    exitFn = LLVM::lookupOrCreateFn(b, module, "exit", {i32},
                                    LLVM::LLVMVoidType::get(b.getContext()));
  }
  if (dynamicTemporary && succeeded(fprintfFn) && succeeded(exitFn)) {
    Value tooLarge =
        LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(false));
    Value badRows = constI64(0), badCols = constI64(0);
    for (auto [rows, cols] : *c.temporaries) {
      if (rows.isConstant() && cols.isConstant())
        continue;
      // rows * cols > kMaxTemporaryElements, without the product (cols >= 1).
      Value limit = LLVM::UDivOp::create(
          b, loc, constI64(kMaxTemporaryElements), sizeOf(cols));
      Value over = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ugt,
                                        sizeOf(rows), limit);
      badRows = LLVM::SelectOp::create(b, loc, over, sizeOf(rows), badRows);
      badCols = LLVM::SelectOp::create(b, loc, over, sizeOf(cols), badCols);
      tooLarge = LLVM::OrOp::create(b, loc, tooLarge, over);
    }
    Block *fitsBlock = entry.addBlock();
    Block *tooLargeBlock = entry.addBlock();
    LLVM::CondBrOp::create(b, loc, tooLarge, tooLargeBlock, fitsBlock);
    b.setInsertionPointToStart(tooLargeBlock);
    Value message = getTooLargeMessage(module);
    LLVM::GlobalOp stderrGlobal = getOrCreateStream(b, module, "stderr");
    Value stream = LLVM::LoadOp::create(
        b, loc, ptrType,
        LLVM::AddressOfOp::create(b, loc, ptrType, stderrGlobal.getSymName()));
    LLVM::CallOp::create(b, loc, *fprintfFn,
                         ValueRange{stream, message, badRows, badCols});
    Value one = constI32(1);
    LLVM::CallOp::create(b, loc, *exitFn, one);
    LLVM::UnreachableOp::create(b, loc);
    b.setInsertionPointToStart(fitsBlock);
  }

  // Row-major descriptors over the caller's buffers.
  SmallVector<Value> implArgs;
  for (auto [index, type] : llvm::enumerate(c.type.getInputs())) {
    Value arg = valueArgs.lookup(index);
    if (!isa<RankedTensorType>(type)) {
      implArgs.push_back(arg);
      continue;
    }
    appendRowMajorDescriptor(implArgs, arg, dimOf(index, 0), dimOf(index, 1));
  }
  Value out = valueArgs.lookup(-1);
  if (into) {
    // The result computed in the caller's buffer, unless that buffer
    // overlaps a parameter: then as below, in a buffer of its own.
    Block *intoBlock = entry.addBlock();
    Block *ownBlock = entry.addBlock();
    LLVM::CondBrOp::create(b, loc, resultIsSeparate(out, valueArgs), intoBlock,
                           ownBlock);
    b.setInsertionPointToStart(intoBlock);
    SmallVector<Value> intoArgs(implArgs);
    appendRowMajorDescriptor(intoArgs, out, dimOf(-1, 0), dimOf(-1, 1));
    LLVM::CallOp::create(b, loc, into, intoArgs);
    returnStatus(kCStatusOk);
    b.setInsertionPointToStart(ownBlock);
  }
  Value result = LLVM::CallOp::create(b, loc, impl, implArgs).getResult();
  if (!isa<RankedTensorType>(c.type.getResult(0))) {
    LLVM::StoreOp::create(b, loc, result, out);
    returnStatus(kCStatusOk);
    return entry;
  }
  copyResult(result, out, entry);
  return entry;
}

std::pair<Value, Value> EntryPointBuilder::byteRange(Value ptr, int arg) {
  Type type = arg < 0 ? c.type.getResult(0) : c.type.getInput(arg);
  Type element = cast<RankedTensorType>(type).getElementType();
  Value bytes = LLVM::MulOp::create(
      b, loc, LLVM::MulOp::create(b, loc, dimOf(arg, 0), dimOf(arg, 1)),
      constI64(element.getIntOrFloatBitWidth() / 8));
  Value begin = LLVM::PtrToIntOp::create(b, loc, i64, ptr);
  return {begin, LLVM::AddOp::create(b, loc, begin, bytes)};
}

Value EntryPointBuilder::resultIsSeparate(Value out,
                                          const DenseMap<int, Value> &args) {
  auto [outBegin, outEnd] = byteRange(out, -1);
  Value separate =
      LLVM::ConstantOp::create(b, loc, b.getI1Type(), b.getBoolAttr(true));
  for (auto [index, type] : llvm::enumerate(c.type.getInputs())) {
    if (!isa<RankedTensorType>(type))
      continue;
    auto [begin, end] = byteRange(args.lookup(index), index);
    // [begin, end) and [outBegin, outEnd) are disjoint iff one ends before
    // the other begins.
    Value before =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ule, end, outBegin);
    Value after =
        LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ule, outEnd, begin);
    separate = both(separate, LLVM::OrOp::create(b, loc, before, after));
  }
  return separate;
}

void EntryPointBuilder::copyResult(Value desc, Value out,
                                   LLVM::LLVMFuncOp entry) {
  auto element = cast<RankedTensorType>(c.type.getResult(0)).getElementType();
  auto field = [&](ArrayRef<int64_t> position) {
    return LLVM::ExtractValueOp::create(b, loc, desc, position).getResult();
  };
  Value allocated = field({0}), aligned = field({1}), offset = field({2});
  Value rows = field({3, 0}), cols = field({3, 1});
  Value rowStride = field({4, 0}), colStride = field({4, 1});

  // The sizes were checked before the call; check what came back too, so
  // that a wrong size never writes past the caller's buffer.
  Value sizesOk = both(eq(rows, dimOf(-1, 0)), eq(cols, dimOf(-1, 1)));
  Block *copyBlock = entry.addBlock();
  Block *badBlock = entry.addBlock();
  LLVM::CondBrOp::create(b, loc, sizesOk, copyBlock, badBlock);
  b.setInsertionPointToStart(badBlock);
  LLVM::CallOp::create(b, loc, freeFn, ValueRange{allocated});
  returnStatus(kCStatusShapeError);

  // Contiguous row-major (the usual case): one memcpy. Otherwise one
  // element at a time, following the strides.
  b.setInsertionPointToStart(copyBlock);
  Value src = LLVM::GEPOp::create(b, loc, ptrType, element, aligned,
                                  ValueRange{offset});
  Value total = LLVM::MulOp::create(b, loc, rows, cols);
  Value contiguous = both(eq(colStride, constI64(1)), eq(rowStride, cols));
  Block *memcpyBlock = entry.addBlock();
  Block *loopHeader = entry.addBlock();
  Value k = loopHeader->addArgument(i64, loc);
  Block *loopBody = entry.addBlock();
  Block *doneBlock = entry.addBlock();
  LLVM::CondBrOp::create(b, loc, contiguous, memcpyBlock, ValueRange{},
                         loopHeader, ValueRange{constI64(0)});

  b.setInsertionPointToStart(memcpyBlock);
  Value bytes = LLVM::MulOp::create(
      b, loc, total, constI64(element.getIntOrFloatBitWidth() / 8));
  LLVM::MemcpyOp::create(b, loc, out, src, bytes, /*isVolatile=*/false);
  LLVM::BrOp::create(b, loc, doneBlock);

  b.setInsertionPointToStart(loopHeader);
  Value more = LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::slt, k, total);
  LLVM::CondBrOp::create(b, loc, more, loopBody, doneBlock);

  b.setInsertionPointToStart(loopBody);
  Value i = LLVM::SDivOp::create(b, loc, k, cols);
  Value j = LLVM::SRemOp::create(b, loc, k, cols);
  Value at =
      LLVM::AddOp::create(b, loc, LLVM::MulOp::create(b, loc, i, rowStride),
                          LLVM::MulOp::create(b, loc, j, colStride));
  Value from =
      LLVM::GEPOp::create(b, loc, ptrType, element, src, ValueRange{at});
  Value to = LLVM::GEPOp::create(b, loc, ptrType, element, out, ValueRange{k});
  LLVM::StoreOp::create(b, loc, LLVM::LoadOp::create(b, loc, element, from),
                        to);
  Value next = LLVM::AddOp::create(b, loc, k, constI64(1));
  LLVM::BrOp::create(b, loc, ValueRange{next}, loopHeader);

  b.setInsertionPointToStart(doneBlock);
  LLVM::CallOp::create(b, loc, freeFn, ValueRange{allocated});
  returnStatus(kCStatusOk);
}

/// Checks that `impl` takes and returns what convert-func-to-llvm makes of
/// `c.type`: an expanded 2-D memref descriptor per matrix, the float type
/// per scalar, a descriptor struct or a float as result.
/// Whether `types` are an expanded 2-D memref descriptor: two pointers
/// (allocated, aligned), then offset, two sizes and two strides as i64.
static bool isExpandedDescriptor(ArrayRef<Type> types) {
  if (types.size() != kDescriptorArgs)
    return false;
  for (auto [i, t] : llvm::enumerate(types))
    if (i < 2 ? !isa<LLVM::LLVMPointerType>(t) : !t.isInteger(64))
      return false;
  return true;
}

static bool hasExpectedConvention(LLVM::LLVMFuncOp impl, const CInterface &c) {
  LLVM::LLVMFunctionType type = impl.getFunctionType();
  unsigned next = 0;
  ArrayRef<Type> params = type.getParams();
  for (Type input : c.type.getInputs()) {
    if (!isa<RankedTensorType>(input)) {
      if (next >= params.size() || params[next++] != input)
        return false;
      continue;
    }
    if (next + kDescriptorArgs > params.size() ||
        !isExpandedDescriptor(params.slice(next, kDescriptorArgs)))
      return false;
    next += kDescriptorArgs;
  }
  if (next != params.size() || type.isVarArg())
    return false;
  Type result = type.getReturnType();
  if (!isa<RankedTensorType>(c.type.getResult(0)))
    return result == c.type.getResult(0);
  auto desc = dyn_cast<LLVM::LLVMStructType>(result);
  return desc && desc.getBody().size() == 5;
}

/// Checks that `into` takes what `impl` takes (hasExpectedConvention) and
/// one more expanded memref descriptor, and returns nothing.
static bool hasExpectedIntoConvention(LLVM::LLVMFuncOp into,
                                      LLVM::LLVMFuncOp impl) {
  LLVM::LLVMFunctionType type = into.getFunctionType();
  ArrayRef<Type> implParams = impl.getFunctionType().getParams();
  ArrayRef<Type> params = type.getParams();
  return !type.isVarArg() && isa<LLVM::LLVMVoidType>(type.getReturnType()) &&
         params.size() == implParams.size() + kDescriptorArgs &&
         params.take_front(implParams.size()) == implParams &&
         isExpandedDescriptor(params.take_back(kDescriptorArgs));
}


/// Adds, after `program` (the Mat program, `matc_main`), the `main` of an
/// executable:
///
///   int main(void) {
///     matc_main();
///     // Output is buffered: a full disk or a closed pipe shows up when
///     // the buffer is written, possibly only here.
///     if (fflush(stdout) != 0 || ferror(stdout) != 0) {
///       write(2, "error: <kLostOutputText>\n", length);
///       return 1;
///     }
///     return 0;
///   }
///
/// `stdout` is the C library's global (glibc and musl both define it).
static LogicalResult buildExecutableMain(OpBuilder &b, ModuleOp module,
                                         LLVM::LLVMFuncOp program) {
  Location loc = program.getLoc();
  MLIRContext *context = b.getContext();
  auto i32 = b.getI32Type();
  auto i64 = b.getI64Type();
  auto ptr = LLVM::LLVMPointerType::get(context);
  FailureOr<LLVM::LLVMFuncOp> fflushFn =
      LLVM::lookupOrCreateFn(b, module, "fflush", {ptr}, i32);
  FailureOr<LLVM::LLVMFuncOp> ferrorFn =
      LLVM::lookupOrCreateFn(b, module, "ferror", {ptr}, i32);
  FailureOr<LLVM::LLVMFuncOp> writeFn =
      LLVM::lookupOrCreateFn(b, module, "write", {i32, ptr, i64}, i64);
  if (failed(fflushFn) || failed(ferrorFn) || failed(writeFn))
    return failure();
  LLVM::GlobalOp stdoutGlobal = getOrCreateStream(b, module, "stdout");

  b.setInsertionPointAfter(program);
  auto exeMain = LLVM::LLVMFuncOp::create(
      b, loc, "main", LLVM::LLVMFunctionType::get(i32, {}));
  Block *entry = exeMain.addEntryBlock(b);
  Block *lost = exeMain.addBlock();
  Block *written = exeMain.addBlock();

  b.setInsertionPointToStart(entry);
  LLVM::CallOp::create(b, loc, program, ValueRange{});
  Value stream = LLVM::LoadOp::create(
      b, loc, ptr, LLVM::AddressOfOp::create(b, loc, stdoutGlobal));
  Value zero = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(0));
  Value flushed = LLVM::CallOp::create(b, loc, *fflushFn, ValueRange{stream})
                      .getResult();
  Value failedFlush =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, flushed, zero);
  Value error = LLVM::CallOp::create(b, loc, *ferrorFn, ValueRange{stream})
                    .getResult();
  Value failedStream =
      LLVM::ICmpOp::create(b, loc, LLVM::ICmpPredicate::ne, error, zero);
  Value lostOutput = LLVM::OrOp::create(b, loc, failedFlush, failedStream);
  LLVM::CondBrOp::create(b, loc, lostOutput, lost, written);

  b.setInsertionPointToStart(lost);
  std::string text = ("error: " + kLostOutputText + "\n").str();
  Value message = LLVM::createGlobalString(
      loc, b, "matc_lost_output_message", text, LLVM::Linkage::Internal);
  Value stderrFd = LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(2));
  Value length =
      LLVM::ConstantOp::create(b, loc, i64, b.getI64IntegerAttr(text.size()));
  LLVM::CallOp::create(b, loc, *writeFn,
                       ValueRange{stderrFd, message, length});
  LLVM::ReturnOp::create(
      b, loc, LLVM::ConstantOp::create(b, loc, i32, b.getI32IntegerAttr(1)));

  b.setInsertionPointToStart(written);
  LLVM::ReturnOp::create(b, loc,
                         LLVM::ConstantOp::create(
                             b, loc, i32, b.getI32IntegerAttr(kCStatusOk)));
  return success();
}

namespace {
struct MatrixExportCInterface
    : matrix::impl::MatrixExportCInterfaceBase<MatrixExportCInterface> {
  using Base::Base;

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    OpBuilder b(&getContext());

    // Nothing of the module but the entry points is visible outside it.
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>())
      if (!fn.isExternal())
        fn.setLinkage(LLVM::Linkage::Internal);
    for (auto global : module.getOps<LLVM::GlobalOp>())
      if (global.getLinkage() == LLVM::Linkage::External &&
          (global.getValueOrNull() || !global.getInitializerRegion().empty()))
        global.setLinkage(LLVM::Linkage::Internal);

    struct Exported {
      LLVM::LLVMFuncOp impl, into;
      CInterface c;
    };
    SmallVector<Exported, 0> functions;
    for (auto fn : module.getOps<LLVM::LLVMFuncOp>()) {
      auto attr = fn->getAttrOfType<DictionaryAttr>(kCInterfaceAttrName);
      if (!attr)
        continue;
      FailureOr<CInterface> c = CInterface::fromAttr(attr);
      if (failed(c) || fn.isExternal()) {
        fn.emitError("malformed '") << kCInterfaceAttrName << "' attribute";
        return signalPassFailure();
      }
      if (!hasExpectedConvention(fn, *c)) {
        fn.emitError("the lowered signature is not the expanded memref "
                     "descriptor convention the C entry point needs");
        return signalPassFailure();
      }
      LLVM::LLVMFuncOp into;
      if (auto name = fn->getAttrOfType<StringAttr>(kCIntoAttrName)) {
        into = symbols.lookup<LLVM::LLVMFuncOp>(name);
        if (!into || into.isExternal() ||
            !hasExpectedIntoConvention(into, fn)) {
          fn.emitError("the destination-passing variant '")
              << name.getValue() << "' is missing or malformed";
          return signalPassFailure();
        }
      }
      functions.push_back({fn, into, std::move(*c)});
    }

    // Rename every Mat function first: `def main` is `mat_main`, whose
    // entry point is `mat_main` too. The users of every symbol are found in
    // one walk (SymbolTable::rename walks the module for each).
    SymbolTableCollection collection;
    SymbolUserMap users(collection, module);
    for (Exported &f : functions) {
      StringAttr name = b.getStringAttr(f.c.getCSymbol() + ".impl");
      if (symbols.lookup(name)) {
        f.impl.emitError("symbol '") << name.getValue() << "' is already defined";
        return signalPassFailure();
      }
      users.replaceAllUsesWith(f.impl, name);
      symbols.remove(f.impl);
      SymbolTable::setSymbolName(f.impl, name);
      symbols.insert(f.impl);
    }
    FailureOr<LLVM::LLVMFuncOp> freeFn = LLVM::lookupOrCreateFreeFn(b, module);
    if (failed(freeFn))
      return signalPassFailure();
    for (Exported &f : functions) {
      if (symbols.lookup(f.c.getCSymbol())) {
        f.impl.emitError("C entry point '")
            << f.c.getCSymbol() << "' is already defined";
        return signalPassFailure();
      }
      b.setInsertionPointAfter(f.impl);
      LLVM::LLVMFuncOp entry =
          EntryPointBuilder(b, f.impl.getLoc(), f.c, f.impl, f.into, *freeFn)
              .build();
      symbols.insert(entry);
    }

    auto main = symbols.lookup<LLVM::LLVMFuncOp>("main");
    if (!main) {
      if (executable) {
        module.emitError("an executable needs a 'main' function");
        return signalPassFailure();
      }
      return;
    }
    if (failed(symbols.rename(main, kCProgramName)))
      return signalPassFailure();
    if (main->hasAttr(kCProgramAttrName))
      main.setLinkage(LLVM::Linkage::External);
    if (!executable)
      return;
    if (failed(buildExecutableMain(b, module, main)))
      return signalPassFailure();
  }
};
} // namespace
