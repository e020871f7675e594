"""assign-chosen-tensors: Lsplit -> Lsplit.

Same IL: the `let mut` and the assignments its arms make are Lsplit's own statements, and the
variable holds what the `if` chose when the arms are done, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass

assign_chosen_tensors = Pass("assign-chosen-tensors", L, L, """
Write a `let` of a tensor that an `if` chooses as a `let mut` of a new tensor that each arm
assigns its value.

`let t = if c { a } else { b };` is `let mut t: T = T::new(); if c { t = a; } else { t =
b; }`: explicate-control starts the variable of an `if` value at its type's zero, which a
tensor has only as a buffer, so this pass makes that buffer here, as desugar-deferred-lets
makes the one of a `let t: T;` (mapped lazily: no page of it is touched). An `else if` chain
assigns in each of its arms, and an arm that ends without a value (a `return`, a stop)
assigns nothing. A tensor of `?` extents, whose extents no arm has given yet, starts empty,
each `?` extent 0 (`T::new([0, 3])`): an arm's assignment gives the variable its own tensor,
extents and all, as the interpreter's does.
""")


@assign_chosen_tensors.on("Block")
def _block(run, block):
    out = run.rebuild(block)
    if not any(_chosen(s) for s in out.stmts):
        return out
    stmts = []
    for s in out.stmts:
        if not _chosen(s):
            stmts.append(s)
            continue
        made = L["TensorNew"](s.type, "new", _empty(s.type), span=s.span)
        stmts.append(s.replace(mutable=True, value=made))
        stmts.append(_assigning(s.value, s.name, s.span))
    return out.replace(stmts=tuple(stmts))


def _chosen(s) -> bool:
    return s._prod == "Let" and s.value._prod == "IfExpr" and not s.value.comptime \
        and s.type._prod == "TensorType" and \
        all(d._prod in ("DimInt", "DimAny") for d in s.type.dims)


def _empty(ty) -> tuple:
    """`::new()`'s arguments for a tensor of type ty holding no element when an extent is
    `?`: the list of its extents, each `?` one 0; none for static extents."""
    if all(d._prod == "DimInt" for d in ty.dims):
        return ()
    return (L["ArrayLit"](tuple(L["Int"](d.value if d._prod == "DimInt" else 0, span=d.span)
                                for d in ty.dims), span=ty.span),)


def _assigning(choice, name, span):
    """The `if` statement whose arms assign `name` what the arms of the `if` value give."""
    return L["If"](choice.cond, False, _arm(choice.then, name, span),
                   _arm(choice.orelse, name, span), span=choice.span)


def _arm(block, name, span):
    value = block.value
    if value is None:
        return block
    if value._prod == "IfExpr" and not value.comptime:
        last = _assigning(value, name, span)
    else:
        last = L["Assign"](L["Local"](name, span=span), "=", value, span=value.span)
    return block.replace(stmts=(*block.stmts, last), value=None)
