"""check-conditions: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.type_checking import (Checking, cast_help, each_item, enter, quoted, refuse,
                                       type_of)
from ..placement.typer import OPAQUE, agree, kind, known, show, value_type

check_conditions = Analysis("check-conditions", Lrouted, """
Refuse a condition that is not a bool, and an `if` value whose branches differ in type (E3007).

The condition of `if`, `while` and `assert`, and of a `requires`, `ensures` or loop
`invariant`, is a bool: not an integer (compare it with 0), nor a string. An `if` used as a
value gives the value of the branch that runs, so its branches agree on one type, as an
unsuffixed literal takes the other branch's, and a scalar placed by `spawn on` or `transfer`
is read as the scalar inside it when the other branch is that scalar; a branch that leaves has
no value to agree, and a value whose type is not known here is not judged.
""", state=Checking, skip=DESCRIPTIONS, requires=("model",))


@check_conditions.on("Program")
def _program(run, node):
    each_item(run, node)


@check_conditions.on("Fn")
def _fn(run, node):
    enter(run, node)
    run.descend(node)


@check_conditions.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.machine)


@check_conditions.on("If", "While", "Assert", "Requires", "Ensures", "Invariant")
def _conditional(run, node):
    run.descend(node)
    _condition(run, node.cond, node._prod.lower())


def _condition(run, cond, what: str) -> None:
    found = type_of(run, cond)
    k = kind(found)
    if k is None or k == "bool":
        return
    shown = show(value_type(found))
    help = [f"compare it: `{quoted(cond)} != 0`"] if k == "int" else []
    refuse(run, "E3007", cond.span, f"the condition of `{what}` is {shown}, not a bool",
           help=help, construct=what, found=shown)


@check_conditions.on("IfExpr")
def _if_expr(run, node):
    run.descend(node)
    _condition(run, node.cond, "if")
    then, orelse = node.then.value, node.orelse.value
    if then is None or orelse is None:  # a branch that leaves has no value to agree
        return
    a, b = type_of(run, then), type_of(run, orelse)
    if known(a) and known(b) and agree(a, b) is OPAQUE:
        refuse(run, "E3007", orelse.span,
               f"the branches of this `if` are {show(a)} and {show(b)}: an `if` used as a "
               f"value gives one type", help=cast_help(b, value_type(a)), then=show(a), orelse=show(b))
