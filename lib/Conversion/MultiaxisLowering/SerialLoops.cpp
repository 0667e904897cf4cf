//===- SerialLoops.cpp - scf.for loop nests over a tensor -----------------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The serial host form of a loop nest over an output: GatherToSCF's loops,
// and the cold path of the other CPU lowerings.
//
//===----------------------------------------------------------------------===//

#include "gather/Conversion/MultiaxisLowering/MultiaxisLowering.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"

using namespace mlir;
using namespace mlir::gather;

SmallVector<Value> mlir::gather::buildForLoopsOver(
    OpBuilder &b, Location loc, Value shaped, ValueRange iterArgs,
    llvm::function_ref<SmallVector<Value>(OpBuilder &, Location, ValueRange,
                                          ValueRange)>
        body) {
  auto type = cast<RankedTensorType>(shaped.getType());
  if (type.getRank() == 0)
    return body(b, loc, ValueRange{}, iterArgs);
  SmallVector<Value> lbs, ubs, steps;
  for (int64_t d = 0; d < type.getRank(); ++d) {
    lbs.push_back(arith::ConstantIndexOp::create(b, loc, 0));
    ubs.push_back(
        type.isDynamicDim(d)
            ? tensor::DimOp::create(b, loc, shaped, d).getResult()
            : arith::ConstantIndexOp::create(b, loc, type.getDimSize(d))
                  .getResult());
    steps.push_back(arith::ConstantIndexOp::create(b, loc, 1));
  }
  scf::LoopNest nest = scf::buildLoopNest(
      b, loc, lbs, ubs, steps, iterArgs,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        return scf::ValueVector(body(nb, nloc, ivs, args));
      });
  return SmallVector<Value>(nest.results.begin(), nest.results.end());
}

Value mlir::gather::buildSerialLoopNest(OpBuilder &b, Location loc, Value init,
                                        ElementFn element) {
  SmallVector<Value> results = buildForLoopsOver(
      b, loc, init, init,
      [&](OpBuilder &nb, Location nloc, ValueRange ivs, ValueRange args) {
        Value value = element(nb, nloc, ivs);
        Value updated = tensor::InsertOp::create(nb, nloc, value, args[0], ivs);
        return SmallVector<Value>{updated};
      });
  return results.front();
}
