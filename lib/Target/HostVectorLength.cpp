//===- HostVectorLength.cpp - this CPU's scalable vector length -----------===//
//
// Part of the gather project, under the Apache License v2.0 with LLVM
// Exceptions. See LICENSE for license information.
// SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
//
//===----------------------------------------------------------------------===//

#include "gather/Target/HostVectorLength.h"

#if defined(__linux__) && (defined(__aarch64__) || defined(__riscv))
#include <sys/auxv.h>
#endif
#if defined(__linux__) && defined(__aarch64__)
#include <sys/prctl.h>
#endif

int64_t mlir::gather::hostScalableVectorBits() {
#if defined(__linux__) && defined(__aarch64__)
  // Fails with EINVAL on a CPU without SVE. The length is in bytes, with
  // flags above PR_SVE_VL_LEN_MASK.
  int length = prctl(PR_SVE_GET_VL, 0, 0, 0, 0);
  return length < 0 ? 0 : int64_t(length & PR_SVE_VL_LEN_MASK) * 8;
#elif defined(__linux__) && defined(__riscv) && __riscv_xlen == 64
  // Linux reports the single-letter extensions as bits of AT_HWCAP; reading
  // vlenb on a CPU without V would trap. The CSR is named by its number
  // (0xc22) so that the assembler needs no V in its -march.
  constexpr unsigned long kHwcapV = 1ul << ('V' - 'A');
  if (!(getauxval(AT_HWCAP) & kHwcapV))
    return 0;
  unsigned long bytes = 0;
  __asm__ volatile("csrr %0, 0xc22" : "=r"(bytes));
  return int64_t(bytes) * 8;
#else
  return 0;
#endif
}
