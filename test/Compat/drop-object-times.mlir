// RUN: gather-opt %s --gather-drop-object-times | FileCheck %s

// The compile times go; the target, the format, the code and any other
// property stay. An object left without properties prints none.
// CHECK-LABEL: gpu.binary @timed [
// CHECK-SAME:    #gpu.object<#nvvm.target<chip = "sm_90">, properties = {kept = 7 : i64}, bin = "ELF">
// CHECK-SAME:    #gpu.object<#nvvm.target<chip = "sm_80">, assembly = "PTX">]
// CHECK-LABEL: gpu.binary @untimed [
// CHECK-SAME:    #gpu.object<#nvvm.target<chip = "sm_90">, properties = {kept = 1 : i64}, bin = "ELF">
// CHECK-SAME:    #gpu.object<#nvvm.target<chip = "sm_90">, bin = "ELF">]
module attributes {gpu.container_module} {
  gpu.binary @timed [
    #gpu.object<#nvvm.target<chip = "sm_90">, properties = {ISAToBinaryTimeInMs = 55 : i64, LLVMIRToISATimeInMs = 5 : i64, kept = 7 : i64}, bin = "ELF">,
    #gpu.object<#nvvm.target<chip = "sm_80">, properties = {LLVMIRToISATimeInMs = 2 : i64}, assembly = "PTX">]
  gpu.binary @untimed [
    #gpu.object<#nvvm.target<chip = "sm_90">, properties = {kept = 1 : i64}, bin = "ELF">,
    #gpu.object<#nvvm.target<chip = "sm_90">, bin = "ELF">]
}
