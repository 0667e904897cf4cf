//===- HostVectorLength.h - this CPU's scalable vector length ---*- C++ -*-===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
// The register length of a scalable vector extension is a property of the
// machine, not of the CPU's name: LLVM's CPU tables and its host feature
// detection do not give it, the OS does. This header and its source use
// the C library alone, so that the tests compile them for AArch64 and
// RISC-V and run them under QEMU (test/Target/host-vector-length.test).
//
//===----------------------------------------------------------------------===//

#ifndef GATHER_TARGET_HOSTVECTORLENGTH_H
#define GATHER_TARGET_HOSTVECTORLENGTH_H

#include <cstdint>

namespace mlir::gather {

/// The length in bits of this thread's scalable vector registers: SVE's
/// vector length on AArch64 Linux (prctl PR_SVE_GET_VL), RISC-V V's VLEN on
/// RISC-V Linux (the vlenb register, read only where the kernel reports V
/// in AT_HWCAP). 0 where the CPU has neither, on other systems and other
/// architectures. Threads a process creates later inherit the length.
int64_t hostScalableVectorBits();

} // namespace mlir::gather

#endif // GATHER_TARGET_HOSTVECTORLENGTH_H
