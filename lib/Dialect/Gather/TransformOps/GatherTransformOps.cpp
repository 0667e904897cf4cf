//===- GatherTransformOps.cpp - transform ops of the gather dialect -------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.h"

#include "gather/Compat/Passes.h"
#include "gather/Conversion/GatherToLinalg.h"
#include "gather/Conversion/GatherToSCF.h"
#include "gather/Conversion/LinalgToGather.h"
#include "gather/Dialect/Gather/IR/GatherDialect.h"
#include "gather/Dialect/Gather/IR/GatherOps.h"

#include "mlir/Dialect/Affine/IR/AffineOps.h"
#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Bufferization/IR/Bufferization.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/Dialect/Transform/IR/TransformDialect.h"
#include "mlir/Dialect/Vector/IR/VectorOps.h"

using namespace mlir;

void transform::ApplyGatherFromLinalgPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  gather::LinalgToGatherOptions options;
  options.uncheckedPlainReads = getUncheckedPlainReads();
  options.segmentSums = getSegmentSums();
  gather::populateLinalgToGatherPatterns(patterns, options);
}

void transform::ApplyGatherToMultiaxisPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  gather::populateGatherToMultiaxisPatterns(patterns);
}

void transform::ApplyGatherCanonicalizationPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  gather::populateGatherCanonicalizationPatterns(patterns);
  // The rewrites make tensor.expand_shape ops that MLIR 22's own
  // expand_shape patterns crash on once constants fold into them.
  gather::populateRefineExpandShapePatterns(patterns);
}

void transform::ApplyGatherToLinalgPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  gather::GatherToLinalgOptions options;
  options.vectorize = getVectorize();
  options.blockCopy = getBlockCopy();
  options.prefetch = getPrefetch();
  // Register widths below 64 bits or not a multiple of it name no target.
  options.target.vectorBits = std::max<int64_t>(64, getVectorBits() / 64 * 64);
  gather::populateGatherToLinalgPatterns(patterns, options);
}

void transform::ApplyGatherToLoopsPatternsOp::populatePatterns(
    RewritePatternSet &patterns) {
  gather::populateGatherToSCFPatterns(patterns);
}

namespace {
class GatherTransformDialectExtension
    : public transform::TransformDialectExtension<
          GatherTransformDialectExtension> {
public:
  MLIR_DEFINE_EXPLICIT_INTERNAL_INLINE_TYPE_ID(GatherTransformDialectExtension)

  using Base::Base;

  void init() {
    // The patterns create ops of these dialects in the payload.
    declareGeneratedDialect<gather::GatherDialect>();
    declareGeneratedDialect<affine::AffineDialect>();
    declareGeneratedDialect<arith::ArithDialect>();
    declareGeneratedDialect<bufferization::BufferizationDialect>();
    declareGeneratedDialect<func::FuncDialect>();
    declareGeneratedDialect<linalg::LinalgDialect>();
    declareGeneratedDialect<memref::MemRefDialect>();
    declareGeneratedDialect<scf::SCFDialect>();
    declareGeneratedDialect<tensor::TensorDialect>();
    declareGeneratedDialect<vector::VectorDialect>();
    registerTransformOps<
#define GET_OP_LIST
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.cpp.inc"
        >();
  }
};
} // namespace

#define GET_OP_CLASSES
#include "gather/Dialect/Gather/TransformOps/GatherTransformOps.cpp.inc"

void mlir::gather::registerTransformDialectExtension(
    DialectRegistry &registry) {
  registry.addExtensions<GatherTransformDialectExtension>();
}
