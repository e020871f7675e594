"""Tensors of any rank, allocated lazily: the interpreter's and the compile-time evaluator's
alike.

Storage is a dict from flat offset to the elements written so far, plus the value every other
element has (zero, the fill value, or UNINIT). Declaring a 50 GiB tensor therefore allocates
nothing until an element is written. A tensor is a view on a storage (dims, strides, offset),
so indexing a row, `transfer` and `spawn` make new views that alias the same elements, as
moving an owned buffer does.
"""

from __future__ import annotations

from .narrow import element, value_type
from .numbers import TFloat, TInt, describe, format_scalar
from .stops import stop, wrong_kind

PRINT_LIMIT = 4096  # print refuses larger tensors rather than materialise them
ADDRESS_LIMIT = 1 << 63


def count_groups(bits: list[int]) -> list[int]:
    """How native code splits a tensor's extents, whose values have at most `bits` bits
    each, to count its elements in 64-bit words that cannot overflow: the number of
    extents of each group, taken in order, the product of each of at most 64 bits."""
    groups, total = [], 65
    for n in bits:
        if total + n > 64:
            groups.append(0)
            total = 0
        groups[-1] += 1
        total += n
    return groups


class _Uninit:
    __slots__ = ()

    def __repr__(self):
        return "UNINIT"


UNINIT = _Uninit()

_ZERO = {"bool": False, "f64": 0.0, "f32": 0.0, "f16": 0.0, "bf16": 0.0}


class Storage:
    __slots__ = ("elem", "data", "default", "dims")

    def __init__(self, elem: str, default, dims):
        self.elem, self.data, self.default = elem, {}, default
        self.dims = dims  # of the whole tensor, to name an element in a message

    def index_of(self, off: int) -> str:
        parts = []
        for d in reversed(self.dims):
            off, i = divmod(off, d)
            parts.append(f"[{i}]")
        return "".join(reversed(parts))


class Tensor:
    __slots__ = ("store", "dims", "strides", "offset", "space", "topo")
    kind = "tensor"

    def __init__(self, store, dims, strides, offset, space, topo):
        self.store, self.dims, self.strides, self.offset = store, dims, strides, offset
        self.space, self.topo = space, topo

    def size(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n

    def placed(self, space: str, topo) -> "Tensor":
        """The same elements, tagged as living in `space` (spawned on `topo`)."""
        return Tensor(self.store, self.dims, self.strides, self.offset, space, topo)

    def locate(self, indices, span):
        """The flat offset of a full index, or the view selected by a partial one."""
        dims, strides = self.dims, self.strides
        if len(indices) > len(dims):
            wrong_kind(span, f"{len(indices)} indices into a tensor of rank {len(dims)}")
        off = self.offset
        for k, i in enumerate(indices):
            if not 0 <= i < dims[k]:
                stop("E9003", span, f"index {i} is out of bounds for dimension {k} of "
                                    f"extent {dims[k]}")
            off += i * strides[k]
        if len(indices) == len(dims):
            return off
        n = len(indices)
        return Tensor(self.store, dims[n:], strides[n:], off, self.space, self.topo)

    def read(self, off: int, span):
        v = self.store.data.get(off, self.store.default)
        if v is UNINIT:
            self.unwritten(off, span)
        return v

    def unwritten(self, off: int, span):
        """Stop: the element at flat offset `off` was never written."""
        stop("E9005", span, f"read of element {self.store.index_of(off)}, never written, "
                            f"of a tensor made with ::uninit()")

    def write(self, off: int, value, span):
        self.store.data[off] = element(value, self.store.elem, span)


def copy_elements(dst: Tensor, src: Tensor, span) -> None:
    """Write src's elements, an unwritten one as unwritten, into the places of dst's (a row
    of a tensor assigned whole through a reference to it); extents that differ stop the
    run (E9006), as no element of one has a place in the other."""
    if list(src.dims) != list(dst.dims):
        stop("E9006", span, f"a tensor of extents {list(src.dims)} assigned whole to a row of "
                            f"extents {list(dst.dims)}")
    data, default = src.store.data, src.store.default
    places = [(dst.offset, src.offset)]
    for d, to, at in zip(dst.dims, dst.strides, src.strides):
        places = [(a + i * to, b + i * at) for a, b in places for i in range(d)]
    for a, b in places:
        dst.store.data[a] = data.get(b, default)


def make_tensor(elem: str, dims: list[int], ctor: str, args: list, space: str, span) -> Tensor:
    """`Tensor<elem, dims>::ctor(args)`."""
    for d in dims:
        if d < 0:
            wrong_kind(span, f"a tensor extent must not be negative, found {d}")
    if ctor == "new" and not args:
        default = element(_ZERO.get(value_type(elem), 0), elem, span)
    elif ctor == "uninit" and not args:
        default = UNINIT
    elif ctor == "fill" and len(args) == 1:
        default = element(args[0], elem, span)
    else:
        wrong_kind(span, f"Tensor has no constructor ::{ctor} taking {len(args)} argument(s)")
    strides, n = [], 1
    for d in reversed(dims):
        strides.append(n)
        n *= d
    if n > ADDRESS_LIMIT:
        wrong_kind(span, f"a tensor of {n} elements is too large to address")
    strides.reverse()
    return Tensor(Storage(elem, default, tuple(dims)), tuple(dims), tuple(strides), 0, space, None)


def tensor_of(elem: str, dims: list[int], values: list, space: str, span) -> Tensor:
    """A tensor holding `values` in row-major order: a list literal's."""
    t = make_tensor(elem, dims, "uninit", [], space, span)
    if t.size() != len(values):
        wrong_kind(span, f"this list has {len(values)} element(s), but the tensor has "
                         f"{t.size()}")
    for off, v in enumerate(values):
        t.write(off, v, span)
    return t


def array_of(values: list, space: str, span) -> Tensor:
    """`[a, b, ..]`: a rank-1 tensor of the values, of their element type (see array_elem)."""
    return tensor_of(array_elem(values, span), [len(values)], values, space, span)


def array_elem(values: list, span) -> str:
    """The element type of `[a, b, ..]`: the first typed element's (the literals adopt it),
    else the literals' own (i32, f64, bool)."""
    for v in values:
        if type(v) is TInt or type(v) is TFloat:
            return v.t.name
    elem = describe(values[0])
    if elem not in ("bool", "i32", "f64"):  # what an untyped scalar describes itself as
        wrong_kind(span, f"an array literal holds scalars, not {elem}s")
    return elem


def format_tensor(t: Tensor, span) -> str:
    if t.size() > PRINT_LIMIT:
        stop("E9006", span, f"refusing to print a tensor of {t.size()} elements (more than "
                            f"{PRINT_LIMIT}); print some of its elements instead")

    return format_rows(t.dims, t.strides, t.offset,
                       lambda off: format_scalar(t.read(off, span)))


def format_rows(dims, strides, offset: int, element) -> str:
    """Nested rows `[a, b]` of the elements at `offset` with `dims` and `strides`, each
    element's text being element(flat offset): shared with the back end's runtime, which
    prints a tensor from its bytes."""

    def rows(off: int, k: int) -> str:
        if k == len(dims):
            return element(off)
        step = strides[k]
        return "[" + ", ".join(rows(off + i * step, k + 1) for i in range(dims[k])) + "]"

    return rows(offset, 0)
