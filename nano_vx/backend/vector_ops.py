"""Vectors in MLIR, on a FunctionBuilder: `vec<N x T>(..)` built from its lanes
(vector.from_elements), `splat(v)` (vector.broadcast), `+ - *` and a float's `/` one arith
operation on the two vectors (but lane by lane for f16 and bf16 lanes), an integer `/` lane by
lane (each lane checked as the scalar `/` is, a zero divisor and the minimum divided by -1, in
lane order as the interpreter checks them: no vector instruction divides integers), and a lane
read (vector.extract, its index checked against the lane count unless it is a constant the
front end checked)."""

from __future__ import annotations

from .machine_types import MACHINE, Vector, kind, vx_type
from .scalar_ops import lanewise, operate

# f16 and bf16 lanes are computed one scalar operation each, which the scalar code rounds as
# the interpreter rounds each lane (bf16 in f32, rounded in integer operations: mlir.py): a
# vector operation would be rounded by whatever vector instructions the target has.
HALF_LANES = frozenset({"f16", "bf16"})


def vector(b, e):
    """A VecBinary, VecLit, Splat or Lane: its (ssa, Vx type)."""
    return _LOWER[e._prod](b, e)


def _binary(b, e):
    """`a op b` of two vectors."""
    t = vx_type(e.type)
    left, _ = b.lower(e.left)
    right, _ = b.lower(e.right)
    return combine(b, e.op, left, right, t), t


def vector_lit(b, e):
    """`vec<N x T>(a, b, ..)`: its lanes computed in order, then the vector."""
    t = vx_type(e.type)
    lanes = tuple(b.lower(x)[0] for x in e.elems)
    return b.op("FromElements", lanes, t.mtype), t


def splat(b, e):
    """`splat(v)`: v in every lane."""
    t = vx_type(e.type)
    value, _ = b.lower(e.value)
    return b.op("Broadcast", value, MACHINE[t.elem], t.mtype), t


def combine(b, op: str, left: str, right: str, t: Vector) -> str:
    """`left op right` of two vectors of type t, lane by lane."""
    if (op == "/" and kind(t.elem) == "int") or t.elem in HALF_LANES:
        lanes = tuple(operate(b, op, extract(b, left, t, k), extract(b, right, t, k), t.elem,
                              t.elem) for k in range(t.lanes))
        return b.op("FromElements", lanes, t.mtype)
    return lanewise(b, op, left, right, t.elem, t.mtype)


def extract(b, vector: str, t: Vector, k: int) -> str:
    """Lane k (a number in range) of a vector of type t."""
    return b.op("Extract", vector, b.const(k, "index"), t.mtype, MACHINE[t.elem])


def lane(b, e):
    """`v[i]`: the vector computed, then the index, checked against the lane count."""
    vector, t = b.lower(e.vector)
    index, it = b.lower(e.index)
    known = b.constants.get(index)
    if known is not None and 0 <= known < t.lanes:
        return extract(b, vector, t, known), t.elem
    wide = b.to_i64(index, it)
    inside = b.op("Compare", "cmpi", "ult", wide, b.const(t.lanes, "i64"), "i64")
    b.check(inside, "E9003", f"lane {{a}} of a vector of {t.lanes} lanes", it, wide)
    # The index clamped, which changes nothing once the check passed: MLIR folds a constant
    # position into the op, and one out of range (a -1 that only the stop's branch would
    # see) aborts convert-vector-to-llvm, which reads -1 as its poison position.
    at = b.op("Arith", "minui", wide, b.const(t.lanes - 1, "i64"), "i64")
    at = b.op("Convert", "arith.index_cast", at, "i64", "index")
    return b.op("Extract", vector, at, t.mtype, MACHINE[t.elem]), t.elem


_LOWER = {"VecBinary": _binary, "VecLit": vector_lit, "Splat": splat, "Lane": lane}


def lanes(b, vector: str, t: Vector) -> list:
    """Each lane of a vector of type t, as (ssa, Vx type): what `print` writes of it."""
    return [(extract(b, vector, t, k), t.elem) for k in range(t.lanes)]
