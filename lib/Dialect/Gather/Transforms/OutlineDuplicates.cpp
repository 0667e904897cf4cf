//===- OutlineDuplicates.cpp - one function per repeated gather -----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// A model that repeats a layer writes the same gather (kind, attributes,
// types) many times. Lowered where it is written, each copy is a loop nest
// that every later pass and LLVM compile again, a hundred instructions of
// machine code or more. Outlined, each distinct gather is lowered and
// compiled once and called where it was written.
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/IR/GatherSite.h"
#include "gather/Dialect/Gather/Transforms/Passes.h"
#include "gather/Utils/OutOfLine.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/IRMapping.h"
#include "mlir/IR/Matchers.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/SubsetOpInterface.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/StringSet.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHEROUTLINEDUPLICATES
#include "gather/Dialect/Gather/Transforms/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;
using namespace mlir::gather;

/// Whether `value` is a whole tensor: one that bufferizes to a buffer of its
/// own with the identity layout. The pipelines bufferize function
/// boundaries with identity layouts, so a slice passed to a function would
/// be copied first.
static bool isWholeTensor(Value value) {
  while (true) {
    if (auto argument = dyn_cast<BlockArgument>(value)) {
      Block *owner = argument.getOwner();
      return owner->isEntryBlock() &&
             isa<FunctionOpInterface>(owner->getParentOp());
    }
    Operation *producer = value.getDefiningOp();
    if (isa<tensor::EmptyOp, func::CallOp>(producer))
      return true;
    // A cast or reshape of an identity-layout buffer has the identity layout.
    if (isa<tensor::CastOp, tensor::CollapseShapeOp, tensor::ExpandShapeOp>(
            producer)) {
      value = producer->getOperand(0);
      continue;
    }
    // A destination-style result lives in its destination's buffer.
    auto destinationStyle = dyn_cast<DestinationStyleOpInterface>(producer);
    if (!destinationStyle)
      return false;
    value = destinationStyle.getTiedOpOperand(cast<OpResult>(value))->get();
  }
}

/// Whether `op` may move into a function of its own without losing what
/// the pipeline does with it in place.
static bool isOutlinable(Operation *op) {
  if (op->getNumResults() != 1 || op->getNumRegions() != 0 ||
      !isa<RankedTensorType>(op->getResultTypes()[0]))
    return false;
  for (Value operand : op->getOperands())
    // Constant indices are checked, and partly folded, at compile time.
    if (matchPattern(operand, m_Constant()) || !isWholeTensor(operand))
      return false;
  // A result inserted into a larger tensor or a caller's buffer is computed
  // in that buffer (empty-tensor elimination), which a call would hide.
  return llvm::none_of(op->getUsers(), [](Operation *user) {
    return isa<SubsetInsertionOpInterface>(user);
  });
}

/// The text that identical gathers share: the op's name, properties,
/// attributes and types (not its operands or location), and the kind and
/// file its run-time errors name.
static std::string keyOf(Operation *op) {
  std::string key;
  llvm::raw_string_ostream os(key);
  os << op->getName() << ' ' << op->getPropertiesAsAttribute() << ' '
     << op->getDiscardableAttrDictionary() << ' ';
  llvm::interleaveComma(op->getOperandTypes(), os);
  os << " -> ";
  llvm::interleaveComma(op->getResultTypes(), os);
  os << '\n'
     << describeGatherSite(op->getName().getStringRef(), op->getLoc()).text;
  return key;
}

namespace {

struct GatherOutlineDuplicatesPass
    : gather::impl::GatherOutlineDuplicatesBase<GatherOutlineDuplicatesPass> {
  void runOnOperation() override {
    ModuleOp module = getOperation();
    llvm::MapVector<StringRef, SmallVector<Operation *>> groups;
    llvm::StringSet<> keys;
    for (auto function : module.getOps<func::FuncOp>())
      function.walk([&](GatherOpInterface gather) {
        Operation *op = gather.getOperation();
        if (isOutlinable(op))
          groups[keys.insert(keyOf(op)).first->getKey()].push_back(op);
      });
    SymbolTable symbols(module);
    auto *dialect = getContext().getLoadedDialect<GatherDialect>();
    for (auto &[key, ops] : groups) {
      if (ops.size() < 2)
        continue;
      outline(ops, symbols, dialect);
    }
  }

  /// Replaces every op of `ops` (identical but for their operands and
  /// locations) by a call of one new private function.
  void outline(ArrayRef<Operation *> ops, SymbolTable &symbols,
               GatherDialect *dialect) {
    Operation *first = ops.front();
    Location loc = first->getLoc();
    OpBuilder b(first->getContext());
    Type i64 = b.getI64Type();
    SmallVector<Type> inputs(first->getOperandTypes());
    inputs.append({i64, i64});
    auto type = b.getFunctionType(inputs, first->getResultTypes());
    // Named after the op as written (the folds made a multiaxis of it).
    StringRef kind = first->getName().getStringRef();
    if (OriginAttr origin = dialect->getOriginAttrHelper().getAttr(first))
      kind = origin.getName();
    auto function = func::FuncOp::create(
        loc, ("__gather_" + kind.split('.').second).str(), type);
    function.setPrivate();
    dialect->getSiteArgumentsAttrHelper().setAttr(function, b.getUnitAttr());
    keepOutOfLine(function);
    // At the end of the module, in the order of the groups; the symbol
    // table makes the name unique.
    symbols.insert(function);
    Block *entry = function.addEntryBlock();
    b.setInsertionPointToStart(entry);
    IRMapping mapping;
    mapping.map(first->getOperands(), entry->getArguments().drop_back(2));
    Operation *body = b.clone(*first, mapping);
    func::ReturnOp::create(b, loc, body->getResults());

    for (Operation *op : ops) {
      b.setInsertionPoint(op);
      GatherSite site =
          describeGatherSite(op->getName().getStringRef(), op->getLoc());
      SmallVector<Value> arguments(op->getOperands());
      arguments.push_back(
          arith::ConstantIntOp::create(b, op->getLoc(), i64, site.line));
      arguments.push_back(
          arith::ConstantIntOp::create(b, op->getLoc(), i64, site.column));
      auto call = func::CallOp::create(b, op->getLoc(), function, arguments);
      op->replaceAllUsesWith(call.getResults());
      op->erase();
    }
  }
};

} // namespace
