"""erase-unit-lets: Lmatched -> Lmatched.

Same IL: a variable of type `()` holds nothing, so its `let` is only the computation of its
value, and a `print` of it the interpreter's stop (E9006)."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass, descendants

_UNIT_PRINTED = "cannot print a value of type ()"


@dataclass
class State:
    units: set = field(default_factory=set)  # the function's locals of type () it erases


erase_unit_lets = Pass("erase-unit-lets", L, L, """
Make each `let` of a variable of type `()` the computation of its value, and each `print` of
such a variable the stop the interpreter makes there (E9006): a value of type `()` needs no
storage.

`let d = print(1);` is `print(1);`, `d = print(2);` is `print(2);` and `print(d);` stops with
"cannot print a value of type ()"; `let s = if c { print(5) } else { print(6) };` (a `match`
lower-matches wrote as one) is the `if` statement. A variable is erased when the front end
typed its `let` `()` and each read of it is one of those: a `print`, a `let` of another such
variable, or a statement of its own (an `if` statement's arm's value too); one read
otherwise (given to a closure, held in a tuple) keeps its `let`, for the passes after to
lower or refuse (halt-unit-operations made each comparison of one a stop before).
""", state=State)


@erase_unit_lets.on("Fn")
def _fn(run, fn):
    run.state.units = _erased(fn)
    return run.rebuild(fn) if run.state.units else fn


def _erased(fn) -> set:
    """The locals of type () whose every read this pass rewrites, found by dropping, until
    none is dropped, each read elsewhere (or a `let` of an erased one into a kept one)."""
    nodes = list(descendants(fn))
    units = {n.name for n in nodes if n._prod == "Let" and _unit_type(n.type)}
    while True:
        rewritten = set()
        for n in nodes:
            if n._prod == "Let" and n.name in units:
                rewritten |= _discarded(n.value)
            elif n._prod == "Assign" and _assigned(n, units):
                rewritten |= {id(n.target)} | _discarded(n.value)
            elif n._prod == "ExprStmt":
                rewritten |= _discarded(n.expr)
                if _printed(n.expr) is not None:
                    rewritten.add(id(n.expr.args[0]))
        kept = {n.name for n in nodes if n._prod == "Local" and n.name in units
                and id(n) not in rewritten}
        if not kept:
            return units
        units -= kept


def _discarded(e) -> set:
    """id() of e and, e an `if`, of what its arms compute: values no one reads."""
    if e._prod != "IfExpr":
        return {id(e)}
    return {id(e)}.union(*(_discarded(arm.value) for arm in (e.then, e.orelse)
                           if arm.value is not None))


def _unit_type(t) -> bool:
    return t._prod == "Scalar" and t.name == "void"


def _assigned(node, units) -> bool:
    return node.op == "=" and node.target._prod == "Local" and node.target.name in units


def _printed(e):
    """The argument of `print(x)`, or None for any other expression."""
    if e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print" \
            and len(e.args) == 1:
        return e.args[0]
    return None


def _erased_local(run, e) -> bool:
    return e._prod == "Local" and e.name in run.state.units


@erase_unit_lets.on("Let", splice=True)
def _let(run, node):
    if node.name not in run.state.units:
        return (run.rebuild(node),)
    return _computed(run, node.value)


@erase_unit_lets.on("Assign", splice=True)
def _assign(run, node):
    if not _assigned(node, run.state.units):
        return (run.rebuild(node),)
    return _computed(run, node.value)


@erase_unit_lets.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    arg = _printed(node.expr)
    if arg is not None and _erased_local(run, arg):
        return (L["Halt"]("E9006", _UNIT_PRINTED, span=node.expr.span),)
    if _erased_local(run, node.expr) or _chooses_erased(run, node.expr):
        return _computed(run, node.expr)
    return (run.rebuild(node),)


def _chooses_erased(run, e) -> bool:
    """Whether e is an `if` an arm of which gives an erased variable (or such an `if`)."""
    return e._prod == "IfExpr" and any(
        arm.value is not None and (_erased_local(run, arm.value) or
                                   _chooses_erased(run, arm.value))
        for arm in (e.then, e.orelse))


def _computed(run, e) -> tuple:
    """The statements computing e, a value of type () no one reads: none for an erased
    variable, an `if` statement for an `if` (its arms computing theirs), else e's own."""
    if _erased_local(run, e):
        return ()
    if e._prod == "IfExpr":
        return (L["If"](run.walk(e.cond), e.comptime, _arm(run, e.then), _arm(run, e.orelse),
                        span=e.span),)
    return (L["ExprStmt"](run.walk(e), span=e.span),)


def _arm(run, block):
    body = run.walk(block.replace(value=None))
    if block.value is None:
        return body
    return body.replace(stmts=body.stmts + _computed(run, block.value))
