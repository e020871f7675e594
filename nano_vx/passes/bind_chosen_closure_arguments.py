"""bind-chosen-closure-arguments: Lmatched -> Lmatched.

Same IL: each argument bound is arithmetic on variables, literals and their fields, which
changes nothing, or a call of a function given such arithmetic at parameters of scalar
types, which reaches none of the caller's variables, computed by its `let` first in the
statement; what the statement computed
before it, the call's callee and the arguments before it, computes nothing, so a stop in
the arithmetic comes where it came, and the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..nanopass import Pass
from ..languages.lmatched import Lmatched as L
from ..scalars.aggregates import Names
from ..scalars.closure_parts import computes_nothing
from ..scalars.closures import direct_closures, only_called


@dataclass
class State:
    closures: dict = field(default_factory=dict)  # a closure's local -> the closure
    called: set = field(default_factory=set)  # the locals a `let` binds, only called
    names: Names | None = None
    scalar_fns: frozenset = frozenset()  # the functions taking only scalars


bind_chosen_closure_arguments = Pass("bind-chosen-closure-arguments", L, L, """
Bind by a `let` of its own, just before the statement, each argument computing arithmetic
(on variables, literals and their fields), or calling a function taking only scalars given
such arithmetic (which reaches none of the caller's variables), of a call of a closure a
`let` binds and only calls, whose body is one of its parameters or an `if` choosing among
them, given to a parameter of a written type, where the call is called or is the value of a
`let` of a local only called, and what its statement (a `let`, an assignment to a variable,
a `return` or an expression) computes before it is only variables, literals and their
fields: `pick(g, h, c.n - 1)(c)` is `let k: i32 = c.n - 1; pick(g, h, k)(c)`, and so are
`total = total + pick(g, h, c.n - 1)(c)` and `pick(g, h, less(c.n))(c)`, which
inline-identity-closures makes an `if` calling `g` or `h`, where it takes a call given only
variables, literals and their fields.

A call of a closure stays where it is: it may assign a variable it captures that the
statement read before it.
""", state=State)


@bind_chosen_closure_arguments.on("Program")
def _program(run, program):
    run.state.scalar_fns = frozenset(
        item.name for item in program.items if item._prod == "Fn" and
        all(p.type is not None and p.type._prod == "Scalar" for p in item.params))
    return run.rebuild(program)


@bind_chosen_closure_arguments.on("Fn")
def _fn(run, fn):
    st = run.state
    st.closures = {name: c for name, c in direct_closures(fn).items() if _chooses(c)}
    if not st.closures:
        return fn
    st.called = set(only_called(fn, lambda value: True))
    st.names = Names(fn)
    return run.rebuild(fn)


def _chooses(closure) -> bool:
    """Whether closure's body is one of its parameters or an `if` (what
    inline-identity-closures may make a call of it)."""
    v = closure.body.value
    return not closure.body.stmts and v is not None and \
        (v._prod == "Local" and v.name in {p.name for p in closure.params} or
         v._prod == "IfExpr")


@bind_chosen_closure_arguments.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    st = run.state
    stmts: list = []
    for s in block.stmts:
        attr = "expr" if s._prod == "ExprStmt" else "value"
        if (s._prod in ("Let", "Return", "ExprStmt") or
                s._prod == "Assign" and s.target._prod == "Local") and \
                getattr(s, attr) is not None:
            value, lets = _first(st, getattr(s, attr),
                                 s._prod == "Let" and s.name in st.called)
            s = s.replace(**{attr: value})
            stmts += lets
        stmts.append(s)
    value = block.value
    if value is not None:
        value, lets = _first(st, value, False)
        stmts += lets
    return block.replace(stmts=tuple(stmts), value=value)


def _first(st, e, called: bool):
    """e, the call it computes first (after variables, literals and their fields) bound as
    described where that is a call of such a closure that is called (called: e is), and
    the `let`s binding its arguments."""
    if e._prod == "Binary" and e.op not in ("&&", "||"):
        # the right operand of `&&` or `||` may not run at all
        if not computes_nothing(e.left):
            left, lets = _first(st, e.left, False)
            return e.replace(left=left), lets
        right, lets = _first(st, e.right, False)
        return e.replace(right=right), lets
    if e._prod != "Call":
        return e, []
    closure = st.closures.get(e.callee.name) if e.callee._prod == "Local" else None
    if closure is not None and called:
        return _bound(st, e, closure)
    if e.callee._prod == "Call":
        callee, lets = _first(st, e.callee, True)
        return e.replace(callee=callee), lets
    at = next((i for i, a in enumerate(e.args) if not computes_nothing(a)), None)
    if e.callee._prod in ("Local", "Global") and at is not None:
        first, lets = _first(st, e.args[at], False)
        return e.replace(args=(*e.args[:at], first, *e.args[at + 1:])), lets
    return e, []


def _bound(st, call, closure):
    lets, args = [], []
    for p, a in zip(closure.params, call.args):
        if p.type is None or computes_nothing(a) or not (_arithmetic(a) or
                                                          _scalar_call(st, a)):
            args.append(a)
            continue
        name = st.names.fresh(p.name)
        lets.append(L["Let"](name, False, p.type, a, span=a.span))
        args.append(L["Local"](name, span=a.span))
    return call.replace(args=tuple(args)), lets


def _scalar_call(st, e) -> bool:
    """Whether e calls by name a function taking only scalars, given arithmetic: it cannot
    reach the caller's variables, so computing it first changes none read before it."""
    return e._prod == "Call" and e.callee._prod == "Global" and \
        e.callee.name in st.scalar_fns and all(_arithmetic(a) for a in e.args)


def _arithmetic(e) -> bool:
    """Whether e computes only operators, casts and fields of variables and literals, which
    change nothing."""
    if e._prod == "Binary":
        return _arithmetic(e.left) and _arithmetic(e.right)
    if e._prod == "Unary":
        return _arithmetic(e.operand)
    if e._prod == "Cast":
        return _arithmetic(e.value)
    if e._prod in ("FieldGet", "TupleGet"):
        return _arithmetic(e.base)
    return e._prod in ("Local", "Int", "Float", "Bool")
