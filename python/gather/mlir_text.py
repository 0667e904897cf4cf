# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""MLIR text for gather ops, for the tools that write modules (the JIT
helpers, the ONNX importer, the differential tests, the benchmarks).

The ops are in destination-passing style: each writes into an `init` tensor
of the output shape. `gather_op_text` writes the `tensor.empty` for it, with
dynamic sizes taken from the operands by the op's shape rules.
"""

import re


def tensor_type(shape, element):
    """`tensor<2x?xf32>` from a shape whose dynamic sizes are None or "?"."""
    dims = "".join(("?" if s in (None, "?") else str(s)) + "x" for s in shape)
    return f"tensor<{dims}{element}>"


def parse_tensor_type(text):
    """(shape with None for ?, element type) of `tensor<...>`."""
    m = re.fullmatch(r"tensor<((?:[0-9?]+x)*)([^>]*)>", text.strip())
    if not m:
        raise ValueError(f"not a ranked tensor type: {text}")
    dims = [d for d in m.group(1).split("x") if d]
    return [None if d == "?" else int(d) for d in dims], m.group(2)


def output_dim_sources(op, data_rank, indices_shape, axis=0, axes=(), batch_dims=0):
    """Per output dimension, where its size comes from: a list of
    (operand, dim, divisor) with operand "data" or "indices"; two entries
    mean a broadcast (the size is the one that is not 1)."""
    q = len(indices_shape)
    if op == "block":
        a = axis % data_rank if data_rank else 0
        return ([[("data", d, 1)] for d in range(a)] + [[("indices", d, 1)] for d in range(q)] +
                [[("data", d, 1)] for d in range(a + 1, data_rank)])
    if op == "elements":
        return [[("indices", d, 1)] for d in range(q)]
    if op == "nd":
        k = (indices_shape[-1] or 0) if q else 0
        out = [[("indices", d, 1)] + ([("data", d, 1)] if d < batch_dims else []) for d in range(q - 1)]
        return out + [[("data", d, 1)] for d in range(batch_dims + k, data_rank)]
    if op == "multiaxis":
        k = max(len(axes), 1)
        out = []
        for d in range(data_rank):
            div = k if d == data_rank - 1 else 1
            out.append([("indices", d, div)] + ([] if d in axes else [("data", d, 1)]))
        return out
    raise ValueError(f"unknown gather op {op}")


def output_shape(op, data_shape, indices_shape, **shape_args):
    """The output's sizes by the op's shape rules, static where the
    operands' static sizes (None or "?": dynamic) make them so: a broadcast
    dimension takes the indices' size unless it is 1, then the data's."""
    data_shape = [None if d == "?" else d for d in data_shape]
    indices_shape = [None if d == "?" else d for d in indices_shape]
    out = []
    for sources in output_dim_sources(op, len(data_shape), indices_shape, **shape_args):
        sizes = []
        for operand, dim, divisor in sources:
            size = (data_shape if operand == "data" else indices_shape)[dim]
            sizes.append(None if size is None else size // divisor)
        if len(sources) == 1:
            out.append(sizes[0])
        elif sizes[0] is not None and sizes[0] != 1:
            out.append(sizes[0])
        else:
            out.append(sizes[1] if sizes[0] == 1 else None)
    return out


def gather_op_text(op, result, data, indices, data_type, indices_type, output_type,
                   attrs="", axis=0, axes=(), batch_dims=0, indent="  ", loc=""):
    """The lines that create the destination and apply `gather.<op>`:
    `result = gather.<op> data[indices] <attrs> into %init : ...`.
    `attrs` is the attribute text (`axis = 0 out_of_bounds = clamp`);
    axis/axes/batch_dims give the shape rules for dynamic sizes; where not
    given they are read from `attrs`."""
    m = re.search(r"\baxis\s*=\s*(-?\d+)", attrs)
    if m and axis == 0:
        axis = int(m.group(1))
    m = re.search(r"\baxes\s*=\s*\[([^\]]*)\]", attrs)
    if m and not axes:
        axes = tuple(int(a) for a in m.group(1).split(",") if a.strip())
    m = re.search(r"\bbatch_dims\s*=\s*(\d+)", attrs)
    if m and batch_dims == 0:
        batch_dims = int(m.group(1))
    data_shape, _ = parse_tensor_type(data_type)
    indices_shape, _ = parse_tensor_type(indices_type)
    out_shape, _ = parse_tensor_type(output_type)
    base = "%init_" + re.sub(r"[^\w]", "_", result.lstrip("%"))
    lines = []
    sizes = []
    shapes = {"data": (data, data_shape, data_type),
              "indices": (indices, indices_shape, indices_type)}
    if None in out_shape:
        sources = output_dim_sources(op, len(data_shape), indices_shape, axis=axis, axes=axes,
                                     batch_dims=batch_dims)

    def size_of(source, tag):
        operand, dim, divisor = source
        name, shape, type_text = shapes[operand]
        if shape[dim] is not None:
            value = f"{base}_s{tag}"
            lines.append(f"{value} = arith.constant {shape[dim] // divisor} : index")
            return value
        c, value = f"{base}_c{tag}", f"{base}_d{tag}"
        lines.append(f"{c} = arith.constant {dim} : index")
        lines.append(f"{value} = tensor.dim {name}, {c} : {type_text}")
        if divisor != 1:
            k, quotient = f"{base}_k{tag}", f"{base}_q{tag}"
            lines.append(f"{k} = arith.constant {divisor} : index")
            lines.append(f"{quotient} = arith.divui {value}, {k} : index")
            value = quotient
        return value

    for d, static in enumerate(out_shape):
        if static is not None:
            continue
        candidates = sources[d]
        if len(candidates) == 1:
            sizes.append(size_of(candidates[0], d))
            continue
        # A broadcast: the indices size unless it is 1.
        from_indices = size_of(candidates[0], f"{d}i")
        from_data = size_of(candidates[1], f"{d}d")
        one, is_unit, chosen = f"{base}_one{d}", f"{base}_u{d}", f"{base}_b{d}"
        lines.append(f"{one} = arith.constant 1 : index")
        lines.append(f"{is_unit} = arith.cmpi eq, {from_indices}, {one} : index")
        lines.append(f"{chosen} = arith.select {is_unit}, {from_data}, {from_indices} : index")
        sizes.append(chosen)
    lines.append(f"{base} = tensor.empty({', '.join(sizes)}) : {output_type}")
    attrs = (" " + attrs.strip()) if attrs.strip() else ""
    lines.append(f"{result} = gather.{op} {data}[{indices}]{attrs} into {base} : "
                 f"{data_type}, {indices_type} into {output_type}{(' ' + loc) if loc else ''}")
    return "\n".join(indent + line for line in lines)


def with_cpu_entries(text, entries):
    """`text` (a module's body) in a module whose target description gives
    device "CPU" the integer `entries` ((key, value) pairs or a dict): the
    plan for the target with those entries replaced (docs/Lowering.md,
    "Target description"). The module's first line is `text`'s, so every
    line keeps its number (the run-time errors name them). Without
    entries, `text` unchanged."""
    pairs = list(entries.items() if isinstance(entries, dict) else entries or ())
    if not pairs:
        return text
    spec = ", ".join(f'"{key}" = {value} : i64' for key, value in pairs)
    return ('module attributes {dlti.target_system_spec = #dlti.target_system_spec<'
            f'"CPU" = #dlti.target_device_spec<{spec}>>}} {{{text}\n}}\n')


def parse_cpu_entries(texts):
    """KEY=VALUE texts (the tools' --entry and --cpu-entry options) as
    (key, integer) pairs for with_cpu_entries; ValueError on any other
    text."""
    pairs = []
    for text in texts:
        key, equals, value = text.partition("=")
        if not equals:
            raise ValueError(f"expected KEY=VALUE, got {text!r}")
        pairs.append((key, int(value)))
    return pairs


def identity_map(rank):
    """affine_map<(d0, ...) -> (d0, ...)> of `rank` dimensions."""
    dims = ", ".join(f"d{d}" for d in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


def generic_text(result, ins, in_types, init, init_type, block_args, payload, maps=None):
    """The lines of `result = linalg.generic`, all loops parallel over the
    rank of `init_type`: it reads `ins` (of `in_types`, through `maps`,
    identity ones by default) into `init`; `block_args` are the block's
    arguments (the output's last) and `payload` its lines, which define
    %y, the value it yields."""
    shape, out_element = parse_tensor_type(init_type)
    rank = len(shape)
    maps = (maps or [identity_map(rank)] * len(ins)) + [identity_map(rank)]
    iterators = ", ".join(['"parallel"'] * rank)
    lines = [f"  {result} = linalg.generic {{indexing_maps = [{', '.join(maps)}], "
             f"iterator_types = [{iterators}]}} ins({', '.join(ins)} : {', '.join(in_types)}) "
             f"outs({init} : {init_type}) {{",
             f"  ^bb0({', '.join(block_args)}):"]
    lines += [f"    {line}" for line in payload]
    lines += [f"    linalg.yield %y : {out_element}", f"  }} -> {init_type}"]
    return lines
