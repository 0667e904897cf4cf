# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""ONNX importer: a model with Gather, GatherElements and GatherND nodes
becomes a gather-dialect .mlir function.

    /usr/bin/python3 -m gather.onnx model.onnx   # prints the .mlir

Graph inputs become function arguments (initializers become constants), the
graph outputs the function results. Index policy: ONNX semantics, i.e.
negative indices wrap and an out-of-range index is an error (the dialect's
defaults).
"""

import sys

import numpy as np
import onnx
from onnx import numpy_helper

from gather.mlir_text import gather_op_text, tensor_type

# ONNX TensorProto element type -> (MLIR element type, numpy dtype).
ELEMENT_TYPES = {
    onnx.TensorProto.FLOAT: ("f32", np.float32),
    onnx.TensorProto.DOUBLE: ("f64", np.float64),
    onnx.TensorProto.FLOAT16: ("f16", np.float16),
    onnx.TensorProto.INT8: ("i8", np.int8),
    onnx.TensorProto.UINT8: ("i8", np.uint8),
    onnx.TensorProto.INT16: ("i16", np.int16),
    onnx.TensorProto.UINT16: ("i16", np.uint16),
    onnx.TensorProto.INT32: ("i32", np.int32),
    onnx.TensorProto.UINT32: ("i32", np.uint32),
    onnx.TensorProto.INT64: ("i64", np.int64),
    onnx.TensorProto.UINT64: ("i64", np.uint64),
    onnx.TensorProto.BOOL: ("i1", np.bool_),
}


class ImportError_(Exception):
    """The model uses something the importer does not handle."""


def _element_type(elem_type, what):
    if elem_type not in ELEMENT_TYPES:
        name = onnx.TensorProto.DataType.Name(elem_type)
        raise ImportError_(f"{what}: element type {name} is not supported")
    return ELEMENT_TYPES[elem_type][0]


def _value_info_shape(vi):
    tt = vi.type.tensor_type
    if not tt.HasField("shape"):
        raise ImportError_(f"input '{vi.name}' has no rank")
    return [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]


def _attr(node, name, default):
    for a in node.attribute:
        if a.name == name:
            return onnx.helper.get_attribute_value(a)
    return default


def _dense_literal(array):
    """A DenseElementsAttr literal that round-trips any dtype exactly."""
    if array.dtype == np.bool_:
        array = array.astype(np.uint8)
    return '"0x' + np.ascontiguousarray(array).tobytes().hex().upper() + '"'


def import_model(model, func_name="main"):
    """Returns the .mlir text of `model` (an onnx.ModelProto)."""
    graph = model.graph
    initializers = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    values = {}  # ONNX name -> (SSA name, shape list, element type)
    args = []
    for vi in graph.input:
        if vi.name in initializers:
            continue
        ety = _element_type(vi.type.tensor_type.elem_type, f"input '{vi.name}'")
        shape = _value_info_shape(vi)
        ssa = f"%arg{len(args)}"
        args.append(f"{ssa}: {tensor_type(shape, ety)}")
        values[vi.name] = (ssa, shape, ety)
    body = []
    for i, (name, array) in enumerate(initializers.items()):
        ety = None
        for t in graph.initializer:
            if t.name == name:
                ety = _element_type(t.data_type, f"initializer '{name}'")
        ssa = f"%cst{i}"
        ttype = tensor_type(list(array.shape), ety)
        body.append(f"  {ssa} = arith.constant dense<{_dense_literal(array)}> : {ttype}")
        values[name] = (ssa, list(array.shape), ety)
    for n, node in enumerate(graph.node):
        if node.op_type not in ("Gather", "GatherElements", "GatherND"):
            raise ImportError_(f"node '{node.name or n}': op {node.op_type} is not supported "
                               "(only Gather, GatherElements, GatherND)")
        if len(node.input) != 2 or len(node.output) != 1:
            raise ImportError_(f"node '{node.name or n}': expected 2 inputs and 1 output")
        for inp in node.input:
            if inp not in values:
                raise ImportError_(f"node '{node.name or n}': unknown input '{inp}'")
        (d_ssa, d_shape, d_ety), (i_ssa, i_shape, i_ety) = values[node.input[0]], values[node.input[1]]
        if not i_ety.startswith("i") or i_ety == "i1":
            raise ImportError_(f"node '{node.name or n}': indices must be integers, got {i_ety}")
        r, q = len(d_shape), len(i_shape)
        if node.op_type == "Gather":
            axis = _attr(node, "axis", 0)
            a = axis % r if r else 0
            out_shape = d_shape[:a] + i_shape + d_shape[a + 1:]
            op, attrs, shape_args = "block", f"axis = {axis}", dict(axis=axis)
        elif node.op_type == "GatherElements":
            axis = _attr(node, "axis", 0)
            out_shape = list(i_shape)
            op, attrs, shape_args = "elements", f"axis = {axis}", dict(axis=axis)
        else:
            b = _attr(node, "batch_dims", 0)
            k = i_shape[-1] if q else None
            if k is None:
                raise ImportError_(f"node '{node.name or n}': GatherND needs a static last indices dimension")
            out_shape = i_shape[:-1] + d_shape[b + k:]
            op, attrs, shape_args = "nd", (f"batch_dims = {b}" if b else ""), dict(batch_dims=b)
        ssa = f"%{n}"
        loc = f'loc("{node.name or node.op_type + str(n)}")'
        body.append(gather_op_text(op, ssa, d_ssa, i_ssa, tensor_type(d_shape, d_ety),
                                   tensor_type(i_shape, i_ety), tensor_type(out_shape, d_ety),
                                   attrs=attrs, loc=loc, **shape_args))
        values[node.output[0]] = (ssa, out_shape, d_ety)
    results = []
    for vi in graph.output:
        if vi.name not in values:
            raise ImportError_(f"output '{vi.name}' is not produced by a supported node")
        results.append(values[vi.name])
    ret_types = ", ".join(tensor_type(s, e) for _, s, e in results)
    lines = [f"func.func @{func_name}({', '.join(args)}) -> ({ret_types}) {{"]
    lines += body
    lines.append(f"  return {', '.join(s for s, _, _ in results)} : {ret_types}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def import_file(path, func_name="main"):
    """An ONNX model file in, the gather-dialect module text out."""
    return import_model(onnx.load(path), func_name)


def input_names(model):
    """Names of the graph inputs that become function arguments, in order."""
    inits = {t.name for t in model.graph.initializer}
    return [vi.name for vi in model.graph.input if vi.name not in inits]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python3 -m gather.onnx MODEL.onnx", file=sys.stderr)
        return 2
    try:
        model = onnx.load(argv[0])
        sys.stdout.write(import_model(model))
    except ImportError_ as e:
        print(f"gather.onnx: error: {e}", file=sys.stderr)
        return 1
    except Exception as e:  # a file that is not an ONNX model
        print(f"gather.onnx: error: cannot read '{argv[0]}': {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
