"""A block whose statements each have `let`s held before them, computing part of what the
statement computed first: what hold-operands-before-extent-literals and
branch-closure-operands share."""

from __future__ import annotations

# The field of a statement its computation starts with: what it computes first.
FIRST = {"ExprStmt": "expr", "Let": "value", "Return": "value", "If": "cond"}


def held_before(block, held, fields: frozenset = frozenset(FIRST)):
    """The block with each statement of the kinds `fields` names, and its value, preceded
    by the `let`s `held(statement, e)` gives of the expression e it computes first (None
    for the block's value), e replaced by the expression it gives; the block itself when
    nothing changes."""
    stmts, changed = [], False
    for stmt in block.stmts:
        field = FIRST.get(stmt._prod) if stmt._prod in fields else None
        value = getattr(stmt, field) if field else None
        if value is not None:
            lets, new = held(stmt, value)
            if new is not value:
                stmt, changed = stmt.replace(**{field: new}), True
            stmts += lets
        stmts.append(stmt)
    value = block.value
    if value is not None:
        lets, new = held(None, value)
        changed, value = changed or new is not value, new
        stmts += lets
    return block.replace(stmts=tuple(stmts), value=value) if changed else block
