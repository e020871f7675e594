"""check-linearity: Lrouted -> Lrouted (a check; the tree is unchanged)."""

from __future__ import annotations

from ..languages.l7_routed import Lrouted
from ..nanopass import Pass
from ..placement.moves import Moves
from ..placement.visibility import display


def _check(tree, ctx):
    for item in tree.items:
        if item._prod == "Fn":
            Moves(lambda use, name, transfer: _report(ctx, use, name, transfer)).block(
                item.body, {})
    return tree


check_linearity = Pass("check-linearity", Lrouted, Lrouted, """
Refuse a use of a local after `transfer` consumed it (E4001).

`transfer(x, M)` moves a uniquely owned local: x is gone from its old space, and any later
read of x is an error naming x and the transfer that moved it. A move on one branch of an
`if` counts after the `if` (as in Rust); a move inside a loop of a variable declared
outside it is a use-after-move on the next iteration. `x = ..` gives x a fresh value.
""", run=_check)


def _report(ctx, use, name, transfer):
    x = display(name)
    where = transfer.span
    line, col = where.source.line_col(where.start) if where is not None else (0, 0)
    text = where.source.text[where.start:where.end] if where is not None else "transfer"
    again = where is not None and use.span is not None and use.span.start < where.end
    when = " in an earlier iteration of the loop" if again else ""
    ctx.diagnostics.error(
        "E4001", use.span,
        f"use of moved value '{x}': it was moved to Memory::{transfer.dest.name}{when} "
        f"at line {line}, column {col}",
        notes=[f"'{x}' moved here, at {line}:{col}: `{text}`"],
        help=[f"read the value where it went (`let y = transfer({x}, ..);` then `y`), or "
              f"give '{x}' a new value before this use"],
        name=x, moved_to=transfer.dest.name, moved_at={"line": line, "column": col})
