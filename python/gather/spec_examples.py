"""Every worked example printed in the specification seeds, with the output
the seed prints: (name, comment, op, attribute text, data, indices, expected
output, element type, index type). Shared by the constant-folding test
generator (utils/gen_seed_value_tests.py) and the execution test
(test/Integration/seeds.py)."""

import numpy as np

CASES = []


def add(name, comment, op, attrs, data, indices, want, ety="i32", ity="i64"):
    CASES.append((name, comment, op, attrs, np.array(data), np.array(indices), np.array(want), ety, ity))


A = [[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]]
B = [[[0, 1], [10, 11]], [[100, 101], [110, 111]], [[200, 201], [210, 211]], [[300, 301], [310, 311]]]
C = [[1, 2], [3, 4]]
D = [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]
G = [[1, 2, 3], [4, 5, 6], [7, 8, 9]]

# Seed 003.
add("seed003_elements_axis0", "003 GatherElements axis 0", "elements", "axis = 0", A, [[3, 1, 1], [2, 0, 3]], [[30, 11, 12], [20, 1, 32]])
add("seed003_elements_axis1", "003 GatherElements axis 1", "elements", "axis = 1", A, [[2], [1], [0], [2]], [[2], [11], [20], [32]])
add("seed003_elements_rank3", "003 GatherElements rank 3", "elements", "axis = 0", B, [[[0, 2], [1, 3]]], [[[0, 201], [110, 311]]])
add("seed003_multiaxis_elements_rank3", "003 GatherElements via multiaxis", "multiaxis", "axes = [0]", B, [[[0, 2], [1, 3]]], [[[0, 201], [110, 311]]])
add("seed003_block_axis0", "003 Gather axis 0", "block", "axis = 0", A, [3, 1], [[30, 31, 32], [10, 11, 12]])
add("seed003_block_axis1", "003 Gather axis 1", "block", "axis = 1", A, [2, 1, 0, 1, 2], [[2, 1, 0, 1, 2], [12, 11, 10, 11, 12], [22, 21, 20, 21, 22], [32, 31, 30, 31, 32]])
add("seed003_block_2d_indices", "003 Gather 2-D indices, axis 1", "block", "axis = 1", A, [[0, 1], [1, 2]], [[[0, 1], [1, 2]], [[10, 11], [11, 12]], [[20, 21], [21, 22]], [[30, 31], [31, 32]]])
add("seed003_block_scalar", "003 Gather scalar index", "block", "axis = 0", C, 1, [3, 4])
add("seed003_block_vector", "003 Gather vector indices", "block", "axis = 0", C, [1, 0], [[3, 4], [1, 2]])
add("seed003_block_matrix", "003 Gather matrix indices", "block", "axis = 0", C, [[1, 0], [0, 1]], [[[3, 4], [1, 2]], [[1, 2], [3, 4]]])
add("seed003_nd_pairs", "003 GatherND pairs", "nd", "", D, [[0, 1], [1, 0]], [[2, 3], [4, 5]])
add("seed003_nd_blocks", "003 GatherND blocks", "nd", "", D, [[1], [0], [1]], [[[4, 5], [6, 7]], [[0, 1], [2, 3]], [[4, 5], [6, 7]]])
add("seed003_nd_batch", "003 GatherND batch_dims 1", "nd", "batch_dims = 1", D, [[1], [0]], [[2, 3], [4, 5]])
add("seed003_nd_triples", "003 GatherND triples", "nd", "", D, [[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]], [1, 2, 4, 6, 7])
add("seed003_nd_batch_broadcast", "003 GatherND data batch dim 1 broadcasts", "nd", "batch_dims = 1", [[0, 1, 2]], [[1], [2]], [1, 2])
# Seed 000 (ONNX Gather), with floats.
add("seed000_axis0", "000 Gather axis 0", "block", "axis = 0", [[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]], [[0, 1], [1, 2]], [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]], ety="f32")
add("seed000_axis1", "000 Gather axis 1", "block", "axis = 1", [[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]], [[0, 2]], [[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]], ety="f32")
add("seed000_negative_indices", "000 test_gather_negative_indices", "block", "axis = 0", [float(x) for x in range(10)], [0, -9, -10], [0.0, 1.0, 0.0], ety="f32")
# Seed 004 (ONNX GatherElements).
add("seed004_example1", "004 example 1", "elements", "axis = 1", C, [[0, 0], [1, 0]], [[1, 1], [4, 3]])
add("seed004_example2", "004 example 2", "elements", "axis = 0", G, [[1, 2, 0], [2, 0, 0]], [[4, 8, 3], [7, 2, 3]])
add("seed004_negative", "004 negative indices", "elements", "axis = 0", G, [[-1, -2, 0], [-2, 0, 0]], [[7, 5, 3], [4, 2, 3]], ity="i32")
# Seed 002 (ONNX GatherND).
add("seed002_example1", "002 example 1", "nd", "", [[0, 1], [2, 3]], [[0, 0], [1, 1]], [0, 3])
add("seed002_example2", "002 example 2", "nd", "", [[0, 1], [2, 3]], [[1], [0]], [[2, 3], [0, 1]])
add("seed002_example3", "002 example 3", "nd", "", D, [[0, 1], [1, 0]], [[2, 3], [4, 5]])
add("seed002_example4", "002 example 4", "nd", "", D, [[[0, 1]], [[1, 0]]], [[[2, 3]], [[4, 5]]])
add("seed002_example5", "002 example 5", "nd", "batch_dims = 1", D, [[1], [0]], [[2, 3], [4, 5]])


