"""A `let mut` that only statements of its own block assign, written as a `let` per value it
is given: each assignment a statement of the block the `let` is in, the value read after it
is the one it gave, whichever way the program came, so a name of its own for each is the
same program."""

from __future__ import annotations

from ..nanopass import descendants
from .storages import fresh_copy


def rebind_in_turn(block, chosen, fresh, *, mutable: bool = False):
    """The block with each `let mut` that `chosen` accepts and only statements of its block
    assign (or of the arms of an `if` ending it: `_assigned_in_turn`) a `let`, and each
    assignment after it a `let` of its own, named by fresh(wanted); each a `let mut` with
    `mutable` (a tensor's, whose elements are still written)."""
    while True:
        at = next((i for i, s in enumerate(block.stmts) if chosen(s)
                   and _assigned_in_turn(s.name, block.stmts[i + 1:], block.value)), None)
        if at is None:
            return block
        block = _rebound(block, at, fresh, mutable)


def _rebound(block, at: int, fresh, mutable: bool):
    """The block with the `let` at `at` and each assignment after it a `let` of its own (so
    in the arms of an `if` that is the last statement or the value)."""
    let = block.stmts[at]
    stmts, value = _in_turn(let, block.stmts[at + 1:], block.value, let.name, fresh, mutable)
    return block.replace(stmts=block.stmts[:at] + (let.replace(mutable=mutable), *stmts),
                         value=value)


def _in_turn(let, rest: tuple, value, name: str, fresh, mutable: bool):
    """`rest` and `value`, the variable of `let` named `name` there, each assignment of it a
    `let` of its own, and so in each arm of an `if` assigning it (the last statement)."""
    stmts = []
    for s in rest:
        if s._prod == "Assign" and s.target._prod == "Local" and s.target.name == let.name:
            value_of = fresh_copy(s.value, {let.name: name})
            name = fresh(let.name.split("#")[0])
            # Inferred where the `let`'s was (an inferred type carries its `let`'s span).
            ty = fresh_copy(let.type)
            ty = ty.replace(span=s.span) if let.type.span == let.span else ty
            stmts.append(let.replace(name=name, mutable=mutable, type=ty, value=value_of,
                                     span=s.span))
        elif s._prod == "If" and _touches(s, let.name):
            stmts.append(_arms_in_turn(let, s, name, fresh, mutable))
        else:
            stmts.append(fresh_copy(s, {let.name: name}))
    if value is not None and value._prod == "IfExpr" and _touches(value, let.name):
        return stmts, _arms_in_turn(let, value, name, fresh, mutable)
    return stmts, fresh_copy(value, {let.name: name}) if value is not None else None


def _arms_in_turn(let, choice, name: str, fresh, mutable: bool):
    """The `if` (statement or value) its arms assigning the variable in turn."""
    arms = {}
    for field, arm in (("then", choice.then), ("orelse", choice.orelse)):
        if arm is not None:
            inner, last = _in_turn(let, arm.stmts, arm.value, name, fresh, mutable)
            arms[field] = arm.replace(stmts=tuple(inner), value=last)
    return choice.replace(cond=fresh_copy(choice.cond, {let.name: name}), **arms)


def _assigned_in_turn(name: str, rest: tuple, value) -> bool:
    """Whether `name` is assigned in `rest` (the statements after its `let`, then the block's
    value) only by statements of their own, `name = v;`, there or in the arms of an `if`
    that is the last of them or the value (copy-rest-into-assigning-arms copies what
    followed it into each), and neither borrowed nor read by a closure (a `let mut` never
    assigned is a `let`)."""
    for at, s in enumerate(rest):
        if s._prod == "Assign" and s.target._prod == "Local" and s.target.name == name:
            if s.op != "=" or _touches(s.value, name):
                return False
        elif s._prod == "If" and at == len(rest) - 1 and value is None:
            return _arms_assign_in_turn(name, s)
        elif _touches(s, name):
            return False
    if value is not None and value._prod == "IfExpr":
        return _arms_assign_in_turn(name, value)
    return value is None or not _touches(value, name)


def _arms_assign_in_turn(name: str, choice) -> bool:
    return not choice.comptime and not _touches(choice.cond, name) and all(
        _assigned_in_turn(name, arm.stmts, arm.value)
        for arm in (choice.then, choice.orelse) if arm is not None)


def _touches(node, name: str) -> bool:
    """Whether `node` assigns `name`, borrows it or holds a closure reading it."""
    for n in descendants(node):
        if n._prod == "Assign" and n.target._prod == "Local" and n.target.name == name or \
                n._prod == "Borrow" and n.value._prod == "Local" and n.value.name == name:
            return True
        if n._prod == "Closure" and any(m._prod == "Local" and m.name == name
                                        for m in descendants(n.body)):
            return True
    return False
