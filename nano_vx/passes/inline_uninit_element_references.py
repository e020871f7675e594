"""inline-uninit-element-references: Lallset -> Lallset.

Same IL: a read or a write through the reference is one of the element it names, at the
place of the read or the write."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import strip
from ..scalars.index_checks import checked_local
from ..scalars.tensor_names import element_of, flagged_value, only_through


@dataclass
class _Inlined:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    places: dict = field(default_factory=dict)  # a reference's local -> the element it names


inline_uninit_element_references = Pass("inline-uninit-element-references", L, L, """
Write each local a `let` binds to a reference to an element of a tensor made by `::uninit()` (or a copy copy-tracked-functions made returns), at indices within its extents (numbers, or locals check-uninit-element-indices checked), that is only read or written through, as that element, and drop the `let`: `let q = &t[2]; print(*q);` is `print(t[2]);`.

track-uninit-elements keeps a written-flag per element of such a tensor, which a write
through a reference would not set and a read through one would not check (it refuses the
reference, E5010). The interpreter checks the element where the reference is read, not
where it is taken: a read of the element there, with the span of the read through the
reference, stops where it stops (E9005), naming the element as it does, and a write sets
the element's flag. The reference names the element while it lives, as the borrow checker
lets nothing assign or move the tensor meanwhile, and its indices, numbers within the
tensor's static extents or locals of `let`s (which nothing changes) binding an index
checked within its dimension's extent (check-uninit-element-indices checked it where the
reference is taken, as the interpreter does), neither stop nor change. A reference given
on, copied, printed whole, named in a closure or bound with `let mut`, or at indices
computed otherwise, stays, for track-uninit-elements to refuse.
""", state=_Inlined)


@inline_uninit_element_references.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@inline_uninit_element_references.on("Fn")
def _fn(run, fn):
    lets = [n for n in descendants(fn.body) if n._prod == "Let"]
    tracked = {s.name: strip(s.type) for s in lets if flagged_value(s.value, run.state.fns)}
    checked = {s.name: s.value for s in lets if not s.mutable}
    places = {}
    for s in lets:
        if not s.mutable and s.value._prod == "Borrow" and \
                _in_bounds(s.value.value, tracked, checked) and only_through(fn.body, s.name):
            places[s.name] = s.value.value
    if not places:
        return fn
    run.state.places = places
    return run.rebuild(fn)


@inline_uninit_element_references.on("Let", splice=True)
def _let(run, s):
    return () if s.name in run.state.places else run.rebuild(s)


@inline_uninit_element_references.on("Deref")
def _deref(run, e):
    if e.value._prod == "Local" and e.value.name in run.state.places:
        return _at(run.state.places[e.value.name], e.span)
    return run.rebuild(e)


def _at(place, span):
    """The element `place` names, each node of it spanning the read or write through the
    reference, which a stop there points at."""
    if place._prod == "Index":
        return place.replace(base=_at(place.base, span), span=span)
    return place.replace(span=span)


def _in_bounds(place, tracked: dict, checked: dict) -> bool:
    """Whether place is an element of a local of `tracked` at indices within its static
    extents, one per dimension: numbers, or locals `let`s (of `checked`, by name) bind to
    the index checked for that dimension (check-uninit-element-indices)."""
    if place._prod != "Index":
        return False
    base, indices = element_of(place)
    ty = tracked.get(base.name) if base is not None else None
    if ty is None or ty._prod != "TensorType" or len(indices) != len(ty.dims):
        return False
    return all(d._prod == "DimInt" and (
        i._prod == "Int" and 0 <= i.value < d.value or
        i._prod == "Local" and i.name in checked and checked_local(checked[i.name], k, d.value))
        for k, (i, d) in enumerate(zip(indices, ty.dims)))
