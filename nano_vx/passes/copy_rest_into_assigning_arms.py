"""copy-rest-into-assigning-arms: Lsplit -> Lsplit.

Same IL: an `if` statement runs one arm and then, unless the arm left (`return`, `break`,
`continue`), what followed it, so each arm that does not end leaving followed by its copy of
the rest is the same program."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.storages import bound_locals, chosen_between_storages, fresh_copy, known_places


@dataclass
class State:
    held: set = field(default_factory=set)  # the function's references to write so
    names: Names | None = None


copy_rest_into_assigning_arms = Pass("copy-rest-into-assigning-arms", L, L, """
Write what follows an `if` statement an arm of which assigns a `let mut` reference that an
`if` chose between places of two storages into each of its arms, so that each assignment is
followed by the rest of its block.

`let mut r = if c { &mut t[1] } else { &mut x }; set(r, 1.3); if c { r = &mut y; } set(r,
2.5);` is `..; set(r, 1.3); if c { r = &mut y; set(r, 2.5); } else { set(r, 2.5); }`: which
place `r` names after the `if` depends on the arm taken, and native code reads through a
reference as one machine type, so rebind-chosen-references then makes each assignment, a
statement of its arm's block, a `let` of its own. The second arm's copy binds its locals
under names of their own; where the block has a value, the `if` becomes the block's value,
each arm ending with its copy of it. An arm whose last statement leaves (`if c { r = &mut x;
} else { return 7; }`) never reaches the rest and is left as it is; one that may leave
before its end (`if x > 1.0 { return 9; } r = &mut t[0];`) leaves its copy of the rest
unrun as it left the rest. Only an `if` in the block of the reference's `let` (or, so
copied, in an arm) is written so, one that is not the block's last; and a function with
more than four is left as it is (each writes the rest of its block twice), for type-scalars
to refuse.
""", state=State)


# Each `if` written so writes the rest of its block twice: a function with more is left as
# it is rather than grow 2**n copies.
MOST = 4

_LEAVING = ("Return", "Break", "Continue")


@copy_rest_into_assigning_arms.on("Fn")
def _fn(run, fn):
    known = known_places(fn, {})
    held = {n.name for n in descendants(fn.body)
            if n._prod == "Let" and n.mutable and chosen_between_storages(n, known)}
    if not 0 < sum(_assigning(n, held) is not None for n in descendants(fn.body)) <= MOST:
        return fn
    run.state.held, run.state.names = held, Names(fn)
    return run.rebuild(fn)


def _assigning(s, held: set):
    """The reference of `held` an arm of the `if` statement s that leaves nowhere assigns by
    a statement of its own, each other arm leaving nowhere or ending leaving, else None."""
    if s._prod != "If" or s.comptime:
        return None
    arms = [arm for arm in (s.then, s.orelse) if arm is not None and not _leaves(arm)]
    if any(arm.value is not None for arm in arms):
        return None
    return next((n.target.name for arm in arms for n in arm.stmts if n._prod == "Assign"
                 and n.target._prod == "Local" and n.target.name in held), None)


def _leaves(arm) -> bool:
    """Whether the arm's last statement leaves it, so what follows the `if` never runs
    after it."""
    return arm.value is None and bool(arm.stmts) and arm.stmts[-1]._prod in _LEAVING


@copy_rest_into_assigning_arms.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    stmts, value = _copied(run, block.stmts, block.value, frozenset())
    if stmts == block.stmts and value is block.value:
        return block
    return block.replace(stmts=stmts, value=value)


def _copied(run, stmts: tuple, value, bound: frozenset):
    """`stmts` and `value` with what follows the first `if` assigning a reference `bound`
    (its `let` before it) copied into each of its arms: the `if` the value where there is
    one."""
    for at, s in enumerate(stmts):
        if s._prod == "Let" and s.name in run.state.held:
            bound |= {s.name}
        elif (at + 1 < len(stmts) or value is not None) and _assigning(s, bound) is not None:
            rest = L["Block"](stmts[at + 1:], value, span=s.span)
            renamed = {old: run.state.names.fresh(old.split("#")[0])
                       for old in bound_locals(rest)}
            copy = fresh_copy(rest, renamed)
            orelse = s.orelse if s.orelse is not None else L["Block"]((), None, span=s.span)
            then = _arm(run, s.then, rest, bound)
            orelse = _arm(run, orelse, copy, bound)
            if value is None:
                return stmts[:at] + (s.replace(then=then, orelse=orelse),), None
            return stmts[:at], L["IfExpr"](s.cond, False, then, orelse, span=s.span)
    return stmts, value


def _arm(run, arm, rest, bound: frozenset):
    """The arm followed by `rest`, so written again where it assigns in turn; an arm that
    leaves as it is."""
    if _leaves(arm):
        return arm
    stmts, value = _copied(run, arm.stmts + rest.stmts, rest.value, bound)
    return arm.replace(stmts=stmts, value=value)
