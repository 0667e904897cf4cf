// RUN: gather-opt %s --split-input-file --gather-half-float-moves | FileCheck %s
// The CPU pipeline ends with it: a bf16 gather's values go from the loads
// to the stores as i16.
// RUN: gather-opt %s --split-input-file --gather-cpu-pipeline | FileCheck %s --check-prefix=PIPELINE

// A value only moved travels as i16 from its load to its store: no bitcast
// is left between them.
// CHECK-LABEL: llvm.func @load_select_store
// CHECK-SAME:    (%[[P:.*]]: !llvm.ptr, %[[Q:.*]]: !llvm.ptr, %[[M:.*]]: vector<8xi1>)
// CHECK-DAG:     %[[ZI:.*]] = llvm.mlir.constant(dense<0> : vector<8xi16>) : vector<8xi16>
// CHECK-DAG:     %[[V:.*]] = llvm.load %[[P]] {alignment = 2 : i64} : !llvm.ptr -> vector<8xi16>
// CHECK:         %[[S:.*]] = llvm.select %[[M]], %[[V]], %[[ZI]] : vector<8xi1>, vector<8xi16>
// CHECK-NEXT:    llvm.store %[[S]], %[[Q]] {alignment = 2 : i64} : vector<8xi16>, !llvm.ptr
// CHECK-NOT:     bf16
llvm.func @load_select_store(%p: !llvm.ptr, %q: !llvm.ptr, %m: vector<8xi1>) {
  %zero = llvm.mlir.constant(dense<0.0> : vector<8xbf16>) : vector<8xbf16>
  %v = llvm.load %p {alignment = 2 : i64} : !llvm.ptr -> vector<8xbf16>
  %s = llvm.select %m, %v, %zero : vector<8xi1>, vector<8xbf16>
  llvm.store %s, %q {alignment = 2 : i64} : vector<8xbf16>, !llvm.ptr
  llvm.return
}

// -----

// The masked intrinsics and the element moves; arithmetic gets its f16
// back through one bitcast.
// CHECK-LABEL: llvm.func @masked_and_elements
// CHECK:         %[[G:.*]] = llvm.intr.masked.gather %{{.*}}, %{{.*}}, %{{.*}} {alignment = 2 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xi16>) -> vector<4xi16>
// CHECK:         %[[L:.*]] = llvm.intr.masked.load %{{.*}}, %{{.*}}, %{{.*}} {alignment = 2 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xi16>) -> vector<4xi16>
// CHECK:         %[[SH:.*]] = llvm.shufflevector %[[G]], %[[L]] [0, 5, 2, 7] : vector<4xi16>
// CHECK:         %[[E:.*]] = llvm.extractelement %[[SH]][%{{.*}} : i64] : vector<4xi16>
// CHECK:         %[[F:.*]] = llvm.bitcast %[[E]] : i16 to f16
// CHECK:         %[[I:.*]] = llvm.insertelement %[[E]], %[[L]][%{{.*}} : i64] : vector<4xi16>
// CHECK:         llvm.intr.masked.store %[[I]], %{{.*}}, %{{.*}} {alignment = 2 : i32} : vector<4xi16>, vector<4xi1> into !llvm.ptr
// CHECK:         llvm.intr.masked.scatter %[[SH]], %{{.*}}, %{{.*}} {alignment = 2 : i32} : vector<4xi16>, vector<4xi1> into vector<4x!llvm.ptr>
// CHECK:         llvm.fadd %[[F]], %[[F]] : f16
llvm.func @masked_and_elements(%ptrs: vector<4x!llvm.ptr>, %p: !llvm.ptr, %m: vector<4xi1>, %i: i64) -> f16 {
  %pass = llvm.mlir.constant(dense<0.0> : vector<4xf16>) : vector<4xf16>
  %g = llvm.intr.masked.gather %ptrs, %m, %pass {alignment = 2 : i32} : (vector<4x!llvm.ptr>, vector<4xi1>, vector<4xf16>) -> vector<4xf16>
  %l = llvm.intr.masked.load %p, %m, %pass {alignment = 2 : i32} : (!llvm.ptr, vector<4xi1>, vector<4xf16>) -> vector<4xf16>
  %sh = llvm.shufflevector %g, %l [0, 5, 2, 7] : vector<4xf16>
  %e = llvm.extractelement %sh[%i : i64] : vector<4xf16>
  %ins = llvm.insertelement %e, %l[%i : i64] : vector<4xf16>
  llvm.intr.masked.store %ins, %p, %m {alignment = 2 : i32} : vector<4xf16>, vector<4xi1> into !llvm.ptr
  llvm.intr.masked.scatter %sh, %ptrs, %m {alignment = 2 : i32} : vector<4xf16>, vector<4xi1> into vector<4x!llvm.ptr>
  %sum = llvm.fadd %e, %e : f16
  llvm.return %sum : f16
}

// -----

// Other types, and atomic accesses (whose type LLVM restricts), are left
// as they are.
// CHECK-LABEL: llvm.func @left_alone
// CHECK:         llvm.load %{{.*}} : !llvm.ptr -> vector<4xf32>
// CHECK:         llvm.load %{{.*}} atomic acquire {alignment = 2 : i64} : !llvm.ptr -> bf16
// CHECK:         llvm.store %{{.*}}, %{{.*}} : vector<4xf32>, !llvm.ptr
// CHECK-NOT:     llvm.bitcast
llvm.func @left_alone(%p: !llvm.ptr, %q: !llvm.ptr) -> bf16 {
  %v = llvm.load %p : !llvm.ptr -> vector<4xf32>
  %a = llvm.load %p atomic acquire {alignment = 2 : i64} : !llvm.ptr -> bf16
  llvm.store %v, %q : vector<4xf32>, !llvm.ptr
  llvm.return %a : bf16
}

// -----

// PIPELINE-LABEL: llvm.func @bf16_rows
// PIPELINE:         llvm.intr.masked.gather {{.*}} -> vector<16xi16>
// PIPELINE-NOT:     {{(load|store|select|gather|constant).*xbf16}}
func.func @bf16_rows(%input: tensor<64x64xbf16>, %indices: tensor<64x64xi64>) -> tensor<64x64xbf16> {
  %init = tensor.empty() : tensor<64x64xbf16>
  %0 = gather.elements %input[%indices] axis = 1 out_of_bounds = fill into %init : tensor<64x64xbf16>, tensor<64x64xi64> into tensor<64x64xbf16>
  return %0 : tensor<64x64xbf16>
}
