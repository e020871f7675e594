"""index-uninit-pointers: Lcopied -> Lcopied.

Same IL: a read or write through a pointer becomes an element read or write of the tensor
(`t[k / 3][k % 3]`) and the pointer's `let` goes, all productions Lcopied has; a pointer the
pass leaves (one passed on) still stands, so no production goes."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..languages.lcopied import Lcopied
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import computes_alike, lent_on, moved_whole, tracked_tensors

L = Lcopied


@dataclass
class _Pointers:
    into: dict = field(default_factory=dict)  # a pointer local -> (its tensor's local, type)
    used: Names | None = None  # the function's names, for the new ones
    fns: dict = field(default_factory=dict)  # the program's functions by name
    kept: set = field(default_factory=set)  # the `&mut` parameters given on, never moved


index_uninit_pointers = Pass("index-uninit-pointers", Lcopied, Lcopied, """
Make each read and write through a raw pointer into a tensor made by `::uninit()` the element of the tensor it reaches, so that track-uninit-elements follows it as any element, and names it as the interpreter does (E9005 names the element's indices in the tensor, not in the pointer).

A pointer `let p = t.as_ptr();` (or `as_mut_ptr`) into a tensor t made by `::uninit()` in
the same function (or given to a copy copy-tracked-functions made, by a parameter its
`WrittenCopy` names, or returned by a call of a copy that hands on its flags), used only as
`p[k]` and `*p`, and t never assigned whole nor moved (used only by its elements, extents,
pointers, borrows and `print`, or a `&` parameter, which only lends it on, or a `&mut` one
given on only to parameters never moved either, as a copy lend-uninit-pointers made gives
it on to itself): `p[k]` is
`t[k / (d1 * .. )][..][k % dn]`, the tensor's elements taken in row-major order, and `*p`
is `t[0]..[0]`; the `let` goes. A `?` extent after the first is read from t, and taken as 1
where it is 0: t then has no element, and the index at that extent, 0, is out of it (a
static 0 leaves the pointer as it is). An index of a write that
might not compute the same twice (a call, an element) is computed once into a `let` first;
a read's, whose expression has no statement to put it before, leaves the pointer as it is.
Out of the tensor, some index is out of its extent, so native code stops with E9003 as the
interpreter does, in words naming that extent. Any other pointer is left as it is, and
track-uninit-elements refuses it (E5010).
""", state=_Pointers)


@index_uninit_pointers.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    run.state.kept = lent_on(run.state.fns)
    return run.rebuild(program)


@index_uninit_pointers.on("Fn")
def _fn(run, fn):
    body = list(descendants(fn.body))
    made = tracked_tensors(fn, body, run.state.fns)
    # a `&` parameter given on is only read through, and a `&mut` one given on only where it
    # is never moved: its tensor stays the one it points to
    moved = moved_whole(fn.body, run.state.kept) - {p.name for p in fn.params if p.type is not None and
                                    p.type._prod == "BorrowType" and not p.type.mutable}
    lets = {s.name: s for s in body if s._prod == "Let" and not s.mutable and
            s.value._prod == "AsPtr" and s.value.value._prod == "Local" and
            s.value.value.name in made and s.value.value.name not in moved and
            _unflattened(made[s.value.value.name])}
    reached = [n.base if n._prod == "Index" else n.value for n in body
               if n._prod in ("Index", "Deref")]
    written = {id(s.target) for s in body if s._prod == "Assign"}
    run.state.into = {}
    for name, s in lets.items():
        tensor = s.value.value.name
        uses = [n for n in body if n._prod == "Local" and n.name == name]
        direct = [n for n in reached if n._prod == "Local" and n.name == name]
        indices = [n.index for n in body if n._prod == "Index" and id(n) not in written and
                   n.base._prod == "Local" and n.base.name == name]
        rank = len(made[tensor].dims)
        if len(uses) == len(direct) and \
                (rank == 1 or all(computes_alike(i) for i in indices)):
            run.state.into[name] = tensor, made[tensor]
    if not run.state.into:
        return fn
    run.state.used = Names(fn)
    return run.rebuild(fn)


@index_uninit_pointers.on("Let", splice=True)
def _let(run, s):
    if s.name in run.state.into:
        return ()  # each use of the pointer is an element of its tensor now
    return run.rebuild(s)


@index_uninit_pointers.on("Assign", splice=True)
def _assign(run, s):
    t = s.target
    name = _pointer(t)
    if name not in run.state.into:
        return run.rebuild(s)
    tensor, typed = run.state.into[name]
    if t._prod == "Deref" or len(typed.dims) == 1 or computes_alike(t.index):
        return (s.replace(target=run.walk(t), value=run.walk(s.value)),)
    # `p[f()] = v`: the index is computed once, as it was.
    index = run.state.used.fresh("index")
    span = t.index.span
    first = L["Let"](index, False, L["OpaqueType"](span=span), run.walk(t.index), span=span)
    target = _element(tensor, typed, L["Local"](index, span=span), t.span)
    return first, s.replace(target=target, value=run.walk(s.value))


@index_uninit_pointers.on("Index", "Deref")
def _reached(run, e):
    name = _pointer(e)
    if name not in run.state.into:
        return run.rebuild(e)
    tensor, typed = run.state.into[name]
    k = run.walk(e.index) if e._prod == "Index" else L["Int"](0, span=e.span)
    return _element(tensor, typed, k, e.span)


def _pointer(e) -> str | None:
    """The local a `p[k]` or `*p` reads through, else None."""
    base = e.base if e._prod == "Index" else e.value if e._prod == "Deref" else None
    return base.name if base is not None and base._prod == "Local" else None


def _unflattened(typed) -> bool:
    """Whether an element k on in row-major order is an element at indices computed from k:
    no static extent after the first is 0."""
    return len(typed.dims) > 0 and \
        all(d._prod != "DimInt" or d.value > 0 for d in typed.dims[1:])


def _element(tensor: str, typed, k, span):
    """`t[k / (d1 * ..)]..[k % dn]`: the element k on in t's row-major order (each index of
    k taken as an i64, so that no stride overflows k's own type); `t[k]` for a rank 1 t."""
    dims = [_extent(tensor, j, d, span) for j, d in enumerate(typed.dims) if j > 0]
    element = L["Local"](tensor, span=span)
    if not dims:
        return L["Index"](element, k, span=span)
    wide = L["Cast"](k, L["Scalar"]("i64", span=span), span=span)
    for n, d in enumerate([None, *dims]):
        stride = _product(dims[n:], span)
        i = wide if stride._prod == "Int" and stride.value == 1 else \
            L["Binary"]("/", wide, stride, span=span)
        if d is not None:
            i = L["Binary"]("%", i, d, span=span)
        element = L["Index"](element, i, span=span)
    return element


def _extent(tensor: str, j: int, d, span):
    """The extent j of t: a static one as its type says it, a `?` one read from t, 1 where
    it is 0 (so that no division by it stops otherwise than the read)."""
    if d._prod == "DimInt":
        return L["Int"](d.value, span=span)
    read = L["MethodCall"](L["Local"](tensor, span=span), "extent", (L["Int"](j, span=span),),
                           span=span)
    zero, one = L["Int"](0, span=span), L["Int"](1, span=span)
    return L["IfExpr"](L["Binary"](">", read, zero, span=span), False,
                       L["Block"]((), read, span=span), L["Block"]((), one, span=span),
                       span=span)


def _product(factors: list, span):
    """The product of the extents `factors`: the static ones multiplied out, first."""
    static = L["Int"](math.prod(f.value for f in factors if f._prod == "Int"), span=span)
    out = static
    for f in factors:
        if f._prod != "Int":
            out = f if out is static and static.value == 1 else \
                L["Binary"]("*", out, f, span=span)
    return out
