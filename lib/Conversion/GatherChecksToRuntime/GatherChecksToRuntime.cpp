//===- GatherChecksToRuntime.cpp - check ops to error hook calls ----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/GatherChecksToRuntime.h"
#include "gather/Utils/OutOfLine.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/IR/GatherSite.h"
#include "gather/Dialect/Gather/IR/RuntimeErrorKind.h"
#include "gather/Dialect/Gather/IR/RuntimeFunctions.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/ControlFlow/IR/ControlFlowOps.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/PatternMatch.h"
#include "mlir/Transforms/GreedyPatternRewriteDriver.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

namespace mlir::gather {
#define GEN_PASS_DEF_CONVERTGATHERCHECKSTORUNTIME
#include "gather/Conversion/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

namespace {

/// Module-level symbols of the error ABI, created on first use and found
/// again through the symbol tables (lowering N checks takes time linear in
/// N).
class RuntimeSymbols {
public:
  explicit RuntimeSymbols(SymbolTableCollection &tables) : tables(tables) {}

  /// The run-time library's `function` (lookupOrDeclareRuntimeFunction);
  /// null after an error where the module's symbol of its name is
  /// something else.
  func::FuncOp getOrDeclare(ModuleOp module, RuntimeFunction function) {
    return lookupOrDeclareRuntimeFunction(module, tables.getSymbolTable(module),
                                          function);
  }
  memref::GlobalOp getOrCreateSiteString(OpBuilder &b, Location loc,
                                         ModuleOp module,
                                         const std::string &text);
  func::FuncOp getOrCreateShapeReport(OpBuilder &b, Location loc,
                                      ModuleOp module);
  func::FuncOp getOrCreateAssertReport(OpBuilder &b, Location loc,
                                       ModuleOp module, bool skips);
  func::FuncOp getOrCreateIndexReport(OpBuilder &b, Location loc,
                                      ModuleOp module, MemRefType indicesType,
                                      IndexPolicy policy, int64_t components,
                                      int64_t writtenRank, bool assumeInvalid);

private:
  Operation *lookup(ModuleOp module, StringRef name) {
    return tables.lookupSymbolIn(module,
                                 StringAttr::get(module.getContext(), name));
  }
  void remember(ModuleOp module, Operation *symbol) {
    tables.getSymbolTable(module).insert(symbol);
  }
  Operation *findHashedSymbol(ModuleOp module, const std::string &base,
                              function_ref<bool(Operation *)> isWanted,
                              std::string &freeName);
  func::FuncOp getOrCreateReport(
      OpBuilder &b, Location loc, ModuleOp module, const std::string &base,
      FunctionType type,
      function_ref<void(OpBuilder &, func::FuncOp hook, ValueRange args)> body);

  SymbolTableCollection &tables;
};

} // namespace

/// The symbol named `base`, or else `base_0`, `base_1`, ..., that `isWanted`
/// accepts; null when there is none, with `freeName` set to the first of
/// those names that is unused. A name taken by something else (a hash
/// collision, a user's symbol) is skipped.
Operation *
RuntimeSymbols::findHashedSymbol(ModuleOp module, const std::string &base,
                                 function_ref<bool(Operation *)> isWanted,
                                 std::string &freeName) {
  freeName = base;
  for (int suffix = 0;; ++suffix) {
    Operation *existing = lookup(module, freeName);
    if (!existing)
      return nullptr;
    if (isWanted(existing))
      return existing;
    freeName = base + "_" + std::to_string(suffix);
  }
}

/// The site text as a NUL-terminated constant in the module, so that any
/// runner can print it. Its name comes from a hash of the text: one global
/// per distinct text (op kind and file), found again with one lookup.
memref::GlobalOp RuntimeSymbols::getOrCreateSiteString(
    OpBuilder &b, Location loc, ModuleOp module, const std::string &text) {
  SmallVector<int8_t> bytes(text.begin(), text.end());
  bytes.push_back(0);
  auto type =
      MemRefType::get({static_cast<int64_t>(bytes.size())}, b.getI8Type());
  auto value = DenseElementsAttr::get(
      RankedTensorType::get(type.getShape(), b.getI8Type()),
      ArrayRef<int8_t>(bytes));
  std::string name;
  if (Operation *existing = findHashedSymbol(
          module,
          "__gather_site_" + llvm::utohexstr(llvm::xxh3_64bits(text), true),
          [&](Operation *symbol) {
            auto global = dyn_cast<memref::GlobalOp>(symbol);
            return global && global.getInitialValue() == value;
          },
          name))
    return cast<memref::GlobalOp>(existing);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      b, loc, name, b.getStringAttr("private"), type, value,
      /*constant=*/true, /*alignment=*/nullptr);
  remember(module, global);
  return global;
}

/// The address of a value as an i64.
static Value addressOf(OpBuilder &b, Location loc, Value memref) {
  Value address =
      memref::ExtractAlignedPointerAsIndexOp::create(b, loc, memref);
  return arith::IndexCastOp::create(b, loc, b.getI64Type(), address);
}

/// The hook call with the site given as values (an address and i64 line
/// and column).
static void emitHookCall(OpBuilder &b, Location loc, func::FuncOp hook,
                         Value site, Value line, Value column, Value kind,
                         ValueRange details) {
  Type i64 = b.getI64Type();
  Value count = arith::ConstantIntOp::create(b, loc, i64, details.size());
  Value detailsAddress = arith::ConstantIntOp::create(b, loc, i64, 0);
  if (!details.empty()) {
    // The details live on the heap (freed by the buffer deallocation
    // pass): this is the failing path, and a stack slot inside a parallel
    // loop would need an alloca scope, which cannot hold the loops around it
    // once they become branches.
    auto bufferType =
        MemRefType::get({static_cast<int64_t>(details.size())}, i64);
    Value buffer = memref::AllocOp::create(b, loc, bufferType);
    for (auto [i, detail] : llvm::enumerate(details)) {
      Value asI64 =
          detail.getType().isIndex()
              ? arith::IndexCastOp::create(b, loc, i64, detail).getResult()
              : detail;
      Value position = arith::ConstantIndexOp::create(b, loc, i);
      memref::StoreOp::create(b, loc, asI64, buffer, position);
    }
    detailsAddress = addressOf(b, loc, buffer);
  }
  func::CallOp::create(
      b, loc, hook,
      ValueRange{site, line, column, kind, count, detailsAddress});
}

/// Marks a report function: kept out of line through LLVM, whose inliner
/// would otherwise copy it back into every caller; cold: only a failing
/// check reaches it.
static void markOutOfLine(OpBuilder &b, func::FuncOp fn) {
  fn.setPrivate();
  keepOutOfLine(fn, /*cold=*/true);
}

/// The private function of type `type` named `base` (or the next free
/// name): found again if it exists, else created out of line at the start
/// of the module with `body` (given the hook and the arguments), which
/// builds everything but the return. Null where the hook cannot be
/// declared.
func::FuncOp RuntimeSymbols::getOrCreateReport(
    OpBuilder &b, Location loc, ModuleOp module, const std::string &base,
    FunctionType type,
    function_ref<void(OpBuilder &, func::FuncOp hook, ValueRange args)> body) {
  std::string name;
  if (Operation *existing = findHashedSymbol(
          module, base,
          [&](Operation *symbol) {
            auto fn = dyn_cast<func::FuncOp>(symbol);
            return fn && fn.isPrivate() && fn.getFunctionType() == type;
          },
          name))
    return cast<func::FuncOp>(existing);
  func::FuncOp hook = getOrDeclare(module, RuntimeFunction::ErrorHook);
  if (!hook)
    return nullptr;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, loc, name, type);
  markOutOfLine(b, fn);
  remember(module, fn);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  body(b, hook, entry->getArguments());
  func::ReturnOp::create(b, loc);
  return fn;
}

/// `__gather_report_shape(site, line, column, kind, dim, lhs, rhs)`: the
/// hook call of a failed shape check with its three details, one function
/// per module that every gather.check_shape calls.
func::FuncOp RuntimeSymbols::getOrCreateShapeReport(OpBuilder &b, Location loc,
                                                    ModuleOp module) {
  Type i64 = b.getI64Type(), indexType = b.getIndexType();
  auto type = b.getFunctionType(
      {i64, i64, i64, i64, indexType, indexType, indexType}, {});
  return getOrCreateReport(
      b, loc, module, "__gather_report_shape", type,
      [&](OpBuilder &fb, func::FuncOp hook, ValueRange args) {
        emitHookCall(fb, loc, hook, args[0], args[1], args[2], args[3],
                     args.drop_front(4));
      });
}

/// `__gather_report_assert(site, line, column, message)`: the hook call of
/// a failed cf.assert, its message's address the one detail; with `skips`,
/// `__gather_report_skipping_assert`, which adds the detail 1 (the caller
/// skips what the assert guards when the hook returns).
func::FuncOp RuntimeSymbols::getOrCreateAssertReport(OpBuilder &b, Location loc,
                                                     ModuleOp module,
                                                     bool skips) {
  Type i64 = b.getI64Type();
  auto type = b.getFunctionType({i64, i64, i64, i64}, {});
  func::FuncOp report = getOrCreateReport(
      b, loc, module,
      skips ? "__gather_report_skipping_assert" : "__gather_report_assert",
      type, [&](OpBuilder &fb, func::FuncOp hook, ValueRange args) {
        Value kind = arith::ConstantIntOp::create(
            fb, loc, i64,
            static_cast<int64_t>(RuntimeErrorKind::AssertionFailed));
        SmallVector<Value> details{args[3]};
        if (skips)
          details.push_back(arith::ConstantIntOp::create(fb, loc, i64, 1));
        emitHookCall(fb, loc, hook, args[0], args[1], args[2], kind, details);
      });
  // Where errors are recorded, the hook leaves the call from a plain
  // report; a skipping one returns.
  if (report && !skips)
    b.getContext()
        ->getLoadedDialect<GatherDialect>()
        ->getLeavesCallAttrHelper()
        .setAttr(report, b.getUnitAttr());
  return report;
}

/// The body of an index report (getOrCreateIndexReport): the scan for the
/// first invalid value and the hook call.
static void buildIndexScan(OpBuilder &b, Location loc, func::FuncOp hook,
                           MemRefType indicesType, IndexPolicy policy,
                           int64_t components, int64_t writtenRank,
                           bool assumeInvalid, ValueRange args) {
  Type indexType = b.getIndexType(), i64 = b.getI64Type();
  Value indices = args[0];
  ValueRange addressedSizes = args.slice(1, components);
  ValueRange reportedDims = args.slice(1 + components, components);
  ValueRange writtenSizes = args.slice(1 + 2 * components, writtenRank);
  Value site = args[1 + 2 * components + writtenRank];
  Value line = args[2 + 2 * components + writtenRank];
  Value column = args[3 + 2 * components + writtenRank];

  int64_t rank = indicesType.getRank();
  auto cst = [&](OpBuilder &nb, Location nl, int64_t v) -> Value {
    return arith::ConstantIndexOp::create(nb, nl, v);
  };
  SmallVector<Value> sizes;
  Value count = cst(b, loc, 1);
  for (int64_t d = 0; d < rank; ++d) {
    sizes.push_back(buildDimSize(b, loc, indices, d));
    count = arith::MulIOp::create(b, loc, count, sizes.back());
  }
  // Row-major coordinates of a linear position in a shape of `dimSizes`.
  auto delinearize = [](OpBuilder &nb, Location nl, Value linear,
                        ValueRange dimSizes) {
    SmallVector<Value> coords(dimSizes.size());
    for (int64_t d = dimSizes.size() - 1; d >= 0; --d) {
      coords[d] = arith::RemUIOp::create(nb, nl, linear, dimSizes[d]);
      linear = arith::DivUIOp::create(nb, nl, linear, dimSizes[d]);
    }
    return coords;
  };
  auto lastOf = [&](OpBuilder &nb, Location nl, ArrayRef<Value> coords) {
    return rank ? coords.back() : cst(nb, nl, 0);
  };
  auto perComponent = [&](OpBuilder &nb, Location nl, Value last,
                          ValueRange values) {
    return buildSelectAddressed(nb, nl, last, components,
                                [&](int64_t c) { return values[c]; });
  };
  auto indexAt = [&](OpBuilder &nb, Location nl, ArrayRef<Value> coords) {
    Value raw = buildElementRead(nb, nl, indices, coords);
    if (raw.getType().isIndex())
      return raw;
    return arith::IndexCastOp::create(nb, nl, indexType, raw).getResult();
  };

  // The first invalid position (`count` if the scan finds none).
  auto scan = scf::WhileOp::create(
      b, loc, TypeRange{indexType}, ValueRange{cst(b, loc, 0)},
      [&](OpBuilder &nb, Location nl, ValueRange loopArgs) {
        Value inRange = arith::CmpIOp::create(nb, nl, arith::CmpIPredicate::ult,
                                              loopArgs[0], count);
        auto check = scf::IfOp::create(
            nb, nl, inRange,
            [&](OpBuilder &tb, Location tl) {
              SmallVector<Value> coords =
                  delinearize(tb, tl, loopArgs[0], sizes);
              Value valid = buildIsValidIndex(
                  tb, tl, policy, indexAt(tb, tl, coords),
                  perComponent(tb, tl, lastOf(tb, tl, coords), addressedSizes));
              scf::YieldOp::create(tb, tl, valid);
            },
            [&](OpBuilder &eb, Location el) {
              scf::YieldOp::create(eb, el,
                                   ValueRange{arith::ConstantIntOp::create(
                                       eb, el, eb.getI1Type(), 0)});
            });
        scf::ConditionOp::create(nb, nl, check.getResult(0), loopArgs);
      },
      [&](OpBuilder &nb, Location nl, ValueRange loopArgs) {
        scf::YieldOp::create(nb, nl,
                             ValueRange{arith::AddIOp::create(
                                 nb, nl, loopArgs[0], cst(nb, nl, 1))});
      });
  Value first = scan.getResult(0);
  Value found =
      arith::CmpIOp::create(b, loc, arith::CmpIPredicate::ult, first, count);
  Value kind = arith::ConstantIntOp::create(
      b, loc, i64, static_cast<int64_t>(RuntimeErrorKind::IndexOutOfBounds));
  scf::IfOp::create(
      b, loc, found,
      [&](OpBuilder &tb, Location tl) {
        SmallVector<Value> coords = delinearize(tb, tl, first, sizes);
        Value last = lastOf(tb, tl, coords);
        // Reshapes keep the row-major order: the linear position carries
        // over to the indices as written.
        SmallVector<Value> position = delinearize(tb, tl, first, writtenSizes);
        SmallVector<Value> details = {
            indexAt(tb, tl, coords), perComponent(tb, tl, last, reportedDims),
            perComponent(tb, tl, last, addressedSizes),
            cst(tb, tl, policy.wrapsNegative() ? 1 : 0),
            cst(tb, tl, position.size())};
        details.append(position.begin(), position.end());
        emitHookCall(tb, tl, hook, site, line, column, kind, details);
        scf::YieldOp::create(tb, tl);
      },
      [&](OpBuilder &eb, Location el) {
        // The caller knew an index to be invalid (a loop raised the flag)
        // and the scan disagrees: still an error, without its details.
        if (assumeInvalid)
          emitHookCall(eb, el, hook, site, line, column, kind, {});
        scf::YieldOp::create(eb, el);
      });
}

/// The function that reports an invalid index in indices of type
/// `indicesType` (any layout) under `policy`: a serial scan finds the first
/// invalid value, and the hook gets its value, position and dimension.
/// Arguments: the indices; per gathered component the size of the source
/// dimension it addresses and the dimension to name; the sizes of the
/// indices as written (the position is given in those); the site address,
/// line and column. One function per distinct signature and policy, shared
/// by every check that has them: the scan used to be emitted at each
/// gather, half of the compile time of a function of many checked gathers.
func::FuncOp RuntimeSymbols::getOrCreateIndexReport(
    OpBuilder &b, Location loc, ModuleOp module, MemRefType indicesType,
    IndexPolicy policy, int64_t components, int64_t writtenRank,
    bool assumeInvalid) {
  Type indexType = b.getIndexType(), i64 = b.getI64Type();
  SmallVector<Type> inputs{indicesType};
  inputs.append(2 * components + writtenRank, indexType);
  inputs.append({i64, i64, i64});
  auto type = b.getFunctionType(inputs, {});
  std::string key;
  llvm::raw_string_ostream os(key);
  os << type << " components=" << components << " written=" << writtenRank
     << " negative=" << static_cast<int>(policy.negative)
     << " out_of_bounds=" << static_cast<int>(policy.outOfBounds);
  if (!assumeInvalid)
    os << " only_if_invalid";
  // The name hashes the signature, the split of its index arguments and
  // the policy: a private function of that name and type is this one.
  std::string base =
      (assumeInvalid ? "__gather_index_report_" : "__gather_index_check_") +
      llvm::utohexstr(llvm::xxh3_64bits(key), true);
  return getOrCreateReport(
      b, loc, module, base, type,
      [&](OpBuilder &fb, func::FuncOp hook, ValueRange args) {
        auto scan = [&](OpBuilder &sb, Location sl) {
          buildIndexScan(sb, sl, hook, indicesType, policy, components,
                         writtenRank, assumeInvalid, args);
        };
        // A report after the loops, which read an invalid index safely,
        // scans only where its call has recorded no error yet. A check
        // before the loops always scans: the loops rely on it.
        func::FuncOp recorded =
            assumeInvalid ? getOrDeclare(module, RuntimeFunction::ErrorRecorded)
                          : func::FuncOp();
        if (!recorded)
          return scan(fb, loc);
        Value answer =
            func::CallOp::create(fb, loc, recorded, ValueRange{}).getResult(0);
        Value none = arith::CmpIOp::create(
            fb, loc, arith::CmpIPredicate::eq, answer,
            arith::ConstantIntOp::create(fb, loc, fb.getI32Type(), 0));
        scf::IfOp::create(fb, loc, none, [&](OpBuilder &tb, Location tl) {
          scan(tb, tl);
          scf::YieldOp::create(tb, tl);
        });
      });
}

/// The address of the check's site string and its line and column, as i64:
/// the function's arguments where it takes them, else constants.
static std::array<Value, 3> siteValues(OpBuilder &b, Location loc,
                                       RuntimeSymbols &symbols, ModuleOp module,
                                       Operation *check, StringRef opName) {
  GatherSite where = describeGatherSite(opName, loc);
  memref::GlobalOp global =
      symbols.getOrCreateSiteString(b, loc, module, where.text);
  Value text = memref::GetGlobalOp::create(b, loc, global.getType(),
                                           global.getSymName());
  if (auto arguments = getSiteArguments(check))
    return {addressOf(b, loc, text), arguments->first, arguments->second};
  Type i64 = b.getI64Type();
  return {addressOf(b, loc, text),
          arith::ConstantIntOp::create(b, loc, i64, where.line),
          arith::ConstantIntOp::create(b, loc, i64, where.column)};
}

/// `body` on the path where `holds` is false: an scf.if on its negation.
static void buildIfFailed(OpBuilder &b, Location loc, Value holds,
                          function_ref<void(OpBuilder &, Location)> body) {
  Value failed = arith::XOrIOp::create(
      b, loc, holds, arith::ConstantIntOp::create(b, loc, b.getI1Type(), 1));
  scf::IfOp::create(b, loc, failed, [&](OpBuilder &tb, Location tl) {
    body(tb, tl);
    scf::YieldOp::create(tb, tl);
  });
}

namespace {

struct CheckShapeToCall : OpRewritePattern<CheckShapeOp> {
  CheckShapeToCall(MLIRContext *context, SymbolTableCollection &tables)
      : OpRewritePattern(context), symbols(tables) {}

  LogicalResult matchAndRewrite(CheckShapeOp op,
                                PatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not in a module");
    Location loc = op.getLoc();
    func::FuncOp report = symbols.getOrCreateShapeReport(rewriter, loc, module);
    if (!report)
      return failure();
    buildIfFailed(rewriter, loc, op.getHolds(), [&](OpBuilder &b, Location l) {
      auto [site, line, column] =
          siteValues(b, l, symbols, module, op, op.getOpName());
      Value kind =
          arith::ConstantIntOp::create(b, l, b.getI64Type(), op.getKind());
      Value dim = arith::ConstantIndexOp::create(b, l, op.getDim());
      func::CallOp::create(
          b, l, report,
          ValueRange{site, line, column, kind, dim, op.getLhs(), op.getRhs()});
    });
    rewriter.eraseOp(op);
    return success();
  }

  mutable RuntimeSymbols symbols;
};

struct CheckIndicesToCall : OpRewritePattern<CheckIndicesOp> {
  CheckIndicesToCall(MLIRContext *context, SymbolTableCollection &tables)
      : OpRewritePattern(context), symbols(tables) {}

  LogicalResult matchAndRewrite(CheckIndicesOp op,
                                PatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not in a module");
    Location loc = op.getLoc();
    // The policy as the scan applies it: only the validity rule matters.
    IndexPolicy policy{op.getNegativeIndices(), OutOfBoundsMode::error};
    func::FuncOp report = symbols.getOrCreateIndexReport(
        rewriter, loc, module, op.getIndices().getType(), policy,
        op.getDims().size(), op.getShape().size(), op.getAssumeInvalid());
    if (!report)
      return failure();
    SmallVector<Value> args{op.getIndices()};
    args.append(op.getSizes().begin(), op.getSizes().end());
    for (int64_t dim : op.getDims())
      args.push_back(arith::ConstantIndexOp::create(rewriter, loc, dim));
    args.append(op.getShape().begin(), op.getShape().end());
    auto [site, line, column] =
        siteValues(rewriter, loc, symbols, module, op, op.getOpName());
    args.append({site, line, column});
    func::CallOp::create(rewriter, loc, report, args);
    rewriter.eraseOp(op);
    return success();
  }

  mutable RuntimeSymbols symbols;
};

/// Whether a failed `assert` can skip what it guards instead of leaving the
/// code: it sits in the body of a linalg op (whose loops may run in a
/// parallel region, which the hook cannot leave), and the values the body
/// yields have a zero to yield instead.
static bool canSkipGuarded(cf::AssertOp assert) {
  if (!isa_and_present<linalg::LinalgOp>(assert->getParentOp()))
    return false;
  auto yield = dyn_cast<linalg::YieldOp>(assert->getBlock()->getTerminator());
  return yield && llvm::all_of(yield.getOperandTypes(), [](Type type) {
           return isa<IntegerType, FloatType, IndexType>(type);
         });
}

struct AssertToCall : OpRewritePattern<cf::AssertOp> {
  AssertToCall(MLIRContext *context, SymbolTableCollection &tables)
      : OpRewritePattern(context), symbols(tables) {}

  /// The report's call for `assert`: its site, line, column and message.
  void callReport(OpBuilder &b, Location loc, ModuleOp module,
                  func::FuncOp report, cf::AssertOp assert) const {
    auto [site, line, column] =
        siteValues(b, loc, symbols, module, assert, "cf.assert");
    memref::GlobalOp text =
        symbols.getOrCreateSiteString(b, loc, module, assert.getMsg().str());
    Value message = addressOf(
        b, loc,
        memref::GetGlobalOp::create(b, loc, text.getType(), text.getSymName()));
    func::CallOp::create(b, loc, report,
                         ValueRange{site, line, column, message});
  }

  /// The rest of `assert`'s body runs where it holds; where it fails, the
  /// skipping report, and the body yields zeros.
  void skipGuarded(PatternRewriter &rewriter, ModuleOp module,
                   func::FuncOp report, cf::AssertOp assert) const {
    Location loc = assert.getLoc();
    Operation *yield = assert->getBlock()->getTerminator();
    rewriter.setInsertionPointAfter(assert);
    auto guarded = scf::IfOp::create(rewriter, loc, yield->getOperandTypes(),
                                     assert.getArg(), /*addThenBlock=*/true,
                                     /*addElseBlock=*/true);
    Block *holds = &guarded.getThenRegion().front();
    for (Operation &rest : llvm::make_early_inc_range(llvm::make_range(
             std::next(guarded->getIterator()), yield->getIterator()))) {
      // linalg.index must stay in the body itself; it reads nothing.
      if (isa<linalg::IndexOp>(rest))
        rewriter.moveOpBefore(&rest, guarded);
      else
        rewriter.moveOpBefore(&rest, holds, holds->end());
    }
    rewriter.setInsertionPointToEnd(holds);
    scf::YieldOp::create(rewriter, loc, yield->getOperands());
    rewriter.setInsertionPointToEnd(&guarded.getElseRegion().front());
    callReport(rewriter, loc, module, report, assert);
    SmallVector<Value> zeros;
    for (Type type : yield->getOperandTypes())
      zeros.push_back(arith::ConstantOp::create(
          rewriter, loc, cast<TypedAttr>(rewriter.getZeroAttr(type))));
    scf::YieldOp::create(rewriter, loc, zeros);
    rewriter.modifyOpInPlace(yield,
                             [&] { yield->setOperands(guarded.getResults()); });
    rewriter.eraseOp(assert);
  }

  LogicalResult matchAndRewrite(cf::AssertOp op,
                                PatternRewriter &rewriter) const override {
    auto module = op->getParentOfType<ModuleOp>();
    if (!module)
      return rewriter.notifyMatchFailure(op, "not in a module");
    Location loc = op.getLoc();
    if (!canSkipGuarded(op)) {
      func::FuncOp report = symbols.getOrCreateAssertReport(
          rewriter, loc, module, /*skips=*/false);
      if (!report)
        return failure();
      buildIfFailed(rewriter, loc, op.getArg(), [&](OpBuilder &b, Location l) {
        callReport(b, l, module, report, op);
      });
      rewriter.eraseOp(op);
      return success();
    }
    func::FuncOp report =
        symbols.getOrCreateAssertReport(rewriter, loc, module, /*skips=*/true);
    func::FuncOp barrier =
        symbols.getOrDeclare(module, RuntimeFunction::AssertBarrier);
    if (!report || !barrier)
      return failure();
    // Each assert of the body, the last first, so that an earlier one's
    // guarded rest holds the later ones already rewritten.
    Block *body = op->getBlock();
    SmallVector<cf::AssertOp> asserts(body->getOps<cf::AssertOp>());
    for (cf::AssertOp assert : llvm::reverse(asserts))
      skipGuarded(rewriter, module, report, assert);
    // The barriers after the linalg op and each op around it in the
    // function leave the call where one of them failed.
    for (Operation *around = body->getParentOp();
         around && !isa<FunctionOpInterface>(around);
         around = around->getParentOp()) {
      auto next = dyn_cast_if_present<func::CallOp>(around->getNextNode());
      if (next && next.getCallee() == kAssertBarrier)
        continue;
      rewriter.setInsertionPointAfter(around);
      func::CallOp::create(rewriter, around->getLoc(), barrier, ValueRange{});
    }
    return success();
  }

  mutable RuntimeSymbols symbols;
};

struct ConvertGatherChecksToRuntimePass
    : gather::impl::ConvertGatherChecksToRuntimeBase<
          ConvertGatherChecksToRuntimePass> {
  using Base::Base;

  void runOnOperation() override {
    auto isLowered = [&](Operation *op) {
      return isa<CheckShapeOp, CheckIndicesOp>(op) ||
             (asserts && isa<cf::AssertOp>(op));
    };
    SmallVector<Operation *> checks;
    getOperation()->walk([&](Operation *op) {
      if (isLowered(op))
        checks.push_back(op);
    });
    if (checks.empty())
      return;
    SymbolTableCollection symbolTables;
    // The run-time functions the lowered checks call, declared before any
    // rewrite: a name the module uses for something else is one error
    // here, not one per check.
    SetVector<ModuleOp> modules;
    DenseSet<ModuleOp> withBarrier;
    for (Operation *op : checks)
      if (auto module = op->getParentOfType<ModuleOp>()) {
        modules.insert(module);
        auto assert = dyn_cast<cf::AssertOp>(op);
        if (assert &&canSkipGuarded(assert))
          withBarrier.insert(module);
      }
    for (ModuleOp module : modules) {
      SymbolTable &symbols = symbolTables.getSymbolTable(module);
      if (!lookupOrDeclareRuntimeFunction(module, symbols,
                                          RuntimeFunction::ErrorHook) ||
          (withBarrier.contains(module) &&
           !lookupOrDeclareRuntimeFunction(module, symbols,
                                           RuntimeFunction::AssertBarrier)))
        return signalPassFailure();
    }
    RewritePatternSet patterns(&getContext());
    populateGatherChecksToRuntimePatterns(patterns, symbolTables);
    if (asserts)
      populateAssertsToRuntimePatterns(patterns, symbolTables);
    // Only the checks: the rewrites make no new ones, and the rest of the
    // module is not this pass's to fold.
    GreedyRewriteConfig config;
    config.setStrictness(GreedyRewriteStrictness::ExistingOps);
    config.setRegionSimplificationLevel(GreedySimplifyRegionLevel::Disabled);
    (void)applyOpPatternsGreedily(checks, std::move(patterns), config);
    WalkResult left = getOperation()->walk([&](Operation *op) {
      if (!isLowered(op))
        return WalkResult::advance();
      op->emitOpError("is not in a module, could not be lowered");
      return WalkResult::interrupt();
    });
    if (left.wasInterrupted())
      signalPassFailure();
  }
};

} // namespace

void mlir::gather::populateGatherChecksToRuntimePatterns(
    RewritePatternSet &patterns, SymbolTableCollection &symbolTables) {
  patterns.add<CheckShapeToCall, CheckIndicesToCall>(patterns.getContext(),
                                                     symbolTables);
}

void mlir::gather::populateAssertsToRuntimePatterns(
    RewritePatternSet &patterns, SymbolTableCollection &symbolTables) {
  patterns.add<AssertToCall>(patterns.getContext(), symbolTables);
}
