// Code for another architecture holds no x86 instruction: the CPU pipeline
// for an AArch64 and a RISC-V CPU, with non-temporal stores turned on
// (DLTI, outputs over half a 64 KiB L3) and with threads, and the GPU
// pipeline's host code for a Grace host (the GH200's Neoverse V2), all
// compile with llc for those architectures. Needs llc only; the execution
// tests are test/Integration/cross-*.test.
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=neoverse-n1" | mlir-translate --mlir-to-llvmir | FileCheck %s --check-prefix=ARM --implicit-check-not=llvm.x86
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=neoverse-n1" | mlir-translate --mlir-to-llvmir | llc -O2 -mtriple=aarch64-linux-gnu -mcpu=neoverse-n1 -filetype=null
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=sifive-x280" | mlir-translate --mlir-to-llvmir | llc -O2 -mtriple=riscv64-linux-gnu -mcpu=sifive-x280 -target-abi=lp64d -filetype=null
// RUN: gather-opt %s --gather-gpu-pipeline="format=isa" | mlir-translate --mlir-to-llvmir | llc -O2 -mtriple=aarch64-linux-gnu -mcpu=neoverse-v2 -filetype=null
// An SVE CPU described with 256-bit registers: SVE's gathers and
// predicated stores.
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=neoverse-v1 vector-bits=256" | mlir-translate --mlir-to-llvmir | llc -O2 -mtriple=aarch64-linux-gnu -mcpu=neoverse-v1 -o - | FileCheck %s --check-prefix=SVE
// LLVM's O3 pipeline (the JIT's) keeps each entry point's body out of line
// with its length promise: inlined into the entry, which has none (it
// checks the length), the SVE code would become NEON code.
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=neoverse-v1 vector-bits=256" | mlir-translate --mlir-to-llvmir | opt -O3 -mtriple=aarch64-linux-gnu -S | FileCheck %s --check-prefix=SVEO3
// RUN: gather-opt %s --gather-cpu-pipeline="target-cpu=sifive-x280" | mlir-translate --mlir-to-llvmir | opt -O3 -mtriple=riscv64-linux-gnu -S | FileCheck %s --check-prefix=RVO3

// The fence follows the parallel loop; its 128-bit rows stream in the
// outlined region.
// ARM-LABEL: define {{.*}} @rows(
// ARM:         call {{.*}} @__kmpc_fork_call
// ARM:         fence seq_cst
// ARM-LABEL: define internal void @rows..omp_par(
// ARM:         store <4 x float> {{.*}} !nontemporal
// ARM-LABEL: define {{.*}} @elements(
// ARM:         call <4 x float> @llvm.masked.gather.v4f32
// SVE-LABEL: elements.vl256:
// SVE:         ld1w { z{{[0-9]+}}.d }, p{{[0-7]}}/z, [x{{[0-9]+}}, z{{[0-9]+}}.d, lsl #2]
// SVE:         st1w { z{{[0-9]+}}.s }, p{{[0-7]}}
// SVEO3-LABEL: define {{.*}} @elements(
// SVEO3:         call {{.*}} @elements.vl256(
// SVEO3:       define internal {{.*}} @elements.vl256({{.*}}) {{.*}}#[[BODY:[0-9]+]] {
// SVEO3:         call <8 x float> @llvm.masked.gather.v8f32
// SVEO3:       attributes #[[BODY]] = { noinline vscale_range(2,16) "target-cpu"="neoverse-v1"
// RVO3:        define {{.*}} @elements({{.*}}) {{.*}}#[[ENTRY:[0-9]+]] {
// RVO3:          call {{.*}} @elements.vl512(
// RVO3:        define internal {{.*}} @elements.vl512({{.*}}) {{.*}}#[[BODY:[0-9]+]] {
// RVO3:        attributes #[[ENTRY]] = { {{.*}}"target-cpu"="sifive-x280" "target-features"="{{.*}}-zvl512b
// RVO3:        attributes #[[BODY]] = { noinline "target-cpu"="sifive-x280" "target-features"="{{.*}}+zvl512b
module attributes {dlti.target_system_spec = #dlti.target_system_spec<"CPU" = #dlti.target_device_spec<"L3_cache_size_in_bytes" = 65536 : i64, "nontemporal_stores" = 1 : i64>>} {
  func.func @rows(%d: tensor<300x768xf32>, %i: tensor<400xi64>) -> tensor<400x768xf32> {
    %e = tensor.empty() : tensor<400x768xf32>
    %r = gather.block %d[%i] axis = 0 into %e : tensor<300x768xf32>, tensor<400xi64> into tensor<400x768xf32>
    return %r : tensor<400x768xf32>
  }
  func.func @elements(%d: tensor<64x512xf32>, %i: tensor<64x200xi64>) -> tensor<64x200xf32> {
    %e = tensor.empty() : tensor<64x200xf32>
    %r = gather.elements %d[%i] axis = 1 into %e : tensor<64x512xf32>, tensor<64x200xi64> into tensor<64x200xf32>
    return %r : tensor<64x200xf32>
  }
}
