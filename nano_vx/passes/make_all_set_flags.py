"""make-all-set-flags: Lcopied -> Lallset."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset
from ..languages.lcopied import Lcopied
from ..languages.lresolved import display_name
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import (extent_reads, flagged_tensors, flags_type, lent_tensor,
                                    named_whole, tracked_at, written_copy)


@dataclass
class _AllSet:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    closures: dict = field(default_factory=dict)  # a marked closure's `let` -> the closure
    tracked: set = field(default_factory=set)  # the locals whose flags are kept
    once: dict = field(default_factory=dict)  # its parameter given others -> flags all set
    # a local given such a parameter of `?` extents -> (flags all set made beside it, its
    # type, whether it is assigned whole: the flags are then made again after each assignment)
    beside: dict = field(default_factory=dict)


make_all_set_flags = Pass("make-all-set-flags", Lcopied, Lallset, """
Make written-flags all set for each tensor made otherwise that a call gives a parameter of a closure mark-uninit-closures marked, and give them beside it as `AllWritten`, so that track-uninit-elements hands every call of the closure flags.

A closure's parameter whose written-flags its callers keep is given, at some call, a tensor
whose flags are not kept (one not made by `::uninit()`, nor named, given or returned as such
one): every element of that tensor is written, and the call gives flags all set. For a
parameter of static extents they are made once, `let x_all_written = Tensor<bool, [..]>::
fill(true);` just before the closure's `let`; for one of `?` extents, beside the local the
call gives (a parameter, a closure's too, as the function or closure starts; a `let`'s whose
type is known, after it, and again after each assignment of the local, maybe of other
extents), sized from it (name-closure-temporaries made a local of each value no local
named that the call's statement computes first). A call given a tensor beside which none is
made (of an unknown type, or not a local) gives none, and track-uninit-elements refuses it
(E5010).
""", state=_AllSet)


@make_all_set_flags.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@make_all_set_flags.on("Fn")
def _fn(run, fn):
    state = run.state
    nodes = list(descendants(fn.body))
    lets = [n for n in nodes if n._prod == "Let"]
    state.closures = {s.name: s.value for s in lets
                      if s.value._prod == "Closure" and written_copy(s.value) is not None}
    if not state.closures:
        return fn
    state.tracked = set(flagged_tensors(fn, nodes, state.fns))
    state.once, state.beside = _all_set_given(fn, nodes, lets, state)
    if not state.once and not state.beside:
        return fn
    return run.rebuild(fn.replace(body=_params_all_set(fn.body, fn.params, state)))


@make_all_set_flags.on("Closure")
def _closure(run, e):
    return run.rebuild(e.replace(body=_params_all_set(e.body, e.params, run.state)))


@make_all_set_flags.on("Let", splice=True)
def _let(run, s):
    """A marked closure's `let`, after the flags all set made once for its parameters; a
    local's given one of `?` extents, before those made beside it."""
    state = run.state
    closure = state.closures.get(s.name)
    once = tuple(Lallset["Let"](state.once[p.name], False, flags_type(p.type),
                                _all_set(p.type, s.span), span=s.span)
                 for p in closure.params if p.name in state.once) if closure else ()
    beside = (_all_set_let(s.name, state, s.span),) if s.name in state.beside else ()
    return (*once, run.rebuild(s), *beside)


@make_all_set_flags.on("Assign", splice=True)
def _assign(run, s):
    """A local given a parameter of `?` extents, assigned a tensor maybe of other extents:
    its flags all set are made again."""
    state = run.state
    if s.target._prod != "Local" or s.target.name not in state.beside:
        return run.rebuild(s)
    flags = Lallset["Local"](state.beside[s.target.name][0], span=s.span)
    return (run.rebuild(s), Lallset["Assign"](
        flags, "=", _all_set_beside_made(s.target.name, state, s.span), span=s.span))


@make_all_set_flags.on("Call")
def _call(run, e):
    """A call of a marked closure gives each tensor made otherwise with its flags all set."""
    state = run.state
    closure = state.closures.get(e.callee.name) if e.callee._prod == "Local" else None
    if closure is None:
        return run.rebuild(e)
    at = tracked_at(e, state.tracked)
    given = written_copy(closure).given
    args = []
    for k, (p, a) in enumerate(zip(closure.params, e.args)):
        made = state.beside.get(named_whole(a))
        flags = None if p.name not in given or k in at else \
            state.once.get(p.name) or (made[0] if made is not None else None)
        args.append(run.walk(a) if flags is None else Lallset["AllWritten"](
            run.walk(a), Lallset["Local"](flags, span=a.span), span=a.span))
    return e.replace(args=tuple(args))


def _all_set_given(fn, nodes, lets, state: _AllSet) -> tuple[dict, dict]:
    """The parameters of marked closures of static extents that a call gives a tensor made
    otherwise, each with the local of flags all set made once beside the closure, which
    such a call gives; and the locals such a call gives a parameter of `?` extents, each
    with the local of flags all set of its extents made beside it (where it is a parameter,
    a closure's too, or a `let`'s whose type is known: else none, and the call is refused),
    its type and whether it is assigned whole."""
    found, beside, used = {}, {}, Names(fn)
    params = [*fn.params, *(p for n in nodes if n._prod == "Closure" for p in n.params)]
    declared = {p.name: p.type for p in params} | {s.name: _type_of(s, state) for s in lets}
    assigned = {n.target.name for n in nodes
                if n._prod == "Assign" and n.target._prod == "Local"}
    for c in nodes:
        if c._prod == "Call" and c.callee._prod == "Local" and c.callee.name in state.closures:
            closure = state.closures[c.callee.name]
            at = tracked_at(c, state.tracked)
            for k, p in enumerate(closure.params):
                if p.name not in written_copy(closure).given or k in at:
                    continue
                if all(d._prod == "DimInt" for d in lent_tensor(p.type).dims):
                    if p.name not in found:
                        found[p.name] = used.fresh(f"{display_name(p.name)}_all_written")
                    continue
                name = named_whole(c.args[k])
                typed = lent_tensor(declared.get(name))
                if typed is not None and typed._prod == "TensorType" and name not in beside:
                    beside[name] = (used.fresh(f"{display_name(name)}_all_written"), typed,
                                    name in assigned)
    return found, beside


def _type_of(s, state: _AllSet):
    """The type of the local a `let` binds, where it is written or its value says it (a
    constructor's, a function's result: the `let` naming a temporary has none written)."""
    if s.type is not None and s.type._prod != "OpaqueType":
        return s.type
    v = s.value
    if v._prod == "TensorNew":
        return v.type
    if v._prod == "Call" and v.callee._prod == "Global" and v.callee.name in state.fns:
        return state.fns[v.callee.name].ret
    return None


def _params_all_set(body, params, state: _AllSet):
    """The body of a function or closure that makes first (after a copy's mark) the flags all
    set beside each of its parameters given a marked closure's parameter of `?` extents."""
    made = tuple(_all_set_let(p.name, state, p.span) for p in params if p.name in state.beside)
    if not made:
        return body
    at = 1 if body.stmts and body.stmts[0]._prod == "WrittenCopy" else 0
    return body.replace(stmts=body.stmts[:at] + made + body.stmts[at:])


def _all_set_let(name: str, state: _AllSet, span):
    """`let x_all_written = Tensor<bool, [..]>::fill([x.extent(0), ..], true);` of the
    local x's extents, read from x where they are `?`."""
    flags, typed, assigned = state.beside[name]
    return Lallset["Let"](flags, assigned, flags_type(typed),
                          _all_set_beside_made(name, state, span), span=span)


def _all_set_beside_made(name: str, state: _AllSet, span):
    """The flags all set of the extents of the local x, as it is: read from x where `?`."""
    _, typed, _ = state.beside[name]
    made = _all_set(typed, span)
    if any(d._prod != "DimInt" for d in typed.dims):
        made = made.replace(args=(Lallset["ArrayLit"](
            tuple(extent_reads(typed.dims, name, span)), span=span), *made.args))
    return made


def _all_set(t, span):
    """`Tensor<bool, [..]>::fill(true)` of the extents of a tensor of type t (given first
    where some are `?`)."""
    return Lallset["TensorNew"](flags_type(t).replace(place=None), "fill",
                                (Lallset["Bool"](True, span=span),), span=span)
