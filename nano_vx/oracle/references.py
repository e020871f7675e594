"""References at run time: `&x` names a place, `*p` reads or writes it.

A place is a slot of a frame (a variable; the variables of a function live in its frame, see
scope.py), an element of a tensor (`&t[i]`), or a one-slot cell holding a temporary (`&5`,
`&f(x)`, a row `&t[i]` of a rank-2 t, whose view aliases the tensor's elements already).
Reading through a reference reads the place now, so a write to the variable is seen through
every reference to it, as in Rust (where the borrow checker makes sure no one can tell).
"""

from __future__ import annotations

from ..values.literals import adopt
from ..values.numbers import describe
from ..values.stops import stop, wrong_kind
from ..values.tensors import Tensor
from .scope import Moved, moved_stop


class Ref:
    """A reference: the place it names (`holder[key]`, or element `key` of the tensor
    `holder`), and whether it may write there (`&mut`)."""

    __slots__ = ("holder", "key", "mutable")
    kind = "reference"

    def __init__(self, holder, key: int, mutable: bool):
        self.holder, self.key, self.mutable = holder, key, mutable

    def get(self, span):
        if type(self.holder) is Tensor:
            return self.holder.read(self.key, span)
        v = self.holder[self.key]
        if type(v) is Moved:
            moved_stop(v, span)
        return v

    def set(self, v, span) -> None:
        if not self.mutable:
            stop("E9006", span, "a write through a shared reference (`&`); it needs `&mut`")
        if type(self.holder) is Tensor:
            self.holder.write(self.key, v, span)  # converted to the element type
            return
        old = self.holder[self.key]
        if type(v) is not type(old):
            v = adopt(old, v)  # an untyped literal takes the variable's type
        self.holder[self.key] = v


def referent(v, span):
    """What a value is once the references in front of it are followed: indexing and
    printing see through them, as Rust's auto-deref does (`p[0]` for `p: &Tensor<..>`)."""
    while type(v) is Ref:
        v = v.get(span)
    return v


def as_ref(v, span) -> Ref:
    """`v` as the reference `*v` dereferences; anything else stops the run."""
    if type(v) is not Ref:
        wrong_kind(span, f"cannot dereference a value of type {describe(v)}")
    return v
