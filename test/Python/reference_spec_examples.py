# RUN: %python %s
"""The numpy reference reproduces every worked example printed in the specification documents."""

import numpy as np
from gather import reference as ref

failures = 0


def check(name, got, want):
    global failures
    want = np.asarray(want)
    if got.shape != want.shape or not np.array_equal(got, want):
        failures += 1
        print(f"FAIL {name}: got {got.tolist()} shape {got.shape}, want {want.tolist()}")


A = np.array([[0, 1, 2], [10, 11, 12], [20, 21, 22], [30, 31, 32]])

# The Gather Multiaxis proposal, GatherElements examples (via multiaxis and via elements).
for fn in (lambda d, i, a: ref.multiaxis(d, i, [a]), ref.elements):
    check("proposal: elements axis 0", fn(A, np.array([[3, 1, 1], [2, 0, 3]]), 0), [[30, 11, 12], [20, 1, 32]])
    check("proposal: elements axis 1", fn(A, np.array([[2], [1], [0], [2]]), 1), [[2], [11], [20], [32]])
    B = np.array([[[0, 1], [10, 11]], [[100, 101], [110, 111]], [[200, 201], [210, 211]], [[300, 301], [310, 311]]])
    check("proposal: elements rank 3", fn(B, np.array([[[0, 2], [1, 3]]]), 0), [[[0, 201], [110, 311]]])

# The Gather Multiaxis proposal, block examples and their intermediate multiaxis forms.
check("proposal: block axis 0", ref.block(A, np.array([3, 1]), 0), [[30, 31, 32], [10, 11, 12]])
check("proposal: block axis 0 as multiaxis", ref.multiaxis(A, np.array([[3], [1]]), [0]), [[30, 31, 32], [10, 11, 12]])
want = [[2, 1, 0, 1, 2], [12, 11, 10, 11, 12], [22, 21, 20, 21, 22], [32, 31, 30, 31, 32]]
check("proposal: block axis 1", ref.block(A, np.array([2, 1, 0, 1, 2]), 1), want)
check("proposal: block axis 1 as multiaxis", ref.multiaxis(A, np.array([[2, 1, 0, 1, 2]]), [1]), want)
want = [[[0, 1], [1, 2]], [[10, 11], [11, 12]], [[20, 21], [21, 22]], [[30, 31], [31, 32]]]
check("proposal: block 2d indices", ref.block(A, np.array([[0, 1], [1, 2]]), 1), want)
check("proposal: block 2d indices as multiaxis", ref.multiaxis(A.reshape(4, 1, 3), np.array([[[0, 1], [1, 2]]]), [2]), want)
C = np.array([[1, 2], [3, 4]])
check("proposal: block scalar", ref.block(C, np.array(1), 0), [3, 4])
check("proposal: block vector", ref.block(C, np.array([1, 0]), 0), [[3, 4], [1, 2]])
want = [[[3, 4], [1, 2]], [[1, 2], [3, 4]]]
check("proposal: block matrix", ref.block(C, np.array([[1, 0], [0, 1]]), 0), want)
check("proposal: block matrix as multiaxis", ref.multiaxis(C.reshape(2, 1, 2), np.array([[1, 0], [0, 1]]).reshape(2, 2, 1), [0]), want)

# The Gather Multiaxis proposal, GatherND examples and their intermediate multiaxis forms.
D = np.arange(8).reshape(2, 2, 2)
check("proposal: nd pairs", ref.nd(D, np.array([[0, 1], [1, 0]])), [[2, 3], [4, 5]])
check("proposal: nd pairs as multiaxis", ref.multiaxis(D, np.array([[0, 1], [1, 0]]).reshape(1, 2, 2), [0, 1]).reshape(2, 2), [[2, 3], [4, 5]])
want = [[[4, 5], [6, 7]], [[0, 1], [2, 3]], [[4, 5], [6, 7]]]
check("proposal: nd blocks", ref.nd(D, np.array([[1], [0], [1]])), want)
check("proposal: nd blocks as multiaxis", ref.multiaxis(D, np.array([1, 0, 1]).reshape(3, 1, 1), [0]), want)
check("proposal: nd batch", ref.nd(D, np.array([[1], [0]]), 1), [[2, 3], [4, 5]])
check("proposal: nd batch as multiaxis", ref.multiaxis(D, np.array([1, 0]).reshape(2, 1, 1), [1]).reshape(2, 2), [[2, 3], [4, 5]])
T = np.array([[0, 0, 1], [0, 1, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1]])
check("proposal: nd triples", ref.nd(D, T), [1, 2, 4, 6, 7])
check("proposal: nd triples as multiaxis", ref.multiaxis(D, T.reshape(5, 1, 3), [0, 1, 2]).reshape(5), [1, 2, 4, 6, 7])
check("proposal: nd batch broadcast", ref.nd(np.array([[0, 1, 2]]), np.array([[1], [2]]), 1), [1, 2])

# The Gather Multiaxis proposal's numpy test code.
check("proposal: numpy elements", ref.elements(A, np.array([[0, 1], [1, 0]]), 0), [[0, 11], [10, 1]])
check("proposal: numpy nd", ref.nd(A, np.array([[0, 0], [1, 1]])), [0, 11])

# The ONNX Gather page: ONNX Gather.
E = np.array([[1.0, 1.2], [2.3, 3.4], [4.5, 5.7]])
check("ONNX Gather: axis 0", ref.block(E, np.array([[0, 1], [1, 2]]), 0), [[[1.0, 1.2], [2.3, 3.4]], [[2.3, 3.4], [4.5, 5.7]]])
F = np.array([[1.0, 1.2, 1.9], [2.3, 3.4, 3.9], [4.5, 5.7, 5.9]])
check("ONNX Gather: axis 1", ref.block(F, np.array([[0, 2]]), 1), [[[1.0, 1.9]], [[2.3, 3.9]], [[4.5, 5.9]]])
check("ONNX Gather: negative indices", ref.block(np.arange(10.0), np.array([0, -9, -10]), 0), [0.0, 1.0, 0.0])

# The ONNX GatherElements page: ONNX GatherElements.
check("ONNX GatherElements: example 1", ref.elements(np.array([[1, 2], [3, 4]]), np.array([[0, 0], [1, 0]]), 1), [[1, 1], [4, 3]])
G = np.array([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
check("ONNX GatherElements: example 2", ref.elements(G, np.array([[1, 2, 0], [2, 0, 0]]), 0), [[4, 8, 3], [7, 2, 3]])
check("ONNX GatherElements: negative", ref.elements(G, np.array([[-1, -2, 0], [-2, 0, 0]]), 0), [[7, 5, 3], [4, 2, 3]])

# The ONNX GatherND page: ONNX GatherND.
check("ONNX GatherND: example 1", ref.nd(np.array([[0, 1], [2, 3]]), np.array([[0, 0], [1, 1]])), [0, 3])
check("ONNX GatherND: example 2", ref.nd(np.array([[0, 1], [2, 3]]), np.array([[1], [0]])), [[2, 3], [0, 1]])
check("ONNX GatherND: example 3", ref.nd(D, np.array([[0, 1], [1, 0]])), [[2, 3], [4, 5]])
check("ONNX GatherND: example 4", ref.nd(D, np.array([[[0, 1]], [[1, 0]]])), [[[2, 3]], [[4, 5]]])
check("ONNX GatherND: example 5", ref.nd(D, np.array([[1], [0]]), 1), [[2, 3], [4, 5]])

# Policies.
check("clamp", ref.block(np.arange(4), np.array([-9, 7]), 0, out_of_bounds="clamp"), [0, 3])
check("fill", ref.block(np.arange(1, 5), np.array([-9, 7, 1]), 0, out_of_bounds="fill"), [0, 0, 2])
check("negative out of bounds + fill", ref.block(np.arange(1, 5), np.array([-1, 1]), 0, negative="out_of_bounds", out_of_bounds="fill"), [0, 2])
try:
    ref.block(np.arange(4), np.array([4]), 0)
    failures += 1
    print("FAIL error policy did not raise")
except ref.GatherIndexError as e:
    assert "gather.block" in str(e), e

print(f"{failures} failed")
raise SystemExit(1 if failures else 0)
