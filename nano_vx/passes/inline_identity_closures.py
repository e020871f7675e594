"""inline-identity-closures: Lmatched -> Lmatched.

Same IL: the call computed nothing but its arguments, variables, functions, literals and
their fields, which compute nothing and cannot stop, then the comparison its body makes of
them, and gave back the one its body names, which the output names after computing the same
comparison; a call of it then computes its own arguments, as before, so the interpreter
runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nanopass import Pass
from ..languages.lmatched import Lmatched as L
from ..scalars.closure_parts import computes_nothing, rechoose
from ..scalars.closures import direct_closures, only_called
from ..scalars.signatures import written
from ..scalars.storages import bound_locals, chosen_values, fresh_copy


@dataclass
class State:
    fns: set = field(default_factory=set)  # the program's functions
    given_back: dict = field(default_factory=dict)  # a closure's local -> the closure
    called: set = field(default_factory=set)  # the locals a `let` binds, only called


inline_identity_closures = Pass("inline-identity-closures", L, L, """
Make each call of a closure a `let` binds and only calls, whose body is one of its
parameters, that is itself called or the value of a `let` of a local only called, what it
is given there (a variable, a function of the program or another such call, variables,
literals or their fields else): `let keep = |h| h; keep(g)(c)` is `g(c)`, and `let f =
keep(g);` is `let f = g;` (so too in an arm of an `if` such a `let` binds).

A body whose statements only copy its parameters by `let`s of no written type is the same
body reading the parameters: `|h| { let k = h; k }` gives back h.

A body may also be an `if` choosing among its parameters by a comparison of parameters of a
written type and literals: the call is that `if`, each parameter what the call gives it,
and a call of it an `if` calling what each arm gives (`let pick = |a, b, k: i32| if k > 0 {
a } else { b }; pick(g, h, c.n)(c)` is `if c.n > 0 { g(c) } else { h(c) }`).

number-aggregate-function-values numbers a function taking or returning a struct, a tuple or
an enum that a closure's parameter only called holds; given to such a closure and called as
what the closure gives back, or bound by a `let` to what it gives back, it would be a
value of its own, which check-aggregate-function-values refuses. The closure, called no
more, makes nothing.
""", state=State)


@inline_identity_closures.on("Program")
def _program(run, program):
    run.state.fns = {item.name for item in program.items if item._prod == "Fn"}
    return run.rebuild(program)


@inline_identity_closures.on("Fn")
def _fn(run, fn):
    run.state.given_back = {name: copied for name, closure in direct_closures(fn).items()
                            if _chooses(copied := _without_copies(closure), copied.body)}
    run.state.called = set(only_called(fn, lambda value: True))
    return run.rebuild(fn) if run.state.given_back else fn


def _without_copies(closure):
    """closure with the `let`s opening its body that only copy a parameter (or such a copy)
    into a local by a `let` of no written type dropped, each read of a copy in its value a
    read of the parameter: `|x| { let y = x; y }` is `|x| x`. Such a copy computes nothing,
    cannot stop and converts nothing, so the value is the same."""
    params = {p.name for p in closure.params}
    copies: dict = {}  # a local a `let` binds -> the parameter it copies
    for s in closure.body.stmts:
        if s._prod != "Let" or s.mutable or written(s) or s.value._prod != "Local" or \
                s.value.name not in params and s.value.name not in copies:
            return closure
        copies[s.name] = copies.get(s.value.name, s.value.name)
    if not copies:
        return closure

    def read(e):
        if e._prod == "Local" and e.name in copies:
            return e.replace(name=copies[e.name])
        if e._prod != "IfExpr" or e.cond._prod != "Binary":
            return e
        return e.replace(cond=e.cond.replace(left=read(e.cond.left), right=read(e.cond.right)),
                         then=e.then.replace(value=read(e.then.value)),
                         orelse=e.orelse.replace(value=read(e.orelse.value)))
    value = closure.body.value
    return closure.replace(body=closure.body.replace(
        stmts=(), value=None if value is None else read(value)))


def _chooses(closure, body) -> bool:
    """Whether body is one of closure's parameters, or an `if` choosing among them by a
    comparison of its parameters of a written type and literals (each arm such a body)."""
    params = {p.name: p for p in closure.params}
    if body.stmts or body.value is None:
        return False
    v = body.value
    if v._prod == "Local":
        return v.name in params
    return v._prod == "IfExpr" and v.cond._prod == "Binary" and \
        v.cond.op in ("==", "!=", "<", "<=", ">", ">=") and \
        all(side._prod in ("Int", "Float", "Bool") or side._prod == "Local" and
            side.name in params and params[side.name].type is not None
            for side in (v.cond.left, v.cond.right)) and \
        _chooses(closure, v.then) and _chooses(closure, v.orelse)


@inline_identity_closures.on("Call")
def _call(run, call):
    """A call of what such a call gives back: where that is an `if`, each arm calls what it
    gives, given the arguments (a copy of them in each arm after the first), which bind no
    locals and are computed, as before, after the condition."""
    call = run.rebuild(call)
    callee = _given_back(run.state, call.callee)
    if callee._prod != "IfExpr":
        return call.replace(callee=callee)
    if any(bound_locals(a) for a in call.args):
        return call
    arms: list = []

    def called(v):
        arms.append(v)
        return call.replace(callee=v, args=call.args if len(arms) == 1 else
                            tuple(map(fresh_copy, call.args)))
    return rechoose(callee, called, lambda cond: cond)


@inline_identity_closures.on("Let")
def _let(run, node):
    """Only of a local only called: what it holds is then a function or a closure, which the
    call gave back as it was given, not a value the call could move or copy."""
    node = run.rebuild(node)
    if node.name not in run.state.called:
        return node
    return node.replace(value=rechoose(node.value, lambda v: _given_back(run.state, v),
                                       lambda cond: cond))


def _given_back(st, e):
    """What e gives back, where it is a call described above (of a call of one too): the
    closure's body, each parameter the argument given it, each it gives back what that gives
    back (a variable or a function of the program), the others variables, literals or their
    fields, which compute nothing and cannot stop."""
    closure = st.given_back.get(e.callee.name) if e._prod == "Call" and \
        e.callee._prod == "Local" else None
    if closure is None:
        return e
    given = {p.name: _given_back(st, a) for p, a in zip(closure.params, e.args)}
    chosen = {v.name for v in chosen_values(closure.body.value)}
    if not all(given[name]._prod == "Local" or given[name]._prod == "Global" and
               given[name].name in st.fns for name in chosen) or \
            not all(computes_nothing(a) for name, a in given.items() if name not in chosen):
        return e
    return _substituted(closure.body.value, given)


def _substituted(e, given: dict):
    """A copy of e, a body `_chooses` accepts, each parameter the argument given it."""
    if e._prod == "Local" and e.name in given:
        return fresh_copy(given[e.name])
    if e._prod != "IfExpr":
        return fresh_copy(e)
    cond = e.cond.replace(left=_substituted(e.cond.left, given),
                          right=_substituted(e.cond.right, given))
    return e.replace(cond=cond, then=e.then.replace(value=_substituted(e.then.value, given)),
                     orelse=e.orelse.replace(value=_substituted(e.orelse.value, given)))
