"""capture-lent-references: Lassumed -> Lassumed.

Same IL: each call lent the parameter the same reference variable, which the closure sees
where it is made, and a closure reads and assigns the variables it captures when called, as
it did through the parameter, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lassumed import Lassumed as L
from ..nanopass import Pass, descendants
from ..scalars.closures import direct_closures, visible_at_lets


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
variables at two calls, or by a variable the closure does not see where it is made, stays.
""", state=State)


@capture_lent_references.on("Fn")
def _fn(run, fn):
    nodes = list(descendants(fn))
    borrows = {n.name: n.value.value.name for n in nodes if n._prod == "Let" and
               not n.mutable and _lends(n.value)}
    lets = {n.name: n for n in nodes if n._prod == "Let"}
    visible = visible_at_lets(fn)
    calls = [n for n in nodes if n._prod == "Call" and n.callee._prod == "Local"]
    lent, named = {}, {}
    for name, closure in direct_closures(fn).items():
        given = [c for c in calls if c.callee.name == name]
        for k, p in enumerate(closure.params):
            if not (_ref_of_ref(p.type) and given and _only_dereferenced(closure.body, p.name)):
                continue
            vars_ = {_variable(c.args[k], borrows) for c in given}
            if len(vars_) == 1 and (r := vars_.pop()) is not None and \
                    r in visible[id(lets[name])]:
                lent.setdefault(name, {})[k] = r
                named[p.name] = r
    run.state.lent, run.state.named = lent, named
    return run.rebuild(fn) if lent else fn


def _lends(e) -> bool:
    return e._prod == "Borrow" and e.mutable and e.value._prod == "Local"


def _ref_of_ref(ty) -> bool:
    return ty is not None and ty._prod == "BorrowType" and ty.mutable and \
        ty.inner._prod == "BorrowType"


def _variable(arg, borrows: dict):
    """The variable arg lends by `&mut`, itself or by a local holding it, else None."""
    if _lends(arg):
        return arg.value.name
    return borrows.get(arg.name) if arg._prod == "Local" else None


def _only_dereferenced(body, name: str) -> bool:
    derefs = {id(n.value) for n in descendants(body) if n._prod == "Deref"}
    return all(id(n) in derefs for n in descendants(body)
               if n._prod == "Local" and n.name == name)


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
