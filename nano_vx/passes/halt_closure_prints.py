"""halt-closure-prints: Lpinned -> Lpinned.

Same IL: a `print` of a closure or a function, or a comparison of two, is the stop the
interpreter makes there (E9006), so native code stops with its message at its span."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lpinned import Lpinned as L
from ..languages.lresolved import unused_name
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in

_COMPARE = frozenset("== != < <= > >=".split())
_FUNCTION, _CLOSURE = "function", "closure"  # the interpreter's names of the two


@dataclass
class State:
    fns: frozenset = frozenset()  # the program's functions: a `Global` naming one is a value
    kinds: dict = field(default_factory=dict)  # each local (or part, `pair.0`) -> kinds held
    makers: dict = field(default_factory=dict)  # each local a `let` binds to a closure -> it
    flags: dict = field(default_factory=dict)  # each local of both kinds -> its flag's name
    taken: set = field(default_factory=set)  # the names of the function's locals


halt_closure_prints = Pass("halt-closure-prints", L, L, """
Make each `print` of a variable holding a closure or a function, and each comparison of two,
the stop the interpreter makes there (E9006), naming each `closure` or `function` as it does:
it prints none and compares none.

A variable holds a closure (or a function, named and not called) when a `let` or an
assignment gives it one, another such variable, an `if` choosing one in an arm, or a call of
a closure a `let` binds whose value is one; so does a part of a tuple or struct a `let` or an
assignment makes of one (`pair.0` of `let pair = (f, 1);`), and a parameter of a closure a
variable may hold (a `let`, an assignment or an argument gives it the closure, or a
variable, an `if` or a call of a closure returning it) that a call of that variable gives one
of those (the front end's types make every arm and every value of the variable alike, and
type-scalars every argument a parameter is given, whichever closure the call calls). A
variable a `let` binds that may hold either kind gets a flag of its own, set where its value
is chosen (true: a function), and the stop is an `if` on it. A `print` given another
expression of those kinds (`print(if c { f } else { g })`) computes it first, bound by a
`let` of a fresh name, then stops. The comparison is the first thing its statement computes
(only names, parts of them and literals before it), so nothing of the statement runs before
the stop; it becomes `false` in a statement kept after the stop (other than an
expression's), which never runs but keeps what it binds bound. Any other closure printed or
compared stays for type-scalars, which refuses it (E5010), and so does one of either kind
that no flag follows (a parameter's, where copy-closures-per-argument-kind made no copy of
its closure per kind).
""", state=State)


@halt_closure_prints.on("Program")
def _program(run, program):
    run.state.fns = frozenset(item.name for item in program.items if item._prod == "Fn")
    return run.rebuild(program)


@halt_closure_prints.on("Fn")
def _fn(run, fn):
    st = run.state
    callees = {id(n.callee) for n in descendants(fn) if n._prod == "Call"}
    if not any(n._prod == "Closure" or n._prod == "Global" and n.name in st.fns
               and id(n) not in callees for n in descendants(fn)):
        return fn
    st.makers = {n.name: n.value for n in descendants(fn)
                 if n._prod == "Let" and n.value._prod == "Closure"}
    st.kinds = _kinds_held(fn, st.makers, st.fns)
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.flags = {name: unused_name(f"{name.split('#')[0]}_is_function", st.taken)
                for name in sorted(_flagged(fn, st))}
    return run.rebuild(fn)


def _kinds_held(fn, makers, fns) -> dict:
    """Each local (or part of one) -> the kinds it may hold, found until none is added: a
    parameter of a closure a variable may hold (`_closures_held`) is given each argument at
    its place of a call of that variable."""
    bindings = _bindings(fn)
    calls = [n for n in descendants(fn) if n._prod == "Call" and _path(n.callee) is not None]
    held = _closures_held(bindings, calls, makers)
    given = bindings + _arguments(calls, held)
    kinds: dict = {}
    while True:
        grown = False
        for name, value in given:
            mine = kinds.get(name, frozenset())
            more = mine | _kinds(value, kinds, makers, fns)
            grown |= more != mine
            kinds[name] = more
        if not grown:
            return {name: k for name, k in kinds.items() if k}


def _bindings(fn) -> list:
    """(name, value) of each `let` and assignment of a local or a part of one, and of each
    part of a tuple or struct it makes (`pair.0`)."""
    out: list = []
    for n in descendants(fn):
        if n._prod == "Let":
            out += _parts_bound(n.name, n.value)
        elif n._prod == "Assign" and n.op == "=" and _path(n.target) is not None:
            out += _parts_bound(_path(n.target), n.value)
    return out


def _parts_bound(name: str, value) -> list:
    out = [(name, value)]
    if value._prod == "Tuple":
        for i, elem in enumerate(value.elems):
            out += _parts_bound(f"{name}.{i}", elem)
    elif value._prod == "StructLit":
        for init in value.fields:
            out += _parts_bound(f"{name}.{init.name}", init.value)
    return out


def _path(e) -> str | None:
    """The local, or the part of one (`pair.0`), e reads, if it reads one."""
    if e._prod == "Local":
        return e.name
    if e._prod in ("FieldGet", "TupleGet"):
        base = _path(e.base)
        part = e.field if e._prod == "FieldGet" else e.index
        return None if base is None else f"{base}.{part}"
    return None


def _arguments(calls, held) -> list:
    """(parameter, argument) of each closure a call's variable may hold, at each call."""
    return [(p.name, arg) for n in calls
            for closure in list(held.get(_path(n.callee), {}).values())
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
    if _path(e) is not None:
        return list(held.get(_path(e), {}).values())
    if e._prod == "IfExpr":
        return [c for arm in (e.then, e.orelse) if arm.value is not None
                for c in _closures_of(arm.value, makers, held)]
    if e._prod == "Call" and e.callee._prod == "Local" and e.callee.name in makers:
        value = makers[e.callee.name].body.value
        return [] if value is None else _closures_of(value, makers, held)
    return []


def _kinds(e, kinds, makers, fns) -> frozenset:
    """What e may be, of a closure and a function: itself, a variable's or a part's, an arm's
    of an `if` it is, or the value's of a closure a `let` binds that it calls."""
    prod = e._prod
    if prod == "Closure":
        return frozenset({_CLOSURE})
    if prod == "Global":
        return frozenset({_FUNCTION}) if e.name in fns else frozenset()
    if _path(e) is not None:
        return kinds.get(_path(e), frozenset())
    if prod == "IfExpr":
        return frozenset().union(*(_kinds(arm.value, kinds, makers, fns)
                                   for arm in (e.then, e.orelse) if arm.value is not None))
    if prod == "Call" and e.callee._prod == "Local" and e.callee.name in makers:
        value = makers[e.callee.name].body.value
        return frozenset() if value is None else _kinds(value, kinds, makers, fns)
    return frozenset()


def _kinds_of(st, e) -> frozenset:
    return _kinds(e, st.kinds, st.makers, st.fns)


def _flagged(fn, st) -> set:
    """The locals a `let` binds that may hold either kind, each of whose values tells which
    it holds where it is chosen (`_told`): a flag follows each."""
    lets = {n.name for n in descendants(fn) if n._prod == "Let"}
    bindings = _bindings(fn)
    flagged = {name for name in lets if len(st.kinds.get(name, ())) == 2}
    while True:
        untold = {name for name, value in bindings
                  if name in flagged and not _told(st, value, flagged)}
        if not untold:
            return flagged
        flagged -= untold


def _told(st, e, flagged) -> bool:
    """Whether which kind e is is known where it is computed: it has one, it is a flagged
    local, or an `if` whose arms' values each are told."""
    if len(_kinds_of(st, e)) == 1:
        return True
    if e._prod == "Local":
        return e.name in flagged
    return e._prod == "IfExpr" and all(arm.value is not None and _told(st, arm.value, flagged)
                                       for arm in (e.then, e.orelse))


def _kind(st, e):
    """The expression telling which kind e is (true: a function), if one does without
    choosing: the kind it has, or the flag of the local it is."""
    kinds = _kinds_of(st, e)
    if len(kinds) == 1:
        return L["Bool"](_FUNCTION in kinds, span=e.span)
    if e._prod == "Local" and e.name in st.flags:
        return L["Local"](st.flags[e.name], span=e.span)
    return None


def _with_flag(st, stmt, flag: str) -> tuple:
    """A `let` or an assignment of a local of both kinds, with its flag set to which its value
    is: before it, or where an `if` choosing the value chooses it."""
    span = stmt.span
    kind = _kind(st, stmt.value)
    if kind is None:
        stmt = stmt.replace(value=_set_in_arms(st, stmt.value, flag))
    if stmt._prod == "Assign":
        return (stmt,) if kind is None else (_assign(flag, kind, span), stmt)
    start = L["Bool"](False, span=span) if kind is None else kind
    return (L["Let"](flag, True, L["Scalar"]("bool", span=span), start, span=span), stmt)


def _set_in_arms(st, e, flag: str):
    """The `if` e with the flag set at the end of each arm to which the arm's value is (in
    the arms of an arm that is an `if` of both kinds)."""
    arms = {}
    for name in ("then", "orelse"):
        arm = getattr(e, name)
        kind = _kind(st, arm.value)
        arms[name] = arm.replace(value=_set_in_arms(st, arm.value, flag)) if kind is None else \
            arm.replace(stmts=arm.stmts + (_assign(flag, kind, arm.value.span),))
    return e.replace(**arms)


def _assign(name: str, value, span):
    return L["Assign"](L["Local"](name, span=span), "=", value, span=span)


def _halts(kinds: list, message, span):
    """The stop naming the kind each of `kinds` tells (`message(*names)`): an `if` on each
    flag among them."""
    for i, kind in enumerate(kinds):
        if kind._prod == "Local":
            arms = [L["Block"]((_halts(kinds[:i] + [L["Bool"](known, span=span)] + kinds[i + 1:],
                                       message, span),), None, span=span)
                    for known in (True, False)]
            return L["If"](kind, False, arms[0], arms[1], span=span)
    names = [_FUNCTION if kind.value else _CLOSURE for kind in kinds]
    return L["Halt"]("E9006", message(*names), span=span)


def _printing(kind):
    return f"cannot print a value of type {kind}"


def _plain(e) -> bool:
    """Whether computing e computes nothing: a name, a part of a local or a literal."""
    return e._prod in ("Local", "Global", "Int", "Float", "Bool", "Str") or _path(e) is not None


def _printed_value(run, e) -> bool:
    """Whether e is a `print` of an expression other than a name that holds a closure or a
    function, whose kind is told."""
    if not (e._prod == "Call" and e.callee._prod == "Global" and e.callee.name == "print"
            and len(e.args) == 1):
        return False
    arg = e.args[0]
    kinds = _kinds_of(run.state, arg)
    return not _plain(arg) and bool(kinds) and _told(run.state, arg, run.state.flags)


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
    """What an expression computes first, when names, parts and literals alone come before
    it."""
    if _plain(e):
        return None
    for _, _, part in _parts(e):
        first = _first(part)
        if first is not None:
            return first
    return e


def _stop(run, e, printed: bool):
    """The stop the interpreter makes first in computing e (`printed`: a statement's whole
    expression, maybe a `print`), if any: (the node, its Halt, or the `if` choosing it)."""
    st = run.state
    first = _first(e)
    if first is None:
        return None
    if printed and first is e and first._prod == "Call" and first.callee.name == "print" and \
            len(first.args) == 1 and _kinds_of(st, first.args[0]):
        kind = _kind(st, first.args[0])
        return None if kind is None else (first, _halts([kind], _printing, first.span))
    if first._prod == "Binary" and first.op in _COMPARE and _kinds_of(st, first.left) and \
            _kinds_of(st, first.right):
        kinds = [_kind(st, first.left), _kind(st, first.right)]
        if None in kinds:
            return None
        return first, _halts(kinds, lambda a, b: f"cannot apply '{first.op}' to {a} and {b}",
                             first.span)
    return None


# The expression each statement computes first.
_COMPUTES = {"ExprStmt": "expr", "Let": "value", "If": "cond", "While": "cond",
             "Return": "value", "Assert": "cond"}


@halt_closure_prints.on(*_COMPUTES, "Assign", splice=True)
def _statement(run, node):
    st = run.state
    out = []
    for stmt in _stopped(run, node):
        name = stmt.name if stmt._prod == "Let" else \
            stmt.target.name if stmt._prod == "Assign" and stmt.target._prod == "Local" else None
        out += _with_flag(st, stmt, st.flags[name]) if name in st.flags else (stmt,)
    return tuple(out)


def _stopped(run, node) -> tuple:
    """The statement, or the stop it makes first and what it binds kept after it."""
    name = _COMPUTES.get(node._prod, "value")
    e = getattr(node, name)
    if node._prod == "ExprStmt" and _printed_value(run, e):
        return _print_computed(run, e)
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


def _print_computed(run, e) -> tuple:
    """A `print` of an expression computing a closure or a function: a `let` of a fresh name
    binds it (with a flag, for either kind), then the stop."""
    st, span = run.state, e.span
    arg = e.args[0]
    held = L["Let"](unused_name("printed", st.taken), False, L["OpaqueType"](span=span),
                    run.walk(arg), span=span)
    kind = _kind(st, arg)
    if kind is not None:
        return (held, _halts([kind], _printing, span))
    flag = unused_name("printed_is_function", st.taken)
    return _with_flag(st, held, flag) + (_halts([L["Local"](flag, span=span)], _printing, span),)


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
