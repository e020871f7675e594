"""copy-rest-into-closure-assigning-arms: Lpinned -> Lpinned.

Same IL: an `if` statement runs one arm and then, unless the arm left (`return`, `break`,
`continue`), what followed it, so each arm that does not end leaving followed by its copy of
the rest is the same program."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lpinned import Lpinned as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.assigning_arms import written_block, written_fn
from ..scalars.closures import given_both_kinds


@dataclass
class State:
    fns: frozenset = frozenset()  # the program's functions: a `Global` naming one is a value
    held: frozenset = frozenset()  # the function's variables to write so
    names: Names | None = None


copy_rest_into_closure_assigning_arms = Pass("copy-rest-into-closure-assigning-arms", L, L, """
Write what follows an `if` statement an arm of which assigns a `let mut` variable that holds
a function or a closure, as the assignment ran, and is read other than called, into each of
its arms, so that each assignment is followed by the rest of its block.

`let mut g = add; show(g, 1); if c { g = |a: i32, b: i32| a - b; } show(g, 2);` is `..;
show(g, 1); if c { g = |a: i32, b: i32| a - b; show(g, 2); } else { show(g, 2); }`: which
kind `g` holds after the `if` depends on the arm taken, and a closure given it may print or
compare it, naming the kind; in each arm it is one kind, and
rebind-assigned-closure-variables then makes the assignment, followed only by what follows
it in its arm, a `let` of its own, so copy-closures-per-argument-kind knows the kind each
call gives. The variable is one a `let mut` binds to a function named or a closure
written, each assignment of which gives it one, the two giving both kinds, that no closure
reads and nothing borrows (as rebind-assigned-closure-variables asks), read other than as
a callee (a variable only called calls either kind alike). The second arm's copy of the
rest binds its locals under names of its own; where the block has a value, the `if`
becomes it. An arm whose last statement leaves never reaches the rest and is left as it is.
Only an `if` in the block of the variable's `let` (or, so copied, in an arm) is written so,
one that is not the block's last; and a function with more than four is left as it is (each
writes the rest of its block twice).
""", state=State)


@copy_rest_into_closure_assigning_arms.on("Program")
def _program(run, program):
    run.state.fns = frozenset(item.name for item in program.items if item._prod == "Fn")
    return run.rebuild(program)


@copy_rest_into_closure_assigning_arms.on("Fn")
def _fn(run, fn):
    both = given_both_kinds(fn, run.state.fns)
    if not both:
        return fn
    named = {id(n.callee) for n in descendants(fn) if n._prod == "Call"} | \
        {id(n.target) for n in descendants(fn) if n._prod == "Assign"}
    held = frozenset(n.name for n in descendants(fn)
                     if n._prod == "Local" and n.name in both and id(n) not in named)
    return written_fn(run, fn, held)


copy_rest_into_closure_assigning_arms.on("Block")(written_block)
