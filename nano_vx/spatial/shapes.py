"""The shape and size of the tokens on every stream of a spatial program, found from its
loads forward: what `tile`'s cost model, `size-buffers` and the byte counts of buffers read."""

from __future__ import annotations

import numpy as np

from .ops import NUMPY_DTYPES
from .program import Program, ins, outs


class ShapeError(Exception):
    """Tokens whose shapes an op cannot combine."""


def token_shapes(p: Program) -> dict[str, tuple[int, ...]]:
    shapes: dict[str, tuple[int, ...]] = {}
    pending = list(p.stages.values())
    while pending:
        waiting = []
        for st in pending:
            sources = [port.stream for port in ins(st)]
            if any(s not in shapes for s in sources):
                waiting.append(st)
                continue
            if st._prod != "Store":
                shape = _made(p, st, [shapes[s] for s in sources])
                for port in outs(st):
                    shapes[port.stream] = shape
        if len(waiting) == len(pending):  # a cycle, or a stream nobody produces
            break
        pending = waiting
    return shapes


def _made(p: Program, st, inputs) -> tuple[int, ...]:
    kind = st._prod
    if kind == "Load":
        return tuple(getattr(st, "tile", p.tensors[st.tensor].shape))
    try:
        if kind == "Scalar" or st.op in ("add", "mul"):
            return tuple(np.broadcast_shapes(*inputs))
        if st.op == "matmul_acc":
            (m, k), (k2, n) = inputs
            if k != k2:
                raise ValueError(f"inner extents {k} and {k2} differ")
            return (m, n)
        if st.op in ("sum", "max"):
            shape = list(inputs[0])
            shape[st.axis] = 1
            return tuple(shape)
        return inputs[0]
    except (ValueError, IndexError) as error:
        raise ShapeError(f"stage '{st.name}' ({getattr(st, 'op', 'scalar')}) cannot combine "
                         f"tokens of shapes {[list(s) for s in inputs]}: {error}") from None


def token_bytes(p: Program, shapes, stream: str) -> int:
    shape = shapes.get(stream, ())
    return int(np.prod(shape, dtype=np.int64)) * np.dtype(NUMPY_DTYPES[p.token_dtype(stream)]).itemsize
