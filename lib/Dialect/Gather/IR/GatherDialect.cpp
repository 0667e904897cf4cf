//===- GatherDialect.cpp - gather dialect ---------------------------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/DialectImplementation.h"
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

LogicalResult GatherDialect::verifyOperationAttribute(Operation *op,
                                                      NamedAttribute attr) {
  if (attr.getName() == getRolledLoopAttrHelper().getName())
    return success();
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

Operation *GatherDialect::materializeConstant(OpBuilder &builder,
                                              Attribute value, Type type,
                                              Location loc) {
  if (auto typed = dyn_cast<TypedAttr>(value))
    if (arith::ConstantOp::isBuildableWith(typed, type))
      return arith::ConstantOp::create(builder, loc, type, typed);
  return nullptr;
}
