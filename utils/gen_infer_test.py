#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
# Regenerate with: /usr/bin/python3 utils/gen_infer_test.py (from the repo root)
# Generates test/Dialect/Gather/infer.mlir: every shape example from the specification documents.
import os
import sys
sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "python"))
from gather.mlir_text import tensor_type as t  # noqa: E402
cases = []
def dyn(rank, ety):
    return t([None] * rank, ety)
def add(name, comment, op, attrs, data, idx, out, ety="f32", ity="i64"):
    cases.append((name, comment, op, attrs, data, idx, out, ety, ity))

# The Gather Multiaxis proposal: multiaxis
add("multiaxis_proposal_broadcast", "proposal: multiaxis: input [4,2,1,2], indices [1,3,2,2], axes [1] -> [4,3,2,2]", "multiaxis", "axes = [1]", [4,2,1,2], [1,3,2,2], [4,3,2,2])
add("multiaxis_proposal_comment_1d", "proposal, reference code comment: [2,3,1], [1,1,4], axes [1] -> [2,1,4]", "multiaxis", "axes = [1]", [2,3,1], [1,1,4], [2,1,4])
add("multiaxis_proposal_comment_2d", "proposal, reference code comment: [10,9,8], [1,5,6*2], axes [1,2] -> [10,5,6]", "multiaxis", "axes = [1, 2]", [10,9,8], [1,5,12], [10,5,6])
# The Gather Multiaxis proposal: GatherElements examples
add("elements_proposal_axis0", "proposal: GatherElements: [4,3], [2,3], axis 0 -> [2,3]", "elements", "axis = 0", [4,3], [2,3], [2,3])
add("elements_proposal_axis1", "proposal: GatherElements: [4,3], [4,1], axis 1 -> [4,1]", "elements", "axis = 1", [4,3], [4,1], [4,1])
add("elements_proposal_rank3", "proposal: GatherElements: [4,2,2], [1,2,2], axis 0 -> [1,2,2]", "elements", "axis = 0", [4,2,2], [1,2,2], [1,2,2])
add("multiaxis_proposal_elements_rank3", "proposal: GatherElements as multiaxis: axes [0]", "multiaxis", "axes = [0]", [4,2,2], [1,2,2], [1,2,2])
# The Gather Multiaxis proposal: block examples and their intermediate multiaxis shapes
add("block_proposal_axis0", "proposal: Gather: [4,3], [2], axis 0 -> [2,3]", "block", "axis = 0", [4,3], [2], [2,3])
add("multiaxis_proposal_block_axis0", "proposal, intermediate: [4,3], [2,1], axes [0] -> [2,3]", "multiaxis", "axes = [0]", [4,3], [2,1], [2,3])
add("block_proposal_axis1", "proposal: Gather: [4,3], [5], axis 1 -> [4,5]", "block", "axis = 1", [4,3], [5], [4,5])
add("multiaxis_proposal_block_axis1", "proposal, intermediate: [4,3], [1,5], axes [1] -> [4,5]", "multiaxis", "axes = [1]", [4,3], [1,5], [4,5])
add("block_proposal_2d_indices", "proposal: Gather: [4,3], [2,2], axis 1 -> [4,2,2]", "block", "axis = 1", [4,3], [2,2], [4,2,2])
add("multiaxis_proposal_block_2d_indices", "proposal, intermediate: [4,1,3], [1,2,2], axes [2] -> [4,2,2]", "multiaxis", "axes = [2]", [4,1,3], [1,2,2], [4,2,2])
add("block_proposal_scalar", "proposal: Gather: [2,2], scalar, axis 0 -> [2]", "block", "axis = 0", [2,2], [], [2])
add("block_proposal_vector", "proposal: Gather: [2,2], [2], axis 0 -> [2,2]", "block", "axis = 0", [2,2], [2], [2,2])
add("multiaxis_proposal_block_vector", "proposal, intermediate: [2,2], [2,1], axes [0] -> [2,2]", "multiaxis", "axes = [0]", [2,2], [2,1], [2,2])
add("block_proposal_matrix", "proposal: Gather: [2,2], [2,2], axis 0 -> [2,2,2]", "block", "axis = 0", [2,2], [2,2], [2,2,2])
add("multiaxis_proposal_block_matrix", "proposal, intermediate: [2,1,2], [2,2,1], axes [0] -> [2,2,2]", "multiaxis", "axes = [0]", [2,1,2], [2,2,1], [2,2,2])
# The Gather Multiaxis proposal gatherBlocks table (and the second ONNX Gather page's table), P,Q,R,S = 2,3,4,5
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
# The Gather Multiaxis proposal GatherND examples and intermediates
add("nd_proposal_pairs", "proposal: GatherND: [2,2,2], [2,2] -> [2,2]", "nd", "", [2,2,2], [2,2], [2,2])
add("multiaxis_proposal_nd_pairs", "proposal, intermediate: [2,2,2], [1,2,1*2], axes [0,1] -> [1,2,2]", "multiaxis", "axes = [0, 1]", [2,2,2], [1,2,2], [1,2,2])
add("nd_proposal_blocks", "proposal: GatherND: [2,2,2], [3,1] -> [3,2,2]", "nd", "", [2,2,2], [3,1], [3,2,2])
add("multiaxis_proposal_nd_blocks", "proposal, intermediate: [2,2,2], [3,1,1], axes [0] -> [3,2,2]", "multiaxis", "axes = [0]", [2,2,2], [3,1,1], [3,2,2])
add("nd_proposal_batch", "proposal: GatherND: [2,2,2], [2,1], batch_dims 1 -> [2,2]", "nd", "batch_dims = 1", [2,2,2], [2,1], [2,2])
add("multiaxis_proposal_nd_batch", "proposal, intermediate: [2,2,2], [2,1,1], axes [1] -> [2,1,2]", "multiaxis", "axes = [1]", [2,2,2], [2,1,1], [2,1,2])
add("nd_proposal_triples", "proposal: GatherND: [2,2,2], [5,3] -> [5]", "nd", "", [2,2,2], [5,3], [5])
add("multiaxis_proposal_nd_triples", "proposal, intermediate: [2,2,2], [5,1,1*3], axes [0,1,2] -> [5,1,1]", "multiaxis", "axes = [0, 1, 2]", [2,2,2], [5,1,3], [5,1,1])
add("nd_proposal_batch_broadcast", "proposal: GatherND: [1,3], [2,1], batch_dims 1 -> [2] (data batch dim 1 broadcasts)", "nd", "batch_dims = 1", [1,3], [2,1], [2])
# The Gather Multiaxis proposal numpy test code
add("nd_proposal_numpy", "proposal: numpy: gather_nd [4,3] with [[0,0],[1,1]] -> [2]", "nd", "", [4,3], [2,2], [2])
add("elements_proposal_numpy", "proposal: numpy: gather_elements [4,3] with [2,2], axis 0 -> [2,2]", "elements", "axis = 0", [4,3], [2,2], [2,2])
# The ONNX Gather page: ONNX Gather
add("block_onnx_gather_axis0", "ONNX Gather: Gather axis 0: data [3,2], indices [2,2] -> [2,2,2]", "block", "axis = 0", [3,2], [2,2], [2,2,2])
add("block_onnx_gather_axis1", "ONNX Gather: Gather axis 1: data [3,3], indices [1,2] -> [3,1,2]", "block", "axis = 1", [3,3], [1,2], [3,1,2])
add("block_onnx_gather_gather_0", "ONNX Gather: test_gather_0: [5,4,3,2], [3], axis 0 -> [3,4,3,2]", "block", "axis = 0", [5,4,3,2], [3], [3,4,3,2])
add("block_onnx_gather_gather_1", "ONNX Gather: test_gather_1: [5,4,3,2], [3], axis 1 -> [5,3,3,2]", "block", "axis = 1", [5,4,3,2], [3], [5,3,3,2])
add("block_onnx_gather_negative_indices", "ONNX Gather: test_gather_negative_indices: [10], [3], axis 0 -> [3]", "block", "axis = 0", [10], [3], [3])
# The ONNX GatherElements page: ONNX GatherElements
add("elements_onnx_gatherelements_example1", "ONNX GatherElements: example 1: [2,2], [2,2], axis 1 -> [2,2]", "elements", "axis = 1", [2,2], [2,2], [2,2])
add("elements_onnx_gatherelements_example2", "ONNX GatherElements: example 2: [3,3], [2,3], axis 0 -> [2,3]", "elements", "axis = 0", [3,3], [2,3], [2,3])
add("elements_onnx_gatherelements_negative", "ONNX GatherElements: negative indices: [3,3], [2,3], axis 0 -> [2,3]", "elements", "axis = 0", [3,3], [2,3], [2,3], ity="i32")
# The ONNX GatherND page: ONNX GatherND
add("nd_onnx_gathernd_example1", "ONNX GatherND: example 1: [2,2], [2,2] -> [2]", "nd", "", [2,2], [2,2], [2], ety="i32")
add("nd_onnx_gathernd_example2", "ONNX GatherND: example 2: [2,2], [2,1] -> [2,2]", "nd", "", [2,2], [2,1], [2,2])
add("nd_onnx_gathernd_example3", "ONNX GatherND: example 3: [2,2,2], [2,2] -> [2,2]", "nd", "", [2,2,2], [2,2], [2,2])
add("nd_onnx_gathernd_example4", "ONNX GatherND: example 4: [2,2,2], [2,1,2] -> [2,1,2]", "nd", "", [2,2,2], [2,1,2], [2,1,2])
add("nd_onnx_gathernd_example5", "ONNX GatherND: example 5: [2,2,2], [2,1], batch_dims 1 -> [2,2]", "nd", "batch_dims = 1", [2,2,2], [2,1], [2,2])

out = ["// RUN: gather-opt %s --gather-refine-result-types | FileCheck %s",
       "",
       "// Output shapes of every example in the specification documents. Each result type is written",
       "// fully dynamic (the destination too); --gather-refine-result-types replaces it with the inferred",
       "// type, which is what is checked.",
       "// Generated from the specification tables; see docs/GatherDialect.md.",
       ""]
for (name, comment, op, attrs, data, idx, o, ety, ity) in cases:
    dt, it = t(data, ety), t(idx, ity)
    rt = dyn(len(o), ety)
    attr = (" " + attrs) if attrs else ""
    out.append(f"// {comment}")
    out.append(f"// CHECK-LABEL: func.func @{name}")
    out.append(f"// CHECK:         gather.{op} {{{{.*}}}} : {dt}, {it} into {t(o, ety)}")
    out.append(f"func.func @{name}(%data: {dt}, %indices: {it}, %init: {rt}) -> {rt} {{")
    out.append(f"  %0 = gather.{op} %data[%indices]{attr} into %init : {dt}, {it} into {rt}")
    out.append(f"  return %0 : {rt}")
    out.append("}")
    out.append("")
open("test/Dialect/Gather/infer.mlir", "w").write("\n".join(out))
print(len(cases))
