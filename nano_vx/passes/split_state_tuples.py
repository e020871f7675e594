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
the tuple and it is read only by its elements or copied whole into another such tuple, so that
lower-pins finds every state in a variable.

`let pair = (t, 1); print(pair.1);` is `let pair_0 = t; let pair_1 = 1; print(pair_1);`:
`pair_0` is another name of t's state, as the tuple's element was (the interpreter's copies
share the pin). A copy `let again = pair;` is split with it, `let again_0 = pair_0; let
again_1 = pair_1;`: each element of the copy is another name of the same state, as the
interpreter's copy shares the pin. A tuple used whole otherwise (assigned, passed, printed)
stays as it is, and so do its copies and what it copies; lower-pins refuses it.
""", state=State)


def _holds_a_state(let) -> bool:
    ty, value = let.type, let.value
    return value is not None and value._prod in ("Tuple", "Local") \
        and ty._prod == "TupleType" and any(is_state_type(t) for t in ty.elems) \
        and (value._prod == "Local" or len(ty.elems) == len(value.elems))


@split_state_tuples.on("Fn")
def _fn(run, fn):
    lets = {n.name: n for n in descendants(fn.body) if n._prod == "Let" and _holds_a_state(n)}
    if not lets:
        return fn
    read = {id(n.base) for n in descendants(fn.body) if n._prod == "TupleGet"}
    copies = {id(let.value): let.name for let in lets.values() if let.value._prod == "Local"}
    uses = [(n.name, copies.get(id(n))) for n in descendants(fn.body)
            if n._prod == "Local" and id(n) not in read]
    # A copy is split with what it copies, or neither is: drop each tuple used whole, then each
    # copied into one dropped or copied from one not split, until none is.
    split = set(lets)
    while True:
        kept = {name for name in split if not any(
            used == name and (into not in split) for used, into in uses)
            and (lets[name].value._prod == "Tuple" or lets[name].value.name in split)}
        if kept == split:
            break
        split = kept
    names = Names(fn)
    run.state.split = {name: [names.fresh(f"{name.split('#')[0]}_{i}")
                              for i in range(len(lets[name].type.elems))]
                       for name in lets if name in split}
    return run.rebuild(fn) if run.state.split else fn


def _elements(run, value) -> tuple:
    """What each element of a tuple split is given: the tuple literal's elements, or the
    locals of the tuple copied."""
    if value._prod == "Tuple":
        return tuple(run.walk(v) for v in value.elems)
    return tuple(L["Local"](part, span=value.span) for part in run.state.split[value.name])


@split_state_tuples.on("Let", splice=True)
def _let(run, node):
    parts = run.state.split.get(node.name)
    if parts is None:
        return (run.rebuild(node),)
    return tuple(L["Let"](part, node.mutable, ty, value, span=node.span)
                 for part, ty, value in zip(parts, node.type.elems, _elements(run, node.value)))


@split_state_tuples.on("TupleGet")
def _element(run, e):
    parts = run.state.split.get(e.base.name) if e.base._prod == "Local" else None
    if parts is None:
        return run.rebuild(e)
    return L["Local"](parts[e.index], span=e.span)
