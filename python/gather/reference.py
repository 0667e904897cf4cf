# SPDX-License-Identifier: Apache-2.0 WITH LLVM-exception
"""Numpy reference semantics of the gather dialect's ops.

Written from the specification (the Gather Multiaxis proposal's gatherMultiaxis and the ONNX pages
for Gather, GatherElements and GatherND), not from the C++ code, so that it can
serve as an independent oracle. Every function takes the index policy of the
dialect:

  negative: "wrap" (index + size, ONNX) or "out_of_bounds"
  out_of_bounds: "error" (raise GatherIndexError), "clamp", "fill" (zero), or
                 "unchecked" (undefined for bad indices: raises here too)
"""

import numpy as np

NEGATIVE_MODES = ("wrap", "out_of_bounds")
OOB_MODES = ("error", "clamp", "fill", "unchecked")


class GatherIndexError(IndexError):
    """An index outside its dimension under the `error` policy."""


def _resolve(index, size, negative, out_of_bounds, op):
    """Applies the policy to an array of index values along a dimension of
    `size`. Returns (usable indices, mask of elements to zero-fill)."""
    if negative not in NEGATIVE_MODES or out_of_bounds not in OOB_MODES:
        raise ValueError(f"unknown policy {negative!r}/{out_of_bounds!r}")
    index = np.asarray(index, dtype=np.int64)
    if negative == "wrap":
        index = np.where((index < 0) & (index >= -size), index + size, index)
    valid = (index >= 0) & (index < size)
    fill = np.zeros(index.shape, dtype=bool)
    if not valid.all():
        if out_of_bounds in ("error", "unchecked"):
            bad = index[~valid].flat[0]
            raise GatherIndexError(
                f"{op}: index {bad} is out of bounds for dimension of size {size}")
        if out_of_bounds == "clamp":
            index = np.clip(index, 0, max(size - 1, 0))
        else:
            fill = ~valid
            index = np.where(valid, index, 0)
    return index, fill


def multiaxis_shape(input_shape, indices_shape, axes):
    """Output shape of gather.multiaxis (raises ValueError on bad shapes)."""
    rank = len(input_shape)
    if len(indices_shape) != rank:
        raise ValueError("indices rank must equal input rank")
    if len(set(axes)) != len(axes) or any(a < 0 or a >= rank for a in axes):
        raise ValueError(f"bad axes {axes} for rank {rank}")
    k = max(len(axes), 1)
    logical = list(indices_shape)
    if rank:
        if logical[-1] % k:
            raise ValueError("last indices dimension is not a multiple of len(axes)")
        logical[-1] //= k
    out = []
    for d in range(rank):
        if d in axes:
            out.append(logical[d])
        elif input_shape[d] == logical[d] or logical[d] == 1:
            out.append(input_shape[d])
        elif input_shape[d] == 1:
            out.append(logical[d])
        else:
            raise ValueError(f"dimension {d} is not broadcast-compatible")
    return tuple(out), logical, k


def multiaxis(input, indices, axes, negative="wrap", out_of_bounds="error"):
    """gatherMultiaxis from the Gather Multiaxis proposal: equal ranks, explicit axes, broadcasting,
    coordinates folded into the last indices dimension."""
    input = np.asarray(input)
    indices = np.asarray(indices)
    axes = list(axes)
    out_shape, logical, k = multiaxis_shape(input.shape, indices.shape, axes)
    rank = input.ndim
    if rank == 0:
        return input.copy()
    if axes and out_of_bounds in ("error", "unchecked") and indices.size:
        # As in ONNX, every index value must be valid under `error`, also
        # one that no output element reads (an empty output).
        for j, axis in enumerate(axes):
            _resolve(indices[..., j::k], input.shape[axis], negative,
                     out_of_bounds, "gather.multiaxis")
    grid = np.indices(out_shape, dtype=np.int64) if out_shape else np.zeros((0,))
    # Broadcast (size 1) dimensions read coordinate 0.
    in_coord = [grid[d] if input.shape[d] != 1 else np.zeros_like(grid[d])
                for d in range(rank)]
    idx_coord = [grid[d] if logical[d] != 1 else np.zeros_like(grid[d])
                 for d in range(rank)]
    fill = np.zeros(out_shape, dtype=bool)
    for j, axis in enumerate(axes):
        coord = list(idx_coord)
        coord[-1] = idx_coord[-1] * k + j
        values = indices[tuple(coord)]
        resolved, fill_j = _resolve(values, input.shape[axis], negative,
                                    out_of_bounds, "gather.multiaxis")
        in_coord[axis] = resolved
        fill |= fill_j
    if input.size == 0:
        return np.zeros(out_shape, dtype=input.dtype)
    out = input[tuple(in_coord)]
    return np.where(fill, np.zeros((), dtype=input.dtype), out).astype(input.dtype)


def block(data, indices, axis=0, negative="wrap", out_of_bounds="error"):
    """ONNX Gather / numpy.take: data[:axis] ++ indices.shape ++ data[axis+1:]."""
    data = np.asarray(data)
    indices = np.asarray(indices)
    if data.ndim < 1 or not -data.ndim <= axis < data.ndim:
        raise ValueError("bad rank or axis")
    axis %= data.ndim
    resolved, fill = _resolve(indices, data.shape[axis], negative,
                              out_of_bounds, "gather.block")
    if data.shape[axis] == 0:
        shape = data.shape[:axis] + indices.shape + data.shape[axis + 1:]
        return np.zeros(shape, dtype=data.dtype)
    out = np.take(data, resolved, axis=axis)
    mask_shape = (1,) * axis + fill.shape + (1,) * (data.ndim - axis - 1)
    return np.where(fill.reshape(mask_shape), np.zeros((), data.dtype), out).astype(data.dtype)


def elements(data, indices, axis=0, negative="wrap", out_of_bounds="error"):
    """ONNX GatherElements / torch.gather: output has the indices shape;
    off-axis index dimensions may be smaller than the data's."""
    data = np.asarray(data)
    indices = np.asarray(indices)
    if data.ndim < 1 or indices.ndim != data.ndim or not -data.ndim <= axis < data.ndim:
        raise ValueError("bad rank or axis")
    axis %= data.ndim
    for d in range(data.ndim):
        if d != axis and indices.shape[d] > data.shape[d]:
            raise ValueError(f"indices dimension {d} exceeds data dimension")
    resolved, fill = _resolve(indices, data.shape[axis], negative,
                              out_of_bounds, "gather.elements")
    if indices.size == 0 or data.shape[axis] == 0:
        # No element to read: every index was out of bounds (fill, clamp).
        return np.zeros(indices.shape, dtype=data.dtype)
    coord = list(np.indices(indices.shape, dtype=np.int64))
    coord[axis] = resolved
    out = data[tuple(coord)]
    return np.where(fill, np.zeros((), data.dtype), out).astype(data.dtype)


def nd(data, indices, batch_dims=0, negative="wrap", out_of_bounds="error"):
    """ONNX GatherND with batch_dims; a data batch dimension of 1 broadcasts."""
    data = np.asarray(data)
    indices = np.asarray(indices)
    b = batch_dims
    r, q = data.ndim, indices.ndim
    if r < 1 or q < 1 or not 0 <= b < min(q, r):
        raise ValueError("bad ranks or batch_dims")
    k = indices.shape[-1]
    if not 1 <= k <= r - b:
        raise ValueError("bad coordinate size")
    for d in range(b):
        if data.shape[d] not in (indices.shape[d], 1):
            raise ValueError(f"batch dimension {d} differs")
    out_shape = indices.shape[:-1] + data.shape[b + k:]
    lead = indices.shape[:-1]
    grid = np.indices(lead, dtype=np.int64) if lead else np.zeros((0,), np.int64)
    coord = []
    for d in range(b):
        coord.append(grid[d] if data.shape[d] != 1 else np.zeros_like(grid[d]))
    fill = np.zeros(lead, dtype=bool)
    for j in range(k):
        resolved, fill_j = _resolve(indices[..., j], data.shape[b + j], negative,
                                    out_of_bounds, "gather.nd")
        coord.append(resolved)
        fill |= fill_j
    if data.size == 0:
        return np.zeros(out_shape, dtype=data.dtype)
    out = data[tuple(coord)]  # shape lead ++ trailing
    mask = fill.reshape(lead + (1,) * (r - b - k))
    return np.where(mask, np.zeros((), data.dtype), out).astype(data.dtype)
