"""inline-identity-closures: Lmatched -> Lmatched.

Same IL: the call computed nothing but its arguments, variables, functions and literals,
which compute nothing and cannot stop, and gave back the one its body names, so the
interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nanopass import Pass
from ..languages.lmatched import Lmatched as L
from ..scalars.closure_parts import rechoose
from ..scalars.closures import direct_closures, only_called


@dataclass
class State:
    fns: set = field(default_factory=set)  # the program's functions
    given_back: dict = field(default_factory=dict)  # a closure's local -> the k its body names
    called: set = field(default_factory=set)  # the locals a `let` binds, only called


inline_identity_closures = Pass("inline-identity-closures", L, L, """
Make each call of a closure a `let` binds and only calls, whose body is one of its
parameters, that is itself called or the value of a `let` of a local only called, what it
is given there (a variable, a function of the program or another such call, variables or
literals else): `let keep = |h| h; keep(g)(c)` is `g(c)`, and `let f = keep(g);` is `let f
= g;` (so too in an arm of an `if` such a `let` binds).

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
    run.state.given_back = {name: k for name, closure in direct_closures(fn).items()
                            if (k := _named(closure)) is not None}
    run.state.called = set(only_called(fn, lambda value: True))
    return run.rebuild(fn) if run.state.given_back else fn


def _named(closure):
    """The position of the parameter closure's body is, else None."""
    body = closure.body
    if body.stmts or body.value is None or body.value._prod != "Local":
        return None
    return next((k for k, p in enumerate(closure.params) if p.name == body.value.name), None)


@inline_identity_closures.on("Call")
def _call(run, call):
    call = run.rebuild(call)
    return call.replace(callee=_given_back(run.state, call.callee))


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
    """What e gives back, where it is a call described above (of a call of one too)."""
    k = st.given_back.get(e.callee.name) if e._prod == "Call" and \
        e.callee._prod == "Local" else None
    if k is None:
        return e
    given = _given_back(st, e.args[k])
    if not (given._prod == "Local" or given._prod == "Global" and given.name in st.fns) or \
            not all(a._prod in ("Local", "Int", "Float", "Bool")
                    for j, a in enumerate(e.args) if j != k):
        return e
    return given
