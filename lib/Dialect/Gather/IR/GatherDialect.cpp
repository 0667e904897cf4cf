//===- GatherDialect.cpp - gather dialect ---------------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"
#include "gather/Dialect/Gather/IR/GatherSite.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/Interfaces/FunctionInterfaces.h"
#include "llvm/ADT/TypeSwitch.h"

using namespace mlir;
using namespace mlir::gather;

#include "gather/Dialect/Gather/IR/GatherOpsDialect.cpp.inc"

#include "gather/Dialect/Gather/IR/GatherEnums.cpp.inc"

#define GET_ATTRDEF_CLASSES
#include "gather/Dialect/Gather/IR/GatherAttrs.cpp.inc"

void GatherDialect::initialize() {
  addAttributes<
#define GET_ATTRDEF_LIST
#include "gather/Dialect/Gather/IR/GatherAttrs.cpp.inc"
      >();
  addOperations<
#define GET_OP_LIST
#include "gather/Dialect/Gather/IR/GatherOps.cpp.inc"
      >();
}

//===----------------------------------------------------------------------===//
// #gather.origin
//===----------------------------------------------------------------------===//

/// `[a, b]`, possibly empty.
static ParseResult parseIntList(AsmParser &parser,
                                SmallVectorImpl<int64_t> &values) {
  return parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                        [&]() -> ParseResult {
                                          int64_t value;
                                          if (parser.parseInteger(value))
                                            return failure();
                                          values.push_back(value);
                                          return success();
                                        });
}

static void printIntList(AsmPrinter &printer, ArrayRef<int64_t> values) {
  printer << '[';
  llvm::interleaveComma(values, printer);
  printer << ']';
}

Attribute OriginAttr::parse(AsmParser &parser, Type) {
  std::string name;
  SmallVector<int64_t> dims, indices, indicesDims;
  if (parser.parseLess() || parser.parseString(&name) || parser.parseComma() ||
      parser.parseKeyword("dims") || parser.parseEqual() ||
      parseIntList(parser, dims) || parser.parseComma() ||
      parser.parseKeyword("indices") || parser.parseEqual() ||
      parser.parseLSquare() ||
      parser.parseDimensionList(indices, /*allowDynamic=*/true,
                                /*withTrailingX=*/false) ||
      parser.parseRSquare() || parser.parseComma() ||
      parser.parseKeyword("indices_dims") || parser.parseEqual() ||
      parseIntList(parser, indicesDims) || parser.parseGreater())
    return {};
  return OriginAttr::getChecked(
      [&] { return parser.emitError(parser.getNameLoc()); },
      parser.getContext(), name, dims, indices, indicesDims);
}

void OriginAttr::print(AsmPrinter &printer) const {
  printer << "<\"" << getName() << "\", dims = ";
  printIntList(printer, getDims());
  printer << ", indices = [";
  printer.printDimensionList(getIndices());
  printer << "], indices_dims = ";
  printIntList(printer, getIndicesDims());
  printer << '>';
}

LogicalResult OriginAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                                 StringRef name, ArrayRef<int64_t> dims,
                                 ArrayRef<int64_t> indices,
                                 ArrayRef<int64_t> indicesDims) {
  if (name.empty())
    return emitError() << "origin names no op";
  if (indices.size() != indicesDims.size())
    return emitError() << "origin has " << indicesDims.size()
                       << " indices_dims for indices of rank "
                       << indices.size();
  for (int64_t dim : dims)
    if (dim < 0)
      return emitError() << "origin dim " << dim << " is negative";
  for (int64_t dim : indicesDims)
    if (dim < -1)
      return emitError() << "origin indices_dims entry " << dim
                         << " is less than -1";
  return success();
}

/// A unit attribute that belongs on one kind of op: `placed` says whether
/// `op` is one, `where` names the kind.
static LogicalResult verifyUnitAttrOn(Operation *op, NamedAttribute attr,
                                      bool placed, StringRef where) {
  if (!placed)
    return op->emitError("'")
           << attr.getName().getValue() << "' is only valid on " << where;
  if (!isa<UnitAttr>(attr.getValue()))
    return op->emitError("'")
           << attr.getName().getValue() << "' must be a unit attribute";
  return success();
}

LogicalResult GatherDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == getRolledLoopAttrHelper().getName())
    return success();
  if (attr.getName() == getErrorFlagAttrHelper().getName())
    return verifyUnitAttrOn(
        op, attr, op->getName().getStringRef() == "gpu.memcpy", "a gpu.memcpy");
  if (attr.getName() == getStreamingStoresAttrHelper().getName()) {
    if (!isa<scf::ForallOp>(op))
      return op->emitError("'")
             << attr.getName().getValue() << "' is only valid on an scf.forall";
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || !bytes.getType().isInteger(64) || bytes.getInt() < 1)
      return op->emitError("'")
             << attr.getName().getValue()
             << "' must be a positive i64 (the output's minimum bytes)";
    return success();
  }
  if (attr.getName() == getStreamingRowBytesAttrHelper().getName()) {
    if (!getStreamingStoresAttrHelper().isAttrPresent(op))
      return op->emitError("'")
             << attr.getName().getValue() << "' needs '"
             << getStreamingStoresAttrHelper().getName().getValue()
             << "' on the same loop";
    auto bytes = dyn_cast<IntegerAttr>(attr.getValue());
    if (!bytes || !bytes.getType().isInteger(64) || bytes.getInt() < 1 ||
        !llvm::isPowerOf2_64(bytes.getInt()))
      return op->emitError("'")
             << attr.getName().getValue()
             << "' must be a power-of-two i64 (the bytes the rows are a "
                "multiple of)";
    return success();
  }
  if (attr.getName() == getLeavesCallAttrHelper().getName())
    return verifyUnitAttrOn(op, attr, isa<FunctionOpInterface>(op),
                            "a function");
  if (attr.getName() == getSiteArgumentsAttrHelper().getName()) {
    auto function = dyn_cast<FunctionOpInterface>(op);
    if (!function)
      return op->emitError("'")
             << attr.getName().getValue() << "' is only valid on a function";
    ArrayRef<Type> inputs = function.getArgumentTypes();
    auto isI64 = [](Type type) { return type.isSignlessInteger(64); };
    if (inputs.size() < 2 || !isI64(inputs[inputs.size() - 2]) ||
        !isI64(inputs.back()))
      return op->emitError("'")
             << attr.getName().getValue()
             << "' needs the last two arguments (line, column) to be i64";
    return success();
  }
  if (attr.getName() != getOriginAttrHelper().getName())
    return op->emitError("unknown gather dialect attribute ")
           << attr.getName().getValue();
  auto origin = dyn_cast<OriginAttr>(attr.getValue());
  if (!origin)
    return op->emitError("'")
           << attr.getName().getValue() << "' must be #gather.origin";
  auto multiaxis = dyn_cast<MultiaxisOp>(op);
  if (!multiaxis)
    return op->emitError("'") << attr.getName().getValue()
                              << "' is only valid on gather.multiaxis";
  int64_t components = multiaxis.getAxes().size();
  if (static_cast<int64_t>(origin.getDims().size()) != components)
    return op->emitError("'")
           << attr.getName().getValue() << "' has " << origin.getDims().size()
           << " dims for " << components << " axes";
  int64_t rank = cast<ShapedType>(multiaxis.getIndices().getType()).getRank();
  for (int64_t dim : origin.getIndicesDims())
    if (dim >= rank)
      return op->emitError("'")
             << attr.getName().getValue() << "' indices_dims entry " << dim
             << " is out of range [-1, " << rank << ")";
  return success();
}

//===----------------------------------------------------------------------===//
// Run-time error sites
//===----------------------------------------------------------------------===//

GatherSite mlir::gather::describeGatherSite(StringRef opName, Location loc) {
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

std::optional<std::pair<Value, Value>>
mlir::gather::getSiteArguments(Operation *op) {
  auto *dialect = op->getContext()->getLoadedDialect<GatherDialect>();
  auto function = op->getParentOfType<FunctionOpInterface>();
  if (!dialect || !function || function.isExternal() ||
      !dialect->getSiteArgumentsAttrHelper().isAttrPresent(function))
    return std::nullopt;
  // The attribute's verifier requires them; a pass that ran without
  // verification gets constants instead.
  Block &entry = function.getFunctionBody().front();
  unsigned count = entry.getNumArguments();
  if (count < 2 ||
      !entry.getArgument(count - 2).getType().isSignlessInteger(64) ||
      !entry.getArgument(count - 1).getType().isSignlessInteger(64))
    return std::nullopt;
  return std::make_pair(Value(entry.getArgument(count - 2)),
                        Value(entry.getArgument(count - 1)));
}

Operation *GatherDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}
