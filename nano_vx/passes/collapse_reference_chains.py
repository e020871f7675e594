"""collapse-reference-chains: Lassumed -> Lassumed.

Same IL: a shared reference to a shared reference reads, through its two dereferences, what
the inner one reads through one, and the loan of the inner reference's variable keeps that
variable unassigned while the outer one lives (check-loans), so the copy of the inner
reference the output holds instead is the reference the outer one would find."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.closures import direct_closures
from ..values.literals import TYPE_WRAPPERS


@dataclass
class State:
    returns: dict = field(default_factory=dict)  # each function's name -> its result type
    structs: dict = field(default_factory=dict)  # each struct's name -> its fields' types
    locals: dict = field(default_factory=dict)  # each function's name -> its locals' types
    types: dict = field(default_factory=dict)  # each local of the function -> its type
    lets: dict = field(default_factory=dict)  # each function's name -> its lets' values
    values: dict = field(default_factory=dict)  # each local a `let` of it binds -> its value


collapse_reference_chains = Pass("collapse-reference-chains", L, L, """
Make each shared reference to a shared reference (`&&i32`) the inner reference itself: its
type the inner one's, `&r` of a shared reference `r` the copy `r`, and a dereference of such
a reference the reference (`**rr` is `*rr`, `fn f(p: &&i32) -> i32 { **p }` is `fn f(p:
&i32) -> i32 { *p }`).

Native code makes a reference the address of a scalar's cell, and a reference has no cell:
type-scalars refuses a reference to one. A chain whose outer or inner reference is `&mut`
stays, for type-scalars to refuse (a write through `&mut &i32` makes the inner reference
refer elsewhere). Every type is collapsed, so every dereference and shared borrow must be
too where it meets a chain: a program with a chain and a dereference or a shared borrow of
what no `let`, parameter, function result, field or element type, nor the value a closure
a `let` binds ends its body with, says here (a call of a closure a parameter holds, a
closure's parameter of no written type whose calls give it values of different types or
of a type unsaid) is left whole, for type-scalars to refuse; a call of a closure whose body
ends with such a parameter (`let id = |p| p; *id(r)`) reads the type of what the call gives
it, and such a parameter of a closure a `let` binds and that is only called, every call of
which gives it one type (`let deref = |p| *p; deref(r)`), is of that type in its body.
""", state=State)


def _chain(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable and \
        ty.inner._prod == "BorrowType" and not ty.inner.mutable


def _shared(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and not ty.mutable


def _known(ty) -> bool:
    return ty is not None and not any(n._prod == "OpaqueType" for n in descendants(ty))


@collapse_reference_chains.on("Program")
def _program(run, program):
    st = run.state
    fns = [item for item in program.items if item._prod == "Fn"]
    st.returns = {fn.name: fn.ret for fn in fns}
    st.structs = {item.name: {f.name: f.type for f in item.fields}
                  for item in program.items if item._prod == "StructDecl"}
    st.locals = {fn.name: {n.name: n.type for n in descendants(fn)
                           if n._prod in ("Let", "Param")} for fn in fns}
    st.lets = {fn.name: {n.name: n.value for n in descendants(fn) if n._prod == "Let"}
               for fn in fns}
    met = []  # the type of what each dereference and shared borrow reads, None if unsaid
    for fn in fns:
        st.types, st.values = st.locals[fn.name], st.lets[fn.name]
        st.types.update(_given(st, fn))
        met += [_type(st, n.value) for n in descendants(fn)
                if n._prod == "Deref" or n._prod == "Borrow" and not n.mutable]
    if not any(_chain(n) for n in descendants(program)) and not any(map(_shared, met)):
        return program
    if not all(map(_known, met)):
        return program
    return run.rebuild(program)


@collapse_reference_chains.on("Fn")
def _fn(run, fn):
    run.state.types, run.state.values = run.state.locals[fn.name], run.state.lets[fn.name]
    return run.rebuild(fn)


def _given(st, fn) -> dict:
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
                said = [_type(types, a[k]) for a in args]
                if _known(said[0]) and all(t == said[0] for t in said):
                    found[p.name] = said[0]
        if found == given:
            return given
        given = found


_LITERALS = {"Int": "i32", "Float": "f64", "Bool": "bool"}  # what `&5` reads: no reference


def _type(st, e):
    """The type of e where a `let`, a parameter, a function's result, a struct's field or
    an element's type says it (or an arm's value), else None."""
    if e._prod == "Local":
        ty = st.types.get(e.name)
        if _known(ty) or e.name not in st.values:
            return ty
        return _type(st, st.values[e.name]) or ty  # a `let` of a type unsaid: its value's
    if e._prod == "Borrow":
        inner = _type(st, e.value)
        return None if inner is None else L["BorrowType"](inner, e.mutable, span=e.span)
    if e._prod == "Call" and e.callee._prod == "Global":
        return st.returns.get(e.callee.name)
    if e._prod == "Call" and e.callee._prod == "Local":
        closure = st.values.get(e.callee.name)
        if closure is None or closure._prod != "Closure" or closure.body.value is None:
            return None
        # The value the closure's body ends with, each parameter of no written type of the
        # type of what this call gives it (`|p| p` gives back its argument).
        given = {p.name: _type(st, a) for p, a in zip(closure.params, e.args)
                 if not _known(p.type)}
        return _type(replace(st, types={**st.types, **given}), closure.body.value)
    if e._prod in ("IfExpr", "MatchValue", "Match"):  # each arm's value has its type
        blocks = (e.then, e.orelse) if e._prod == "IfExpr" else \
            [c.body for c in (e.cases if e._prod == "MatchValue" else e.arms)]
        return next(filter(_known, (_type(st, b.value) for b in blocks
                                    if b.value is not None)), None)
    if e._prod in _LITERALS:
        return L["Scalar"](_LITERALS[e._prod], span=e.span)
    if e._prod not in ("Deref", "FieldGet", "TupleGet", "Index"):
        return None
    outer = _type(st, e.value if e._prod == "Deref" else e.base)
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


@collapse_reference_chains.on("BorrowType")
def _borrow_type(run, ty):
    made = run.rebuild(ty)
    while _chain(made):
        made = made.inner.replace(span=ty.span)
    return made


@collapse_reference_chains.on("Borrow")
def _borrow(run, e):
    if not e.mutable and _shared(_type(run.state, e.value)):
        return run.walk(e.value)
    return run.rebuild(e)


@collapse_reference_chains.on("Deref")
def _deref(run, e):
    if _chain(_type(run.state, e.value)):
        return run.walk(e.value)
    return run.rebuild(e)
