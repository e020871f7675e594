"""The type of an expression of Lassumed where a `let`, a parameter, a function's result, a
struct's field or an element's type says it, read off the tree alone: whether what a
dereference or a shared borrow reads is a chain of references (`&&i32`)."""

from __future__ import annotations

from dataclasses import replace

from ..languages.lassumed import Lassumed as L
from ..nanopass import descendants
from ..values.literals import TYPE_WRAPPERS
from .closures import direct_closures


def chain(ty) -> bool:
    """Whether ty is a shared reference to a shared reference."""
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable and \
        ty.inner._prod == "BorrowType" and not ty.inner.mutable


def known(ty) -> bool:
    return ty is not None and not any(n._prod == "OpaqueType" for n in descendants(ty))


_LITERALS = {"Int": "i32", "Float": "f64", "Bool": "bool"}  # what `&5` reads: no reference


def said_type(st, e):
    """The type of e where a `let`, a parameter, a function's result, a struct's field or
    an element's type says it (or an arm's value), else None; `st` holds `returns` (each
    function's result type), `structs` (each struct's fields' types), `types` (each local's)
    and `values` (each local a `let` binds -> its value)."""
    if e._prod == "Local":
        ty = st.types.get(e.name)
        if known(ty) or e.name not in st.values:
            return ty
        return said_type(st, st.values[e.name]) or ty  # a `let` of a type unsaid: its value's
    if e._prod == "Borrow":
        inner = said_type(st, e.value)
        return None if inner is None else L["BorrowType"](inner, e.mutable, span=e.span)
    if e._prod == "Call" and e.callee._prod == "Global":
        return st.returns.get(e.callee.name)
    if e._prod == "Call" and e.callee._prod == "Local":
        closure = st.values.get(e.callee.name)
        if closure is None or closure._prod != "Closure" or closure.body.value is None:
            return None
        # The value the closure's body ends with, each parameter of no written type of the
        # type of what this call gives it (`|p| p` gives back its argument).
        given = {p.name: said_type(st, a) for p, a in zip(closure.params, e.args)
                 if not known(p.type)}
        return said_type(replace(st, types={**st.types, **given}), closure.body.value)
    if e._prod in ("IfExpr", "MatchValue", "Match"):  # each arm's value has its type
        blocks = (e.then, e.orelse) if e._prod == "IfExpr" else \
            [c.body for c in (e.cases if e._prod == "MatchValue" else e.arms)]
        return next(filter(known, (said_type(st, b.value) for b in blocks
                                    if b.value is not None)), None)
    if e._prod in _LITERALS:
        return L["Scalar"](_LITERALS[e._prod], span=e.span)
    if e._prod not in ("Deref", "FieldGet", "TupleGet", "Index"):
        return None
    outer = said_type(st, e.value if e._prod == "Deref" else e.base)
    if e._prod == "Deref":
        return outer.inner if outer is not None and outer._prod == "BorrowType" else None
    while outer is not None and outer._prod in ("BorrowType", *TYPE_WRAPPERS):
        outer = outer.inner  # a field or an element read through references
    if outer is None:
        return None
    if e._prod == "FieldGet":
        return st.structs.get(outer.name, {}).get(e.field) if outer._prod == "NamedType" \
            else None
    if e._prod == "TupleGet":
        return outer.elems[e.index] if outer._prod == "TupleType" and \
            e.index < len(outer.elems) else None
    return outer.elem if outer._prod in ("TensorType", "VectorType") else \
        outer.inner if outer._prod == "PtrType" else None


def given_types(st, fn) -> dict:
    """Each parameter of no written type of a closure a `let` binds and that is only called,
    every call of which gives it a value of one type said here -> that type, found until
    none is added: an argument may be such a parameter."""
    closures = direct_closures(fn)
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"
             and n.callee.name in closures]
    given: dict = {}
    while True:
        types = replace(st, types={**st.types, **given})
        found = {}
        for name, closure in closures.items():
            args = [call.args for call in calls if call.callee.name == name]
            for k, p in enumerate(closure.params):
                if p.type is not None or not args or any(len(a) <= k for a in args):
                    continue
                said = [said_type(types, a[k]) for a in args]
                if known(said[0]) and all(t == said[0] for t in said):
                    found[p.name] = said[0]
        if found == given:
            return given
        given = found
