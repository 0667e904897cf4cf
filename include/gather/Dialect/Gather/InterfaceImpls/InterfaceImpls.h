//===- InterfaceImpls.h - upstream interfaces of the gather ops -*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// External models that let the gather ops take part in upstream
// transformations: TilingInterface (tiling, fusion both ways, lowering to
// loops), BufferizableOpInterface (one-shot-bufferize) and
// ValueBoundsOpInterface (result sizes). Each lives in the file named for it;
// registerAllGatherDialects (InitGather.h) registers them all.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_DIALECT_GATHER_INTERFACEIMPLS_INTERFACEIMPLS_H
#define GATHER_DIALECT_GATHER_INTERFACEIMPLS_INTERFACEIMPLS_H

namespace mlir {
class DialectRegistry;
class Operation;
class Value;

namespace gather {

/// TilingInterface on all four ops (TilingInterfaceImpl.cpp).
void registerTilingInterfaceExternalModels(DialectRegistry &registry);

/// What a tile of the gather `gatherOp` reports an invalid index in (its
/// `whole_indices`): the indices as written, or null (see
/// TilingInterfaceImpl.cpp). Indices that an op with a TilingInterface
/// computes are left out unless `producerStaysWhole` (the caller fuses
/// nothing but the gather into the loop).
Value getWholeIndicesForTiles(Operation *gatherOp, bool producerStaysWhole);

/// BufferizableOpInterface on all four ops (BufferizableOpInterfaceImpl.cpp).
void registerBufferizableOpInterfaceExternalModels(DialectRegistry &registry);

/// ValueBoundsOpInterface on all four ops (ValueBoundsOpInterfaceImpl.cpp).
void registerValueBoundsOpInterfaceExternalModels(DialectRegistry &registry);

} // namespace gather
} // namespace mlir

#endif // GATHER_DIALECT_GATHER_INTERFACEIMPLS_INTERFACEIMPLS_H
