"""References at run time: `&x` names a place, `*p` reads or writes it.

A place is a slot of a frame (a variable; the variables of a function live in its frame, see
scope.py), an element of a tensor (`&t[i]`), a part of a struct or tuple in a place (`&mut
p.x`, `&s.pair.0`: Part), or a one-slot cell holding a temporary (`&5`, `&f(x)`, a row
`&t[i]` of a rank-2 t, whose view aliases the tensor's elements already).
Reading through a reference reads the place now, so a write to the variable is seen through
every reference to it, as in Rust (where the borrow checker makes sure no one can tell).
"""

from __future__ import annotations

from ..values.literals import adopt
from ..values.numbers import describe, unplace
from ..values.stops import stop, wrong_kind
from ..values.structs import StructValue
from ..values.tensors import Tensor, copy_elements
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


class Pointer:
    """A raw pointer (`t.as_ptr()`): element `index` of the tensor `tensor` in row-major
    order, where `*p` reads and writes; `p[i]` is element index + i. Whether it may write
    (`*mut`) is its type's: a write through `*const` stops the run."""

    __slots__ = ("tensor", "index", "mutable")
    kind = "pointer"

    def __init__(self, tensor: Tensor, index: int, mutable: bool):
        self.tensor, self.index, self.mutable = tensor, index, mutable

    def at(self, i: int) -> "Pointer":
        return Pointer(self.tensor, self.index + i, self.mutable)

    def _offset(self, span) -> int:
        t, k = self.tensor, self.index
        if not 0 <= k < t.size():
            stop("E9003", span, f"a read or write through a pointer {k} elements into a tensor "
                                f"of {t.size()}")
        indices = []
        for d in reversed(t.dims):
            k, i = divmod(k, d)
            indices.append(i)
        return t.locate(indices[::-1], span)

    def get(self, span):
        return self.tensor.read(self._offset(span), span)

    def set(self, v, span) -> None:
        if not self.mutable:
            stop("E9006", span, "a write through a `*const` pointer; it needs `*mut`")
        self.tensor.write(self._offset(span), v, span)


def referent(v, span):
    """What a value is once the references in front of it are followed: indexing and
    printing see through them, as Rust's auto-deref does (`p[0]` for `p: &Tensor<..>`)."""
    while type(v) is Ref:
        v = v.get(span)
    return v


def as_ref(v, span) -> Ref | Pointer:
    """`v` as the reference (or raw pointer) `*v` dereferences (one a spawn gave, placed,
    included); anything else stops the run."""
    v = unplace(v)
    if type(v) is not Ref and type(v) is not Pointer:
        wrong_kind(span, f"cannot dereference a value of type {describe(v)}")
    return v


def part_of(agg, path, span):
    """The part of a struct or tuple `path` names: field names and element indices."""
    for part in path:
        if type(part) is int:
            if type(agg) is not tuple or part >= len(agg):
                wrong_kind(span, f"`.{part}` of {describe(agg)}")
            agg = agg[part]
        else:
            if type(agg) is not StructValue or part not in agg.fields:
                wrong_kind(span, f"{describe(agg)} has no field `{part}`")
            agg = agg.fields[part]
    return agg


def with_part(agg, path, new, span):
    """`agg` with the part `path` names replaced by `new(old part)`: an aggregate is a value,
    so another name for the old one keeps it."""
    part, rest = path[0], path[1:]
    old = part_of(agg, (part,), span)
    changed = new(old) if not rest else with_part(old, rest, new, span)
    if type(part) is int:
        return agg[:part] + (changed,) + agg[part + 1:]
    return agg.with_field(part, changed)


class Row:
    """The holder of a reference to a row of a tensor (`&mut m[i]`): reading it reads the
    row, a view of m's buffer; writing a whole tensor through it (`*r = v`) writes v's
    elements into that row, the place the reference names, as `r[j] = x` writes one."""

    __slots__ = ("view", "span")

    def __init__(self, view: Tensor, span):
        self.view, self.span = view, span

    def __getitem__(self, key):
        return self.view

    def __setitem__(self, key, v) -> None:
        if type(v) is not Tensor:
            wrong_kind(self.span, f"a row of a tensor assigned {describe(v)}")
        copy_elements(self.view, v, self.span)


class Part:
    """The holder of a reference to a part of the aggregate in a place (`&mut p.x`): reading
    it reads that part of what the place holds now, writing it gives the place the aggregate
    with the part changed, as `p.x = v` does."""

    __slots__ = ("place", "path", "span")

    def __init__(self, place: Ref, path: tuple, span):
        self.place, self.path, self.span = place, path, span

    def __getitem__(self, key):
        return part_of(self.place.get(self.span), self.path, self.span)

    def __setitem__(self, key, v) -> None:
        self.place.set(with_part(self.place.get(self.span), self.path, lambda old: v,
                                 self.span), self.span)
