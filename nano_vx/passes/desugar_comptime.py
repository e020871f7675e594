"""desugar-comptime: Ltyped -> Lfolded."""

from __future__ import annotations

from ..comptime import ComptimeError, Evaluator, Unknown, to_literal
from ..comptime.errors import cannot_finish, depends, failed_assert, written
from ..comptime.scan import comptime_lambdas, is_comptime_lambda, queries_placement, recorded_types
from ..languages import Lfolded, Ltyped
from ..nanopass import Pass, children
from ..oracle.scope import display_name

desugar_comptime = Pass("desugar-comptime", Ltyped, Lfolded, """
Run every comptime construct while compiling and replace it by its result.

A `comptime { .. }` block in expression position becomes the literal it evaluates to; one in
statement position is run for its checks and removed. `if comptime C { } else { }` keeps the
branch C selects. A comptime lambda (`|x| comptime { .. }`) folds at every call and its
binding is dropped. `Reachable<A, B>` is a bool. Each block obeys semantics §4: E3033 (it
cannot finish, writes outside, holds a check it cannot decide, or depends on a run-time value
or an out-of-range integer), E3034 (nested), E3035 (a lambda call with run-time arguments),
E8002 (a false assert), E8004/E8005 (256 calls, 1,000,000 loop iterations).
""")

F = Lfolded.nodes


def _report(run, e: ComptimeError):
    run.ctx.diagnostics.error(e.code, e.span, e.message, **e.data)


def _nested(run, body) -> bool:
    """E3034 for every comptime block inside `body`; a closure in it starts afresh (a
    comptime lambda written in a block is a function of its own)."""
    found = False
    stack = [child for _, _, child in children(body)]
    while stack:
        node = stack.pop()
        if node._prod in ("Comptime", "ComptimeStmt"):
            run.ctx.diagnostics.error(
                "E3034", node.span, "a comptime block inside another comptime block: the "
                "outer one already runs while compiling, so remove this `comptime`")
            found = True
        elif node._prod != "Closure":
            stack.extend(child for _, _, child in children(node))
    return found


@desugar_comptime.on("Program")
def _program(run, node):
    run.state["eval"] = Evaluator(node, model=getattr(run.ctx, "model", None))
    run.state["lambdas"] = {}
    return run.rebuild(node)


@desugar_comptime.on("Fn")
def _fn(run, node):
    ev = run.state["eval"]
    run.state["lambdas"] = ev.lambdas = comptime_lambdas(node)
    ev.types = recorded_types(node)
    out = run.rebuild(node)
    run.state["lambdas"] = ev.lambdas = {}
    ev.types = {}
    return out


# -- blocks ----------------------------------------------------------------------------------


def _fold(run, node, unit_ok: bool):
    """The literal a Comptime expression folds to; None for a block without a value where
    that is allowed (a body's trailing `comptime { assert(..); }`)."""
    if not _nested(run, node.body):
        try:
            v = run.state["eval"].fold(node.body, node.span)
            return None if v is None and unit_ok else to_literal(v, F, node.span)
        except ComptimeError as e:
            _report(run, e)
    return F["Int"](0, span=node.span)  # stands in for the value after an error


@desugar_comptime.on("Comptime")
def _comptime(run, node):
    return _fold(run, node, unit_ok=False)


@desugar_comptime.on("Block")
def _block(run, node):
    """A block whose trailing expression is a comptime block: that is its last statement
    when it has no value, and goes."""
    value = node.value
    if value is None or value._prod != "Comptime":
        return run.rebuild(node)
    stmts = run.walk_seq(node.stmts)
    flat = tuple(x for s in stmts for x in (s if type(s) is tuple else (s,)))
    return F["Block"](flat, _fold(run, value, unit_ok=True), span=node.span)


def _run_block(run, body):
    if not _nested(run, body):
        try:
            run.state["eval"].run(body)
        except ComptimeError as e:
            _report(run, e)
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
    try:
        c = run.state["eval"].value(node.cond)
        if type(c) is Unknown:
            depends(node.cond.span, c.why, what="the condition of this `if comptime`")
        if type(c) is not bool:
            cannot_finish(node.cond.span, "the condition of this `if comptime` is not a bool")
    except ComptimeError as e:
        _report(run, e)
        return ()
    chosen = node.then if c else node.orelse
    if chosen is None:
        return ()
    block = run.walk(chosen)  # the branch kept joins the enclosing block (names are unique)
    tail = (F["ExprStmt"](block.value, span=block.value.span),) if block.value else ()
    return (*block.stmts, *tail)


@desugar_comptime.on("Assert", splice=True)
def _assert(run, node):
    """An assert over a placement query is decided here: removed when true (§4)."""
    if not queries_placement(node.cond):
        return run.rebuild(node)
    try:
        c = run.state["eval"].value(node.cond)
        if type(c) is Unknown:
            depends(node.span, c.why, what="this assert over a placement query")
        if c is False:
            failed_assert(node.span, node.message or written(node.cond))
    except ComptimeError as e:
        _report(run, e)
    return ()


@desugar_comptime.on("ReachableQ")
def _reachable(run, node):
    try:
        return F["Bool"](run.state["eval"].value(node), span=node.span)
    except ComptimeError as e:
        _report(run, e)
        return F["Bool"](False, span=node.span)


# -- comptime lambdas ------------------------------------------------------------------------


@desugar_comptime.on("Let", splice=True)
def _let(run, node):
    if node.name not in run.state["lambdas"]:
        return run.rebuild(node)
    _nested(run, node.value.body.value.body)  # the lambda's own comptime body
    return ()  # every call folds, so nothing refers to the binding


@desugar_comptime.on("Call")
def _call(run, node):
    callee = node.callee
    lam = run.state["lambdas"].get(callee.name) if callee._prod == "Local" else None
    if lam is None:
        return run.rebuild(node)
    name = display_name(callee.name)
    ev = run.state["eval"]
    try:
        args = []
        for a in node.args:
            v = ev.value(a)
            if type(v) is Unknown:
                raise ComptimeError(
                    "E3035", a.span, f"this argument of comptime lambda `{name}` is not known "
                    f"while compiling: it depends on {_why(v.why)}", lambda_=name)
            args.append(v)
        return to_literal(ev.call_lambda(lam, args, node.span), F, node.span)
    except ComptimeError as e:
        _report(run, e)
        return F["Int"](0, span=node.span)


def _why(why) -> str:
    if why.kind == "overflow":
        return f"an integer result outside its type ({why.text})"
    return f"`{why.text}`, known only when the program runs"


@desugar_comptime.on("Local")
def _local(run, node):
    if node.name in run.state["lambdas"]:  # calls were handled above: this is another use
        run.ctx.diagnostics.error(
            "E3035", node.span, f"comptime lambda `{display_name(node.name)}` is used as a "
            f"value; it runs while compiling, so it can only be called", lambda_=node.name)
    return node


@desugar_comptime.on("Closure")
def _closure(run, node):
    if not is_comptime_lambda(node):
        return run.rebuild(node)
    run.ctx.diagnostics.error(
        "E3035", node.span, "a comptime lambda must be bound with `let` and called; this one "
        "is used as a value, which would need it at run time")
    return F["Closure"](node.params, F["Block"]((), None, span=node.span), span=node.span)
