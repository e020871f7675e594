"""Whether a tensor a `&mut` to a struct or tuple reaches may be assigned whole through it:
scalarize-aggregates makes such a reference a `&mut` per part, the tensor's referring to the
variable holding the buffer, through which native code assigns no whole tensor, so
split-repointed-references and copy-rest-into-repointing-arms give each place it names a
`let` of its own where one may."""

from __future__ import annotations

from ..nanopass import children, descendants
from .aggregates import is_tensor


def parents_of(fn) -> dict:
    """Each node of fn's body, by id, to the node holding it."""
    return {id(c): n for n in descendants(fn.body) for _, _, c in children(n)}


def assigned_whole(fn, name: str, shape, parents: dict) -> bool:
    """Whether fn assigns whole through the reference `name` to a value of `shape` a tensor of
    it or a part holding one, lends such a part, or passes the reference on: a tensor it
    reaches may then be assigned whole."""
    if shape is None or not any(is_tensor(t) for t in shape.leaves()):
        return False
    for n in descendants(fn.body):
        if n._prod != "Local" or n.name != name:
            continue
        at, part = n, shape
        if parents.get(id(at)) is not None and parents[id(at)]._prod == "Deref":
            at = parents[id(at)]
        while (up := parents.get(id(at))) is not None and up._prod in ("FieldGet", "TupleGet") \
                and up.base is at and part.kind != "leaf":
            part, at = part.part(up.field if up._prod == "FieldGet" else up.index), up
        up = parents.get(id(at))
        if not any(is_tensor(t) for t in part.leaves()) or up is None:
            continue
        if up._prod == "Assign" and up.target is at is not n or \
                up._prod == "Borrow" and part.kind != "leaf" or \
                up._prod == "Call" and any(a is n for a in up.args):
            return True
    return False
