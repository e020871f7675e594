"""bind-chosen-storage-heads: Lsplit -> Lsplit.

Same IL: `while true`, `break` and a `let` of a bool are Lsplit's own, and each head is
computed where it was, once each time it was, so the interpreter runs the output as it ran
the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.closures import names
from ..scalars.storages import chosen_between_storages, known_places


@dataclass
class State:
    chosen: frozenset = frozenset()  # the function's references chosen so
    names: Names | None = None  # the function's names, for the new ones


bind_chosen_storage_heads = Pass("bind-chosen-storage-heads", L, L, """
Bind the condition of each `while` and `if` statement that reads a `let mut` reference an `if` chooses between places of two storages to a `let` of its own, a `while`'s at the top of each turn, so that flag-chosen-storages finds the reference read only by statements.

flag-chosen-storages writes each statement naming such a reference once per storage, in an
`if` on the flag saying which place it names; a loop's or an `if`'s head is not a statement
of its own, and copying the whole loop or `if` per storage would run it through one
reference only, while its body may make the variable refer to a place of the other. So
`while *r < 5.0 { B }` is `while true { let more = *r < 5.0; if !more { break; } B }`, the
condition computed at the top of each turn as it was, to which a `continue` still goes, and
`if *r > 1.0 { .. }` is `let cond = *r > 1.0; if cond { .. }`; an `else if`'s condition is
bound in its arm, computed only where it was. A reference a closure names is left to the
refusal (check-native-subset, E5010).
""", state=State)


@bind_chosen_storage_heads.on("Fn")
def _fn(run, fn):
    known = known_places(fn, {})
    chosen = frozenset(n.name for n in descendants(fn.body) if n._prod == "Let" and
                       n.mutable and chosen_between_storages(n, known))
    if not any(_reads(n, chosen) for n in descendants(fn.body)):
        return fn
    run.state.chosen, run.state.names = chosen, Names(fn)
    return run.rebuild(fn)


def _reads(s, chosen: frozenset) -> bool:
    """Whether s is a `while` or an `if` statement whose condition names a reference of
    `chosen`."""
    return (s._prod == "While" or s._prod == "If" and not s.comptime) and \
        any(names(s.cond, name) for name in chosen)


@bind_chosen_storage_heads.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    if not any(_reads(s, run.state.chosen) for s in block.stmts):
        return block
    stmts = []
    for s in block.stmts:
        stmts += _bound(run.state, s) if _reads(s, run.state.chosen) else [s]
    return block.replace(stmts=tuple(stmts))


def _bound(st: State, s) -> list:
    """The statements a loop or an `if` whose condition reads such a reference becomes."""
    span = s.cond.span
    held = st.names.fresh("more" if s._prod == "While" else "cond")
    let = L["Let"](held, False, L["Scalar"]("bool", span=span), s.cond, span=span)
    if s._prod == "If":
        return [let, s.replace(cond=L["Local"](held, span=span))]
    leave = L["If"](L["Unary"]("!", L["Local"](held, span=span), span=span), False,
                    L["Block"]((L["Break"](span=span),), None, span=span), None, span=span)
    body = s.body.replace(stmts=(let, leave, *s.body.stmts))
    return [s.replace(cond=L["Bool"](True, span=span), body=body)]
