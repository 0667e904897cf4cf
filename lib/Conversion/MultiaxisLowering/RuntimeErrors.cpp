//===- RuntimeErrors.cpp - the run-time error ABI in emitted code ---------===//

#include "gather/Conversion/MultiaxisLowering/RuntimeErrors.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

using namespace mlir;
using namespace mlir::gather;

GatherSite mlir::gather::describeGatherSite(Operation *op) {
  std::string opName = op->getName().getStringRef().str();
  Location loc = op->getLoc();
  // The rewrite to multiaxis wraps the location in a NameLoc with the
  // original op's name.
  if (auto named = dyn_cast<NameLoc>(loc)) {
    if (named.getName().strref().starts_with("gather.")) {
      opName = named.getName().str();
      loc = named.getChildLoc();
    }
  }
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
  std::string base =
      "__gather_site_" + llvm::utohexstr(llvm::xxh3_64bits(text), true);
  std::string name = base;
  for (int suffix = 0;; ++suffix) {
    Operation *existing = lookup(module, name, tables);
    if (!existing)
      break;
    auto global = dyn_cast<memref::GlobalOp>(existing);
    if (global && global.getInitialValue() == value)
      return global;
    // A hash collision or a user symbol of that name.
    name = base + "_" + std::to_string(suffix);
  }
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

void mlir::gather::emitRuntimeErrorCall(OpBuilder &b, Location loc,
                                        Operation *op, Value kind,
                                        ValueRange details,
                                        SymbolTableCollection *symbolTables) {
  auto module = op->getParentOfType<ModuleOp>();
  func::FuncOp hook = getOrDeclareHook(b, loc, module, symbolTables);
  GatherSite where = describeGatherSite(op);
  memref::GlobalOp global =
      getOrCreateSiteString(b, loc, op, where.text, symbolTables);
  Value text = memref::GetGlobalOp::create(b, loc, global.getType(),
                                           global.getSymName());
  Value site = addressOf(b, loc, text);
  Type i64 = b.getI64Type();
  Value line = arith::ConstantIntOp::create(b, loc, i64, where.line);
  Value column = arith::ConstantIntOp::create(b, loc, i64, where.column);
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

void mlir::gather::emitRuntimeErrorCall(OpBuilder &b, Location loc,
                                        Operation *op, RuntimeErrorKind kind,
                                        ValueRange details,
                                        SymbolTableCollection *symbolTables) {
  Value kindValue = arith::ConstantIntOp::create(b, loc, b.getI64Type(),
                                                 static_cast<int64_t>(kind));
  emitRuntimeErrorCall(b, loc, op, kindValue, details, symbolTables);
}
