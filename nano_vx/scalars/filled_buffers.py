"""Whether the buffers a function fills are held by no one else: scalarize-aggregates lowers a
tensor part assigned whole through a `&mut` to its aggregate by copying the new tensor's
elements into the buffer the caller lent, which is the same as the interpreter's replacing
the caller's tensor only while nothing else holds that buffer; copy-into-lent-tensors does
the same for a tensor assigned whole through a `&mut` to a tensor."""

from __future__ import annotations

from ..nanopass import children, descendants
from .aggregate_types import printed
from .aggregates import strip
from .sole_buffers import MADE


def shared_fill(program, fills: dict, sigs: dict):
    """The first place of `program` (a scalarized one) where a buffer a function fills may be
    held by another local than the one lent, as (function, node); None when there is none.
    fills: function -> the names of its parameters (or `&mut` locals) it copies a tensor into.

    A local may be such a buffer when it is filled, passed where a parameter that may be one
    is taken, given such a parameter by a call, or bound to one (each direction, to closure);
    a `&mut` local referring to a tensor (scalarize-aggregates' part of a `&mut` aggregate
    made to refer elsewhere) stands for each it is made to refer to.
    Each of those may be read only by its elements, in a `print`, or passed on so, and made
    only by a tensor constructor or from another of them: a tensor read whole could be the
    buffer, which the copy changes where the interpreter's replacing the tensor leaves it.
    A parameter that may be one given a row (`&mut m[1]`) is given a place in m's buffer,
    which the interpreter's tensor assigned through the reference writes as the copy does."""
    fns = {i.name: i for i in program.items if i._prod == "Fn"}
    params = {name: [p.name for p in fn.params] for name, fn in fns.items()}
    calls = {name: [n for n in descendants(fn.body) if n._prod == "Call"
                    and n.callee._prod == "Global" and n.callee.name in fns]
             for name, fn in fns.items()}
    binds = {name: [n for n in descendants(fn.body) if n._prod in ("Let", "Assign")]
             for name, fn in fns.items()}
    held = {(f, x) for f, xs in fills.items() for x in xs}
    grown = True
    while grown:
        before = len(held)
        for f in fns:
            for call in calls[f]:
                g = call.callee.name
                for j, a in enumerate(call.args[:len(params[g])]):
                    name = _named(a)
                    if name is None:
                        continue
                    if (g, params[g][j]) in held:
                        held.add((f, name))
                    if (f, name) in held:
                        held.add((g, params[g][j]))
            for n in binds[f]:
                if (f, _bound(n)) in held and _named(n.value) is not None:
                    held.add((f, _named(n.value)))
        grown = len(held) > before
    for f, fn in fns.items():
        mine = {x for g, x in held if g == f}
        if mine:
            bad = _held_elsewhere(fn, mine, held, params, sigs)
            if bad is not None:
                return f, bad
    return None


# What a refusal points at: the statement holding the read (a local's own span is where
# scalarize-aggregates made it, the parameter or the `let` it splits).
_STATEMENTS = frozenset({"Let", "Assign", "ExprStmt", "Return", "GiveBack", "If", "While",
                         "For"})


def _held_elsewhere(fn, mine: set, held: set, params: dict, sigs: dict):
    """The statement of fn reading one of `mine` other than by its elements (a row is a view
    of the buffer), in a `print`, or passed on as one, or a `let` or assignment making one of other than a new tensor."""
    ranks = {n.name: len(t.dims) for n in (*fn.params, *descendants(fn.body))
             if n._prod in ("Param", "Let") and (t := _tensor(n.type)) is not None}
    stack = [(fn.body, False, fn)]
    while stack:
        node, shown, at = stack.pop()  # shown: in what a `print` prints, which keeps nothing
        p = node._prod
        if p in _STATEMENTS:
            at = node
        if p == "Local" and node.name in mine and not shown:
            return at
        if p == "ExprStmt" and printed(node.expr, sigs) is not None:
            shown = True
        elif p == "Index" and _named(_indexed(node)[0]) is not None:
            base, indices = _indexed(node)
            if _named(base) in mine and len(indices) < ranks.get(_named(base), 0) \
                    and not shown:
                return at  # a row, a view of the buffer
            stack.extend((i, shown, at) for i in indices)
            continue
        elif p == "Call" and node.callee._prod == "Global" and node.callee.name in params:
            names = params[node.callee.name]
            stack.extend((a, shown, at) for j, a in enumerate(node.args)
                         if not (_named(a) is not None and j < len(names)
                                 and (node.callee.name, names[j]) in held))
            continue
        elif p in ("Let", "Assign") and _bound(node) in mine:
            if _named(node.value) is not None:
                continue  # the local it is made from, or refers to, is one of `mine` too
            if node.value._prod not in MADE:
                return node
            continue
        stack.extend((child, shown, at) for _, _, child in children(node))
    return None


def _indexed(e):
    """The tensor an index chain `t[i][j]` (or `(*t)[i]`) indexes, and its indices."""
    indices = []
    while e._prod == "Index":
        indices.append(e.index)
        e = e.base
    return e, indices


def _tensor(ty):
    """The tensor type ty is or a reference of it refers to; None for another type."""
    ty = strip(ty)
    if ty is not None and ty._prod == "BorrowType":
        ty = strip(ty.inner)
    return ty if ty is not None and ty._prod == "TensorType" else None


def _bound(node):
    """The local a `let` or an assignment binds whole; None for a part."""
    if node._prod == "Let":
        return node.name
    return node.target.name if node.target._prod == "Local" else None


def _named(e):
    """The local e reads or refers to: `x`, `*x`, `&mut x` or `&mut *x`; None for another
    expression."""
    while e._prod in ("Deref", "Borrow"):
        e = e.value
    return e.name if e._prod == "Local" else None
