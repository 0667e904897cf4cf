//===- Passes.h - all gather conversion passes ------------------*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// Every conversion's header (its pass and populate function) and the
// registration of all conversion passes.
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_CONVERSION_PASSES_H
#define GATHER_CONVERSION_PASSES_H

#include "gather/Conversion/GatherChecksToRuntime.h"
#include "gather/Conversion/GatherToGPU.h"
#include "gather/Conversion/GatherToLinalg.h"
#include "gather/Conversion/GatherToSCF.h"
#include "gather/Conversion/GatherToTensor.h"
#include "gather/Conversion/LinalgToGather.h"
#include "gather/Conversion/TensorToGather.h"
#include "gather/Conversion/TosaToGather.h"

namespace mlir::gather {

#define GEN_PASS_REGISTRATION
#include "gather/Conversion/Passes.h.inc"

} // namespace mlir::gather

#endif // GATHER_CONVERSION_PASSES_H
