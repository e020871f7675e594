"""What follows an `if` statement an arm of which assigns a variable, copied into each of its
arms, so that each assignment is followed by the rest of its block: the `if` runs one arm
and then, unless the arm left (`return`, `break`, `continue`), what followed it, so each arm
that does not end leaving followed by its copy of the rest is the same program.
copy-rest-into-assigning-arms writes so the references it follows, and
copy-rest-into-closure-assigning-arms the variables holding a function or a closure."""

from __future__ import annotations

from typing import Callable

from ..languages.lsplit import Lsplit as L
from ..nanopass import descendants
from .aggregates import Names
from .storages import bound_locals, fresh_copy

_LEAVING = ("Return", "Break", "Continue")

# Each `if` written so writes the rest of its block twice: a function with more is left as
# it is rather than grow 2**n copies.
MOST = 4


def written_fn(run, fn, held):
    """fn with what follows each `if` assigning a variable of `held` copied into its arms
    (the pass's Block handler calls written_block), or fn itself where no `if` does or more
    than MOST do. The pass's state keeps `held` and the function's `names` while its blocks
    are rewritten, and none after: a constant's value has no function's variables."""
    if not 0 < sum(assigning(n, held) is not None for n in descendants(fn.body)) <= MOST:
        return fn
    run.state.held, run.state.names = held, Names(fn)
    try:
        return run.rebuild(fn)
    finally:
        run.state.held, run.state.names = frozenset(), None


def written_block(run, block):
    """The Block handler of a pass writing so: inside a function written_fn writes, the
    block written as block_with_rest_in_assigning_arms writes it; elsewhere as it is."""
    if run.state.names is None:
        return run.rebuild(block)
    return block_with_rest_in_assigning_arms(run.rebuild(block), run.state.held,
                                             run.state.names.fresh)


def leaves(arm) -> bool:
    """Whether the arm's last statement leaves it, so what follows the `if` never runs
    after it."""
    return arm.value is None and bool(arm.stmts) and arm.stmts[-1]._prod in _LEAVING


def assigning(s, held) -> str | None:
    """The variable of `held` an arm of the `if` statement s that leaves nowhere assigns by
    a statement of its own, each other arm leaving nowhere or ending leaving, else None."""
    if s._prod != "If" or s.comptime:
        return None
    arms = [arm for arm in (s.then, s.orelse) if arm is not None and not leaves(arm)]
    if any(arm.value is not None for arm in arms):
        return None
    return next((n.target.name for arm in arms for n in arm.stmts if n._prod == "Assign"
                 and n.target._prod == "Local" and n.target.name in held), None)


def block_with_rest_in_assigning_arms(block, held, fresh: Callable[[str], str]):
    """The block written as `rest_in_assigning_arms` writes its statements and value, the
    block itself where nothing is copied."""
    stmts, value = rest_in_assigning_arms(block.stmts, block.value, held, fresh)
    if stmts == block.stmts and value is block.value:
        return block
    return block.replace(stmts=stmts, value=value)


def rest_in_assigning_arms(stmts: tuple, value, held, fresh: Callable[[str], str],
                           bound: frozenset = frozenset()):
    """`stmts` and `value` of a block with what follows its first `if` statement assigning a
    variable of `held` whose `let` is before it (in `bound`, or among `stmts`) copied into
    each of its arms that does not end leaving, written so again in each arm: the `if` the
    block's value where the block has one, the second arm's copy of the rest binding its
    locals under names `fresh` makes."""
    for at, s in enumerate(stmts):
        if s._prod == "Let" and s.name in held:
            bound |= {s.name}
        elif (at + 1 < len(stmts) or value is not None) and assigning(s, bound) is not None:
            rest = L["Block"](stmts[at + 1:], value, span=s.span)
            copy = fresh_copy(rest, {old: fresh(old.split("#")[0])
                                     for old in bound_locals(rest)})
            orelse = s.orelse if s.orelse is not None else L["Block"]((), None, span=s.span)
            then = _followed(s.then, rest, held, fresh, bound)
            orelse = _followed(orelse, copy, held, fresh, bound)
            if value is None:
                return stmts[:at] + (s.replace(then=then, orelse=orelse),), None
            return stmts[:at], L["IfExpr"](s.cond, False, then, orelse, span=s.span)
    return stmts, value


def _followed(arm, rest, held, fresh, bound: frozenset):
    """The arm followed by `rest`, so written again where it assigns in turn; an arm that
    ends leaving as it is."""
    if leaves(arm):
        return arm
    stmts, value = rest_in_assigning_arms(arm.stmts + rest.stmts, rest.value, held, fresh,
                                          bound)
    return arm.replace(stmts=stmts, value=value)
