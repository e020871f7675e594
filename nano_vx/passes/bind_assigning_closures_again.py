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
    direct: dict = field(default_factory=dict)  # the locals bound to closures only called
    lets: dict = field(default_factory=dict)  # such a local -> its `let`
    taken: set = field(default_factory=set)  # the names of the function's locals


bind_assigning_closures_again = Pass("bind-assigning-closures-again", L, L, """
Bind each closure only called that assigns a variable copied by a `let` after it in its
block (`let d = c;`), or calls a closure only called that does, and that is named both
before and after that copy, or copied in a block inside its block that names it after the
copy, again just after the copy (with each closure it calls that assigns the variable),
each statement after it calling the new one: `let reset = |s: i32| { c = counter(s); };
reset(5); let d = c; reset(50);` is `.. reset(5); let d = c; let reset_1 = |s_1: i32| { c =
counter(s_1); }; reset_1(50);`.

A copy of a counter keeps the value it was given once the variable it copies is assigned
another, which capture-environments makes its own where the assignment sees the copy. The
closure bound before the copy does not see it, and is called only before it or outside its
block (a loop's body binding the copy anew each turn), when no copy is alive; the new one
sees it (delay-assigning-closures moves a closure named only after the copy in its own
block instead). A closure calling one that assigns the variable (`let again = |s: i32| {
reset(s); };`) is bound again with that one, the new one calling the new one; where
nothing names the first any more, its call of the one bound before the copy never runs.
""", state=State)


@bind_assigning_closures_again.on("Fn")
def _fn(run, fn):
    st = run.state
    st.direct = direct_closures(fn)
    if not st.direct:
        return fn
    st.lets = {n.name: n for n in descendants(fn) if n._prod == "Let" and n.name in st.direct}
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


@bind_assigning_closures_again.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    st = run.state
    stmts = list(block.stmts)
    for name in [s.name for s in block.stmts if s._prod == "Let" and s.name in st.direct]:
        at = next(i for i, s in enumerate(stmts) if s._prod == "Let" and s.name == name)
        copy = _copy_after(st, stmts, at + 1, st.lets[name])
        if copy is None or not any(names(s, name) for s in stmts[at + 1:copy]):
            continue
        stmts = _bound_again(st, stmts, copy, st.lets[name])
    # a closure bound around the block, which it names after a copy there
    inner = {id(n) for n in descendants(block)}
    for name, let in st.lets.items():
        if id(let) not in inner and any(names(s, name) for s in stmts):
            copy = _copy_after(st, stmts, 0, let)
            if copy is not None:
                stmts = _bound_again(st, stmts, copy, let)
    return block if stmts == list(block.stmts) else block.replace(stmts=tuple(stmts))


def _copy_after(st: State, stmts, start: int, let):
    """The position of the first `let` from `start` on copying a variable let's closure
    assigns (or a closure it calls does), when a statement after it names the closure; else
    None."""
    assigned = set().union(*(_assigns(st.lets[name]) for name in _calling(st, let)))
    copy = next((j for j in range(start, len(stmts)) if stmts[j]._prod == "Let"
                 and stmts[j].value._prod == "Local" and stmts[j].value.name in assigned), None)
    if copy is None or not any(names(s, let.name) for s in stmts[copy + 1:]):
        return None
    return copy


def _assigns(let) -> set:
    """The locals let's closure assigns."""
    return {n.target.name for n in descendants(let.value.body)
            if n._prod == "Assign" and n.target._prod == "Local"}


def _calling(st: State, let) -> list:
    """The names of let's closure and of the closures only called it names, and they name,
    in the order of their `let`s."""
    found = {let.name}
    while more := {name for name in st.lets for f in found
                   if names(st.lets[f].value.body, name)} - found:
        found |= more
    return [name for name in st.lets if name in found]


def _bound_again(st: State, stmts: list, copy: int, let) -> list:
    """stmts with let bound again after the copy, and before it each closure it calls (or
    one it calls does) that assigns the variable copied, each statement after them, and each
    of them, naming the new ones: a closure bound before the copy, called by the new one,
    would assign the variable where the copy is not seen."""
    copied = stmts[copy].value.name
    again = [name for name in _calling(st, let) if name == let.name or
             any(copied in _assigns(st.lets[f]) for f in _calling(st, st.lets[name]))]
    renamed = {b: unused_name(display_name(b), st.taken)
               for name in again for b in [name, *bound_locals(st.lets[name].value)]}
    news = {name: renamed[name] for name in again}
    lets = [fresh_copy(st.lets[name], renamed) for name in again]
    rest = [fresh_copy(s, news) for s in stmts[copy + 1:]]
    return stmts[:copy + 1] + lets + rest
