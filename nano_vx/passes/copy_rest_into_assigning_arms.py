"""copy-rest-into-assigning-arms: Lsplit -> Lsplit.

Same IL: an `if` statement runs one arm and then, unless the arm left (`return`, `break`,
`continue`), what followed it, so each arm that does not end leaving followed by its copy of
the rest is the same program."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.assigning_arms import written_block, written_fn
from ..scalars.storages import chosen_between_storages, known_places


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


@copy_rest_into_assigning_arms.on("Fn")
def _fn(run, fn):
    known = known_places(fn, {})
    held = {n.name for n in descendants(fn.body)
            if n._prod == "Let" and n.mutable and chosen_between_storages(n, known)}
    return written_fn(run, fn, held)


copy_rest_into_assigning_arms.on("Block")(written_block)
