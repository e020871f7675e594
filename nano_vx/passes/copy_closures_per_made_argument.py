"""copy-closures-per-made-argument: Lsplit -> Lsplit.

Same IL: the copy reads the variable where the closure read its parameter, which held that
variable's value, and the variable is never assigned; making a closure computes nothing, so
the `let` of the copy before the statement changes nothing the interpreter prints."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lresolved import display_name, unused_name
from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, direct_closures
from ..scalars.storages import fresh_copy


@dataclass
class State:
    calls: dict = field(default_factory=dict)  # id() of a call -> (closure's `let`, copy, given)
    taken: set = field(default_factory=set)  # the names of the function's locals
    pending: list = field(default_factory=list)  # the copies' `let`s of the statement walked
    dropped: set = field(default_factory=set)  # the closures every call of which calls a copy


copy_closures_per_made_argument = Pass("copy-closures-per-made-argument", L, L, """
Call a closure a `let` binds and that is only called, given as an argument a variable a `let`
binds to what a call of a local returns, where the closure only calls the parameter, through
a copy bound before the call's statement that reads the variable instead of the parameter.

`let add5 = make_adder(5); print(apply_n(add5, 3, 10));`, apply_n only calling its first
parameter, is `let apply_n_add5 = |n, x| { .. add5(v) .. }; print(apply_n_add5(3, 10));`:
capture-environments lowers a closure given back by the closure around it where the variable
bound to it is only called, and type-scalars refuses it given as a value. The variable is
bound by a `let` (not `mut`) and never assigned, so it holds at the call the value the
parameter held; the parameter has no written type and the closure neither assigns it nor
names it but as a callee. Each call has a copy of its own, bound in the innermost block
around it, where the closure and the variable are both in scope, made of the closure as the
pass leaves it (a call in its body given such a variable calls a copy too); a closure every
call of which calls a copy goes, as nothing would say its parameters' types.
""", state=State)


@copy_closures_per_made_argument.on("Fn")
def _fn(run, fn):
    st = run.state
    assigned = {n.target.name for n in descendants(fn)
                if n._prod == "Assign" and n.target._prod == "Local"}
    made = {n.name for n in descendants(fn) if n._prod == "Let" and not n.mutable
            and n.value._prod == "Call" and n.value.callee._prod == "Local"
            and n.name not in assigned}
    closures = direct_closures(fn)
    lets = {n.name: n for n in descendants(fn) if n._prod == "Let" and n.name in closures}
    taken = st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.calls, calls = {}, []
    for call in descendants(fn):
        if call._prod != "Call" or call.callee._prod != "Local" or \
                call.callee.name not in closures:
            continue
        closure = closures[call.callee.name]
        calls.append(call)
        if len(call.args) != len(closure.params):
            continue
        called = _only_called(closure, assigned)
        given = {p.name: a.name for p, a in zip(closure.params, call.args)
                 if p.name in called and a._prod == "Local" and a.name in made}
        if not given:
            continue
        name = unused_name("_".join([display_name(call.callee.name),
                                     *map(display_name, given.values())]), taken)
        st.calls[id(call)] = (lets[call.callee.name], name, given)
    if not st.calls:
        return fn
    copied = {c.callee.name for c in calls if id(c) in st.calls}
    st.dropped = copied - {c.callee.name for c in calls if id(c) not in st.calls}
    rebuilt = run.rebuild(fn)
    st.calls, st.dropped = {}, set()  # a constant's block after it is left as it is
    return rebuilt


def _only_called(closure, assigned: set) -> set:
    """The parameters of no written type the closure names only as a callee, never assigned."""
    callees = {id(n.callee) for n in descendants(closure.body) if n._prod == "Call"}
    named = {n.name for n in descendants(closure.body)
             if n._prod == "Local" and id(n) not in callees}
    return {p.name for p in closure.params
            if p.type is None and p.name not in named and p.name not in assigned}


@copy_closures_per_made_argument.on("Block")
def _block(run, block):
    st = run.state
    if not st.calls:
        return run.rebuild(block)
    around, stmts = st.pending, []
    for stmt in block.stmts:
        if stmt._prod == "Let" and stmt.name in st.dropped:
            continue
        st.pending = []
        walked = run.walk(stmt)
        stmts += [*st.pending, walked]
    st.pending = []
    value = None if block.value is None else run.walk(block.value)
    stmts += st.pending
    st.pending = around
    return block.replace(stmts=tuple(stmts), value=value)


@copy_closures_per_made_argument.on("Call")
def _call(run, call):
    st = run.state
    found = st.calls.get(id(call))
    rebuilt = run.rebuild(call)
    if found is None:
        return rebuilt
    let, name, given = found
    # the closure walked first: a call in its body given such a variable calls its own copy
    closure = run.walk(let.value)
    renamed = {b: unused_name(display_name(b), st.taken)
               for b in bound_in(closure) if b not in given}
    copy = fresh_copy(closure, {**renamed, **given})
    copy = copy.replace(params=tuple(p for p, q in zip(copy.params, closure.params)
                                     if q.name not in given))
    st.pending.append(let.replace(name=name, value=copy))
    kept = [k for k, p in enumerate(closure.params) if p.name not in given]
    return rebuilt.replace(callee=rebuilt.callee.replace(name=name),
                           args=tuple(rebuilt.args[k] for k in kept))
