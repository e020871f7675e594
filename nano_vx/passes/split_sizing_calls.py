"""split-sizing-calls: Lsplit -> Lsplit.

Same IL: what it makes is two copies of a function, one computing its opening `let`s and
writing them through `&mut` parameters, one taking their values as parameters, and the
`let`s and calls before a call of them: all productions Lsplit has."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from ..languages.lresolved import display_name
from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names, fresh_item
from ..scalars.sizing import binds_call, opening_lets, with_copies
from ..scalars.tensor_names import computed_first
from ..values.numbers import INT_TYPES


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    opened: dict = field(default_factory=dict)  # a function split -> its opening `let`s
    copies: dict = field(default_factory=dict)  # such a function -> its two copies' names
    used: Names | None = None  # the calling function's names, for the new ones


split_sizing_calls = Pass("split-sizing-calls", L, L, """
Make each `let r = f(..)` of a function f returning a tensor made by `::uninit()` whose `?` extents `let`s computing calls give, first thing, call a copy `f$extents` computing those `let`s and writing their values through `&mut` parameters, then a copy `f$measured` taking the values as parameters, so that copy-tracked-functions finds the extents f's parameters and the caller sizes the tensor's written-flags from them.

f takes scalars only, its body opens with `let`s (not `mut`) of integers computed from its
parameters, numbers, the `let`s before and calls of functions given such values, one of
them at least a call (`let m = twice(n);`; hoist-sizing-lets hoists `let`s of arithmetic
alone into the caller), and then makes, by `Tensor<..>::uninit([..])`, a tensor of `?`
extents naming one of them. The caller names the call's arguments in `let`s first (each that
computes something, and a local before one, in order), then gives each opening `let` a
`let mut` of its own, of 0, calls `f$extents` with the arguments and a `&mut` of each, and
`f$measured` with the arguments and their values: each call of f's `let`s runs as it ran,
one call deeper than the caller, and stops where it stopped, nothing of f having run before
it, and f's own code runs after them, as it did. Calls of f other than by such a `let` call
f as it is, which stays while any does.
""", state=State)


@split_sizing_calls.on("Program")
def _program(run, program):
    state = run.state
    state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    state.opened = {name: lets for name, fn in state.fns.items()
                    if (lets := _opening(fn)) is not None}
    if not state.opened:
        return program
    taken = {i.name for i in program.items if hasattr(i, "name")}
    state.copies = {name: (fresh_item(f"{name}$extents", taken),
                           fresh_item(f"{name}$measured", taken)) for name in state.opened}
    items = [run.walk(i) for i in program.items]
    return with_copies(program, items, {
        name: (extents, partial(_copies, lets=state.opened[name], extents=extents,
                                measured=measured))
        for name, (extents, measured) in state.copies.items()})


@split_sizing_calls.on("Fn")
def _fn(run, fn):
    if not any(_split(n, run.state) for n in descendants(fn.body)):
        return fn
    run.state.used = Names(fn)
    return run.rebuild(fn)


@split_sizing_calls.on("Let", splice=True)
def _let(run, s):
    state = run.state
    if not _split(s, state):
        return run.rebuild(s)
    call, span = s.value, s.span
    named, args = computed_first(call.args, set(), state.used.fresh, run.walk)
    outs = [state.used.fresh(display_name(o.name)) for o in state.opened[call.callee.name]]
    zeros = [L["Let"](name, True, o.type, L["Int"](0, span=span), span=span)
             for name, o in zip(outs, state.opened[call.callee.name])]
    extents, measured = state.copies[call.callee.name]
    computed = L["ExprStmt"](call.replace(
        callee=call.callee.replace(name=extents),
        args=(*args, *(L["Borrow"](L["Local"](name, span=span), True, span=span)
                       for name in outs))), span=span)
    made = call.replace(callee=call.callee.replace(name=measured),
                        args=(*args, *(L["Local"](name, span=span) for name in outs)))
    return (*named, *zeros, computed, s.replace(value=made))


def _split(s, state: State) -> bool:
    """Whether `s` is a `let r = f(..)` of a function whose opening `let`s are split off."""
    return binds_call(s, state.fns, state.opened)


def _opening(fn) -> list | None:
    """The `let`s of integers computed with calls opening the body of the function, which
    takes scalars only, as opening_lets finds them; None unless one calls."""
    if any(p.type is None or p.type._prod != "Scalar" for p in fn.params):
        return None
    lets = opening_lets(fn, calls=True)
    if lets is None or any(s.type.name not in INT_TYPES for s in lets) or \
            not any(n._prod == "Call" for s in lets for n in descendants(s.value)):
        return None
    return lets


def _copies(fn, lets: list, extents: str, measured: str) -> list:
    """`f$extents`, f's opening `let`s writing their values through `&mut` parameters, and
    `f$measured`, f without them, taking their values after its parameters."""
    names = Names(fn)
    outs = [names.fresh(f"{display_name(s.name)}_out") for s in lets]
    writes = tuple(L["Assign"](L["Deref"](L["Local"](out, span=s.span), span=s.span), "=",
                               L["Local"](s.name, span=s.span), span=s.span)
                   for out, s in zip(outs, lets))
    computing = fn.replace(
        name=extents, ret=None,
        params=tuple(fn.params) + tuple(
            L["Param"](out, L["BorrowType"](s.type, True, span=s.span), span=s.span)
            for out, s in zip(outs, lets)),
        body=fn.body.replace(stmts=tuple(lets) + writes, value=None))
    params = tuple(fn.params) + tuple(L["Param"](s.name, s.type, span=s.span) for s in lets)
    body = fn.body.replace(stmts=fn.body.stmts[len(lets):])
    return [computing, fn.replace(name=measured, params=params, body=body)]
