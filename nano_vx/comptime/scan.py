"""What the comptime passes look up in a function before folding in it: its comptime
lambdas, the types recorded for its variables, and which asserts are placement queries."""

from __future__ import annotations

from ..nanopass import descendants as _nodes


def is_comptime_lambda(closure) -> bool:
    """A closure whose whole body is a comptime block (how the parser reads
    `|x| comptime { .. }`)."""
    body = closure.body
    return not body.stmts and body.value is not None and body.value._prod == "Comptime"


def holds_comptime_lambda(fn) -> bool:
    """Does the function write a comptime lambda anywhere (most functions do not, and then
    fold-comptime-lambdas has nothing to do in them)?"""
    return any(n._prod == "Closure" and is_comptime_lambda(n) for n in _nodes(fn))


def asks_the_compiler(fn) -> bool:
    """Does anything in the function run while compiling: a comptime block, `if comptime`,
    `Reachable<A, B>`, or a placement query an assert may ask?"""
    return any(
        n._prod in ("Comptime", "ComptimeStmt", "ReachableQ")
        or (n._prod == "If" and n.comptime)
        or (n._prod == "MethodCall" and n.method == "topology")
        for n in _nodes(fn)
    )


def comptime_lambdas(fn) -> dict:
    """The comptime lambdas a function binds with `let`: unique name -> Closure node."""
    return {n.name: n.value for n in _nodes(fn.body)
            if n._prod == "Let" and n.value._prod == "Closure" and is_comptime_lambda(n.value)}


def recorded_types(fn) -> dict:
    """Unique name -> type, for every parameter and `let` whose type is written down
    (infer-placement writes down every one)."""
    return {n.name: n.type for n in _nodes(fn)
            if n._prod in ("Param", "Let") and n.type is not None}


def queries_placement(expr) -> bool:
    """Does the expression ask `.topology()` of something?"""
    return any(n._prod == "MethodCall" and n.method == "topology" and not n.args
               for n in _nodes(expr))
