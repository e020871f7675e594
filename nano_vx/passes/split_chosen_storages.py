"""split-chosen-storages: Lsplit -> Lsplit.

Same IL: the `if` is computed where the `let` computed it, and what followed the `let` in its
block runs after the `let` of the place its arm chose, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.storages import Known, chosen_between_storages, known_places, split_into_arms


@dataclass
class State:
    known: Known | None = None  # what the places of the function walked store
    names: Names | None = None


split_chosen_storages = Pass("split-chosen-storages", L, L, """
Write a `let` of a reference or raw pointer that an `if` chooses between places of two
storages (an element of a tensor of a narrow type such as `f8e4m3`, stored as a byte, and a
variable of its value type) as that `if` choosing between the `let`s of its places, each arm
followed by what followed the `let` in its block, so that specialize-storages finds each
reference bound to a place of one storage.

Native code reads and writes through a reference as one machine type, a byte or an f32, and
which place `r` names in `let r = if c { &mut t[1] } else { &mut x }; set(r, 1.3);` is known
only as the program runs: it is `if c { let r = &mut t[1]; set(r, 1.3); } else { let r#1 =
&mut x; set(r#1, 1.3); }` (the `if` the block's value where the block has one), the second
arm's copy of the rest binding its locals under names of its own. An `else if` chooses the
same way, arm by arm. A `let mut` reference is left as it is (an assignment may make it
refer to another place: rebind-chosen-references made a `let` of each one it could), and so
is a function with more than four such `let`s (the rest of a block is written once per
place chosen, and a `let` in it splits each copy again); type-scalars refuses them.
""", state=State)


# Each `let` split writes the rest of its block twice: a function with more is left as it
# is (type-scalars refuses it) rather than grow 2**n copies.
MOST = 4


@split_chosen_storages.on("Fn")
def _fn(run, fn):
    run.state.known, run.state.names = known_places(fn, {}), Names(fn)
    if not 0 < sum(_chosen(run, n) for n in descendants(fn.body)) <= MOST:
        return fn
    return run.rebuild(fn)


@split_chosen_storages.on("Block")
def _block(run, block):
    at = next((i for i, s in enumerate(block.stmts) if _chosen(run, s)), None)
    if at is None:
        return run.rebuild(block)
    split = split_into_arms(block, at, run.state.names.fresh, lambda renamed: _note(
        run.state.known, renamed))
    return run.rebuild(split.replace(span=block.span))


def _chosen(run, s) -> bool:
    """`s` is an immutable `let` of a place an `if` chooses among places of two storages."""
    return chosen_between_storages(s, run.state.known) and not s.mutable


def _note(known: Known, renamed: dict) -> None:
    """What each local renamed stores and its type, under its new name too."""
    for old, new in renamed.items():
        for found in (known.types, known.stores):
            if old in found:
                found[new] = found[old]
