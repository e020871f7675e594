"""specialize-storages: Lsplit -> Lsplit.

Same IL: a copy of a function is the function under another name, and each call calls a copy
of the function it called, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.storages import (Known, fresh_copy, known_places, storage, tensor_storage,
                                unwrapped)
from ..values.narrow import NARROW_TYPES


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    places: dict = field(default_factory=dict)  # fn -> the indices of its place parameters
    copies: dict = field(default_factory=dict)  # fn -> {its arguments' storages: its copy}
    known: Known | None = None  # what the places of the function walked store


specialize_storages = Pass("specialize-storages", L, L, """
Call a function whose reference or raw-pointer parameters calls give places of two storages
(an element of a tensor of a narrow type such as `f8e4m3`, stored as a byte, and a variable
of its value type) in a copy of its own for each storage.

Native code reads and writes through a reference, or a pointer, as one machine type: `fn
set(r: &mut f32, v: f32)` given `&mut t[1]` of a `Tensor<f8e4m3, [3]>` writes a byte, given
`&mut x` of an `f32` four, so `set(&mut t[1], 1.3); set(&mut x, 1.3);` is `set$f8e4m3(&mut
t[1], 1.3); set$f32(&mut x, 1.3);`, two copies of `set` (monomorphization, over what the
places store). What a place stores is read off the argument: `&t[i]` (`t.as_ptr()`) of a
tensor whose type is written, `&x` of a variable, a variable bound once to one of those, or
a parameter of the copy walked; a copy walked calls copies in turn. A function given one
storage, or given places this does not follow, is called as it was, and the gate refuses
two storages that still meet (E5010). A function no call calls any more is dropped.
""", state=State)


@specialize_storages.on("Program")
def _program(run, program):
    st = run.state
    st.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    st.places = {name: places for name, fn in st.fns.items() if (places := _place_params(fn))}
    if not st.places or not any(tensor_storage(n) for n in descendants(program)
                                if n._prod == "TensorType"):
        return program
    given = _storages_given(st)
    st.copies = {name: _named(name, st.fns[name], tuples, st.fns)
                 for name, tuples in given.items() if len(tuples) > 1}
    if not st.copies:
        return program
    items = []
    for item in program.items:
        if item._prod != "Fn":
            items.append(item)
            continue
        # A function called as it was stores what its one storage is, if it is given one.
        one = given.get(item.name, ())
        st.known = _locals(item, one[0] if len(one) == 1 and item.name not in st.copies
                           else None, st)
        items.append(run.walk(item))
        for storages, name in st.copies.get(item.name, {}).items():
            st.known = _locals(item, storages, st)
            items.append(run.walk(fresh_copy(item).replace(name=name)))
    kept = []
    while len(kept) != len(items):  # a function dropped may have been all that called another
        kept, items = items, [i for i in items if not _dropped(i, items, program, st)]
    return program.replace(items=tuple(items))


def _dropped(item, items, program, st: State) -> bool:
    """Whether `item` is a function copied that nothing but itself calls any more, though
    something called it before."""
    if item._prod != "Fn" or item.name not in st.copies or item.name == "main":
        return False
    return _refers(program, item.name) and not any(
        _refers(other, item.name) for other in items if other is not item)


def _refers(tree, name: str) -> bool:
    return any(n._prod == "Global" and n.name == name or n._prod == "Launch" and n.kernel == name
               for n in descendants(tree))


def _place_params(fn) -> tuple:
    """The indices of the parameters of `fn` that are references or raw pointers to a
    scalar of a type that is no narrow storage type (whose places may store either)."""
    found = []
    for k, p in enumerate(fn.params):
        ty = unwrapped(p.type)
        if ty is not None and ty._prod in ("BorrowType", "PtrType"):
            inner = unwrapped(ty.inner)
            if inner._prod == "Scalar" and inner.name not in NARROW_TYPES:
                found.append(k)
    return tuple(found)


def _storages_given(st: State) -> dict:
    """Every function with place parameters -> the storages its calls give those parameters,
    in the order first met, walking each function and then each copy asked for (whose
    parameters store what its calls give)."""
    given: dict = {}
    work = [(name, None) for name in st.fns]
    seen = set()
    while work:
        name, storages = work.pop(0)
        if (name, storages) in seen:
            continue
        seen.add((name, storages))
        fn = st.fns[name]
        known = _locals(fn, storages, st)
        for call in descendants(fn.body):
            found = _call_storages(call, known, st)
            if found is not None and found not in given.setdefault(call.callee.name, []):
                given[call.callee.name].append(found)
                work.append((call.callee.name, found))
    return given


def _locals(fn, storages, st: State) -> Known:
    """What the places of the function's references and pointers store, where known: its
    place parameters' (`storages`), and those of the `let`s binding such a place that no
    assignment changes."""
    return known_places(fn, {fn.params[k].name: s
                             for k, s in zip(st.places.get(fn.name, ()), storages or ())})


def _call_storages(e, known: Known, st: State) -> tuple | None:
    """What a call of a function with place parameters gives each of them stores, when all
    are known."""
    if e._prod != "Call" or e.callee._prod != "Global" or e.callee.name not in st.places:
        return None
    at = st.places[e.callee.name]
    if len(e.args) != len(st.fns[e.callee.name].params):
        return None
    found = tuple(storage(e.args[k], known) for k in at)
    return None if None in found else found


def _named(name: str, fn, tuples: list, fns: dict) -> dict:
    """A fresh name for each copy: the function's, `$`, and what each place stores."""
    names = {}
    for storages in tuples:
        parts = [s or unwrapped(unwrapped(fn.params[k].type).inner).name
                 for k, s in zip(_place_params(fn), storages)]
        stem = f"{name}${'_'.join(parts)}"
        fresh, k = stem, 0
        while fresh in fns or fresh in names.values():
            k += 1
            fresh = f"{stem}{k}"
        names[storages] = fresh
    return names


@specialize_storages.on("Call")
def _call(run, e):
    st = run.state
    found = _call_storages(e, st.known, st)
    out = run.rebuild(e)
    if found is None or e.callee.name not in st.copies:
        return out
    return out.replace(callee=out.callee.replace(name=st.copies[e.callee.name][found]))
