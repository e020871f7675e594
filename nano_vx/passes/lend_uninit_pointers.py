"""lend-uninit-pointers: Lcopied -> Lcopied.

Same IL: a call given a pointer calls a copy given a borrow of the tensor, which makes the
pointer itself with `as_ptr`, its mark the `WrittenCopy` of a copy: all productions Lcopied
has."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lcopied import Lcopied
from ..languages.lresolved import display_name
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import moved_whole, tracked_tensors, written_copy

L = Lcopied


@dataclass
class _Lending:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    copies: list = field(default_factory=list)  # (function, [(position, type)], copy's name)
    pending: list = field(default_factory=list)  # the copies made, not yet walked
    into: dict = field(default_factory=dict)  # a pointer argument's local -> its tensor's
    tracked: dict = field(default_factory=dict)  # the function's tracked tensors -> types
    lent: set = field(default_factory=set)  # the function's parameters lent a tensor
    gone: set = field(default_factory=set)  # the pointer locals whose every use is lent


lend_uninit_pointers = Pass("lend-uninit-pointers", Lcopied, Lcopied, """
Call each function given a raw pointer into a tensor made by `::uninit()` in a copy given the tensor instead, which makes the pointer from it as it starts, so that index-uninit-pointers reaches the tensor's elements through it there and track-uninit-elements hands the copy the tensor's written-flags (E9005 names the element's indices in the tensor, not in the pointer).

A call of a function of the program whose pointer parameter is given `t.as_ptr()` (or
`as_mut_ptr`) of a tensor t the caller tracks (made by `::uninit()`, given by a parameter a
copy's mark names, or returned by a copy's call), or a local a `let` (not `mut`) binds to
one with t never moved, calls `f$lent`, one copy per function, positions and tensor types,
given `&t` (`&mut t`) there. The copy's parameter is a borrow of the tensor, named by its
`WrittenCopy` (the one it opened with, if a copy, naming one more), and its body opens with
`let p = p_tensor.as_ptr();`, so that the pointer is one into a tracked tensor of its own
function (a pointer's `let` in the caller whose every use is so lent goes). What
index-uninit-pointers then does not follow through the copy (a pointer given on to other
than a function, into a tensor whose extents after the first are `?`, ...) track-uninit-elements
refuses (E5010), in the copy.
""", state=_Lending)


@lend_uninit_pointers.on("Program")
def _program(run, program):
    state = run.state
    state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    items = [run.walk(i) for i in program.items]
    while state.pending:  # a copy may give the pointer on, into a copy of its own
        items.append(run.walk(state.pending.pop(0)))
    if not state.copies:
        return program
    nodes = [n for i in items for n in descendants(i)]
    called = {n.name for n in nodes if n._prod == "Global"} | \
        {n.kernel for n in nodes if n._prod == "Launch"} | {"main"}
    copied = {name for name, _, _ in state.copies}
    # a function all of whose calls now call its copies is called no more
    return program.replace(items=tuple(i for i in items if i._prod != "Fn" or
                                       i.name not in copied or i.name in called))


@lend_uninit_pointers.on("Fn")
def _fn(run, fn):
    body = list(descendants(fn.body))
    tracked = tracked_tensors(fn, body, run.state.fns)
    if not tracked:
        return fn
    moved = moved_whole(fn.body)
    run.state.into = {s.name: (s.value.value.name, tracked[s.value.value.name])
                      for s in body if s._prod == "Let" and not s.mutable and
                      s.value._prod == "AsPtr" and s.value.value._prod == "Local" and
                      s.value.value.name in tracked and s.value.value.name not in moved}
    run.state.into = {name: into for name, into in run.state.into.items()
                      if not any(n._prod == "Assign" and n.target._prod == "Local" and
                                 n.target.name == name for n in body)}
    run.state.tracked = tracked
    run.state.lent = {p.name for p in fn.params if p.type is not None and
                      p.type._prod == "BorrowType"}
    # a pointer's `let` whose every use is lent goes: the copies make it from the tensor
    uses = [n.name for n in body if n._prod == "Local" and n.name in run.state.into]
    lent = [a.name for c in body if c._prod == "Call"
            for k, a in enumerate(c.args) if k in _lendable(c, run.state) and a._prod == "Local"]
    run.state.gone = {name for name in run.state.into if uses.count(name) == lent.count(name)}
    return run.rebuild(fn)


@lend_uninit_pointers.on("Let", splice=True)
def _let(run, s):
    return () if s.name in run.state.gone else run.rebuild(s)


@lend_uninit_pointers.on("Call")
def _call(run, e):
    e = run.rebuild(e)
    state = run.state
    lent = _lendable(e, state)
    if not lent:
        return e
    fn = state.fns[e.callee.name]
    positions = [(k, typed) for k, (_, typed) in lent.items()]
    copy = _copy(fn, positions, state)
    args = tuple(_lent(lent[k][0], fn.params[k].type.mutable, a.span, state) if k in lent else a
                 for k, a in enumerate(e.args))
    return e.replace(callee=e.callee.replace(name=copy), args=args)


def _lent(tensor: str, mutable: bool, span, state: _Lending):
    """`&t` (`&mut t`) of the tensor's local, or the local itself where it is a reference
    parameter already (a copy's)."""
    local = L["Local"](tensor, span=span)
    return local if tensor in state.lent else L["Borrow"](local, mutable, span=span)


def _lendable(e, state: _Lending) -> dict:
    """The positions of the call's arguments pointing into a tracked tensor (each with the
    tensor's local and type) whose parameters are pointers."""
    fn = state.fns.get(e.callee.name) if e.callee._prod == "Global" else None
    if fn is None or len(fn.params) != len(e.args):
        return {}
    lent = {}
    for k, (p, a) in enumerate(zip(fn.params, e.args)):
        tensor = _pointed(a, state)
        if tensor is not None and p.type is not None and p.type._prod == "PtrType":
            lent[k] = tensor
    return lent


def _pointed(a, state: _Lending):
    """The tracked tensor (its local and type) the argument `a` points into, if it is
    `t.as_ptr()` or a pointer local bound to one, else None."""
    if a._prod == "AsPtr" and a.value._prod == "Local" and a.value.name in state.tracked:
        return a.value.name, state.tracked[a.value.name]
    if a._prod == "Local" and a.name in state.into:
        return state.into[a.name]
    return None


def _copy(fn, positions: list, state: _Lending) -> str:
    """The name of the copy of `fn` given the tensors of `positions` (a parameter's index and
    its tensor's type) for its pointers, made if it is not yet."""
    for name, given, copy in state.copies:
        if name == fn.name and given == positions:
            return copy
    copy, k = f"{fn.name}$lent", 0
    while copy in state.fns:
        k += 1
        copy = f"{fn.name}$lent{k}"
    state.copies.append((fn.name, positions, copy))
    used = Names(fn)
    params, opened = list(fn.params), []
    for k, typed in positions:
        p = fn.params[k]
        tensor = used.fresh(f"{display_name(p.name)}_tensor")
        params[k] = p.replace(name=tensor, type=L["BorrowType"](typed, p.type.mutable,
                                                                   span=p.span))
        opened.append(L["Let"](p.name, False, p.type, L["AsPtr"](
            L["Local"](tensor, span=p.span), p.type.mutable, span=p.span), span=p.span))
    mark = written_copy(fn)
    names = tuple(params[k].name for k, _ in positions)
    stmts = fn.body.stmts
    if mark is not None:
        stmts = stmts[1:]
        given = tuple(p.name for p in params if p.name in mark.given or p.name in names)
        mark = mark.replace(given=given)
    else:
        mark = L["WrittenCopy"](names, False, span=fn.span)
    made = fn.replace(name=copy, params=tuple(params),
                      body=fn.body.replace(stmts=(mark, *opened, *stmts)))
    state.fns[copy] = made
    state.pending.append(made)
    return copy
