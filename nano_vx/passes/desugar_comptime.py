"""desugar-comptime: Ltyped -> Lfolded."""

from __future__ import annotations

from dataclasses import dataclass

from ..comptime import ComptimeError, Evaluator, Unknown, recorded_types, to_literal
from ..comptime.errors import cannot_finish, depends, failed_assert, written
from ..comptime.reporting import nested, report
from ..languages import Lfolded, Ltyped
from ..nanopass import Pass, descendants

@dataclass
class State:
    eval: Evaluator | None = None


desugar_comptime = Pass("desugar-comptime", Ltyped, Lfolded, """
Run every comptime construct while compiling and replace it by its result (E3033 for one that
does not fold, E3034 nested, E8002 a false assert, E8004 and E8005 past the budgets).

A `comptime { .. }` block in expression position becomes the literal it evaluates to; one in
statement position is run for its checks and removed. `if comptime C { } else { }` keeps the
branch C selects. `Reachable<A, B>` is a bool. Each block obeys semantics §4: E3033 (it
cannot finish, writes outside, holds a check it cannot decide, or depends on a run-time value
or an out-of-range integer), E3034 (nested), E8002 (a false assert), E8004/E8005 (256 nested
calls, 1,000,000 steps: loop iterations and calls).
""", state=State, requires=("model",))


def _asks_the_compiler(fn) -> bool:
    """Does anything in the function run while compiling: a comptime block, `if comptime`,
    `Reachable<A, B>`, or a placement query an assert may ask?"""
    return any(
        n._prod in ("Comptime", "ComptimeStmt", "ReachableQ")
        or (n._prod in ("If", "IfExpr") and n.comptime)
        or (n._prod == "MethodCall" and n.method == "topology")
        for n in descendants(fn)
    )


def _queries_placement(expr) -> bool:
    """Does the expression ask `.topology()` of something?"""
    return any(n._prod == "MethodCall" and n.method == "topology" and not n.args
               for n in descendants(expr))


@desugar_comptime.on("Program")
def _program(run, node):
    run.state.eval = Evaluator(node, model=run.ctx.model)
    return run.rebuild(node)


@desugar_comptime.on("Fn")
def _fn(run, node):
    ev = run.state.eval
    # Only a function that asks the evaluator anything needs its variables' types looked up.
    ev.types = recorded_types(node) if _asks_the_compiler(node) else {}
    out = run.rebuild(node)
    ev.types = {}
    return out


def _fold(run, node, unit_ok: bool):
    """The literal a Comptime expression folds to; None for a block without a value where
    that is allowed (a body's trailing `comptime { assert(..); }`)."""
    if not nested(run, node.body):
        try:
            v = run.state.eval.fold(node.body, node.span)
            return None if v is None and unit_ok else to_literal(v, Lfolded, node.span)
        except ComptimeError as e:
            report(run, e)
    return Lfolded["Int"](0, span=node.span)  # stands in for the value after an error


@desugar_comptime.on("Comptime")
def _comptime(run, node):
    return _fold(run, node, unit_ok=False)


@desugar_comptime.on("Block")
def _block(run, node):
    """A block whose trailing expression is a comptime block: that is its last statement
    when it has no value, and goes. One that ends in an `if comptime` giving a value ends
    in the branch kept: its statements, then its value."""
    value = node.value
    if value is not None and value._prod == "IfExpr" and value.comptime:
        stmts = run.rebuild(node.replace(value=None)).stmts
        chosen = _decide(run, value)
        if chosen is None:
            return Lfolded["Block"](stmts, None, span=node.span)
        kept = run.walk(chosen)  # the branch kept joins the enclosing block (names are unique)
        return Lfolded["Block"]((*stmts, *kept.stmts), kept.value, span=node.span)
    if value is None or value._prod != "Comptime":
        return run.rebuild(node)
    # The statements go through the automatic clause, which splices what they become.
    stmts = run.rebuild(node.replace(value=None)).stmts
    return Lfolded["Block"](stmts, _fold(run, value, unit_ok=True), span=node.span)


def _decide(run, node):
    """The branch an `if comptime` keeps; None when its condition cannot be decided
    (reported)."""
    try:
        c = run.state.eval.value(node.cond)
        if type(c) is Unknown:
            depends(node.cond.span, c.why, what="the condition of this `if comptime`")
        if type(c) is not bool:
            cannot_finish(node.cond.span, "the condition of this `if comptime` is not a bool")
    except ComptimeError as e:
        report(run, e)
        return None
    return node.then if c else node.orelse


def _run_block(run, body):
    if not nested(run, body):
        try:
            run.state.eval.run(body)
        except ComptimeError as e:
            report(run, e)
    return ()


@desugar_comptime.on("ComptimeStmt", splice=True)
def _comptime_stmt(run, node):
    return _run_block(run, node.body)


@desugar_comptime.on("ExprStmt", splice=True)
def _expr_stmt(run, node):
    if node.expr._prod == "Comptime":  # `(comptime { .. });`: a block in statement position
        return _run_block(run, node.expr.body)
    return run.rebuild(node)


@desugar_comptime.on("If", splice=True)
def _if(run, node):
    if not node.comptime:
        return run.rebuild(node)
    chosen = _decide(run, node)
    if chosen is None:
        return ()
    block = run.walk(chosen)  # the branch kept joins the enclosing block (names are unique)
    tail = (Lfolded["ExprStmt"](block.value, span=block.value.span),) if block.value else ()
    return (*block.stmts, *tail)


@desugar_comptime.on("Assert", splice=True)
def _assert(run, node):
    """An assert over a placement query is decided here: removed when true (§4)."""
    if not _queries_placement(node.cond):
        return run.rebuild(node)
    try:
        c = run.state.eval.value(node.cond)
        if type(c) is Unknown:
            depends(node.span, c.why, what="this assert over a placement query")
        if c is False:
            failed_assert(node.span, node.message or written(node.cond))
    except ComptimeError as e:
        report(run, e)
    return ()


@desugar_comptime.on("ReachableQ")
def _reachable(run, node):
    try:
        return Lfolded["Bool"](run.state.eval.value(node), span=node.span)
    except ComptimeError as e:
        report(run, e)
        return Lfolded["Bool"](False, span=node.span)
