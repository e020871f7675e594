"""check-uninit-element-indices: Lallset -> Lallset.

Same IL: `halt_with` stops as the interpreter's index check does, at the borrow, and the
indices are computed where they were, in order, so the interpreter runs the output as it
ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, strip
from ..scalars.index_checks import checked_index
from ..scalars.tensor_names import element_of, flagged_value, only_through


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    tracked: dict = field(default_factory=dict)  # each tracked local of the function -> type
    bound: set = field(default_factory=set)  # the references whose indices are checked so
    names: Names | None = None  # the function's names, for the new ones


check_uninit_element_indices = Pass("check-uninit-element-indices", L, L, """
Bind each index other than a number of a `let` of a reference to an element of a tensor made by `::uninit()` (or a copy copy-tracked-functions made returns) of static extents, that is only read or written through, to a `let` checking it as the interpreter checks it where the reference is taken: `let r = &t[i];` is `let at = if i < 0 { halt_with(..) } else if i as u64 >= 3 { halt_with(..) } else { i }; let r = &t[at];`.

inline-uninit-element-references writes such a reference as the element it names at each
read or write through it, which checks or sets the element's written-flag there, as the
interpreter checks the element where the reference is read; but the interpreter checks the
indices where the reference is taken, and a variable index may change after. Each index is
computed first, in order, into a `let` of its own (a local index is read where it is), as
the interpreter computes them all before checking any, then each is checked in turn for
its dimension, in the interpreter's words (E9003, at the borrow), into the `let` the
reference's element then reads, which nothing changes. A reference given on, copied,
printed whole, named in a closure or bound with `let mut`, or to an element of a tensor of
`?` extents, stays, for track-uninit-elements to refuse.
""", state=State)


@check_uninit_element_indices.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@check_uninit_element_indices.on("Fn")
def _fn(run, fn):
    st = run.state
    lets = [n for n in descendants(fn.body) if n._prod == "Let"]
    st.tracked = {s.name: strip(s.type) for s in lets if flagged_value(s.value, st.fns)}
    st.bound = {s.name for s in lets
                if _extents(st, s) is not None and only_through(fn.body, s.name)}
    if not st.bound:
        return fn
    st.names = Names(fn)
    return run.rebuild(fn)


def _extents(st: State, s) -> list | None:
    """The static extents of the tensor a `let` (not `mut`) borrows an element of, one per
    dimension, where an index is other than a number and each number is within its
    extent; None for any other statement."""
    if s._prod != "Let" or s.mutable or s.value._prod != "Borrow" or \
            s.value.value._prod != "Index":
        return None
    base, indices = element_of(s.value.value)
    ty = st.tracked.get(base.name) if base is not None else None
    if ty is None or ty._prod != "TensorType" or len(indices) != len(ty.dims) or \
            not all(d._prod == "DimInt" for d in ty.dims) or \
            all(i._prod == "Int" for i in indices) or \
            any(i._prod == "Int" and not 0 <= i.value < d.value for i, d in zip(indices, ty.dims)):
        return None
    return [d.value for d in ty.dims]


@check_uninit_element_indices.on("Let", splice=True)
def _let(run, s):
    st = run.state
    if s._prod != "Let" or s.name not in st.bound:
        return run.rebuild(s)
    extents = _extents(st, s)
    borrow, span = s.value, s.value.span
    base, indices = element_of(borrow.value)
    computed, read = [], []
    for index in indices:
        if index._prod in ("Int", "Local"):
            read.append(index)
            continue
        name = st.names.fresh("index")
        computed.append(L["Let"](name, False, L["OpaqueType"](span=index.span), index,
                                 span=index.span))
        read.append(L["Local"](name, span=index.span))
    checked, place = [], base
    for dim, (index, extent) in enumerate(zip(read, extents)):
        if index._prod == "Local":
            name = st.names.fresh("at")
            checked.append(L["Let"](name, False, L["OpaqueType"](span=span),
                                    checked_index(index, dim, extent, span), span=span))
            index = L["Local"](name, span=index.span)
        place = L["Index"](place, index, span=span)
    return (*computed, *checked, s.replace(value=borrow.replace(value=place)))
