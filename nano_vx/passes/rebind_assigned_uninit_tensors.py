"""rebind-assigned-uninit-tensors: Lallset -> Lallset.

Same IL: each `let` binds the tensor the assignment it replaces gave, and the statements
after it read that name, so the interpreter runs the output as it ran the input."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..languages.lallset import Lallset as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.rebinding import rebind_in_turn
from ..scalars.tensor_names import flagged_value


@dataclass
class State:
    fns: dict = field(default_factory=dict)  # the program's functions by name
    names: Names | None = None  # the function's names, for the new ones


rebind_assigned_uninit_tensors = Pass("rebind-assigned-uninit-tensors", L, L, """
Write a `let mut` of a tensor made by `::uninit()` (or a copy copy-tracked-functions made returns) that copy-into-assigned-uninit-tensors leaves assigned whole, only by statements of its own block, as a `let mut` per tensor it is given: `let u = a; a = Tensor<i32, [3]>::fill(7); print(a[1]);` is `let u = a; let mut a#1 = Tensor<i32, [3]>::fill(7); print(a#1[1]);`.

track-uninit-elements keeps a written-flag per element of such a tensor beside its local,
and follows them into the names a `let` gives its buffer (`let u = a;`); an assignment of
another tensor to the local would make those flags the new tensor's (it refuses it,
E5010), and copy-into-assigned-uninit-tensors copies into the buffer only where no other
name may hold it. Each assignment a statement of the block the `let` is in (or of the arms
of an `if` ending it), the tensor read after it is the one it gave, whichever way the
program came, so a name of its own for each is the same program: the old buffer stays
with the names holding it, its flags with it, and the new tensor's local is tracked as any
(made by `::uninit()`, or not at all). A local assigned elsewhere (in a loop, an arm of
another `if`), borrowed or named in a closure is left to the refusal.
""", state=State)


@rebind_assigned_uninit_tensors.on("Program")
def _program(run, program):
    run.state.fns = {i.name: i for i in program.items if i._prod == "Fn"}
    return run.rebuild(program)


@rebind_assigned_uninit_tensors.on("Fn")
def _fn(run, fn):
    if not any(_tracked(run.state, n) for n in descendants(fn.body)):
        return fn
    run.state.names = Names(fn)
    return run.rebuild(fn)


def _tracked(st: State, s) -> bool:
    """Whether s is a `let mut` of a tensor whose written-flags track-uninit-elements keeps."""
    return s._prod == "Let" and s.mutable and flagged_value(s.value, st.fns)


@rebind_assigned_uninit_tensors.on("Block")
def _block(run, block):
    block = run.rebuild(block)
    # Each local once: rebound, its `let` is still a `let mut` of the same tensor.
    assigned = {n.target.name for n in descendants(block)
                if n._prod == "Assign" and n.target._prod == "Local"}

    def chosen(s) -> bool:
        if not _tracked(run.state, s) or s.name not in assigned:
            return False
        assigned.discard(s.name)
        return True
    return rebind_in_turn(block, chosen, lambda wanted: run.state.names.fresh(wanted),
                          mutable=True)
