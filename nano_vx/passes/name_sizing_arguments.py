"""name-sizing-arguments: Lallset -> Lallset.

Same IL: what it makes is a `let` of each argument computed first, and the call of its
local."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.tensor_names import computed_first, flagged_tensors, lent_tensor, written_copy


@dataclass
class _Sizing:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    flagged: dict = field(default_factory=dict)  # a local whose flags are kept -> its type
    used: Names | None = None  # the function's names, for the new ones


name_sizing_arguments = Pass("name-sizing-arguments", Lallset, Lallset, """
Compute into a `let` first each argument that computes something of a call `let r = f$written(..)` whose caller sizes the flags of the tensor of `?` extents it returns from its arguments, so that track-uninit-elements makes those flags before the call from what the call is given.

The arguments are computed in order, as the call computes them, and a local before one that
computes something is read into a `let` too, since that one might change it; a literal, a
borrow, a local whose flags are kept (given beside it) and what comes after the last
argument computing something stay as they are.
""", state=_Sizing)


@name_sizing_arguments.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@name_sizing_arguments.on("Fn")
def _fn(run, fn):
    state = run.state
    nodes = list(descendants(fn.body))
    if not any(n._prod == "Let" and _sized(n.value, state.fns) for n in nodes):
        return fn
    state.flagged = flagged_tensors(fn, nodes, state.fns)
    state.used = Names(fn)
    return run.rebuild(fn)


@name_sizing_arguments.on("Let", splice=True)
def _let(run, s):
    call = s.value
    if not _sized(call, run.state.fns):
        return run.rebuild(s)
    state = run.state
    named, args = computed_first(call.args, state.flagged, state.used.fresh, run.walk)
    return (*named, s.replace(value=call.replace(args=tuple(args))))


def _sized(value, fns) -> bool:
    """Whether the value is a call of a copy whose callers keep the flags of the tensor of
    `?` extents it returns, which they size from its arguments."""
    if not (value._prod == "Call" and value.callee._prod == "Global" and value.callee.name in fns):
        return False
    made = fns[value.callee.name]
    copy = written_copy(made)
    return copy is not None and copy.returned and \
        any(d._prod != "DimInt" for d in lent_tensor(made.ret).dims)
