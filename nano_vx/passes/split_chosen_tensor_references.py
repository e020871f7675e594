"""split-chosen-tensor-references: Lsplit -> Lsplit.

Same IL: the `if` is computed where the `let` computed it, and what followed the `let` in its
block runs after the `let` of the value its arm chose, so the interpreter runs the output as
it ran the input."""

from __future__ import annotations

from dataclasses import dataclass

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass, descendants
from ..scalars.aggregates import Names
from ..scalars.storages import gives_rows, split_into_arms


@dataclass
class State:
    names: Names | None = None


split_chosen_tensor_references = Pass("split-chosen-tensor-references", L, L, """
Write a `let` of a reference or raw pointer to a tensor, or of a row, that an `if` still
chooses (no arm names a place assign-chosen-tensors could start the variable at) as that
`if` choosing between the `let`s of its arms' values, each arm followed by what followed the
`let` in its block.

`let r = if c { first(&mut a, &mut b) } else { first(&mut b, &mut a) }; r[0] = 5;`, where
the function assigns a and b anew, is `if c { let r = first(&mut a, &mut b); r[0] = 5; }
else { let r#1 = first(&mut b, &mut a); r#1[0] = 5; }` (the `if` the block's value where
the block has one): each `let` binds a call's result, which native code lowers, where a
start would compute something or name a variable that may have been moved. The second
arm's copy of the rest binds its locals under names of its own; an arm without a value (a
`return`) is left as it is. A `let mut` is split alike: an assignment in the rest (`r =
&mut x;`, in a loop or an `if` too) makes its arm's variable refer elsewhere, as it made the
one `let`'s. A row (`let r = if c { a[1] } else { b[0] };`, of two tensors, or of one
that index-chosen-rows left: an arm holding statements or computing its index by a call)
is a view of its tensor's buffer, which a `let` of it lowers, where the `if`'s variable
would start at a new tensor no row gives back: each arm binds its row so. A function with
more than four such `let`s is left as it is (the rest of a
block is written once per arm, and a `let` in it splits each copy again); type-scalars
refuses it.
""", state=State)


# Each `let` split writes the rest of its block twice: a function with more is left as it
# is (type-scalars refuses it) rather than grow 2**n copies.
MOST = 4


@split_chosen_tensor_references.on("Fn")
def _fn(run, fn):
    if not 0 < sum(map(_chosen, descendants(fn.body))) <= MOST:
        return fn
    run.state.names = Names(fn)
    return run.rebuild(fn)


@split_chosen_tensor_references.on("Block")
def _block(run, block):
    at = next((i for i, s in enumerate(block.stmts) if _chosen(s)), None)
    if at is None:
        return run.rebuild(block)
    return run.rebuild(split_into_arms(block, at, run.state.names.fresh))


def _chosen(s) -> bool:
    """`s` is a `let` of a reference or raw pointer to a tensor, or of a row, that an `if`
    chooses."""
    if s._prod != "Let" or s.value._prod != "IfExpr" or s.value.comptime:
        return False
    ty = s.type
    return ty._prod == "BorrowType" and ty.inner._prod == "TensorType" or \
        ty._prod == "PtrType" or ty._prod == "TensorType" and gives_rows(s.value)

