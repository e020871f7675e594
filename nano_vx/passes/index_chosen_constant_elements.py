"""index-chosen-constant-elements: Lassumed -> Lassumed.

Same IL: the place a reference constant names is computed once, as its indices, where the
interpreter computes the reference once; each read re-forms the place from them."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..backend.machine_types import MACHINE
from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import fresh_item, strip
from ..scalars.constant_values import calls, computed, may_stop


@dataclass
class State:
    # a reference constant indexed -> (its tensor constant, its indices' constant, the rank)
    chosen: dict = field(default_factory=dict)


index_chosen_constant_elements = Pass("index-chosen-constant-elements", L, L, """
Make each constant holding a `&` to a scalar whose value calls a function and gives as its
reference only elements of one tensor constant at literal indices within its extents a
constant of the indices it chooses, and each read of it a borrow of the element at them:
`const G: &f32 = if pick() { &F[0] } else { &F[1] };` is `const G_at: i64 = if pick() { 0 }
else { 1 };` and `*G` is `*&F[G_at]`.

The interpreter computes a reference constant's value once, at its first read: the call
prints once, and the reference names one element of the tensor, a write to which through a
copy of the constant (`let mut t = F; t[0] = 9.0;`) every read through it sees. Native code
keeps no place in a global, and dereference-constants cannot hold the number, which may
change; a place computed at each read would call the function at each. The indices are
numbers, which a constant keeps (select-instructions computes one calling a function at its
first read, split-computed-constants splits a tuple of several, one per extent, all computed
at that read), and the element at them is the place the reference named. The tensor
constant's value calls nothing and cannot stop, and the indices are within its extents, so
that reading the tensor at each read, before the indices, shows nothing the interpreter's
one read would not: no print, no stop. A value giving elements of several tensors, or at
other indices, is dereference-constants' to refuse.
""", state=State)


def _element(e, tensors: dict):
    """(the tensor constant, its indices) of `&F[i][j]`, F a constant of `tensors` of static
    extents and each index a literal within its extent, else None."""
    if e._prod != "Borrow" or e.mutable:
        return None
    at, place = [], e.value
    while place._prod == "Index" and place.index._prod == "Int":
        at.insert(0, place.index.value)
        place = place.base
    if place._prod != "Global" or place.name not in tensors:
        return None
    dims = tensors[place.name].dims
    if len(at) != len(dims) or any(k >= d.value for k, d in zip(at, dims)):
        return None
    return place.name, tuple(at)


def _given(e) -> list:
    """The expressions e gives as its value: an `if`'s arms' and a block's, in turn."""
    if e._prod == "IfExpr":
        return _given(e.then) + _given(e.orelse)
    if e._prod == "Block":
        return [] if e.value is None else _given(e.value)
    return [e]


def _indexed(e, rank: int):
    """e, a value whose every given expression is an element `&F[..]`, giving its indices:
    an i64, a tuple of them for several."""
    if e._prod == "IfExpr":
        return e.replace(then=_indexed(e.then, rank), orelse=_indexed(e.orelse, rank))
    if e._prod == "Block":
        return e.replace(value=_indexed(e.value, rank))
    at, place = [], e.value
    while place._prod == "Index":
        at.insert(0, place.index)
        place = place.base
    return at[0] if rank == 1 else L["Tuple"](tuple(at), span=e.span)


@index_chosen_constant_elements.on("Program")
def _program(run, program):
    st = run.state
    consts = {i.name: i for i in program.items if i._prod == "ConstItem" and i.value is not None}
    values = {name: i.value for name, i in consts.items()}
    tensors = {name: ty for name, i in consts.items()
               if (ty := strip(i.type)) is not None and ty._prod == "TensorType" and
               all(d._prod == "DimInt" for d in ty.dims) and
               not calls(nodes := computed(i.value, values)) and not any(map(may_stop, nodes))}
    taken = {i.name for i in program.items if "name" in i._fields}
    for name, item in consts.items():
        ty = item.type
        if ty._prod != "BorrowType" or ty.mutable or ty.inner._prod != "Scalar" or \
                ty.inner.name not in MACHINE or not calls(list(descendants(item.value))):
            continue
        places = [_element(e, tensors) for e in _given(item.value)]
        if None in places or len({t for t, _ in places}) != 1:
            continue
        st.chosen[name] = (places[0][0], fresh_item(f"{name}_at", taken), len(places[0][1]))
    if not st.chosen:
        return program
    rebuilt = run.rebuild(program)  # the reads, in the functions and the constants' values
    return rebuilt.replace(items=tuple(
        _indices(i, *st.chosen[i.name][1:]) if i._prod == "ConstItem" and i.name in st.chosen
        else i for i in rebuilt.items))


def _indices(item, name: str, rank: int):
    """The constant `name` of the indices the reference constant `item` chooses."""
    index = L["Scalar"]("i64", span=item.span)
    ty = index if rank == 1 else L["TupleType"]((index,) * rank, span=item.span)
    return L["ConstItem"](name, ty, _indexed(item.value, rank), span=item.span)


@index_chosen_constant_elements.on("Global")
def _global(run, e):
    chosen = run.state.chosen.get(e.name)
    if chosen is None:
        return e
    tensor, at, rank = chosen
    sp = e.span
    place = L["Global"](tensor, span=sp)
    for k in range(rank):
        index = L["Global"](at, span=sp)
        place = L["Index"](place, index if rank == 1 else L["TupleGet"](index, k, span=sp),
                           span=sp)
    return L["Borrow"](place, False, span=sp)
