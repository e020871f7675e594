"""The shape and size of the tokens on every stream of a spatial program, found from its
loads forward: what `tile`'s cost model, `size-buffers` and the byte counts of buffers read."""

from __future__ import annotations

from .elements import ELEMENTS
from .program import Program, ins, outs


class ShapeError(Exception):
    """Tokens whose shapes an op cannot combine: E7002, or E7005 for an element-wise op's
    broadcast or a transpose."""

    def __init__(self, message: str, code: str = "E7002"):
        super().__init__(message)
        self.code = code


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
    if kind == "Scalar" or st.op in ("add", "sub", "mul", "div"):
        return _broadcast(st, inputs)
    if st.op == "transpose":
        if len(inputs[0]) != 2:
            raise _cannot(st, inputs, f"transpose swaps the two axes of a matrix, and its "
                                      f"tokens have rank {len(inputs[0])}", "E7005")
        return inputs[0][::-1]
    if st.op == "matmul_acc":
        if len(inputs) != 2 or any(len(shape) != 2 for shape in inputs):
            raise _cannot(st, inputs, "matmul_acc multiplies two matrices (tokens of rank 2)")
        (m, k), (k2, n) = inputs
        if k != k2:
            raise _cannot(st, inputs, f"inner extents {k} and {k2} differ")
        return (m, n)
    if st.op in ("sum", "max"):
        rank = len(inputs[0])
        if not 0 <= st.axis < rank:
            axes = f"axes 0 to {rank - 1}" if rank else "no axis"
            raise _cannot(st, inputs, f"it reduces axis {st.axis}, and its tokens have {axes}")
        return tuple(1 if d == st.axis else n for d, n in enumerate(inputs[0]))
    return inputs[0]


def _broadcast(st, inputs) -> tuple[int, ...]:
    """numpy's broadcasting, which the evaluators apply: shapes aligned at their last axis,
    each extent equal to the others or 1."""
    rank = max(map(len, inputs), default=0)
    out = []
    for d in range(rank):
        extents = {shape[d - rank + len(shape)] for shape in inputs if d - rank + len(shape) >= 0}
        if len(extents - {1}) > 1:
            meeting = " and ".join(map(str, sorted(extents - {1})))
            raise _cannot(st, inputs, f"extents {meeting} meet at axis {d} of the result, and "
                                      f"only equal extents or 1 broadcast (a row [1, n] goes "
                                      f"down every row, a column [m, 1] across every column)",
                          "E7005")
        out.append(min(extents - {1}, default=1))
    return tuple(out)


def _cannot(st, inputs, why: str, code: str = "E7002") -> ShapeError:
    return ShapeError(f"stage '{st.name}' ({getattr(st, 'op', 'scalar')}) cannot combine "
                      f"tokens of shapes {[list(s) for s in inputs]}: {why}", code)


def token_bytes(p: Program, shapes, stream: str) -> int:
    shape = shapes.get(stream, ())
    return ELEMENTS[p.token_dtype(stream)].nbytes(shape)
