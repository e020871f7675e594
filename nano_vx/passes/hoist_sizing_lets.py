"""hoist-sizing-lets: Lsplit -> Lsplit.

Same IL: what it makes is a copy of a function taking more parameters, and `let`s before
a call of it: all productions Lsplit has."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name
from ..languages.lsplit import Lsplit
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, fresh_item
from ..scalars.sizing import binds_call, opening_lets, with_copies
from ..scalars.tensor_names import computed_first

L = Lsplit


@dataclass
class _Hoisting:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    opened: dict = field(default_factory=dict)  # a function hoisted -> its opening `let`s
    copies: dict = field(default_factory=dict)  # such a function -> its copy's name
    used: Names | None = None  # the calling function's names, for the new ones


hoist_sizing_lets = Pass("hoist-sizing-lets", Lsplit, Lsplit, """
Make each `let r = f(..)` of a function f returning a tensor made by `::uninit()` whose `?` extents `let`s of arithmetic on its parameters compute, first thing, compute those `let`s itself and call a copy of f taking their values as parameters, so that copy-tracked-functions finds the extents f's parameters and the caller sizes the tensor's written-flags from them.

f's body opens with `let`s (not `mut`) of integer arithmetic on its parameters, numbers and
the `let`s before (`let m = n * 2;`), which compute nothing but may stop (an overflow, a
division by 0), and then makes, by `Tensor<..>::uninit([..])`, a tensor of `?` extents
naming one of them. The copy `f$sized` is f without those `let`s, taking their values after
f's parameters; the caller names the call's arguments in `let`s first (each that computes
something, and a local before one, in order), then computes f's `let`s in order, each the
same expression at the same place, of those arguments: where one stops, it stops there as
f did, nothing of f having run before it. Calls of f other than by such a `let` call f as
it is, which stays while any does.
""", state=_Hoisting)


@hoist_sizing_lets.on("Program")
def _program(run, program):
    state = run.state
    state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    state.opened = {name: lets for name, fn in state.fns.items()
                    if (lets := opening_lets(fn, calls=False)) is not None}
    if not state.opened:
        return program
    taken = {i.name for i in program.items if hasattr(i, "name")}
    state.copies = {name: fresh_item(f"{name}$sized", taken) for name in state.opened}
    items = [run.walk(i) for i in program.items]
    return with_copies(program, items, {
        name: (copy, lambda fn, lets=state.opened[name], copy=copy: [_copy(fn, lets, copy)])
        for name, copy in state.copies.items()})


@hoist_sizing_lets.on("Fn")
def _fn(run, fn):
    if not any(_hoisted(n, run.state) for n in descendants(fn.body)):
        return fn
    run.state.used = Names(fn)
    return run.rebuild(fn)


@hoist_sizing_lets.on("Let", splice=True)
def _let(run, s):
    state = run.state
    if not _hoisted(s, state):
        return run.rebuild(s)
    fn = state.fns[s.value.callee.name]
    named, args = computed_first(s.value.args, set(), state.used.fresh, run.walk)
    given = {p.name: a for p, a in zip(fn.params, args)}
    lets = []
    for opening in state.opened[fn.name]:
        name = state.used.fresh(display_name(opening.name))
        lets.append(opening.replace(name=name, value=_given(opening.value, given)))
        given[opening.name] = L["Local"](name, span=opening.span)
    extents = tuple(L["Local"](s.name, span=s.span) for s in lets)
    call = s.value.replace(callee=s.value.callee.replace(name=state.copies[fn.name]),
                           args=tuple(args) + extents)
    return (*named, *lets, s.replace(value=call))


def _hoisted(s, state: _Hoisting) -> bool:
    """Whether `s` is a `let r = f(..)` of a function whose opening `let`s are hoisted."""
    return binds_call(s, state.fns, state.opened)


def _given(e, given: dict):
    """The expression `e` of a function's parameters and opening `let`s, each local the
    argument or the caller's `let` it is given."""
    if e._prod == "Local":
        return given[e.name].replace(span=e.span) if given[e.name]._prod == "Local" \
            else given[e.name]
    if e._prod == "Binary":
        return e.replace(left=_given(e.left, given), right=_given(e.right, given))
    if e._prod == "Unary":
        return e.replace(operand=_given(e.operand, given))
    if e._prod == "Cast":
        return e.replace(value=_given(e.value, given))
    return e


def _copy(fn, lets: list, name: str):
    """`f$sized`: f without its opening `let`s, taking their values after its parameters."""
    params = tuple(fn.params) + tuple(L["Param"](s.name, s.type, span=s.span) for s in lets)
    body = fn.body.replace(stmts=fn.body.stmts[len(lets):])
    return fn.replace(name=name, params=params, body=body)
