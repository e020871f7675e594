"""halt-closure-prints: Lpinned -> Lpinned.

Same IL: a `print` of a closure, or a comparison of two, is the stop the interpreter makes
there (E9006), so native code stops with its message at its span."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in

_COMPARE = frozenset("== != < <= > >=".split())


@dataclass
class State:
    closures: set = field(default_factory=set)  # the locals of the function holding a closure
    makers: dict = field(default_factory=dict)  # each local a `let` binds to a closure -> it
    taken: set = field(default_factory=set)  # the names of the function's locals


halt_closure_prints = Pass("halt-closure-prints", L, L, """
Make each `print` of a variable holding a closure, and each comparison of two, the stop the
interpreter makes there (E9006): it prints no closure and compares none.

A variable holds a closure when a `let` or an assignment gives it a closure, another such
variable, an `if` choosing one in an arm, or a call of a closure a `let` binds whose value is
one, and so does a parameter of a closure a variable may hold (a `let`, an assignment or an
argument gives it the closure, or a variable, an `if` or a call of a closure returning it)
that a call of that variable gives one of those (the front end's
types make every arm and every value of the variable alike, and type-scalars every argument a
parameter is given, whichever closure the call calls). A `print`
given another expression of those kinds (`print(if c { f } else { g })`) computes it first,
bound by a `let` of a fresh name, then stops. The comparison is the first thing its
statement computes (only names and literals before it), so nothing of the statement runs
before the stop; it becomes `false` in a statement kept after the stop (other than an
expression's), which never runs but keeps what it binds bound. Any other closure printed or
compared stays for type-scalars, which refuses it (E5010).
""", state=State)


@halt_closure_prints.on("Fn")
def _fn(run, fn):
    st = run.state
    if not any(n._prod == "Closure" for n in descendants(fn)):
        return fn
    st.makers = {n.name: n.value for n in descendants(fn)
                 if n._prod == "Let" and n.value._prod == "Closure"}
    st.closures = _holding_closures(fn, st.makers)
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    return run.rebuild(fn)


def _holding_closures(fn, makers) -> set:
    """The locals a closure is bound or assigned to, found until none is added: a parameter of
    a closure a variable may hold (`_closures_held`) is given each argument at its place of a
    call of that variable."""
    bindings = [(n.name, n.value) for n in descendants(fn) if n._prod == "Let"] + \
        [(n.target.name, n.value) for n in descendants(fn)
         if n._prod == "Assign" and n.target._prod == "Local"]
    calls = [n for n in descendants(fn) if n._prod == "Call" and n.callee._prod == "Local"]
    held = _closures_held(bindings, calls, makers)
    given = bindings + _arguments(calls, held)
    closures: set = set()
    while True:
        more = {name for name, value in given
                if name not in closures and _closure_valued(value, closures, makers)}
        if not more:
            return closures
        closures |= more


def _arguments(calls, held) -> list:
    """(parameter, argument) of each closure a call's variable may hold, at each call."""
    return [(p.name, arg) for n in calls for closure in list(held.get(n.callee.name, {}).values())
            for p, arg in zip(closure.params, n.args)]


def _closures_held(bindings, calls, makers) -> dict:
    """Each local -> the closures it may hold, by id(): those a `let` or an assignment gives
    it, and a parameter's those an argument at its place gives it, found until none is
    added."""
    held: dict = {}
    while True:
        grown = False
        for name, value in bindings + _arguments(calls, held):
            mine = held.setdefault(name, {})
            for closure in _closures_of(value, makers, held):
                grown |= id(closure) not in mine
                mine[id(closure)] = closure
        if not grown:
            return held


def _closures_of(e, makers, held) -> list:
    """The closures an expression may be: itself, a variable's, an arm of an `if` it is, or
    the value of a closure a `let` binds that it calls."""
    if e._prod == "Closure":
        return [e]
    if e._prod == "Local":
        return list(held.get(e.name, {}).values())
    if e._prod == "IfExpr":
        return [c for arm in (e.then, e.orelse) if arm.value is not None
                for c in _closures_of(arm.value, makers, held)]
    if e._prod == "Call" and e.callee._prod == "Local" and e.callee.name in makers:
        value = makers[e.callee.name].body.value
        return [] if value is None else _closures_of(value, makers, held)
    return []


def _closure_valued(e, closures, makers) -> bool:
    prod = e._prod
    if prod == "Closure":
        return True
    if prod == "Local":
        return e.name in closures
    if prod == "IfExpr":
        return any(arm.value is not None and _closure_valued(arm.value, closures, makers)
                   for arm in (e.then, e.orelse))
    if prod == "Call" and e.callee._prod == "Local" and e.callee.name in makers:
        value = makers[e.callee.name].body.value
        return value is not None and _closure_valued(value, closures, makers)
    return False


def _printed_closure(run, e) -> bool:
    """Whether e is a `print` of an expression other than a name that holds a closure."""
    if not (e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print"
            and len(e.args) == 1):
        return False
    arg = e.args[0]
    return arg._prod != "Local" and _closure_valued(arg, run.state.closures, run.state.makers)


def _closure(run, e) -> bool:
    return e._prod == "Local" and e.name in run.state.closures


def _computed_first(e) -> str | None:
    """The field of e holding what it computes before itself, in order: an operand, a cast's
    value, an `if`'s condition, a function's arguments."""
    prod = e._prod
    return {"Binary": "left right", "Unary": "operand", "Cast": "value", "IfExpr": "cond"}.get(
        prod, "args" if prod == "Call" and e.callee._prod == "Global" else None)


def _parts(e) -> list:
    """(field, index or None, node) of what e computes before itself, in order."""
    parts = []
    for name in (_computed_first(e) or "").split():
        value = getattr(e, name)
        if isinstance(value, tuple):
            parts += [(name, i, v) for i, v in enumerate(value)]
        else:
            parts.append((name, None, value))
    return parts


def _first(e):
    """What an expression computes first, when names and literals alone come before it."""
    if e._prod in ("Local", "Int", "Float", "Bool", "Str"):
        return None
    for _, _, part in _parts(e):
        first = _first(part)
        if first is not None:
            return first
    return e


def _stop(run, e, printed: bool):
    """The stop the interpreter makes first in computing e (`printed`: a statement's whole
    expression, maybe a `print`), if any: (the node, its Halt)."""
    first = _first(e)
    if first is None:
        return None
    if printed and first is e and first._prod == "Call" and first.callee.name == "print" and \
            len(first.args) == 1 and _closure(run, first.args[0]):
        return first, L["Halt"]("E9006", "cannot print a value of type closure",
                                span=first.span)
    if first._prod == "Binary" and first.op in _COMPARE and _closure(run, first.left) and \
            _closure(run, first.right):
        return first, L["Halt"]("E9006", f"cannot apply '{first.op}' to closure and closure",
                                span=first.span)
    return None


# The expression each statement computes first.
_COMPUTES = {"ExprStmt": "expr", "Let": "value", "If": "cond", "While": "cond",
             "Return": "value", "Assert": "cond"}


@halt_closure_prints.on(*_COMPUTES, "Assign", splice=True)
def _statement(run, node):
    name = _COMPUTES.get(node._prod, "value")
    e = getattr(node, name)
    if node._prod == "ExprStmt" and _printed_closure(run, e):
        span = e.span
        held = L["Let"](unused_name("printed", run.state.taken), False, L["OpaqueType"](span=span),
                        run.walk(e.args[0]), span=span)
        return (held, L["Halt"]("E9006", "cannot print a value of type closure", span=span))
    found = None
    if e is not None and (node._prod != "Assign" or node.target._prod == "Local"):
        found = _stop(run, e, printed=node._prod == "ExprStmt")
    if found is None:
        return (run.rebuild(node),)
    first, halt = found
    if node._prod == "ExprStmt":
        return (halt,)
    kept = node.replace(**{name: _replaced(e, first, L["Bool"](False, span=first.span))})
    return (halt, run.rebuild(kept))


def _replaced(e, old, new):
    """e with the node `old` (on the path _first took) replaced by `new`."""
    if e is old:
        return new
    changed = {}
    for name, i, part in _parts(e):
        part = _replaced(part, old, new)
        if i is None:
            changed[name] = part
        else:
            changed.setdefault(name, []).append(part)
    return e.replace(**{name: tuple(v) if isinstance(v, list) else v
                        for name, v in changed.items()})
