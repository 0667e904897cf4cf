//===- DropObjectTimes.cpp - no compile times in gpu.binary objects -------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Compat/Passes.h"

#include "mlir/Dialect/GPU/IR/GPUDialect.h"
#include "mlir/IR/BuiltinAttributes.h"

namespace mlir::gather {
#define GEN_PASS_DEF_GATHERDROPOBJECTTIMES
#include "gather/Compat/Passes.h.inc"
} // namespace mlir::gather

using namespace mlir;

/// `object` without the properties that record compile times.
static gpu::ObjectAttr withoutTimes(gpu::ObjectAttr object) {
  DictionaryAttr properties = object.getProperties();
  if (!properties)
    return object;
  SmallVector<NamedAttribute> kept;
  for (NamedAttribute property : properties)
    if (!property.getName().getValue().ends_with("TimeInMs"))
      kept.push_back(property);
  if (kept.size() == properties.size())
    return object;
  MLIRContext *context = object.getContext();
  return gpu::ObjectAttr::get(
      context, object.getTarget(), object.getFormat(), object.getObject(),
      kept.empty() ? DictionaryAttr() : DictionaryAttr::get(context, kept),
      object.getKernels());
}

namespace {
struct GatherDropObjectTimesPass
    : gather::impl::GatherDropObjectTimesBase<GatherDropObjectTimesPass> {
  void runOnOperation() override {
    getOperation()->walk([](gpu::BinaryOp binary) {
      SmallVector<Attribute> objects;
      for (Attribute object : binary.getObjectsAttr())
        objects.push_back(isa<gpu::ObjectAttr>(object)
                              ? withoutTimes(cast<gpu::ObjectAttr>(object))
                              : object);
      binary.setObjectsAttr(ArrayAttr::get(binary.getContext(), objects));
    });
  }
};
} // namespace
