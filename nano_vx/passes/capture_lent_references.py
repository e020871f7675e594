"""capture-lent-references: Lassumed -> Lassumed.

Same IL: each call lent the parameter the same reference variable, which the closure sees
where it is made, and a closure reads and assigns the variables it captures when called, as
it did through the parameter, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.closures import direct_closures, visible_at_lets
from ..scalars.lent_references import lending_locals, lent_parameters, lent_variable


@dataclass
class State:
    lent: dict = field(default_factory=dict)  # a closure's local -> {k: the variable lent}
    named: dict = field(default_factory=dict)  # such a parameter -> the variable lent


capture_lent_references = Pass("capture-lent-references", L, L, """
Make each parameter of type `&mut &T` of a closure a `let` binds and only calls, that its
body only dereferences and that every call lends the same reference variable (`&mut r`, or
a local a `let` binds to it), that variable, captured: `let point = |q: &mut &i32| { *q =
&y; }; point(rr);` is `let point = || { r = &y; }; point();`.

A reference has no cell in native code, so a `&mut` of one passed on stays for
type-scalars to refuse; captured, the variable is one return-assigned-references gives the
closure and takes back at each call, and the `let` of the `&mut`, named no more by the
call, is one inline-borrowed-references writes as the variable. A parameter lent other
variables at two calls (which copy-closures-per-lent-reference gives a copy of the closure
each), or by a variable the closure does not see where it is made, stays.
""", state=State)


@capture_lent_references.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn))
    lending = lending_locals(fn)
    lets = {n.name: n for n in nodes if n._prod == "Let"}
    visible = visible_at_lets(fn)
    calls = [n for n in nodes if n._prod == "Call" and n.callee._prod == "Local"]
    lent, named = {}, {}
    for name, closure in direct_closures(fn).items():
        given = [c for c in calls if c.callee.name == name]
        for k in lent_parameters(closure) if given else ():
            vars_ = {lent_variable(c.args[k], lending) for c in given}
            if len(vars_) == 1 and (r := vars_.pop()) is not None and \
                    r in visible[id(lets[name])]:
                lent.setdefault(name, {})[k] = r
                named[closure.params[k].name] = r
    run.state.lent, run.state.named = lent, named
    return run.rebuild(fn) if lent else fn


@capture_lent_references.on("Closure")
def _closure(run, closure):
    closure = run.rebuild(closure)
    return closure.replace(params=tuple(p for p in closure.params
                                        if p.name not in run.state.named))


@capture_lent_references.on("Deref")
def _deref(run, e):
    if e.value._prod == "Local" and e.value.name in run.state.named:
        return L["Local"](run.state.named[e.value.name], span=e.value.span)
    return run.rebuild(e)


@capture_lent_references.on("Call")
def _call(run, call):
    call = run.rebuild(call)
    lent = run.state.lent.get(call.callee.name, {}) if call.callee._prod == "Local" else {}
    return call.replace(args=tuple(a for k, a in enumerate(call.args) if k not in lent))
