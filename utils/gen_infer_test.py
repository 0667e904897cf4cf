#!/usr/bin/env python3
# Regenerate with: /usr/bin/python3 utils/gen_infer_test.py (from the repo root)
# Generates test/Dialect/Gather/infer.mlir: every shape example from the seeds.
cases = []
def t(shape, ety):
    return "tensor<" + "".join(f"{d}x" for d in shape) + ety + ">"
def dyn(rank, ety):
    return "tensor<" + "?x" * rank + ety + ">"
def add(name, comment, op, attrs, data, idx, out, ety="f32", ity="i64"):
    cases.append((name, comment, op, attrs, data, idx, out, ety, ity))

# Seed 003: multiaxis
add("multiaxis_seed003_broadcast", "003 multiaxis: input [4,2,1,2], indices [1,3,2,2], axes [1] -> [4,3,2,2]", "multiaxis", "axes = [1]", [4,2,1,2], [1,3,2,2], [4,3,2,2])
add("multiaxis_seed003_comment_1d", "003 reference comment: [2,3,1], [1,1,4], axes [1] -> [2,1,4]", "multiaxis", "axes = [1]", [2,3,1], [1,1,4], [2,1,4])
add("multiaxis_seed003_comment_2d", "003 reference comment: [10,9,8], [1,5,6*2], axes [1,2] -> [10,5,6]", "multiaxis", "axes = [1, 2]", [10,9,8], [1,5,12], [10,5,6])
# Seed 003: GatherElements examples
add("elements_seed003_axis0", "003 GatherElements: [4,3], [2,3], axis 0 -> [2,3]", "elements", "axis = 0", [4,3], [2,3], [2,3])
add("elements_seed003_axis1", "003 GatherElements: [4,3], [4,1], axis 1 -> [4,1]", "elements", "axis = 1", [4,3], [4,1], [4,1])
add("elements_seed003_rank3", "003 GatherElements: [4,2,2], [1,2,2], axis 0 -> [1,2,2]", "elements", "axis = 0", [4,2,2], [1,2,2], [1,2,2])
add("multiaxis_seed003_elements_rank3", "003 GatherElements as multiaxis: axes [0]", "multiaxis", "axes = [0]", [4,2,2], [1,2,2], [1,2,2])
# Seed 003: block examples and their intermediate multiaxis shapes
add("block_seed003_axis0", "003 Gather: [4,3], [2], axis 0 -> [2,3]", "block", "axis = 0", [4,3], [2], [2,3])
add("multiaxis_seed003_block_axis0", "003 intermediate: [4,3], [2,1], axes [0] -> [2,3]", "multiaxis", "axes = [0]", [4,3], [2,1], [2,3])
add("block_seed003_axis1", "003 Gather: [4,3], [5], axis 1 -> [4,5]", "block", "axis = 1", [4,3], [5], [4,5])
add("multiaxis_seed003_block_axis1", "003 intermediate: [4,3], [1,5], axes [1] -> [4,5]", "multiaxis", "axes = [1]", [4,3], [1,5], [4,5])
add("block_seed003_2d_indices", "003 Gather: [4,3], [2,2], axis 1 -> [4,2,2]", "block", "axis = 1", [4,3], [2,2], [4,2,2])
add("multiaxis_seed003_block_2d_indices", "003 intermediate: [4,1,3], [1,2,2], axes [2] -> [4,2,2]", "multiaxis", "axes = [2]", [4,1,3], [1,2,2], [4,2,2])
add("block_seed003_scalar", "003 Gather: [2,2], scalar, axis 0 -> [2]", "block", "axis = 0", [2,2], [], [2])
add("block_seed003_vector", "003 Gather: [2,2], [2], axis 0 -> [2,2]", "block", "axis = 0", [2,2], [2], [2,2])
add("multiaxis_seed003_block_vector", "003 intermediate: [2,2], [2,1], axes [0] -> [2,2]", "multiaxis", "axes = [0]", [2,2], [2,1], [2,2])
add("block_seed003_matrix", "003 Gather: [2,2], [2,2], axis 0 -> [2,2,2]", "block", "axis = 0", [2,2], [2,2], [2,2,2])
add("multiaxis_seed003_block_matrix", "003 intermediate: [2,1,2], [2,2,1], axes [0] -> [2,2,2]", "multiaxis", "axes = [0]", [2,1,2], [2,2,1], [2,2,2])
# Seed 003 gatherBlocks table (and seed 001's table), P,Q,R,S = 2,3,4,5
add("block_table_pq_scalar_axis0", "table: (P,Q), (), axis 0 -> (Q)", "block", "axis = 0", [2,3], [], [3])
add("multiaxis_table_pq_scalar_axis0", "table reshaped: (P,Q) (1,1) -> (1,Q)", "multiaxis", "axes = [0]", [2,3], [1,1], [1,3])
add("block_table_pqr_scalar_axis1", "table: (P,Q,R), (), axis 1 -> (P,R)", "block", "axis = 1", [2,3,4], [], [2,4])
add("multiaxis_table_pqr_scalar_axis1", "table reshaped: (P,Q,R) (1,1,1) -> (P,1,R)", "multiaxis", "axes = [1]", [2,3,4], [1,1,1], [2,1,4])
add("block_table_pqr_s_axis1", "table: (P,Q,R), (S), axis 1 -> (P,S,R)", "block", "axis = 1", [2,3,4], [5], [2,5,4])
add("multiaxis_table_pqr_s_axis1", "table reshaped: (P,Q,1,R) (1,1,S,1) -> (P,1,S,R)", "multiaxis", "axes = [1]", [2,3,1,4], [1,1,5,1], [2,1,5,4])
add("block_table_pq_rs_axis0", "table: (P,Q), (R,S), axis 0 -> (R,S,Q)", "block", "axis = 0", [2,3], [4,5], [4,5,3])
add("multiaxis_table_pq_rs_axis0", "table reshaped: (P,1,1,Q) (1,R,S,1) -> (1,R,S,Q)", "multiaxis", "axes = [0]", [2,1,1,3], [1,4,5,1], [1,4,5,3])
add("block_table_pq_rs_axis1", "table: (P,Q), (R,S), axis 1 -> (P,R,S)", "block", "axis = 1", [2,3], [4,5], [2,4,5])
add("multiaxis_table_pq_rs_axis1", "table reshaped: (P,Q,1,1) (1,1,R,S) -> (P,1,R,S)", "multiaxis", "axes = [1]", [2,3,1,1], [1,1,4,5], [2,1,4,5])
# Seed 003 GatherND examples and intermediates
add("nd_seed003_pairs", "003 GatherND: [2,2,2], [2,2] -> [2,2]", "nd", "", [2,2,2], [2,2], [2,2])
add("multiaxis_seed003_nd_pairs", "003 intermediate: [2,2,2], [1,2,1*2], axes [0,1] -> [1,2,2]", "multiaxis", "axes = [0, 1]", [2,2,2], [1,2,2], [1,2,2])
add("nd_seed003_blocks", "003 GatherND: [2,2,2], [3,1] -> [3,2,2]", "nd", "", [2,2,2], [3,1], [3,2,2])
add("multiaxis_seed003_nd_blocks", "003 intermediate: [2,2,2], [3,1,1], axes [0] -> [3,2,2]", "multiaxis", "axes = [0]", [2,2,2], [3,1,1], [3,2,2])
add("nd_seed003_batch", "003 GatherND: [2,2,2], [2,1], batch_dims 1 -> [2,2]", "nd", "batch_dims = 1", [2,2,2], [2,1], [2,2])
add("multiaxis_seed003_nd_batch", "003 intermediate: [2,2,2], [2,1,1], axes [1] -> [2,1,2]", "multiaxis", "axes = [1]", [2,2,2], [2,1,1], [2,1,2])
add("nd_seed003_triples", "003 GatherND: [2,2,2], [5,3] -> [5]", "nd", "", [2,2,2], [5,3], [5])
add("multiaxis_seed003_nd_triples", "003 intermediate: [2,2,2], [5,1,1*3], axes [0,1,2] -> [5,1,1]", "multiaxis", "axes = [0, 1, 2]", [2,2,2], [5,1,3], [5,1,1])
add("nd_seed003_batch_broadcast", "003 GatherND: [1,3], [2,1], batch_dims 1 -> [2] (data batch dim 1 broadcasts)", "nd", "batch_dims = 1", [1,3], [2,1], [2])
# Seed 003 numpy test code
add("nd_seed003_numpy", "003 numpy: gather_nd [4,3] with [[0,0],[1,1]] -> [2]", "nd", "", [4,3], [2,2], [2])
add("elements_seed003_numpy", "003 numpy: gather_elements [4,3] with [2,2], axis 0 -> [2,2]", "elements", "axis = 0", [4,3], [2,2], [2,2])
# Seed 000: ONNX Gather
add("block_seed000_axis0", "000 Gather axis 0: data [3,2], indices [2,2] -> [2,2,2]", "block", "axis = 0", [3,2], [2,2], [2,2,2])
add("block_seed000_axis1", "000 Gather axis 1: data [3,3], indices [1,2] -> [3,1,2]", "block", "axis = 1", [3,3], [1,2], [3,1,2])
add("block_seed000_gather_0", "000 test_gather_0: [5,4,3,2], [3], axis 0 -> [3,4,3,2]", "block", "axis = 0", [5,4,3,2], [3], [3,4,3,2])
add("block_seed000_gather_1", "000 test_gather_1: [5,4,3,2], [3], axis 1 -> [5,3,3,2]", "block", "axis = 1", [5,4,3,2], [3], [5,3,3,2])
add("block_seed000_negative_indices", "000 test_gather_negative_indices: [10], [3], axis 0 -> [3]", "block", "axis = 0", [10], [3], [3])
# Seed 004: ONNX GatherElements
add("elements_seed004_example1", "004 example 1: [2,2], [2,2], axis 1 -> [2,2]", "elements", "axis = 1", [2,2], [2,2], [2,2])
add("elements_seed004_example2", "004 example 2: [3,3], [2,3], axis 0 -> [2,3]", "elements", "axis = 0", [3,3], [2,3], [2,3])
add("elements_seed004_negative", "004 negative indices: [3,3], [2,3], axis 0 -> [2,3]", "elements", "axis = 0", [3,3], [2,3], [2,3], ity="i32")
# Seed 002: ONNX GatherND
add("nd_seed002_example1", "002 example 1: [2,2], [2,2] -> [2]", "nd", "", [2,2], [2,2], [2], ety="i32")
add("nd_seed002_example2", "002 example 2: [2,2], [2,1] -> [2,2]", "nd", "", [2,2], [2,1], [2,2])
add("nd_seed002_example3", "002 example 3: [2,2,2], [2,2] -> [2,2]", "nd", "", [2,2,2], [2,2], [2,2])
add("nd_seed002_example4", "002 example 4: [2,2,2], [2,1,2] -> [2,1,2]", "nd", "", [2,2,2], [2,1,2], [2,1,2])
add("nd_seed002_example5", "002 example 5: [2,2,2], [2,1], batch_dims 1 -> [2,2]", "nd", "batch_dims = 1", [2,2,2], [2,1], [2,2])

out = ["// RUN: gather-opt %s --gather-refine-result-types | FileCheck %s",
       "",
       "// Output shapes of every example in the seeds. Each result type is written",
       "// fully dynamic; --gather-refine-result-types replaces it with the inferred",
       "// type, which is what is checked.",
       "// Generated from the seed tables; see docs/GatherDialect.md.",
       ""]
for (name, comment, op, attrs, data, idx, o, ety, ity) in cases:
    dt, it = t(data, ety), t(idx, ity)
    rt = dyn(len(o), ety)
    attr = (" " + attrs) if attrs else ""
    out.append(f"// {comment}")
    out.append(f"// CHECK-LABEL: func.func @{name}")
    out.append(f"// CHECK:         gather.{op} {{{{.*}}}} : ({dt}, {it}) -> {t(o, ety)}")
    out.append(f"func.func @{name}(%data: {dt}, %indices: {it}) -> {rt} {{")
    out.append(f"  %0 = gather.{op} %data[%indices]{attr} : ({dt}, {it}) -> {rt}")
    out.append(f"  return %0 : {rt}")
    out.append("}")
    out.append("")
open("test/Dialect/Gather/infer.mlir", "w").write("\n".join(out))
print(len(cases))
