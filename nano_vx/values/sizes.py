"""Tile sizes in exact bytes, and granule rounding."""

from __future__ import annotations

from .narrow import NARROW_TYPES
from .numbers import truncating

ELEMENT_BYTES = {
    "i8": 1, "u8": 1, "bool": 1,
    "i16": 2, "u16": 2, "f16": 2, "bf16": 2,
    "i32": 4, "u32": 4, "f32": 4,
    "i64": 8, "u64": 8, "f64": 8,
}
# A tensor's elements packed: a 4-bit type takes half a byte.
ELEMENT_BITS = {name: 8 * size for name, size in ELEMENT_BYTES.items()} | {
    name: t.bits for name, t in NARROW_TYPES.items()}


def extent(d, named=None) -> int | None:
    """A dimension's extent when it is a constant (`4`, `3 * 2`); None for a name (but what
    `named(name)` gives, when it is given) or a division by zero."""
    if d._prod == "DimInt":
        return d.value
    if d._prod == "DimName" and named is not None:
        return named(d.name)
    if d._prod == "DimBinary":
        a, b = extent(d.left, named), extent(d.right, named)
        if a is None or b is None:
            return None
        if d.op == "+":
            return a + b
        if d.op == "-":
            return a - b
        if d.op == "*":
            return a * b
        if d.op in ("/", "%") and b != 0:
            return truncating(d.op, a, b)  # extents divide as the program's integers do
    return None


def type_bytes(ty) -> int | None:
    """The bytes of a value of type `ty`, `sizeof<T>()`: a scalar's, or a tensor's with static
    extents; None for a type without a static size."""
    if ty is not None and ty._prod == "Scalar":
        return ELEMENT_BYTES.get(ty.name)
    return tensor_bytes(ty)


def tensor_bytes(ty) -> int | None:
    """The bytes of a tensor type with static dims and a scalar element; None otherwise
    (a dim naming a `const` item has no static size here)."""
    if ty is None or ty._prod != "TensorType" or ty.elem._prod != "Scalar":
        return None
    n = 1
    for d in ty.dims:
        k = extent(d)
        if k is None or k < 0:
            return None
        n *= k
    return elements_bytes(ty.elem.name, n)


def elements_bytes(elem: str, n: int) -> int | None:
    """The bytes of n elements of type `elem` packed (None for a type without a size)."""
    bits = ELEMENT_BITS.get(elem)
    return -(-bits * n // 8) if bits is not None else None


def rounded(size: int, granule: int | None) -> int:
    """`size` rounded up to whole granules (a tile smaller than one still takes one)."""
    if not granule:
        return size
    return max(1, -(-size // granule)) * granule


def slots(size: int, granule: int) -> int:
    return rounded(size, granule) // granule
