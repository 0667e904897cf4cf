"""gather: Python side of the gather MLIR project.

`gather.reference` holds numpy reference semantics of the four gather ops,
written from the specification (the Gather Multiaxis proposal and the ONNX
operator pages), independently of the C++ implementation.
"""
