"""What settle-written-tensors, index-uninit-pointers, copy-tracked-functions and
track-uninit-elements read off the tree alike: the tensor an element names, the tensor a `let`
gives another name (and all the names so given), a tensor parameter's type, whether an index
computes the same twice, and the mark opening a copy of a function."""

from __future__ import annotations

# What E5010 says native code does not lower, where the written-flags of a tensor made by
# `::uninit()` are not followed (copy-tracked-functions, track-uninit-elements).
NOT_FOLLOWED = "a use of a tensor made by ::uninit() whose written-flags it does not follow"


def element_of(e):
    """The local an index chain `t[i][j]` names (None for another base) and its indices,
    outermost first."""
    indices = []
    while e._prod == "Index":
        indices.append(e.index)
        e = e.base
    return (e if e._prod == "Local" else None), indices[::-1]


def named_whole(value):
    """The local a `let`'s value names whole, so that the `let` gives its tensor another
    name: `t`, `&t`, `&mut t`, `transfer(t, M)` (which moves the elements as they are)."""
    if value._prod in ("Borrow", "Transfer"):
        value = value.value
    return value.name if value._prod == "Local" else None


def lent_tensor(t):
    """The tensor type of a parameter, through the reference it is lent by."""
    while t is not None and t._prod == "BorrowType":
        t = t.inner
    return t


def names_given(lets, known) -> list[tuple[str, str]]:
    """The names the `let`s give the tensors of the locals `known`, and the tensors of those,
    each with the local it names, in the order found (a local before the names it is given)."""
    found, named = [], set(known)
    grew = True
    while grew:
        grew = False
        for s in lets:
            source = named_whole(s.value)
            if s.name not in named and source in named:
                named.add(s.name)
                found.append((s.name, source))
                grew = True
    return found


def computes_alike(e, changing=frozenset()) -> bool:
    """Whether an index, computed again, is the same: literals, and arithmetic on locals
    other than those `changing` might change in between."""
    kind = e._prod
    if kind in ("Int", "Bool"):
        return True
    if kind == "Local":
        return e.name not in changing
    if kind in ("Binary", "Unary", "Cast"):
        return all(computes_alike(c, changing) for c in (
            (e.left, e.right) if kind == "Binary" else (e.operand,) if kind == "Unary"
            else (e.value,)))
    return False


def written_copy(fn):
    """The `WrittenCopy` opening a copy copy-tracked-functions made, else None."""
    stmts = fn.body.stmts
    return stmts[0] if stmts and stmts[0]._prod == "WrittenCopy" else None
