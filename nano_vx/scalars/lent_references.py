"""The `&mut &T` parameters of closures and the reference variables their calls lend them:
a reference has no cell in native code, so such a parameter is lowered only as the variable
it is lent, captured (capture-lent-references), a closure per variable where calls lend it
several (copy-closures-per-lent-reference)."""

from __future__ import annotations

from ..nanopass import descendants


def lends(e) -> bool:
    """Whether e is `&mut v` of a local v."""
    return e._prod == "Borrow" and e.mutable and e.value._prod == "Local"


def ref_of_ref(ty) -> bool:
    """Whether ty is `&mut &T` (or `&mut &mut T`)."""
    return ty is not None and ty._prod == "BorrowType" and ty.mutable and \
        ty.inner._prod == "BorrowType"


def lending_locals(fn) -> dict:
    """Each local a `let` that is not `mut` binds to `&mut v` of a local v -> v."""
    return {n.name: n.value.value.name for n in descendants(fn) if n._prod == "Let" and
            not n.mutable and lends(n.value)}


def lent_variable(arg, lending: dict):
    """The variable arg lends by `&mut`, itself or by a local of `lending` holding it, else
    None."""
    if lends(arg):
        return arg.value.name
    return lending.get(arg.name) if arg._prod == "Local" else None


def only_dereferenced(body, name: str) -> bool:
    """Whether every read of the local `name` in body is dereferenced."""
    derefs = {id(n.value) for n in descendants(body) if n._prod == "Deref"}
    return all(id(n) in derefs for n in descendants(body)
               if n._prod == "Local" and n.name == name)


def lent_parameters(closure) -> list:
    """The positions of closure's `&mut &T` parameters that its body only dereferences."""
    return [k for k, p in enumerate(closure.params)
            if ref_of_ref(p.type) and only_dereferenced(closure.body, p.name)]
