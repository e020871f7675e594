"""make-all-set-flags: Lcopied -> Lallset."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset
from ..languages.lcopied import Lcopied
from ..languages.lresolved import display_name
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import (computed_first, extent_reads, flagged_tensors, flags_type,
                                    lent_tensor, named_whole, tracked_at, written_copy)


@dataclass
class _AllSet:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    closures: dict = field(default_factory=dict)  # a marked closure's `let` -> the closure
    tracked: set = field(default_factory=set)  # the locals whose flags are kept
    once: dict = field(default_factory=dict)  # its parameter given others -> flags all set
    # a local given such a parameter of `?` extents -> (flags all set made beside it, its
    # type, whether it is assigned whole: the flags are then made again after each assignment)
    beside: dict = field(default_factory=dict)
    used: Names | None = None  # the function's names, for the new ones


make_all_set_flags = Pass("make-all-set-flags", Lcopied, Lallset, """
Make written-flags all set for each tensor made otherwise that a call gives a parameter of a closure mark-uninit-closures marked, and give them beside it as `AllWritten`, so that track-uninit-elements hands every call of the closure flags.

A closure's parameter whose written-flags its callers keep is given, at some call, a tensor
whose flags are not kept (one not made by `::uninit()`, nor named, given or returned as such
one): every element of that tensor is written, and the call gives flags all set. For a
parameter of static extents they are made once,
`let x_all_written = Tensor<bool, [..]>::fill(true);` just before the closure's `let`; for
one of `?` extents, beside the local the call gives (a parameter, a closure's too, as the
function or closure starts; a `let`'s whose type is known, after it, and again after each
assignment of the local, maybe of other extents), sized from it. A value no local names (a
call's result, by value) that the statement (a `let`, an assignment of a local, an
expression statement, a `return`) or a block's value computes first, nothing before it but
the arguments before it, is computed into a `let` first with those (each computing
something, and a local before one), as the call computed them, and its flags made beside
it. A call given a tensor beside which none is made (of an unknown type, a borrow of a
value, or a value computed after something else of its statement that might stop first)
gives none, and track-uninit-elements refuses it (E5010).
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
    state.used = Names(fn)
    state.once, state.beside = _all_set_given(fn, nodes, lets, state)
    if not state.once and not state.beside and not any(_temporaries(c, state) for c in nodes):
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
    named, value = _named_first(run, s.value)
    s = s.replace(value=value)
    closure = state.closures.get(s.name)
    once = tuple(Lallset["Let"](state.once[p.name], False, flags_type(p.type),
                                _all_set(p.type, s.span), span=s.span)
                 for p in closure.params if p.name in state.once) if closure else ()
    beside = (_all_set_let(s.name, state, s.span),) if s.name in state.beside else ()
    return (*named, *once, run.rebuild(s), *beside)


@make_all_set_flags.on("ExprStmt", "Return", splice=True)
def _computing(run, s):
    """A statement computing first a call of a marked closure given a tensor no local names,
    of `?` extents: its arguments are computed first, as they were, and flags made beside."""
    field_ = "expr" if s._prod == "ExprStmt" else "value"
    if getattr(s, field_) is None:
        return s
    named, value = _named_first(run, getattr(s, field_))
    return (*named, run.rebuild(s.replace(**{field_: value})))


@make_all_set_flags.on("Block")
def _block(run, b):
    """A block whose value computes first such a call: its arguments are computed after the
    block's statements, as they were."""
    if b.value is None:
        return run.rebuild(b)
    out = run.rebuild(b.replace(value=None))
    named, value = _named_first(run, b.value)
    return out.replace(stmts=out.stmts + named, value=run.walk(value))


# The operand an expression computes first, before anything else of it.
_FIRST = {"Binary": "left", "Unary": "operand", "Cast": "value", "Index": "base",
          "MethodCall": "receiver"}


def _named_first(run, e) -> tuple[tuple, object]:
    """The expression with the call of a marked closure it computes first (nothing computed
    before but its callee) given tensors no local names at parameters of `?` extents: its
    arguments up to the last such one computed into `let`s first, in order, as the call
    computed them, each such tensor's flags all set made beside it. The `let`s, and the
    expression with the call of their locals."""
    if e._prod in _FIRST:
        named, first = _named_first(run, getattr(e, _FIRST[e._prod]))
        return named, e.replace(**{_FIRST[e._prod]: first}) if named else e
    if e._prod != "Call" or e.callee._prod not in ("Global", "Local") or not e.args:
        return (), e
    state, places = run.state, _temporaries(e, run.state)
    if not places:
        named, first = _named_first(run, e.args[0])
        return named, e.replace(args=(first, *e.args[1:])) if named else e
    lets, args = computed_first(e.args[:places[-1] + 1], state.tracked, state.used.fresh,
                                lambda a: a)
    closure = state.closures[e.callee.name]
    for k in places:
        name = args[k].name
        state.beside[name] = (state.used.fresh(f"{display_name(name)}_all_written"),
                              lent_tensor(closure.params[k].type), False)
    named = tuple(s.replace(value=run.walk(s.value)) for s in lets) + \
        tuple(_all_set_let(args[k].name, state, e.span) for k in places)
    return named, e.replace(args=(*args, *e.args[places[-1] + 1:]))


def _temporaries(e, state: _AllSet) -> list:
    """The places at which a call of a marked closure gives a parameter of `?` extents whose
    flags its callers keep a tensor made otherwise that no local names (a call's result)."""
    closure = state.closures.get(e.callee.name) \
        if e._prod == "Call" and e.callee._prod == "Local" else None
    if closure is None:
        return []
    at, given = tracked_at(e, state.tracked), written_copy(closure).given
    return [k for k, (p, a) in enumerate(zip(closure.params, e.args))
            if p.name in given and k not in at and a._prod != "Borrow" and
            named_whole(a) is None and any(d._prod != "DimInt" for d in lent_tensor(p.type).dims)]


@make_all_set_flags.on("Assign", splice=True)
def _assign(run, s):
    """A local given a parameter of `?` extents, assigned a tensor maybe of other extents:
    its flags all set are made again. A local assigned a value computing first a call of a
    marked closure given a tensor no local names: its arguments are computed first."""
    state = run.state
    if s.target._prod != "Local":
        return run.rebuild(s)
    named, value = _named_first(run, s.value)  # the local is read after, as it was
    s = s.replace(value=value)
    if s.target.name not in state.beside:
        return (*named, run.rebuild(s))
    flags = Lallset["Local"](state.beside[s.target.name][0], span=s.span)
    return (*named, run.rebuild(s), Lallset["Assign"](
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
    found, beside, used = {}, {}, state.used
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
