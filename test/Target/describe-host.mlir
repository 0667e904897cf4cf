// What the JIT's host description (describeHostCpu) makes of the scalable
// vector length the OS reports (host-vector-length.test reads it), for
// hosts of other architectures: the features are those LLVM's tables give
// the CPU name.

// An SVE host plans vectors of its registers' length: vscale_range follows
// (vscale-min), and the vector units run at it.
// RUN: gather-opt %s --test-gather-describe-host="cpu=neoverse-v1 scalable-vector-bits=256" -o /dev/null | FileCheck %s --check-prefix=SVE256
// SVE256: host: cpu=neoverse-v1 arch=aarch64 vector-bits=256 vector-unit-bits=256 mask-registers=0 vscale-min=2
// SVE256-SAME: nontemporal-stores=0
// SVE256: features: {{.*}}+sve

// The same plan as the CPU described with that width ahead of time, which
// Integration/cross-aarch64-sve.test runs under QEMU (and the same for
// RISC-V: cross-riscv64.test).
// RUN: gather-opt %s --test-gather-describe-host="cpu=neoverse-v1 scalable-vector-bits=256" -o /dev/null | sed -n 's/^host: //p' > %t.sve.host
// RUN: gather-run --print-target --target-cpu=neoverse-v1 --on-host=false --vector-bits=256 > %t.sve.described
// RUN: diff %t.sve.host %t.sve.described
// RUN: gather-opt %s --test-gather-describe-host="cpu=sifive-x280 scalable-vector-bits=512" -o /dev/null | sed -n 's/^host: //p' > %t.rv.host
// RUN: gather-run --print-target --target-cpu=sifive-x280 --on-host=false > %t.rv.described
// RUN: diff %t.rv.host %t.rv.described

// A length that is not a power of two (allowed before Armv9.2): the largest
// power of two within it, since vscale_range's bounds are powers of two.
// RUN: gather-opt %s --test-gather-describe-host="cpu=neoverse-v1 scalable-vector-bits=384" -o /dev/null | FileCheck %s --check-prefix=SVE256

// Longer registers than the lowering plans for: 512 bits.
// RUN: gather-opt %s --test-gather-describe-host="cpu=a64fx scalable-vector-bits=2048" -o /dev/null | FileCheck %s --check-prefix=SVE2048
// SVE2048: host: cpu=a64fx arch=aarch64 vector-bits=512 vector-unit-bits=512 mask-registers=0 vscale-min=4

// 128-bit SVE (Neoverse V2, N2) promises nothing beyond NEON's length; nor
// does an SVE CPU whose length the OS did not give.
// RUN: gather-opt %s --test-gather-describe-host="cpu=neoverse-v2 scalable-vector-bits=128" -o /dev/null | FileCheck %s --check-prefix=SVE128
// RUN: gather-opt %s --test-gather-describe-host="cpu=neoverse-v1" -o /dev/null | FileCheck %s --check-prefix=SVE128
// SVE128: host: cpu={{neoverse-v[12]}} arch=aarch64 vector-bits=128 vector-unit-bits=128 mask-registers=0 vscale-min=0

// A CPU without SVE ignores a length.
// RUN: gather-opt %s --test-gather-describe-host="cpu=neoverse-n1 scalable-vector-bits=256" -o /dev/null | FileCheck %s --check-prefix=NEON
// NEON: host: cpu=neoverse-n1 arch=aarch64 vector-bits=128 vector-unit-bits=128 mask-registers=0 vscale-min=0
// NEON-NOT: sve

// A RISC-V V host's VLEN becomes zvl<N>b features: on up to it, off above,
// so that LLVM assumes the length the host has, and a CPU name that assumes
// more (sifive-x280's zvl512b) lacks a feature of this host.
// RUN: gather-opt %s --test-gather-describe-host="cpu=spacemit-x60 scalable-vector-bits=512 run=sifive-x280" -o /dev/null | FileCheck %s --check-prefix=RV512
// RV512: host: cpu=spacemit-x60 arch=riscv64 vector-bits=512 vector-unit-bits=512 mask-registers=1 vscale-min=0
// RV512: features: {{.*}}+zvl256b,+zvl32b,+zvl512b,+zvl64b,-zvl1024b,
// RV512: missing for sifive-x280: {{$}}

// RUN: gather-opt %s --test-gather-describe-host="cpu=spacemit-x60 scalable-vector-bits=256 run=sifive-x280" -o /dev/null | FileCheck %s --check-prefix=RV256
// RV256: host: cpu=spacemit-x60 arch=riscv64 vector-bits=256
// RV256: features: {{.*}}+zvl128b,+zvl256b,+zvl32b,+zvl64b,-zvl1024b,{{.*}}-zvl512b,
// RV256: missing for sifive-x280: zvl512b{{$}}

// The length of a longer VLEN than the lowering plans for stays in the
// features: LLVM may assume it.
// RUN: gather-opt %s --test-gather-describe-host="cpu=sifive-x280 scalable-vector-bits=1024" -o /dev/null | FileCheck %s --check-prefix=RV1024
// RV1024: host: cpu=sifive-x280 arch=riscv64 vector-bits=512
// RV1024: features: {{.*}}+zvl1024b,

// No length from the OS (no V, or a kernel that does not say): the
// features of the name alone.
// RUN: gather-opt %s --test-gather-describe-host="cpu=sifive-u74 scalable-vector-bits=0" -o /dev/null | FileCheck %s --check-prefix=RVNONE
// RVNONE: host: cpu=sifive-u74 arch=riscv64 vector-bits=128 vector-unit-bits=128 mask-registers=0
// RVNONE-NOT: zvl

// Intel's server cores plan offset-table rows without prefetch and stream
// from four L2s (a mesh L3), known by the name or, where a VM masks the
// model (family 6 model 167, named rocketlake), by AMX or AVX512-FP16; a
// VM may mask AMX instead and keep the name (an Emerald Rapids VM,
// 2026-12-02).
// RUN: gather-opt %s --test-gather-describe-host="cpu=emeraldrapids" -o /dev/null | FileCheck %s --check-prefix=EMR
// RUN: gather-opt %s --test-gather-describe-host="cpu=emeraldrapids features=-amx-tile,-amx-int8,-amx-bf16" -o /dev/null | FileCheck %s --check-prefix=EMR
// EMR: host: cpu=emeraldrapids {{.*}} prefetch-offset-tables=0 gather-offset-rows=1 collect-offset-rows=0 prefetch-index-streams=1 mesh-l3=1
// RUN: gather-opt %s --test-gather-describe-host="cpu=rocketlake features=+amx-tile" -o /dev/null | FileCheck %s --check-prefix=AMX
// A VM that masks both the model and AMX but keeps AVX512-FP16, which only
// the same server cores have: the same rules.
// RUN: gather-opt %s --test-gather-describe-host="cpu=rocketlake features=+avx512fp16" -o /dev/null | FileCheck %s --check-prefix=AMX
// AMX: host: cpu=rocketlake {{.*}} prefetch-offset-tables=0 gather-offset-rows=1 collect-offset-rows=0 prefetch-index-streams=1 mesh-l3=1
// Granite Rapids has AMX in LLVM's table of its features: the same rules.
// RUN: gather-opt %s --test-gather-describe-host="cpu=graniterapids" -o /dev/null | FileCheck %s --check-prefix=GNR
// GNR: host: cpu=graniterapids {{.*}} prefetch-offset-tables=0 gather-offset-rows=1 collect-offset-rows=0 prefetch-index-streams=1 mesh-l3=1
// RUN: gather-opt %s --test-gather-describe-host="cpu=rocketlake" -o /dev/null | FileCheck %s --check-prefix=CLIENT
// The other AVX-512 features of the server cores are a client core's too.
// RUN: gather-opt %s --test-gather-describe-host="cpu=rocketlake features=+avx512bf16,+avx512vnni,+avx512vbmi2" -o /dev/null | FileCheck %s --check-prefix=CLIENT
// CLIENT: host: cpu=rocketlake {{.*}} prefetch-offset-tables=1 gather-offset-rows=0 collect-offset-rows=0 prefetch-index-streams=1 mesh-l3=0

// Zen 4 prefetches index streams into the L2 (level 2) and offset tables
// only where pixels read their lines few times (level 2), and collects
// offset-table rows in registers, as a host and as a CPU named ahead of
// time; Zen 3 and Zen 5, unmeasured, keep levels 1 and 1 and no collection.
// RUN: gather-opt %s --test-gather-describe-host="cpu=znver4" -o /dev/null | FileCheck %s --check-prefix=ZEN4
// RUN: gather-run --print-target --target-cpu=znver4 --on-host=false | FileCheck %s --check-prefix=ZEN4
// ZEN4: cpu=znver4 {{.*}} prefetch-offset-tables=2 gather-offset-rows=0 collect-offset-rows=1 prefetch-index-streams=2 mesh-l3=0
// RUN: gather-opt %s --test-gather-describe-host="cpu=znver3" -o /dev/null | FileCheck %s --check-prefix=ZEN35
// RUN: gather-opt %s --test-gather-describe-host="cpu=znver5" -o /dev/null | FileCheck %s --check-prefix=ZEN35
// ZEN35: host: cpu=znver{{[35]}} {{.*}} prefetch-offset-tables=1 gather-offset-rows=0 collect-offset-rows=0 prefetch-index-streams=1 mesh-l3=0

// x86 has no scalable length.
// RUN: gather-opt %s --test-gather-describe-host="cpu=znver4 scalable-vector-bits=256" -o /dev/null | FileCheck %s --check-prefix=X86
// X86: host: cpu=znver4 arch=x86_64 vector-bits=512 vector-unit-bits=512 mask-registers=1 vscale-min=0

module {}
