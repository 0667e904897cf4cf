//===- DestinationEntries.cpp - entries that write into caller buffers ----===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A runtime that owns its output buffers (an inference server, a framework
// tensor passed as `out=`) wants the compiled function to write into them:
// returning a fresh buffer costs an allocation, fresh pages and, where the
// caller needs the data in its own buffer, a copy. `@f__into` takes the
// buffers as arguments; `@f__shape` gives the sizes they must have.
//
//===----------------------------------------------------------------------===//

#include "gather/ABI/DestinationEntries.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERDESTINATIONENTRIES
#include "gather/ABI/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// Whether `function` gets entries: public, defined, one block, ranked
/// tensor results only.
static bool isCandidate(func::FuncOp function) {
  if (!function.isPublic() || function.isExternal() ||
      !function.getBody().hasOneBlock() || function.getNumResults() == 0)
    return false;
  return llvm::all_of(function.getResultTypes(),
                      [](Type type) { return isa<RankedTensorType>(type); });
}

/// A copy of `function` named `name`, inserted after it.
static func::FuncOp cloneAs(SymbolTable &symbols, func::FuncOp function,
                            StringRef name) {
  func::FuncOp copy = function.clone();
  copy.setSymName(name);
  // Result attributes describe results the entries do not have.
  copy.removeResAttrsAttr();
  symbols.insert(copy, std::next(Block::iterator(function.getOperation())));
  return copy;
}

static func::ReturnOp returnOf(func::FuncOp function) {
  return cast<func::ReturnOp>(function.getBody().front().getTerminator());
}

/// The `tensor.empty` that `result` is computed into, where it is the
/// destination of the destination-style op defining `result`, of the same
/// type and used by nothing else; null otherwise.
static tensor::EmptyOp ownEmptyDestination(Value result) {
  auto dps = result.getDefiningOp<DestinationStyleOpInterface>();
  if (!dps)
    return nullptr;
  Value init = dps.getTiedOpOperand(cast<OpResult>(result))->get();
  auto empty = init.getDefiningOp<tensor::EmptyOp>();
  if (!empty || !empty->hasOneUse() || empty.getType() != result.getType())
    return nullptr;
  return empty;
}

/// Makes `buffer` the destination of the op that computes `result`, where
/// that destination is a tensor.empty used by nothing else: a gather (any
/// destination-style op but a linalg one) then writes the caller's buffer
/// through every rewrite of the pipeline. Not linalg ops: fusion replaces
/// a destination whose values the payload does not read by a new
/// tensor.empty, which empty-tensor elimination before bufferization then
/// finds. Returns whether it did.
static bool writeIntoBuffer(OpBuilder &b, Value result, Value buffer) {
  auto dps = result.getDefiningOp<DestinationStyleOpInterface>();
  if (!dps || isa<linalg::LinalgOp>(dps.getOperation()))
    return false;
  OpOperand *init = dps.getTiedOpOperand(cast<OpResult>(result));
  tensor::EmptyOp empty = ownEmptyDestination(result);
  if (!empty)
    return false;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPoint(dps);
  Value destination = bufferization::ToTensorOp::create(
      b, empty.getLoc(), result.getType(), buffer, /*restrict=*/true,
      /*writable=*/true);
  init->set(destination);
  empty.erase();
  return true;
}

/// `@<name>__into`: the results written into trailing memref arguments.
static func::FuncOp buildIntoEntry(SymbolTable &symbols, func::FuncOp function,
                                   StringRef name) {
  func::FuncOp into = cloneAs(symbols, function, name);
  func::ReturnOp ret = returnOf(into);
  OpBuilder b(ret);
  for (Value result : ret.getOperands()) {
    auto type = cast<RankedTensorType>(result.getType());
    auto bufferType = MemRefType::get(type.getShape(), type.getElementType());
    if (failed(into.insertArgument(into.getNumArguments(), bufferType,
                                   DictionaryAttr(), into.getLoc())))
      return nullptr;
    Value buffer = into.getArguments().back();
    // One restrict use of the buffer: the destination or this copy.
    bool written = writeIntoBuffer(b, result, buffer);
    bufferization::MaterializeInDestinationOp::create(
        b, ret.getLoc(), /*result=*/Type(), result, buffer,
        /*restrict=*/!written, /*writable=*/true);
  }
  func::ReturnOp::create(b, ret.getLoc());
  ret.erase();
  into.setFunctionType(FunctionType::get(into->getContext(),
                                         into.getArgumentTypes(), TypeRange{}));
  return into;
}

/// Operations a shape entry may keep: size arithmetic on the arguments
/// (arith and affine ops on scalars, constants of any type such as the
/// folded sizes themselves; not elementwise arith on tensors).
static bool isSizeArithmetic(Operation *op) {
  if (isa<func::ReturnOp, tensor::DimOp, tensor::FromElementsOp>(op))
    return true;
  Dialect *dialect = op->getDialect();
  if (!dialect || op->getNumRegions() != 0 ||
      !llvm::is_contained({StringRef("arith"), StringRef("affine")},
                          dialect->getNamespace()))
    return false;
  auto isScalar = [](Type type) { return !isa<ShapedType>(type); };
  return llvm::all_of(op->getOperandTypes(), isScalar);
}

/// `@<name>__shape`: the dynamic sizes of the results, in order, or null
/// when they cannot be computed without running the function.
static func::FuncOp buildShapeEntry(SymbolTable &symbols, func::FuncOp function,
                                    StringRef name,
                                    const FrozenRewritePatternSet &patterns) {
  func::FuncOp shape = cloneAs(symbols, function, name);
  func::ReturnOp ret = returnOf(shape);
  OpBuilder b(ret);
  SmallVector<Value> sizes;
  for (Value result : ret.getOperands()) {
    auto type = cast<RankedTensorType>(result.getType());
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        sizes.push_back(tensor::DimOp::create(b, ret.getLoc(), result, d));
  }
  Value all = tensor::FromElementsOp::create(
      b, ret.getLoc(),
      RankedTensorType::get({static_cast<int64_t>(sizes.size())},
                            b.getIndexType()),
      sizes);
  func::ReturnOp::create(b, ret.getLoc(), all);
  ret.erase();
  shape.setFunctionType(FunctionType::get(
      shape->getContext(), shape.getArgumentTypes(), all.getType()));
  // The size of a destination-style result is its destination's: the
  // computation itself becomes dead and goes.
  (void)applyPatternsGreedily(shape, patterns);
  bool cheap = true;
  shape.walk([&](Operation *op) {
    if (op != shape && !isSizeArithmetic(op))
      cheap = false;
  });
  if (!cheap) {
    symbols.erase(shape);
    return nullptr;
  }
  return shape;
}

/// Whether `__into` computes every result of `function` in its buffer, so
/// that `function` loses nothing by allocating the buffers and calling it:
/// each result is a distinct value computed by a destination-style op into
/// a `tensor.empty` of its own (a gather, which `writeIntoBuffer` gives the
/// buffer, or a linalg op, whose destination empty-tensor elimination
/// replaces). A result that is an argument, a constant or anything else
/// would be copied into the buffer: such a function keeps its own body.
static bool computesResultsInPlace(func::FuncOp function) {
  llvm::SmallPtrSet<Value, 4> seen;
  for (Value result : returnOf(function).getOperands()) {
    if (!seen.insert(result).second || !ownEmptyDestination(result))
      return false;
  }
  return true;
}

/// Replaces the body of `function` by a call of its `__into` entry on
/// buffers it allocates, sized by the body of its `__shape` entry (null for
/// static results): one compiled copy of the computation instead of two.
static void forwardToIntoEntry(func::FuncOp function, func::FuncOp into,
                               func::FuncOp shape) {
  Block &body = function.getBody().front();
  Location loc = returnOf(function).getLoc();
  for (Operation &op : llvm::make_early_inc_range(llvm::reverse(body))) {
    op.dropAllUses();
    op.erase();
  }
  OpBuilder b = OpBuilder::atBlockEnd(&body);
  // The sizes, in the order of the results' dynamic dimensions.
  Value sizes;
  if (shape) {
    IRMapping mapping;
    mapping.map(shape.getArguments(), function.getArguments());
    for (Operation &op : shape.getBody().front().without_terminator())
      b.clone(op, mapping);
    sizes = mapping.lookup(returnOf(shape).getOperand(0));
  }
  SmallVector<Value> operands(function.getArguments());
  SmallVector<Value> buffers;
  int64_t next = 0;
  for (Type resultType : function.getResultTypes()) {
    auto type = cast<RankedTensorType>(resultType);
    SmallVector<Value> dynamicSizes;
    for (int64_t d = 0; d < type.getRank(); ++d)
      if (type.isDynamicDim(d))
        dynamicSizes.push_back(tensor::ExtractOp::create(
            b, loc, sizes,
            arith::ConstantIndexOp::create(b, loc, next++).getResult()));
    // The alignment of bufferization's own allocations (the pipelines'
    // one-shot-bufferize).
    Value buffer = memref::AllocOp::create(
        b, loc, MemRefType::get(type.getShape(), type.getElementType()),
        dynamicSizes, b.getI64IntegerAttr(64));
    operands.push_back(buffer);
    buffers.push_back(buffer);
  }
  func::CallOp::create(b, loc, into, operands);
  SmallVector<Value> results;
  for (auto [buffer, type] : llvm::zip(buffers, function.getResultTypes()))
    results.push_back(bufferization::ToTensorOp::create(
        b, loc, type, buffer, /*restrict=*/true, /*writable=*/true));
  func::ReturnOp::create(b, loc, results);
}

namespace {
struct GatherDestinationEntriesPass
    : gather::impl::GatherDestinationEntriesBase<GatherDestinationEntriesPass> {
  LogicalResult initialize(MLIRContext *context) override {
    RewritePatternSet set(context);
    for (Dialect *dialect : context->getLoadedDialects())
      dialect->getCanonicalizationPatterns(set);
    for (RegisteredOperationName op : context->getRegisteredOperations())
      op.getCanonicalizationPatterns(set, context);
    patterns = std::move(set);
    return success();
  }

  void runOnOperation() override {
    ModuleOp module = getOperation();
    SymbolTable symbols(module);
    SmallVector<func::FuncOp> functions;
    for (auto function : module.getOps<func::FuncOp>())
      if (isCandidate(function))
        functions.push_back(function);
    for (func::FuncOp function : functions) {
      std::string intoName =
          (function.getName() + gather::kIntoEntrySuffix).str();
      std::string shapeName =
          (function.getName() + gather::kShapeEntrySuffix).str();
      if (symbols.lookup(intoName) || symbols.lookup(shapeName))
        continue;
      bool dynamic = llvm::any_of(function.getResultTypes(), [](Type type) {
        return !cast<RankedTensorType>(type).hasStaticShape();
      });
      func::FuncOp shape;
      if (dynamic &&
          !(shape = buildShapeEntry(symbols, function, shapeName, patterns)))
        continue;
      bool inPlace = computesResultsInPlace(function);
      func::FuncOp into = buildIntoEntry(symbols, function, intoName);
      if (!into)
        return signalPassFailure();
      if (inPlace) {
        forwardToIntoEntry(function, into, shape);
        // The sizes straight from the arguments (no tensor of them left to
        // allocate).
        (void)applyPatternsGreedily(function, patterns);
      }
    }
  }

  FrozenRewritePatternSet patterns;
};
} // namespace
