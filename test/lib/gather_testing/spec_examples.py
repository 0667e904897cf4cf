# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Every worked example printed in the specification documents, with the output
the specification prints: (name, comment, op, attribute text, data, indices, expected
output, element type, index type). Shared by the constant-folding test
generator (utils/gen_spec_value_tests.py) and the execution test
(test/Integration/spec-examples.py)."""

import numpy as np

CASES = []


def add(name, comment, op, attrs, data, indices, want, ety="i32", ity="i64"):
    CASES.append((name, comment, op, attrs, np.array(data), np.array(indices), np.array(want), ety, ity))


A = [[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]
B = [[[0, 1], [10, 11]], [[100, 101], [110, 111]], [[200, 201], [210, 211]], [[300, 301], [310, 311]]]
C = [[1, 2], [3, 4]]
D = [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
G = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

# The Gather Multiaxis proposal.
add("proposal_elements_axis0", "proposal: GatherElements axis 0", "elements", "axis = 0", A, [[3, 1, 1], [2, 0, 3]], [[30, 11, 12], [20, 1, 32]])
add("proposal_elements_axis1", "proposal: GatherElements axis 1", "elements", "axis = 1", A, [[2], [1], [0], [2]], [[2], [11], [20], [32]])
add("proposal_elements_rank3", "proposal: GatherElements rank 3", "elements", "axis = 0", B, [[[0, 2], [1, 3]]], [[[0, 201], [110, 311]]])
add("proposal_multiaxis_elements_rank3", "proposal: GatherElements via multiaxis", "multiaxis", "axes = [0]", B, [[[0, 2], [1, 3]]], [[[0, 201], [110, 311]]])
add("proposal_block_axis0", "proposal: Gather axis 0", "block", "axis = 0", A, [3, 1], [[30, 31, 32], [10, 11, 12]])
add("proposal_block_axis1", "proposal: Gather axis 1", "block", "axis = 1", A, [2, 1, 0, 1, 2], [[2, 1, 0, 1, 2], [12, 11, 10, 11, 12], [22, 21, 20, 21, 22], [32, 31, 30, 31, 32]])
add("proposal_block_2d_indices", "proposal: Gather 2-D indices, axis 1", "block", "axis = 1", A, [[0, 1], [1, 2]], [[[0, 1], [1, 2]], [[10, 11], [11, 12]], [[20, 21], [21, 22]], [[30, 31], [31, 32]]])
add("proposal_block_scalar", "proposal: Gather scalar index", "block", "axis = 0", C, 1, [3, 4])
add("proposal_block_vector", "proposal: Gather vector indices", "block", "axis = 0", C, [1, 0], [[3, 4], [1, 2]])
add("proposal_block_matrix", "proposal: Gather matrix indices", "block", "axis = 0", C, [[1, 0], [0, 1]], [[[3, 4], [1, 2]], [[1, 2], [3, 4]]])
add("proposal_nd_pairs", "proposal: GatherND pairs", "nd", "", D, [[0, 1], [1, 0]], [[2, 3], [4, 5]])
add("proposal_nd_blocks", "proposal: GatherND blocks", "nd", "", D, [[1], [0], [1]], [[[4, 5], [6, 7]], [[0, 1], [2, 3]], [[4, 5], [6, 7]]])
add("proposal_nd_batch", "proposal: GatherND batch_dims 1", "nd", "batch_dims = 1", D, [[1], [0]], [[2, 3], [4, 5]])
add("proposal_nd_triples", "proposal: GatherND triples", "nd", "", D, [[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], [1, 2, 4, 6, 7])
add("proposal_nd_batch_broadcast", "proposal: GatherND data batch dim 1 broadcasts", "nd", "batch_dims = 1", [[0, 1, 2]], [[1], [2]], [1, 2])
# The ONNX Gather page (ONNX Gather), with floats.
add("onnx_gather_axis0", "ONNX Gather: Gather axis 0", "block", "axis = 0", [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], [[0, 1], [1, 2]], [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]], ety="f32")
add("onnx_gather_axis1", "ONNX Gather: Gather axis 1", "block", "axis = 1", [[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]], [[0, 2]], [[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]], ety="f32")
add("onnx_gather_negative_indices", "ONNX Gather: test_gather_negative_indices", "block", "axis = 0", [float(x) for x in range(10)], [0, -9, -10], [0.0, 1.0, 0.0], ety="f32")
# The ONNX GatherElements page (ONNX GatherElements).
add("onnx_gatherelements_example1", "ONNX GatherElements: example 1", "elements", "axis = 1", C, [[0, 0], [1, 0]], [[1, 1], [4, 3]])
add("onnx_gatherelements_example2", "ONNX GatherElements: example 2", "elements", "axis = 0", G, [[1, 2, 0], [2, 0, 0]], [[4, 8, 3], [7, 2, 3]])
add("onnx_gatherelements_negative", "ONNX GatherElements: negative indices", "elements", "axis = 0", G, [[-1, -2, 0], [-2, 0, 0]], [[7, 5, 3], [4, 2, 3]], ity="i32")
# The ONNX GatherND page (ONNX GatherND).
add("onnx_gathernd_example1", "ONNX GatherND: example 1", "nd", "", [[0, 1], [2, 3]], [[0, 0], [1, 1]], [0, 3])
add("onnx_gathernd_example2", "ONNX GatherND: example 2", "nd", "", [[0, 1], [2, 3]], [[1], [0]], [[2, 3], [0, 1]])
add("onnx_gathernd_example3", "ONNX GatherND: example 3", "nd", "", D, [[0, 1], [1, 0]], [[2, 3], [4, 5]])
add("onnx_gathernd_example4", "ONNX GatherND: example 4", "nd", "", D, [[[0, 1]], [[1, 0]]], [[[2, 3]], [[4, 5]]])
add("onnx_gathernd_example5", "ONNX GatherND: example 5", "nd", "batch_dims = 1", D, [[1], [0]], [[2, 3], [4, 5]])


