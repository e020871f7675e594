"""check-returns: Lrouted, an analysis (the tree is unchanged)."""

from __future__ import annotations

from ..languages.lrouted import Lrouted
from ..nanopass import Analysis, children
from ..placement.typer import show
from ..source import Span

check_returns = Analysis("check-returns", Lrouted, """
Refuse a function with a result whose body can reach its end without one (E3028).

As in Rust, a function declared `-> T` ends in its value (a last expression without `;`) or
leaves by `return` on every path. A statement ends the path through its block when it is
`return`, `break` or `continue`; an `if` with an `else` whose branches both end; a block, or a
`match` or an `if` used as a statement, all of whose branches end; or `while true { .. }` (so
`loop { .. }`) with no `break` out of it. Nothing else is taken to end: a loop on any other
condition may run no turn, and `assert(false)` is an assertion, not a `return` (in Rust too
the function needs its value after `assert!(false)`). By now `if comptime` kept only the
branch it takes, so a `return` in a pruned branch does not count.
""")


@check_returns.on("Fn")
def _fn(run, node):
    result = node.ret
    if result is None or result._prod == "Scalar" and result.name == "void":
        return
    body = node.body
    if body.value is not None or not _reaches_end(body):
        return
    end = body.span
    brace = Span(end.source, end.end - 1, end.end) if end is not None else node.span
    run.ctx.diagnostics.error(
        "E3028", brace,
        f"'{node.name}' returns {show(result)}, but its body can reach its end without a value",
        notes=["a function with a result ends in its value (a last expression without `;`), or "
               "in `return` on every path"],
        help=[f"end the body with a value of type {show(result)}, or `return` one on the path "
              f"that reaches here"],
        function=node.name, result=show(result))


def _reaches_end(block) -> bool:
    """Can control run past the last statement of `block`?"""
    return not any(_ends(s) for s in block.stmts)


def _ends(stmt) -> bool:
    """Does nothing after `stmt` in its block run?"""
    kind = stmt._prod
    if kind in ("Return", "Break", "Continue"):
        return True
    if kind == "If":
        return stmt.orelse is not None and not _reaches_end(stmt.then) \
            and not _reaches_end(stmt.orelse)
    if kind == "BlockStmt":
        return not _reaches_end(stmt.body)
    if kind == "While":
        return stmt.cond._prod == "Bool" and stmt.cond.value and not _breaks_out(stmt.body)
    if kind == "ExprStmt":
        return _branches_end(stmt.expr)
    return False


def _branches_end(expr) -> bool:
    """An `if` or a `match` in statement position all of whose branches end."""
    if expr._prod == "IfExpr":
        blocks = (expr.then, expr.orelse)
    elif expr._prod == "Match":
        blocks = tuple(arm.body for arm in expr.arms)
    elif expr._prod == "MatchValue":
        blocks = tuple(case.body for case in expr.cases)
    else:
        return False
    return bool(blocks) and not any(b.value is not None or _reaches_end(b) for b in blocks)


def _breaks_out(body) -> bool:
    """Is there a `break` in `body` that leaves the loop it is the body of? One inside a
    nested loop leaves that loop; a closure's body is another function."""
    stack = [body]
    while stack:
        node = stack.pop()
        for _, _, child in children(node):
            if child._prod == "Break":
                return True
            if child._prod not in ("While", "For", "Closure"):
                stack.append(child)
    return False
