"""hold-operands-before-kernel-moved-reads: Lparted -> Lparted.

Same IL: each operand held is a `let` computing it, read by its local where it was, in the
order the interpreter computed it; the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lparted import Lparted as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in
from ..scalars.held_operands import Holding, held_operands
from ..scalars.kernel_moves import (after_moves, computed, computed_field, lent_tensor,
                                   moving_sites)
from ..scalars.moved_flags import collect, late_reads


@dataclass
class State:
    late: set = field(default_factory=set)  # id() of each statement of the function walked
    # reading a moved tensor after something else it computes
    moved: frozenset = frozenset()  # the function's `&mut` tensor parameters it moves
    holding: Holding | None = None  # what holding its operands asks


hold_operands_before_kernel_moved_reads = Pass(
    "hold-operands-before-kernel-moved-reads", L, L, """
Give each operand a statement computes before a read of a tensor its function is lent `&mut`
and moves a `let` of its own before the statement, where the statement may run after the
move, so that the read is the first thing it computes, where defer-kernel-moves checks it.

A kernel moving the tensor of its launcher it is lent (`transfer(*t, ..)`, itself or in a
closure) moves a copy instead, and defer-kernel-moves checks the flag numbering its moves
before each statement that may run after one and reads `*t` first, which is where the
interpreter stops on the read of `t` moved only when nothing the statement computes comes
first. In a `let`, an expression statement, a `return`, an `if`'s condition or an
assignment to a variable, each operand computed whole before the read, on the way down to
it, is held by `let operand = ..;` before the statement, in order, and read by its local:
`s = s + i + (*t)[0];` is `let operand = s + i; s = operand + (*t)[0];`. A read on the
right of `&&` (`||`) is held as the operator's `if` (as hold-operands-before-moved-reads
holds one, `scalars/held_operands.py`); an operand that is a reference, or of literals
alone, and a read in another statement (an assignment to an element, a loop's condition),
are left as they are, and defer-kernel-moves leaves the move in the kernel, which
type-scalars refuses (E5010).
""", state=State)

# The statements before which the operands of what they compute (`kernel_moves.computed`)
# may be held: an assignment's value is computed before its place is written.
_HELD = ("Let", "ExprStmt", "Return", "If", "Assign")


@hold_operands_before_kernel_moved_reads.on("Fn")
def _fn(run, fn):
    st = run.state
    moved = [p for p in fn.params if lent_tensor(p) and moving_sites(fn, p)]
    if not moved:
        return fn
    st.moved = frozenset(p.name for p in moved)
    st.late = {id(s) for p in moved for s in after_moves(fn, p)
               if s._prod in _HELD and (s._prod != "Assign" or s.target._prod == "Local")
               and computed(s) is not None and late_reads(_events(st, computed(s)))}
    if not st.late:
        return fn
    taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.holding = Holding(L, taken, set(st.moved))
    return run.rebuild(fn)


def _events(st: State, e) -> list:
    """What computing e does to the moved tensors, as `moved_flags.collect` finds it: `*t`
    and `(*t)[i]` read t."""
    events: list = []
    collect(st.moved, {}, set(), e, events, through=st.moved)
    return events


@hold_operands_before_kernel_moved_reads.on("Block")
def _block(run, block):
    st = run.state
    stmts = []
    for s in block.stmts:
        if id(s) in st.late:
            attr = computed_field(s)
            held, value = held_operands(st.holding, getattr(s, attr), lambda e: _events(st, e))
            stmts += held
            s = s.replace(**{attr: value})
        stmts.append(s)
    return run.rebuild(block.replace(stmts=tuple(stmts)))
