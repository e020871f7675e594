"""check-definite-assignment: Lonefile, a flow analysis (the tree is unchanged).

The value threaded through the walk is the set of declarations (`let x: T;`, by identity:
two alike are still two) that some path to this point leaves unassigned, or None where control cannot reach (after `return`, `break`,
`continue`). Names are not unique yet (resolve-names runs later), so the walk keeps its own
scopes: each block, closure and case binds names, a `let` or a parameter shadowing a
declaration as it does in Rust. An assignment `x = ..` takes x's declaration out of the set,
so the join of two branches is their union.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsrc import DESCRIPTIONS
from ..languages.lonefile import Lonefile
from ..nanopass import Analysis


@dataclass
class State:
    # Innermost last: name -> the Declare it names, or None for a variable with a value.
    scopes: list[dict] = field(default_factory=list)
    loops: list[list] = field(default_factory=list)  # per enclosing loop: states leaving early
    reported: set = field(default_factory=set)  # ids of declarations already reported


check_definite_assignment = Analysis("check-definite-assignment", Lonefile, """
Refuse a read of a variable declared without a value (`let x: T;`) before every path to it
has assigned it (E4010).

`let x: T;` declares x and leaves its value to a later `x = ..`. Each path from the
declaration to a read assigns x first: both branches of an `if` (an `if` without `else` may
skip its block), every case of a `match`, and the code before a loop, since a `while` or a
`for` may not run its body at all (a `loop` runs it at least once, and what it assigns before
each `break` counts after it). A compound assignment (`x += 1`) and a closure's body read x. A
read after every path has returned or left the loop is never reached, and not refused.
""", flow=True, skip=DESCRIPTIONS, state=State)


def _join(a, b):
    if a is None:
        return b
    if b is None:
        return a
    return a | b


def _lookup(run, name):
    for scope in reversed(run.state.scopes):
        if name in scope:
            return scope[name]
    return None


def _bind(run, *names):
    run.state.scopes[-1].update((n, None) for n in names)


def _scoped(run, acc, body, *names):
    """Walk `body` in a scope of its own that binds `names`."""
    run.state.scopes.append(dict.fromkeys(names))
    try:
        return run.walk(body, acc)
    finally:
        run.state.scopes.pop()


@check_definite_assignment.on("Fn")
def _fn(run, node, acc):
    """A function's body sees no local of the function it is written in."""
    outer, run.state.scopes = run.state.scopes, [dict.fromkeys(p.name for p in node.params)]
    try:
        run.walk(node.body, frozenset())
    finally:
        run.state.scopes = outer
    return acc


@check_definite_assignment.on("Block")
def _block(run, node, acc):
    run.state.scopes.append({})
    try:
        for s in node.stmts:
            if acc is None:
                return None
            acc = run.walk(s, acc)
        return run.walk(node.value, acc) if acc is not None and node.value is not None else acc
    finally:
        run.state.scopes.pop()


@check_definite_assignment.on("Declare")
def _declare(run, node, acc):
    run.state.scopes[-1][node.name] = node
    return acc | {id(node)}


@check_definite_assignment.on("Let")
def _let(run, node, acc):
    acc = run.walk(node.value, acc)
    _bind(run, node.name)
    return acc


@check_definite_assignment.on("LetTuple")
def _let_tuple(run, node, acc):
    acc = run.walk(node.value, acc)
    _bind(run, *node.names)
    return acc


@check_definite_assignment.on("Assign")
def _assign(run, node, acc):
    acc = run.walk(node.value, acc)
    if node.target._prod == "Var" and node.op == "=":
        declared = _lookup(run, node.target.name)
        return acc if acc is None or declared is None else acc - {id(declared)}
    return run.walk(node.target, acc)


@check_definite_assignment.on("Var")
def _var(run, node, acc):
    declared = _lookup(run, node.name)
    if acc is not None and id(declared) in acc and id(declared) not in run.state.reported:
        run.state.reported.add(id(declared))
        line, col = declared.span.source.line_col(declared.span.start)
        run.ctx.diagnostics.error(
            "E4010", node.span,
            f"'{node.name}' is possibly uninitialised here: it is declared without a value at "
            f"line {line}, column {col}, and a path to this read does not assign it",
            help=[f"assign '{node.name}' on every path before it is read, or give it a value "
                  f"where it is declared"], name=node.name,
            declared_at={"line": line, "column": col})
    return acc


@check_definite_assignment.on("If", "IfExpr")
def _if(run, node, acc):
    acc = run.walk(node.cond, acc)
    if acc is None:
        return None
    then = run.walk(node.then, acc)
    return _join(then, run.walk(node.orelse, acc) if node.orelse is not None else acc)


@check_definite_assignment.on("MatchValue")
def _match_value(run, node, acc):
    acc = run.walk(node.scrutinee, acc)
    if acc is None or not node.cases:
        return acc
    out = None
    for case in node.cases:
        names = [p.name for p in _patterns(case.pattern) if p._prod == "PBind"]
        out = _join(out, _scoped(run, acc, case.body, *names))
    return out


def _patterns(p):
    yield p
    for sub in getattr(p, "args", ()) + getattr(p, "alts", ()):
        yield from _patterns(sub)


@check_definite_assignment.on("Match")
def _match(run, node, acc):
    acc = run.walk(node.scrutinee, acc)
    if acc is None or not node.arms:
        return acc
    out = None
    for arm in node.arms:
        out = _join(out, _scoped(run, acc, arm.body, arm.binding.name))
    return out


@check_definite_assignment.on("While")
def _while(run, node, acc):
    acc = run.walk(node.cond, acc)
    return _loop(run, acc, lambda a: run.walk(node.body, a), may_skip=True)


@check_definite_assignment.on("For")
def _for(run, node, acc):
    acc = run.walk(node.end, run.walk(node.start, acc))
    return _loop(run, acc, lambda a: _scoped(run, a, node.body, node.var), may_skip=True)


@check_definite_assignment.on("Loop")
def _forever(run, node, acc):
    return _loop(run, acc, lambda a: run.walk(node.body, a), may_skip=False)


def _loop(run, acc, body, may_skip):
    """After the loop: the states at its `break`s, and the state before it when the body may
    not run. A declaration is never assigned back into the set, so one walk of the body is
    enough: a read in it that a later turn reaches is reached by the first turn too."""
    if acc is None:
        return None
    run.state.loops.append([])
    body(acc)
    out = None
    for left in run.state.loops.pop():
        out = _join(out, left)
    return _join(out, acc) if may_skip else out


@check_definite_assignment.on("Break", "Continue")
def _leave(run, node, acc):
    if run.state.loops and node._prod == "Break":
        run.state.loops[-1].append(acc)
    return None


@check_definite_assignment.on("Return")
def _return(run, node, acc):
    if node.value is not None:
        run.walk(node.value, acc)
    return None


@check_definite_assignment.on("Closure")
def _closure(run, node, acc):
    """A closure may run whenever it is called: what it reads must be assigned where it is
    made, and what it assigns counts for no path outside it."""
    _scoped(run, acc, node.body, *(p.name for p in node.params))
    return acc


@check_definite_assignment.on("UnrollAcross")
def _unroll(run, node, acc):
    return _scoped(run, acc, node.body, node.var)
