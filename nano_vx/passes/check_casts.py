"""check-casts: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lrouted import Lrouted
from ..nanopass import Analysis
from ..placement.type_checking import Checking, each_item, enter, quoted, refuse, type_of
from ..placement.typer import kind, known, show, value_type
from ..placement.types import VOID

check_casts = Analysis("check-casts", Lrouted, """
Refuse a cast `as` does not make (E3011): only a number or a bool converts, to a number.

Nothing converts to a bool, nor a bool to a float. A tensor, a string or nothing (a call of
a function without a result) converts to no number, and a type that is not a scalar is no
cast's target, whatever the value; a value whose type is not known here is judged only by
its target.
""", state=Checking, skip=DESCRIPTIONS, requires=("model",))


@check_casts.on("Program")
def _program(run, node):
    each_item(run, node)


@check_casts.on("Fn")
def _fn(run, node):
    enter(run, node)
    run.descend(node)


@check_casts.on("Spawn")
def _spawn(run, node):
    st = run.state
    st.where.inside(run, node, st.machine)


@check_casts.on("Cast")
def _cast(run, node):
    run.descend(node)
    source, target = value_type(type_of(run, node.value)), node.type
    if target._prod != "Scalar":  # the parser takes any type after `as`; no value goes there
        shown = show(source) if known(source) else "this value"
        refuse(run, "E3011", node.span, f"cannot cast {shown} to {show(target)}: `as` "
               f"converts a number or a bool to a number", source=shown, target=show(target))
        return
    if not known(source):
        return
    k, to = kind(source), target.name
    if to == "bool" and k in ("int", "float"):
        zero = "0.0" if k == "float" else "0"
        why, help = "a number is never a bool", [
            f"compare it instead: `{quoted(node.value)} != {zero}`"]
    elif k == "bool" and kind(target) == "float":
        why, help = "a bool converts only to an integer", [
            f"go through an integer: `{quoted(node.value)} as i32 as {to}`"]
    elif k in ("text", "vector") or k is None and (source._prod == "TensorType" or source == VOID) \
            or to == "void":
        why, help = "`as` converts a number or a bool to a number", []
    else:
        return
    refuse(run, "E3011", node.span, f"cannot cast {show(source)} to {to}: {why}", help=help,
           source=show(source), target=to)
