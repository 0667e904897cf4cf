# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""gather: Python side of the gather MLIR project.

- `gather.block`, `gather.elements`, `gather.nd`, `gather.multiaxis`: run a
  gather on numpy arrays, compiled per signature (dtypes, ranks, policy)
  through libGatherCAPI.so: first for the call's sizes, then once more
  with the sizes that changed dynamic (`dynamic=True`: all at once);
  `gather.compile(mlir_text)` compiles a whole module's function into a
  callable. Errors raise `gather.GatherError`.
- `gather.reference`: numpy reference semantics of the four ops, written
  from the specification (the Gather Multiaxis proposal and the ONNX operator
  pages), independently of the C++ implementation.
- `gather.onnx`: ONNX importer (`import_file(path) -> str`,
  `python3 -m gather.onnx model.onnx` prints the .mlir).

Only numpy is needed to import the package; the compiled library is loaded
on first use.
"""

from gather.jit import GatherError, Program, block, compile, elements, multiaxis, nd  # noqa: F401
from gather import reference  # noqa: F401

__all__ = ["GatherError", "Program", "block", "compile", "elements", "multiaxis", "nd", "reference"]
