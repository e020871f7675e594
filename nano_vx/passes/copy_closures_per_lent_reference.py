"""copy-closures-per-lent-reference: Lassumed -> Lassumed.

Same IL: a copy of a closure, bound beside it, reads what it reads where it is called, so
each call computes what it computed, and the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..languages.lresolved import display_name, unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in, copies_per_kind, visible_at_lets, with_copies
from ..scalars.lent_references import lending_locals, lent_parameters, lent_variable


@dataclass
class State:
    callee: dict = field(default_factory=dict)  # id() of a call -> the copy it calls
    copies: dict = field(default_factory=dict)  # a closure's local -> its copies' names
    taken: set = field(default_factory=set)  # the names of the function's locals


copy_closures_per_lent_reference = Pass("copy-closures-per-lent-reference", L, L, """
Give a closure a `let` binds and that is only called, whose calls lend a `&mut &T`
parameter its body only dereferences different reference variables, each seen where the
closure is bound, a copy of its own per set of variables, bound after it, each call calling
the copy of the variables it lends.

capture-lent-references then makes such a parameter the one variable every call of its
closure lends it, captured: `point(&mut r); point(&mut s);` of `let point = |q: &mut &i32|
{ *q = &y; };` calls `point` and `point#1`, one lent r and the other s. A reference has no
cell in native code, so a closure one of whose calls lends such a parameter what is not a
variable (a `&mut` passed on), or a variable bound after it (after its first call:
delay-lending-closures moves its `let` past one bound before), is left one.
""", state=State)


@copy_closures_per_lent_reference.on("Fn")
def _fn(run, fn):
    st = run.state
    lending = lending_locals(fn)
    lets = {n.name: n for n in descendants(fn) if n._prod == "Let"}
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    visible = visible_at_lets(fn)

    def lent(name, closure) -> list:
        """closure's `&mut &T` parameters that every call lends a variable seen where the
        closure is bound."""
        seen = visible[id(lets[name])]
        given = [c.args for c in calls if c.callee.name == name]
        return [k for k in lent_parameters(closure) if all(
            len(args) == len(closure.params) and lent_variable(args[k], lending) in seen
            for args in given)]

    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.copies, st.callee = copies_per_kind(
        fn, lambda arg: lent_variable(arg, lending), lambda kinds: True,
        lambda name, kind: unused_name(display_name(name), st.taken), lent)
    return run.rebuild(fn) if st.callee else fn


@copy_closures_per_lent_reference.on("Let", splice=True)
def _let(run, let):
    return with_copies(run.rebuild(let), run.state.copies.get(let.name, ()), run.state.taken)


@copy_closures_per_lent_reference.on("Call")
def _call(run, call):
    copy = run.state.callee.get(id(call))
    rebuilt = run.rebuild(call)
    return rebuilt if copy is None else rebuilt.replace(callee=rebuilt.callee.replace(name=copy))
