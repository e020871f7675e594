"""bind-assigning-closures-again: Lsplit -> Lsplit.

Same IL: a closure value is made when its `let` runs and reads the variables around it when
it is called, so a second `let` of the same closure, in the same frame, makes one that does
what the first does; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, direct_closures, names
from ..scalars.storages import bound_locals, fresh_copy


@dataclass
class State:
    direct: set = field(default_factory=set)  # the locals bound to closures only called
    taken: set = field(default_factory=set)  # the names of the function's locals


bind_assigning_closures_again = Pass("bind-assigning-closures-again", L, L, """
Bind each closure only called that assigns a variable copied by a `let` after it in its
block (`let d = c;`), and that is named both before and after that copy, again just after
the copy, each statement after it calling the new one: `let reset = |s: i32| { c =
counter(s); }; reset(5); let d = c; reset(50);` is `.. reset(5); let d = c; let reset_1 =
|s_1: i32| { c = counter(s_1); }; reset_1(50);`.

A copy of a counter keeps the value it was given once the variable it copies is assigned
another, which capture-environments makes its own where the assignment sees the copy. The
closure bound before the copy does not see it, and is called only before it, when no copy
is alive; the new one sees it (delay-assigning-closures moves a closure named only after
the copy instead).
""", state=State)


@bind_assigning_closures_again.on("Fn")
def _fn(run, fn):
    st = run.state
    st.direct = set(direct_closures(fn))
    if not st.direct:
        return fn
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


@bind_assigning_closures_again.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts = list(block.stmts)
    for name in [s.name for s in block.stmts if s._prod == "Let" and s.name in run.state.direct]:
        at = next(i for i, s in enumerate(stmts) if s._prod == "Let" and s.name == name)
        let = stmts[at]
        assigned = {n.target.name for n in descendants(let.value.body)
                    if n._prod == "Assign" and n.target._prod == "Local"}
        copy = next((j for j in range(at + 1, len(stmts)) if stmts[j]._prod == "Let"
                     and stmts[j].value._prod == "Local" and stmts[j].value.name in assigned),
                    None)
        if copy is None or not any(names(s, let.name) for s in stmts[at + 1:copy]) or \
                not any(names(s, let.name) for s in stmts[copy + 1:]):
            continue
        again = _fresh(run.state, let)
        rest = [fresh_copy(s, {let.name: again.name}) for s in stmts[copy + 1:]]
        stmts = stmts[:copy + 1] + [again] + rest
    return block if stmts == list(block.stmts) else block.replace(stmts=tuple(stmts))


def _fresh(st: State, let):
    """let bound again: its local and the locals its closure binds named anew."""
    renamed = {b: unused_name(display_name(b), st.taken)
               for b in [let.name, *bound_locals(let.value)]}
    return fresh_copy(let, renamed)
