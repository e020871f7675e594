"""check-conditions: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis, descendants
from ..placement.type_checking import (Checking, cast_help, each_item, enter, quoted, refuse,
                                       type_of)
from ..placement.typer import OPAQUE, agree, kind, known, show, value_type

check_conditions = Analysis("check-conditions", Lrouted, """
Refuse a condition that is not a bool, and an `if` or `match` value whose arms differ in type (E3007).

The condition of `if`, `while` and `assert`, and of a `requires`, `ensures` or loop
`invariant`, is a bool: not an integer (compare it with 0), nor a string. An `if` used as a
value gives the value of the branch that runs, so its branches agree on one type, as an
unsuffixed literal takes the other branch's, and a scalar placed by `spawn on` or `transfer`
is read as the scalar inside it when the other branch is that scalar; a branch that leaves has
no value to agree, and a value whose type is not known here is not judged. So do the cases of
a `match` used as a value, a name a pattern binds having the type of what it binds (what the
enum declares its variant carries), and a `match` on a number, which desugar-value-matches
wrote as an `if` chain, is named as the `match` it was.
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
    # desugar-value-matches wrote a `match` on a number as an `if` chain on its `match#` variable
    made = any(n._prod == "Local" and n.name.startswith("match#") for n in descendants(node.cond))
    _agree(run, (node.then, node.orelse), "match" if made else "if")


@check_conditions.on("MatchValue")
def _match_value(run, node):
    run.descend(node)
    _agree(run, [case.body for case in node.cases], "match")


# What a message calls the blocks of each construct, and the construct with its article.
_BLOCKS = {"if": ("branches", "an `if`"), "match": ("arms", "a `match`")}


def _agree(run, blocks, construct: str) -> None:
    """Refuse the first block whose value's type does not agree with those before it (a block
    that leaves has no value to agree)."""
    values = [b.value for b in blocks if b.value is not None]
    if len(values) < 2:
        return
    a = type_of(run, values[0])
    for value in values[1:]:
        b = type_of(run, value)
        if not (known(a) and known(b)):
            return
        if agree(a, b) is OPAQUE:
            blocks, named = _BLOCKS[construct]
            refuse(run, "E3007", value.span,
                   f"the {blocks} of this `{construct}` are {show(a)} and {show(b)}: {named} used "
                   f"as a value gives one type",
                   help=cast_help(b, value_type(a)), then=show(a), orelse=show(b))
            return
        a = agree(a, b)
