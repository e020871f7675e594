"""rebind-moved-enum-locals: Lmatched -> Lmatched.

Same IL: each `let` binds what the assignment it replaces gave, and the statements after it
read that name, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lmatched import Lmatched as L
from ..nanopass import Pass
from ..scalars.aggregates import Names
from ..scalars.closure_parts import Parts
from ..scalars.rebinding import rebind_in_turn


@dataclass
class State:
    parts: Parts | None = None  # the program's structs and enums, as closures take them apart
    names: Names | None = None  # the function walked's
    params: frozenset = frozenset()  # the enum parameters carrying a tensor of the closures walked


rebind_moved_enum_locals = Pass("rebind-moved-enum-locals", L, L, """
Write a `let mut` a closure's body binds to an enum parameter it moves whole, a variant of
which carries a tensor, which only statements of its own block assign, as a `let` per value
it is given, so that rename-moved-enum-parameters makes the first the parameter itself.

`|b: Buf| { let mut c = b; let s = size(c); c = Buf::Full([9, 9, 9]); s + size(c) }` is
`|b: Buf| { let c = b; let s = size(c); let c#1 = Buf::Full([9, 9, 9]); s + size(c#1) }`:
each assignment a statement of the block the `let` is in, the value read after it is the
one it gave, whichever way the program came, so a name of its own for each is the same
program; so too in the arms of an `if` that is the last statement of the block or its
value, each arm's from the name the `if` met. split-closure-aggregates reads such a
parameter only by its parts (put together again into a variable of its own, the value
would hold, for each variant but the one held, a tensor no one drops). An assignment
anywhere else (in an arm of another `if`, a loop, a closure), a compound one or one
reading the variable, or a borrow of it leaves it as it is, for scalarize-aggregates to
refuse.
""", state=State)


@rebind_moved_enum_locals.on("Program")
def _program(run, program):
    run.state.parts = Parts(program)
    return run.rebuild(program)


@rebind_moved_enum_locals.on("Fn")
def _fn(run, fn):
    run.state.names = Names(fn)
    return run.rebuild(fn)


@rebind_moved_enum_locals.on("Closure")
def _closure(run, closure):
    st = run.state
    around = st.params
    st.params = around | {p.name for p in closure.params if st.parts.carries_tensor(p.type)}
    made = run.rebuild(closure)
    st.params = around
    return made


@rebind_moved_enum_locals.on("Block")
def _block(run, block):
    # The function's names, asked for only when a `let` is rebound: a constant's value is
    # walked too, outside any function.
    return rebind_in_turn(run.rebuild(block), lambda s: _moved_into_mut(s, run.state.params),
                          lambda wanted: run.state.names.fresh(wanted))


def _moved_into_mut(s, params: frozenset) -> bool:
    return s._prod == "Let" and s.mutable and s.value._prod == "Local" and \
        s.value.name in params
