"""drop-unread-closure-parameters: Lsplit -> Lsplit.

Same IL: reading a variable that holds a closure, or making a closure, computes nothing, and
a parameter the body never names is never read, so each call computes what it computed and
the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import direct_closures


@dataclass
class State:
    unread: dict = field(default_factory=dict)  # a closure's local -> the positions that go
    closures: dict = field(default_factory=dict)  # id() of a closure -> the positions that go
    copies: set = field(default_factory=set)  # the locals whose `let`s copy a parameter that goes


drop_unread_closure_parameters = Pass("drop-unread-closure-parameters", L, L, """
Drop each parameter its body never reads of a closure a `let` binds and that is only
called, every call of which gives it there a variable holding a closure or a closure, with
that argument of each call; a parameter only copied by `let`s into variables nothing else
names (`|x| { let y = x; 1 }`) is never read either, and those `let`s go with it.

A closure that never calls the closure it is given (`let take = |x| 1; take(f);`) leaves
the variable given named, so drop-uncalled-closures keeps it, and with it a closure of a
parameter of no written type that no call types (`let mut f = g; f = h;`, g and h indexing
their parameters). A variable holds a closure when a `let` binds it to one or to another
such variable and every assignment gives it one of those.
""", state=State)


@drop_unread_closure_parameters.on("Fn")
def _fn(run, fn):
    st = run.state
    held = _holding_closures(fn)
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    st.unread, st.closures, st.copies = {}, {}, set()
    for name, closure in direct_closures(fn).items():
        given = [c.args for c in calls if c.callee.name == name]
        if any(len(args) != len(closure.params) for args in given):
            continue
        unread = {k: copies for k, p in enumerate(closure.params)
                  if (copies := _only_copied(closure.body, p.name)) is not None
                  and all(_holds_closure(args[k], held) for args in given)}
        if unread:
            st.unread[name] = st.closures[id(closure)] = frozenset(unread)
            st.copies.update(*unread.values())
    return run.rebuild(fn) if st.unread else fn


def _only_copied(body, param: str) -> set | None:
    """The locals that `let`s of body bind to param or to such a copy, when every read of
    them is the value of one of those `let`s and nothing assigns them; else None."""
    lets = [n for n in descendants(body) if n._prod == "Let" and n.value._prod == "Local"]
    copied = {param}
    while more := {n.name for n in lets if n.value.name in copied} - copied:
        copied |= more
    values = {id(n.value) for n in lets if n.name in copied}
    if any(n._prod == "Local" and n.name in copied and id(n) not in values
           for n in descendants(body)):
        return None
    return copied - {param}


def _holding_closures(fn) -> set:
    """The locals of fn that hold a closure wherever they are read."""
    lets = {n.name: n.value for n in descendants(fn) if n._prod == "Let"}
    given: dict = {name: [value] for name, value in lets.items()}
    for n in descendants(fn):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name in given:
            given[n.target.name].append(n.value)
    held = set(given)
    while wrong := {name for name in held
                    if not all(_holds_closure(v, held) for v in given[name])}:
        held -= wrong
    return held


def _holds_closure(e, held: set) -> bool:
    return e._prod == "Closure" or e._prod == "Local" and e.name in held


@drop_unread_closure_parameters.on("Closure")
def _closure(run, closure):
    unread = run.state.closures.get(id(closure), ())
    rebuilt = run.rebuild(closure)
    return rebuilt.replace(params=tuple(p for k, p in enumerate(rebuilt.params)
                                        if k not in unread)) if unread else rebuilt


@drop_unread_closure_parameters.on("Call")
def _call(run, call):
    rebuilt = run.rebuild(call)
    unread = run.state.unread.get(call.callee.name, ()) if call.callee._prod == "Local" else ()
    return rebuilt.replace(args=tuple(a for k, a in enumerate(rebuilt.args)
                                      if k not in unread)) if unread else rebuilt


@drop_unread_closure_parameters.on("Let", splice=True)
def _let(run, let):
    return () if let.name in run.state.copies else (run.rebuild(let),)
