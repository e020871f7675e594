"""check-extent-queries: Ltyped, an analysis (the tree is unchanged)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.ltyped import Ltyped
from ..nanopass import Analysis
from ..values.literals import TYPE_WRAPPERS


@dataclass
class State:
    types: dict = field(default_factory=dict)  # a local's unique name -> its Type node


check_extent_queries = Analysis("check-extent-queries", Ltyped, """
Refuse `t.extent(i)` whose i is not an integer literal below t's rank (E3025), and `t.shape`
(E3024).

`t.shape[i]` is E3024: `.extent(i)` is the spelling.

A tensor's extents are part of its type, so an axis is named by a constant, and the message
gives the rank. The rank is judged for the variables and parameters whose type is known here;
the axis of any other tensor (a call's result) must still be an integer literal.
""", state=State)


@check_extent_queries.on("Let", "Param")
def _binder(run, node):
    if node.type is not None:
        run.state.types[node.name] = node.type
    run.descend(node)


@check_extent_queries.on("MethodCall")
def _method(run, call):
    run.descend(call)
    if call.method != "extent":
        return
    rank = _rank(run, call.receiver)
    axis = call.args[0] if len(call.args) == 1 else None
    literal = axis is not None and axis._prod == "Int"
    if rank is None:
        # A tensor no variable's type describes (a call's result): its axis is still named
        # by a literal, which the interpreter and native code read as written.
        if not literal:
            run.ctx.diagnostics.error(
                "E3025", call.span, "`.extent(i)` takes one integer literal naming an axis",
                help=["write the axis as a number: `.extent(0)`"])
        return
    if literal and axis.value < rank:
        return
    run.ctx.diagnostics.error(
        "E3025", call.span,
        f"`.extent(i)` takes one integer literal below the tensor's rank, {rank}, naming an axis",
        help=[f"write `.extent(0)` .. `.extent({rank - 1})`" if rank else
              "a rank-0 tensor has no axes"])


@check_extent_queries.on("FieldGet")
def _field(run, get):
    run.descend(get)
    if get.field == "shape" and _rank(run, get.base) is not None:
        run.ctx.diagnostics.error(
            "E3024", get.span, "a tensor has no `.shape`: its extents are part of its type",
            help=["write `.extent(i)` for the extent of axis i"])


def _rank(run, node) -> int | None:
    """The rank of a variable's tensor type, None when it is not a known tensor."""
    if node._prod != "Local":
        return None
    ty = run.state.types.get(node.name)
    while ty is not None and ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    return len(ty.dims) if ty is not None and ty._prod == "TensorType" else None
