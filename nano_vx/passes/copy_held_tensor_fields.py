"""copy-held-tensor-fields: Lmatched -> Lmatched.

Same IL: the local holds the elements the field's tensor held, nothing reads that tensor but
through the local, which only reads its elements, and nothing writes it: the interpreter
prints what it printed."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import (Names, concrete, copy_elements, is_tensor, lent, strip,
                                  unread_tensor)


@dataclass
class State:
    structs: dict = field(default_factory=dict)  # the program's structs by name
    copied: dict = field(default_factory=dict)  # id of a `let` to write -> its field's type
    names: Names | None = None  # the fresh locals of the function walked


copy_held_tensor_fields = Pass("copy-held-tensor-fields", L, L, """
Make each `let` of the tensor of a field of the struct a `&mut` parameter refers to, which
the function assigns whole, a new tensor the field's elements are copied into, where the
local is read only by its elements or written only once the field holds another tensor.

`fn reset(g: &mut Grid) { let old = g.cells; g.cells = t; print(old); }` is `fn reset(g:
&mut Grid) { let old = Tensor<..>::new(); <copy g.cells into old>; g.cells = t; print(old);
}`: scalarize-aggregates copies the tensor the function assigns into the buffer the caller
lends, which the `let` would hold too (return-assigned-tensor-fields gives back one field so
held, the one a `let` holds, but no two). It is for a parameter used only by its fields,
whose field of static extents the function reads whole only by that `let` (and assigns
whole), the local read only by elements, printed, or lent `&` to a function (which reads
the copy's elements as it would the tensor's): where the function does not assign the field
anew, the local's elements are the field's, and nothing writes either. The local may be
written too, by an element or lent `&mut` to a function, in a statement of the body after
one assigning the field whole, the `let` before it: there the interpreter's field holds
another tensor on every path, so what the write changes is only the local's, as the copy's.
""", state=State)


@copy_held_tensor_fields.on("Program")
def _program(run, program):
    run.state.structs = {i.name: i for i in program.items if i._prod == "StructDecl"}
    return run.rebuild(program)


@copy_held_tensor_fields.on("Fn")
def _fn(run, fn):
    st = run.state
    st.copied = _held(fn, st.structs)
    if not st.copied:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


def _held(fn, structs: dict) -> dict:
    """{id of a `let` of fn to copy: the type of the tensor field it binds}."""
    params = {}
    for p in fn.params:
        ty = strip(p.type)
        inner = strip(ty.inner) if lent(ty) else None
        if inner is not None and inner._prod == "NamedType" and inner.name in structs:
            params[p.name] = {f.name: f.type for f in structs[inner.name].fields
                              if is_tensor(f.type) and concrete(f.type)}
    if not params:
        return {}
    nodes = list(descendants(fn.body))
    bases = {id(n.base): n for n in nodes if n._prod == "FieldGet"}
    if any(n._prod == "Local" and n.name in params and id(n) not in bases for n in nodes):
        params = {}  # used other than by its fields
    assigned = {id(n.target) for n in nodes if n._prod == "Assign" and n.op == "="}
    reads: dict = {}  # (parameter, field) -> its reads whole other than assigned
    for n in nodes:
        if n._prod == "FieldGet" and n.base._prod == "Local" and n.base.name in params and \
                n.field in params[n.base.name]:
            reads.setdefault((n.base.name, n.field), []).append(n)
    whole = {key for key, gets in reads.items() if any(id(g) in assigned for g in gets)}
    elements = {id(n.base) for n in nodes if n._prod == "Index"} | \
        {id(a) for n in nodes if n._prod == "Call" and n.callee._prod == "Global" and
         n.callee.name == "print" for a in n.args} | \
        {id(a.value) for n in nodes if n._prod == "Call" and n.callee._prod == "Global"
         for a in n.args if a._prod == "Borrow" and not a.mutable}
    # An element written would be the field's where the function does not assign it anew: a
    # write is the copy's only once the field holds another tensor on every path, after a
    # statement of the body assigning it, the `let` before that statement.
    written = {id(_root(n.target)) for n in nodes if n._prod == "Assign"}
    lent_on = {id(a.value) for n in nodes if n._prod == "Call" and n.callee._prod == "Global"
               for a in n.args if a._prod == "Borrow" and a.mutable}
    elements -= written
    at = {id(x): k for k, s in enumerate(fn.body.stmts) for x in descendants(s)}
    copied = {}
    for n in nodes:
        if n._prod != "Let" or n.value._prod != "FieldGet":
            continue
        key = (getattr(n.value.base, "name", None), n.value.field)
        gets = [g for g in reads.get(key, ()) if id(g) not in assigned]
        anew = min((at[id(g)] for g in reads.get(key, ()) if id(g) in assigned and
                    id(g) in at and fn.body.stmts[at[id(g)]]._prod == "Assign" and
                    fn.body.stmts[at[id(g)]].target is g), default=None)
        late = set() if anew is None or at.get(id(n), anew) >= anew else \
            {i for i in written | lent_on if at.get(i, anew) > anew}
        if key in whole and gets == [n.value] and all(
                id(x) in elements or id(x) in late
                for x in nodes if x._prod == "Local" and x.name == n.name):
            copied[id(n)] = params[key[0]][key[1]]
    return copied


def _root(place):
    while place._prod == "Index":
        place = place.base
    return place


@copy_held_tensor_fields.on("Let", splice=True)
def _let(run, let):
    st = run.state
    if id(let) not in st.copied:
        return (run.rebuild(let),)
    ty, span = st.copied[id(let)], let.span
    made = let.replace(type=ty, value=unread_tensor(ty, span))
    return (made, *copy_elements(st.names, L["Local"](let.name, span=span), let.value, ty,
                                 span))
