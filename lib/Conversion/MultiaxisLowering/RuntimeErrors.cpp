//===- RuntimeErrors.cpp - the run-time error ABI in emitted code ---------===//

#include "gather/Conversion/MultiaxisLowering/RuntimeErrors.h"
#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/IR/GatherShapes.h"
#include "gather/Dialect/Gather/IR/IndexPolicy.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::gather;

namespace {
/// The op the user wrote and its location: the rewrite to multiaxis wraps
/// the location in a NameLoc with the original op's name.
struct WrittenOp {
  StringRef name;
  Location loc;
};
} // namespace

static WrittenOp getWrittenOp(Operation *op) {
  if (auto named = dyn_cast<NameLoc>(op->getLoc()))
    if (named.getName().strref().starts_with("gather."))
      return {named.getName().strref(), named.getChildLoc()};
  return {op->getName().getStringRef(), op->getLoc()};
}

GatherSite mlir::gather::describeGatherSite(Operation *op) {
  auto [opName, loc] = getWrittenOp(op);
  GatherSite site;
  llvm::raw_string_ostream os(site.text);
  os << opName;
  if (auto fileLoc = dyn_cast<FileLineColLoc>(loc)) {
    os << " at " << fileLoc.getFilename().strref();
    site.line = fileLoc.getLine();
    site.column = fileLoc.getColumn();
  }
  return site;
}

static Operation *lookup(ModuleOp module, StringRef name,
                         SymbolTableCollection *symbolTables) {
  if (symbolTables)
    return symbolTables->lookupSymbolIn(
        module, StringAttr::get(module.getContext(), name));
  return module.lookupSymbol(name);
}

/// Inserts `symbol` (created at the start of the module body) into the
/// cached symbol table, so that later lookups find it.
static void remember(ModuleOp module, Operation *symbol,
                     SymbolTableCollection *symbolTables) {
  if (symbolTables)
    symbolTables->getSymbolTable(module).insert(symbol);
}

/// The symbol named `base`, or else `base_0`, `base_1`, ..., that `isWanted`
/// accepts; null when there is none, with `freeName` set to the first of
/// those names that is unused. A name taken by something else (a hash
/// collision, a user's symbol) is skipped.
static Operation *findHashedSymbol(ModuleOp module, const std::string &base,
                                   function_ref<bool(Operation *)> isWanted,
                                   SymbolTableCollection *tables,
                                   std::string &freeName) {
  freeName = base;
  for (int suffix = 0;; ++suffix) {
    Operation *existing = lookup(module, freeName, tables);
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
static memref::GlobalOp getOrCreateSiteString(OpBuilder &b, Location loc,
                                              Operation *op,
                                              const std::string &text,
                                              SymbolTableCollection *tables) {
  auto module = op->getParentOfType<ModuleOp>();
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
          tables, name))
    return cast<memref::GlobalOp>(existing);
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto global = memref::GlobalOp::create(
      b, loc, name, b.getStringAttr("private"), type, value,
      /*constant=*/true, /*alignment=*/nullptr);
  remember(module, global, tables);
  return global;
}

static func::FuncOp getOrDeclareHook(OpBuilder &b, Location loc,
                                     ModuleOp module,
                                     SymbolTableCollection *tables) {
  if (auto fn = dyn_cast_if_present<func::FuncOp>(
          lookup(module, kRuntimeErrorHook, tables)))
    return fn;
  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  Type i64 = b.getI64Type();
  auto fn = func::FuncOp::create(
      b, loc, kRuntimeErrorHook,
      b.getFunctionType({i64, i64, i64, i64, i64, i64}, {}));
  fn.setPrivate();
  remember(module, fn, tables);
  return fn;
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

/// The address of `op`'s site string and its line and column, as i64.
static std::array<Value, 3> siteValues(OpBuilder &b, Location loc,
                                       Operation *op,
                                       SymbolTableCollection *symbolTables) {
  GatherSite where = describeGatherSite(op);
  memref::GlobalOp global =
      getOrCreateSiteString(b, loc, op, where.text, symbolTables);
  Value text = memref::GetGlobalOp::create(b, loc, global.getType(),
                                           global.getSymName());
  Type i64 = b.getI64Type();
  return {addressOf(b, loc, text),
          arith::ConstantIntOp::create(b, loc, i64, where.line),
          arith::ConstantIntOp::create(b, loc, i64, where.column)};
}

void mlir::gather::emitRuntimeErrorCall(OpBuilder &b, Location loc,
                                        Operation *op, Value kind,
                                        ValueRange details,
                                        SymbolTableCollection *symbolTables) {
  auto module = op->getParentOfType<ModuleOp>();
  func::FuncOp hook = getOrDeclareHook(b, loc, module, symbolTables);
  auto [site, line, column] = siteValues(b, loc, op, symbolTables);
  emitHookCall(b, loc, hook, site, line, column, kind, details);
}

void mlir::gather::emitRuntimeErrorCall(OpBuilder &b, Location loc,
                                        Operation *op, RuntimeErrorKind kind,
                                        ValueRange details,
                                        SymbolTableCollection *symbolTables) {
  Value kindValue = arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                                 static_cast<int64_t>(kind));
  emitRuntimeErrorCall(b, loc, op, kindValue, details, symbolTables);
}

/// Whether `reshape` was made by the rewrite of the op at `site` (it
/// carries that location, or the NameLoc of the original op around it).
static bool madeByRewrite(Operation *reshape, Location site) {
  if (!reshape)
    return false;
  Location loc = reshape->getLoc();
  if (auto named = dyn_cast<NameLoc>(loc))
    loc = named.getChildLoc();
  return loc == site;
}

/// Looks through the reshapes that the rewrite to multiaxis put on `value`
/// (tensor or memref expand_shape and collapse_shape with the original op's
/// location): the value the op as written had. `mapDim`, when given, is
/// carried along: a dimension of `value` becomes the one of the result.
static Value originalOperand(Value value, Location site,
                             int64_t *mapDim = nullptr) {
  while (Operation *def = value.getDefiningOp()) {
    if (!madeByRewrite(def, site))
      break;
    SmallVector<ReassociationIndices> groups;
    bool expand;
    if (auto op = dyn_cast<tensor::ExpandShapeOp>(def)) {
      groups = op.getReassociationIndices();
      expand = true;
    } else if (auto op = dyn_cast<memref::ExpandShapeOp>(def)) {
      groups = op.getReassociationIndices();
      expand = true;
    } else if (auto op = dyn_cast<tensor::CollapseShapeOp>(def)) {
      groups = op.getReassociationIndices();
      expand = false;
    } else if (auto op = dyn_cast<memref::CollapseShapeOp>(def)) {
      groups = op.getReassociationIndices();
      expand = false;
    } else {
      break;
    }
    Value source = def->getOperand(0);
    if (mapDim) {
      if (expand) {
        // A result dimension belongs to the group of its source dimension.
        for (auto [g, group] : llvm::enumerate(groups))
          if (llvm::is_contained(group, *mapDim))
            *mapDim = g;
      } else {
        // A collapsed dimension stands for its group's non-unit source
        // dimension (the rewrite only folds unit dimensions).
        auto sourceType = cast<ShapedType>(source.getType());
        const ReassociationIndices &group = groups[*mapDim];
        int64_t chosen = group.back();
        for (int64_t d : group)
          if (sourceType.getDimSize(d) != 1)
            chosen = d;
        *mapDim = chosen;
      }
    }
    value = source;
  }
  return value;
}

/// The function that reports an invalid index in indices of type
/// `indicesType` (any layout) under `policy`: a serial scan finds the first
/// invalid value, and the hook gets its value, position and dimension.
/// Arguments: the indices; per gathered component the size of the source
/// dimension it addresses and the dimension to name; the sizes of the
/// indices as written (the position is given in those); the site address,
/// line and column. One function per distinct signature and policy, shared
/// by every gather that has them: the scan used to be emitted at each
/// gather, half of the compile time of a function of many checked gathers.
static func::FuncOp
getOrCreateIndexReport(OpBuilder &b, Location loc, ModuleOp module,
                       MemRefType indicesType, IndexPolicy policy,
                       int64_t components, int64_t writtenRank,
                       bool onlyIfInvalid, SymbolTableCollection *tables) {
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
  if (onlyIfInvalid)
    os << " only_if_invalid";
  // The name hashes the signature, the split of its index arguments and
  // the policy: a private function of that name and type is this one.
  std::string name;
  if (Operation *existing = findHashedSymbol(
          module,
          (onlyIfInvalid ? "__gather_index_check_" : "__gather_index_report_") +
              llvm::utohexstr(llvm::xxh3_64bits(key), true),
          [&](Operation *symbol) {
            auto fn = dyn_cast<func::FuncOp>(symbol);
            return fn && fn.isPrivate() && fn.getFunctionType() == type;
          },
          tables, name))
    return cast<func::FuncOp>(existing);
  func::FuncOp hook = getOrDeclareHook(b, loc, module, tables);

  OpBuilder::InsertionGuard guard(b);
  b.setInsertionPointToStart(module.getBody());
  auto fn = func::FuncOp::create(b, loc, name, type);
  fn.setPrivate();
  // Kept out of line through LLVM, whose inliner would otherwise copy it
  // back into every caller; cold: only a failing call reaches it.
  fn->setAttr("passthrough", b.getArrayAttr({b.getStringAttr("noinline"),
                                             b.getStringAttr("cold")}));
  remember(module, fn, tables);
  Block *entry = fn.addEntryBlock();
  b.setInsertionPointToStart(entry);
  ValueRange args = entry->getArguments();
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
        if (!onlyIfInvalid)
          emitHookCall(eb, el, hook, site, line, column, kind, {});
        scf::YieldOp::create(eb, el);
      });
  func::ReturnOp::create(b, loc);
  return fn;
}

void mlir::gather::emitIndexOutOfBoundsReport(
    OpBuilder &b, Location loc, Operation *gatherOp,
    IndicesToHostFn indicesToHost, SymbolTableCollection *symbolTables,
    bool onlyIfInvalid) {
  auto op = cast<GatherOpInterface>(gatherOp);
  Value indices = op.getIndices(), source = op.getSource();
  auto indicesType = dyn_cast<ShapedType>(indices.getType());
  SmallVector<int64_t> dims = op.getGatheredDims();
  if (!indicesType || dims.empty()) {
    emitRuntimeErrorCall(b, loc, gatherOp, RuntimeErrorKind::IndexOutOfBounds,
                         {}, symbolTables);
    return;
  }
  int64_t rank = indicesType.getRank();
  // The report reads the indices through a buffer of any layout: the
  // indices themselves, their host copy, or their tensor's buffer (which
  // one-shot-bufferize puts in place of to_buffer).
  Value readable = indicesToHost ? indicesToHost(b, loc, indices) : indices;
  auto anyLayout =
      StridedLayoutAttr::get(b.getContext(), ShapedType::kDynamic,
                             SmallVector<int64_t>(rank, ShapedType::kDynamic));
  auto bufferType =
      MemRefType::get(SmallVector<int64_t>(rank, ShapedType::kDynamic),
                      indicesType.getElementType(), anyLayout);
  if (auto tensorType = dyn_cast<RankedTensorType>(readable.getType()))
    readable = bufferization::ToBufferOp::create(
        b, loc,
        MemRefType::get(tensorType.getShape(), tensorType.getElementType(),
                        anyLayout),
        readable, /*readOnly=*/true);
  if (readable.getType() != bufferType)
    readable = memref::CastOp::create(b, loc, bufferType, readable);

  // Positions and dimensions of the op as written. Canonicalizations also
  // drop unit dimensions of a multiaxis op as written (keeping its
  // location): any reshape at the op's own file location is the rewrite's.
  auto [writtenName, site] = getWrittenOp(gatherOp);
  bool rewritten = writtenName != gatherOp->getName().getStringRef() ||
                   isa<FileLineColLoc>(site);
  Value writtenIndices = rewritten ? originalOperand(indices, site) : indices;
  auto reportedDim = [&](int64_t dim) -> int64_t {
    if (rewritten)
      originalOperand(source, site, &dim);
    return dim;
  };

  SmallVector<Value> args{readable};
  for (int64_t dim : dims)
    args.push_back(buildDimSize(b, loc, source, dim));
  for (int64_t dim : dims)
    args.push_back(arith::ConstantIndexOp::create(b, loc, reportedDim(dim)));
  int64_t writtenRank = cast<ShapedType>(writtenIndices.getType()).getRank();
  for (int64_t d = 0; d < writtenRank; ++d)
    args.push_back(buildDimSize(b, loc, writtenIndices, d));
  auto [siteAddress, line, column] = siteValues(b, loc, gatherOp, symbolTables);
  args.append({siteAddress, line, column});
  func::FuncOp report =
      getOrCreateIndexReport(b, loc, gatherOp->getParentOfType<ModuleOp>(),
                             bufferType, op.getIndexPolicy(), dims.size(),
                             writtenRank, onlyIfInvalid, symbolTables);
  func::CallOp::create(b, loc, report, args);
}
