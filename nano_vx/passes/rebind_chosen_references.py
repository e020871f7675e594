"""rebind-chosen-references: Lsplit -> Lsplit.

Same IL: each `let` binds what the assignment it replaces gave, and the statements after it
read that name, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.rebinding import rebind_in_turn
from ..scalars.storages import Known, chosen_between_storages, known_places


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
    # The function's names, asked for only when a `let` is rebound: a constant's value is
    # walked too, outside any function.
    return rebind_in_turn(run.rebuild(block), lambda s: _chosen(s, run.state.known),
                          lambda wanted: run.state.names.fresh(wanted))


def _chosen(s, known: Known) -> bool:
    return s._prod == "Let" and s.mutable and chosen_between_storages(s, known)
