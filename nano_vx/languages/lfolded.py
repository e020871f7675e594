"""Lfolded: removes `Comptime`, `ComptimeStmt`, `ReachableQ`; no `if` can be `if comptime`."""

from __future__ import annotations

from ..nanopass import Terminal, prod
from .ltyped import Ltyped

# `If` and `IfExpr` keep their field (so the dumps print it as before) but the field can only hold false:
# an `if comptime` left behind cannot even be constructed in this IL, and verify refuses an
# `If` of an earlier IL, so "no comptime construct" is checked on every run.
Lfolded = Ltyped.extend(
    "Lfolded",
    "Ltyped with every comptime construct evaluated away: blocks are literals or gone",
    terminals=[Terminal("false", lambda v: v is False, "false: every `if comptime` is decided")],
    remove={"Expr": ["Comptime", "ReachableQ", "IfExpr"], "Stmt": ["ComptimeStmt", "If"]},
    add={"Stmt": [prod("If", "cond: Expr, comptime: false, then: Block, orelse: Block?")],
         "Expr": [prod("IfExpr", "cond: Expr, comptime: false, then: Block, orelse: Block")]},
)
