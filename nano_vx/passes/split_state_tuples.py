"""split-state-tuples: Lassumed -> Lassumed.

Same IL: each element of a tuple split is computed where the tuple computed it, in order, and
read where the tuple's element was, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.hardware_states import is_state_type


@dataclass
class State:
    split: dict = field(default_factory=dict)  # a tuple local split -> its elements' locals


split_state_tuples = Pass("split-state-tuples", L, L, """
Give each element of a tuple holding a hardware state a local of its own, where a `let` binds
the tuple and it is read only by its elements, so that lower-pins finds every state in a
variable.

`let pair = (t, 1); print(pair.1);` is `let pair_0 = t; let pair_1 = 1; print(pair_1);`:
`pair_0` is another name of t's state, as the tuple's element was (the interpreter's copies
share the pin). A tuple used whole (copied, assigned, passed, printed) stays as it is, and
lower-pins refuses it.
""", state=State)


def _holds_a_state(let) -> bool:
    ty, value = let.type, let.value
    return value is not None and value._prod == "Tuple" and ty._prod == "TupleType" \
        and len(ty.elems) == len(value.elems) and any(is_state_type(t) for t in ty.elems)


@split_state_tuples.on("Fn")
def _fn(run, fn):
    lets = {n.name: n for n in descendants(fn.body) if n._prod == "Let" and _holds_a_state(n)}
    if not lets:
        return fn
    read = {id(n.base) for n in descendants(fn.body) if n._prod == "TupleGet"}
    whole = {n.name for n in descendants(fn.body) if n._prod == "Local" and id(n) not in read}
    names = Names(fn)
    run.state.split = {name: [names.fresh(f"{name.split('#')[0]}_{i}")
                              for i in range(len(let.value.elems))]
                       for name, let in lets.items() if name not in whole}
    return run.rebuild(fn) if run.state.split else fn


@split_state_tuples.on("Let", splice=True)
def _let(run, node):
    parts = run.state.split.get(node.name)
    if parts is None:
        return (run.rebuild(node),)
    return tuple(L["Let"](part, node.mutable, ty, run.walk(value), span=node.span)
                 for part, ty, value in zip(parts, node.type.elems, node.value.elems))


@split_state_tuples.on("TupleGet")
def _element(run, e):
    parts = run.state.split.get(e.base.name) if e.base._prod == "Local" else None
    if parts is None:
        return run.rebuild(e)
    return L["Local"](parts[e.index], span=e.span)
