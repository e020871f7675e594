"""check-vector-lanes: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lrouted import Lrouted
from ..languages.lsrc import DESCRIPTIONS
from ..nanopass import Analysis
from ..placement.type_checking import Checking, cast_help, each_item, enter, refuse, type_of
from ..placement.typer import fits, kind, known, literal, show, value_type

check_vector_lanes = Analysis("check-vector-lanes", Lrouted, """
Refuse a lane read out of range or at an index that is no integer, or a lane written (E3015),
and a lane given a value of another type than the vector's lanes (E3003).

`v[i]` reads lane i of a vector of N lanes: an index written as a literal is from 0 to N - 1
(one computed when the program runs is checked then, E9003). The lanes are read, never
written (`v[i] = x`): a vector is one value, made whole by `vec<N x T>(..)`, `splat(v)` or an
operator. Each value `vec<N x T>(..)` and `splat(..)` put in a lane is of the lane type T, as
an argument is of its parameter's type (an unsuffixed literal fits a T of its kind).
""", state=Checking, skip=DESCRIPTIONS, requires=("model",))


@check_vector_lanes.on("Program")
def _program(run, node):
    each_item(run, node)


@check_vector_lanes.on("Fn")
def _fn(run, node):
    enter(run, node)
    run.descend(node)


@check_vector_lanes.on("Index")
def _index(run, node):
    run.descend(node)
    vector = _vector(run, node.base)
    if vector is None:
        return
    found = type_of(run, node.index)
    if known(found) and kind(found) not in ("int", None):
        shown = show(found if literal(found) else value_type(found))
        refuse(run, "E3015", node.index.span,
               f"a lane of {show(vector)} is read at {shown}: a lane index is an integer",
               vector=show(vector), found=shown)
        return
    i = _literal_index(node.index)
    if i is None:
        return
    n = vector.lanes.value
    if not 0 <= i < n:
        refuse(run, "E3015", node.index.span,
               f"lane {i} of {show(vector)}: its lanes are 0 to {n - 1}",
               vector=show(vector), index=i)


@check_vector_lanes.on("Assign")
def _assign(run, node):
    run.descend(node)
    target = node.target
    if target._prod == "Index" and _vector(run, target.base) is not None:
        vector = _vector(run, target.base)
        refuse(run, "E3015", target.span,
               f"a lane of {show(vector)} is written: a vector's lanes are read, not written",
               help=[f"make the whole vector anew: `vec{show(vector)}(..)`"],
               vector=show(vector))


@check_vector_lanes.on("VecLit")
def _vec_literal(run, node):
    run.descend(node)
    for i, e in enumerate(node.elems):
        _lane_value(run, e, node.type, f"lane {i} of `vec{show(node.type)}(..)`")


@check_vector_lanes.on("Splat")
def _splat(run, node):
    run.descend(node)
    if node.type is not None:
        _lane_value(run, node.value, node.type, f"the value of `splat::{show(node.type)}(..)`")


def _lane_value(run, e, vector, what: str) -> None:
    found, elem = type_of(run, e), vector.elem
    if elem._prod != "Scalar" or fits(found, elem):
        return
    shown = show(found if literal(found) else value_type(found))
    refuse(run, "E3003", e.span, f"{what} is {shown}, but the vector's lanes are {show(elem)}",
           help=cast_help(found, elem), found=shown, expected=show(elem))


def _vector(run, base):
    t = type_of(run, base)
    if literal(t):
        return None
    t = value_type(t)
    return t if t._prod == "VectorType" and t.lanes._prod == "DimInt" else None


def _literal_index(e) -> int | None:
    if e._prod == "Int":
        return e.value
    if e._prod == "Unary" and e.op == "-" and e.operand._prod == "Int":
        return -e.operand.value
    if e._prod == "Cast" and e.value._prod == "Int":
        return e.value.value
    return None
