"""bind-assigned-starts: Lsplit -> Lsplit.

Same IL: the start a `let` gave the local is read by nothing, and the statements between the
`let` and the assignment do not name the local, so the interpreter runs the output as it ran
the input."""

from __future__ import annotations

import math

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..values.tensors import ADDRESS_LIMIT

bind_assigned_starts = Pass("bind-assigned-starts", L, L, """
Bind each tensor local that its `let` starts at a new tensor, and that its block assigns
a call's result (or a local) before anything names it, by a `let` of that value, where the
assignment was.

scalarize-aggregates stores a call returning an aggregate beside a tensor as `let mut
r_1 = Tensor<..>::new(); r_1 = f(.., &mut r_0);`: the start is a buffer nothing reads and
nothing would give back, and the local a cell, whose buffer find-owned-buffers cannot follow
when it goes on to another variable (`h_t = r_1;`, a field a function assigns whole beside
a result of its own). `let mut r_1 = f(.., &mut r_0);` makes no start, and binds the call's
tensor once, as a tensor made from the variable's own is bound (name-made-tensors), so the
buffer the variable held is dropped before it takes the new one. Only a start of `::new()`
of numbers (a buffer of no element written, computing nothing seen), and an assignment of
the block itself, so it runs on every way the `let` does.
""")


@bind_assigned_starts.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts, changed = list(block.stmts), False
    k = 0
    while k < len(stmts):
        at = _assignment(stmts, k)
        if at is None:
            k += 1
            continue
        let, assign = stmts[k], stmts[at]
        stmts[at] = let.replace(value=assign.value, span=assign.span)
        del stmts[k]
        changed = True
    return block.replace(stmts=tuple(stmts)) if changed else block


def _assignment(stmts: list, k: int) -> int | None:
    """The index of the statement after `stmts[k]`, a `let` of a tensor started at a new
    one, that first names its local, when that is an assignment of a call not naming it or
    of another local (a `let` of another value, an `if` choosing rows, is not lowered as its
    assignment is)."""
    let = stmts[k]
    if let._prod != "Let" or not _start(let.value):
        return None
    for at in range(k + 1, len(stmts)):
        s = stmts[at]
        if s._prod == "Assign" and s.op == "=" and s.target._prod == "Local" \
                and s.target.name == let.name:
            return at if s.value._prod in ("Call", "Local") \
                and not _names(s.value, let.name) else None
        if _names(s, let.name):
            return None
    return None


def _start(e) -> bool:
    """Whether e is `::new()` of numbers: a buffer of no element written, which computes
    nothing seen (nor stops: its element count within what an address reaches)."""
    if e._prod != "TensorNew" or e.ctor != "new" or e.type._prod != "TensorType":
        return False
    given = [n for a in e.args for n in descendants(a)]
    if any(n._prod not in ("ArrayLit", "Int") for n in given):
        return False
    extents = [n.value for n in given if n._prod == "Int"] if e.args else \
        [d.value if d._prod == "DimInt" else None for d in e.type.dims]
    return None not in extents and all(v >= 0 for v in extents) \
        and math.prod(extents) <= ADDRESS_LIMIT


def _names(node, name: str) -> bool:
    return any(n._prod == "Local" and n.name == name for n in descendants(node))
