"""rebind-chosen-references: Lsplit -> Lsplit.

Same IL: each `let` binds what the assignment it replaces gave, and the statements after it
read that name, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.storages import Known, chosen_between_storages, fresh_copy, known_places


@dataclass
class State:
    known: Known | None = None  # what the places of the function walked store
    names: Names | None = None


rebind_chosen_references = Pass("rebind-chosen-references", L, L, """
Write a `let mut` reference or raw pointer that an `if` chooses between places of two
storages, which only statements of its own block assign, as a `let` per value it is given,
so that split-chosen-storages finds each bound once.

`let mut r = if c { &mut t[1] } else { &mut x }; set(r, 1.3); r = &mut y; set(r, 2.5);` is
`let r = if c { .. } else { .. }; set(r, 1.3); let r#1 = &mut y; set(r#1, 2.5);`: each
assignment a statement of the block the `let` is in, the place named after it is the one it
gave, whichever way the program came, so a name of its own for each is the same program;
so too in the arms of an `if` that is the last statement of the block or its value
(copy-rest-into-assigning-arms copies what follows an assigning `if` into its arms), each
arm's from the name the `if` met. An assignment anywhere else (in an arm of another `if`,
a loop, a closure) or a borrow of the variable itself leaves it as it is: which place it
names after that depends on the way taken, and type-scalars refuses it.
""", state=State)


@rebind_chosen_references.on("Fn")
def _fn(run, fn):
    known = known_places(fn, {})
    if not any(_chosen(n, known) for n in descendants(fn.body)):
        return fn
    run.state.known, run.state.names = known, Names(fn)
    return run.rebuild(fn)


@rebind_chosen_references.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    while True:
        at = next((i for i, s in enumerate(block.stmts) if _chosen(s, run.state.known)
                   and _assigned_in_turn(s.name, block.stmts[i + 1:], block.value)), None)
        if at is None:
            return block
        block = _rebound(run, block, at)


def _rebound(run, block, at: int):
    """The block with the `let` at `at` and each assignment after it a `let` of its own."""
    let = block.stmts[at]
    stmts, value = _in_turn(run, let, block.stmts[at + 1:], block.value, let.name)
    return block.replace(stmts=block.stmts[:at] + (let.replace(mutable=False), *stmts),
                         value=value)


def _in_turn(run, let, rest: tuple, value, name: str):
    """`rest` and `value`, the variable of `let` named `name` there, each assignment of it a
    `let` of its own, and so in each arm of an `if` assigning it (the last statement)."""
    stmts = []
    for s in rest:
        if s._prod == "Assign" and s.target._prod == "Local" and s.target.name == let.name:
            value_of = fresh_copy(s.value, {let.name: name})
            name = run.state.names.fresh(let.name.split("#")[0])
            # Inferred where the `let`'s was (an inferred type carries its `let`'s span).
            ty = fresh_copy(let.type)
            ty = ty.replace(span=s.span) if let.type.span == let.span else ty
            stmts.append(L["Let"](name, False, ty, value_of, span=s.span))
        elif s._prod == "If" and _touches(s, let.name):
            stmts.append(_arms_in_turn(run, let, s, name))
        else:
            stmts.append(fresh_copy(s, {let.name: name}))
    if value is not None and value._prod == "IfExpr" and _touches(value, let.name):
        return stmts, _arms_in_turn(run, let, value, name)
    return stmts, fresh_copy(value, {let.name: name}) if value is not None else None


def _arms_in_turn(run, let, choice, name: str):
    """The `if` (statement or value) its arms assigning the variable in turn."""
    arms = {}
    for field, arm in (("then", choice.then), ("orelse", choice.orelse)):
        if arm is not None:
            inner, last = _in_turn(run, let, arm.stmts, arm.value, name)
            arms[field] = arm.replace(stmts=tuple(inner), value=last)
    return choice.replace(cond=fresh_copy(choice.cond, {let.name: name}), **arms)


def _chosen(s, known: Known) -> bool:
    return s._prod == "Let" and s.mutable and chosen_between_storages(s, known)


def _assigned_in_turn(name: str, rest: tuple, value) -> bool:
    """Whether `name` is assigned in `rest` (the statements after its `let`, then the block's
    value) only by statements of their own, `name = v;`, there or in the arms of an `if`
    that is the last of them or the value (copy-rest-into-assigning-arms copied what
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
