"""hold-operands-before-moved-reads: Lsafe -> Lsafe.

Same IL: each operand held is a `let` of Lsafe computing it, read by its local where it was,
in the order the interpreter computed it; the interpreter runs the output as it ran the
input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lsafe import Lsafe as L
from ..nanopass import Pass, descendants
from ..scalars.closures import bound_in
from ..scalars.held_operands import Holding, held_operands
from ..scalars.moved_flags import (collect, flagged_variables, quiet_references,
                                   through_references)

# The statements computing one expression first, and its field.
_ONE_VALUE = {"Let": "value", "ExprStmt": "expr", "Return": "value", "If": "cond"}


@dataclass
class State:
    found: object = None  # the variables of each function given a moved-flag, the flags lent
    flagged: set = field(default_factory=set)  # those of the function walked
    taken: set = field(default_factory=set)  # the names of the function walked
    quiet: frozenset = frozenset()  # its references that cannot stop (quiet_references)
    through: frozenset = frozenset()  # its flagged reference parameters (through_references)
    holding: Holding | None = None  # what holding its operands asks


hold_operands_before_moved_reads = Pass("hold-operands-before-moved-reads", L, L, """
Give each operand a statement computes before a read of a variable a closure may move a `let`
of its own before the statement, so that the read is the first thing the statement computes,
where track-moved-captures checks it.

track-moved-captures checks the moved-flag of such a variable (one a closure moves, or reads
when a `transfer`, itself or a kernel's, moves it) before the statement reading it, which is
where the interpreter reads it only when nothing the statement computes comes first. In a
`let`, an expression statement, a `return`, an `if`'s condition or a block's value, each
operand computed whole before the read, on the way down to it (a call's argument, an
operator's left, an element read, a tuple's element), is held by `let operand = ..;` before
the statement, in order, and read by its local: `keep(u[0], transfer(t, ..))` is
`let operand = u[0];` then `keep(operand, transfer(t, ..))`. A read on the right of `&&`
(`||`) runs only after the left, and only when it is true (false): the operator is held as
`let operand = if a { b } else { false };` (`if a { true } else { b }`), whose arm reads the
variable first. A reference to an element at literal indices within its extents (`&u[1]`
of a `Tensor<i32, [2]>`) cannot stop, and stays where it is; one to an element of a
variable no closure moves at other indices (`&u[i]`), or through a reference naming none
(`&(*v)[i]`), is held as any operand, a reference local locating the element (its index
checked there). An operand that is another reference, or of literals alone (its type is
its context's), and a read in another statement (an assignment, a loop's condition), are
left as they are, and track-moved-captures refuses them (E5010).
""", state=State)


@hold_operands_before_moved_reads.on("Program")
def _program(run, program):
    run.state.found = flagged_variables(program)
    return run.rebuild(program)


@hold_operands_before_moved_reads.on("Fn")
def _fn(run, fn):
    st = run.state
    st.flagged = st.found.flagged.get(fn.name, set())
    if not st.flagged:
        return fn
    st.taken = bound_in(fn) | {n.name for n in descendants(fn) if n._prod == "Local"}
    st.quiet = quiet_references(fn, st.flagged)
    st.through = through_references(fn, st.found)
    st.holding = Holding(L, st.taken, st.flagged, st.quiet)
    return run.rebuild(fn)


@hold_operands_before_moved_reads.on("Block")
def _block(run, block):
    st = run.state
    stmts = []
    for s in block.stmts:
        field = _ONE_VALUE.get(s._prod)
        if field is not None and getattr(s, field) is not None:
            held, value = held_operands(st.holding, getattr(s, field),
                                         lambda e: _events(st, e))
            stmts += held
            s = s.replace(**{field: value})
        stmts.append(s)
    value = block.value
    if value is not None:
        held, value = held_operands(st.holding, value, lambda e: _events(st, e))
        stmts += held
    return run.rebuild(block.replace(stmts=tuple(stmts), value=value))


def _events(st: State, e) -> list:
    events: list = []
    collect(st.flagged, st.found.lent, {}, e, events, quiet=st.quiet, through=st.through)
    return events
