"""Vx types as the machine's: a scalar's MLIR type (how it computes and how it is stored), a
tensor's memref, a vector's MLIR vector, a reference's cell, and the constants MLIR reads as
signed bits."""

from __future__ import annotations

from dataclasses import dataclass

from ..values.literals import TYPE_WRAPPERS
from ..values.narrow import MLIR_FLOATS, value_type
from ..values.numbers import FLOAT_TYPES, INT_TYPES

MACHINE = {"bool": "i1", "i8": "i8", "u8": "i8", "i16": "i16", "u16": "i16", "i32": "i32",
           "u32": "i32", "i64": "i64", "u64": "i64", "f16": "f16", "bf16": "bf16", "f32": "f32",
           "f64": "f64", "i128": "i128"}
# An element of a tensor of a narrow float (values/narrow.py) is a byte of its buffer (an
# f4e2m1 its low four bits), read as its MLIR type and widened to f32, written rounded from
# f32 (narrow_floats.py converts).
NARROW = {t.name: mlir for mlir, t in MLIR_FLOATS.items()}
# The integer type of a narrow float's bits, where it is narrower than its byte.
NARROW_BITS = {"f4e2m1": "i4"}
# An element of a tensor of i4 or u4 is a byte holding its value as an i8 or u8 (a 4-bit value
# extended): read as it is, written wrapped to 4 bits, as `as` wraps (the extension's op).
NARROW_INTS = {"i4": "arith.extsi", "u4": "arith.extui"}
# In memory a bool is a byte, 0 or 1 (the runtime's layout; MLIR's memref lowering does not
# store i1): memrefs of bools hold i8, and loads and stores convert.
STORED = {**MACHINE, "bool": "i8", **dict.fromkeys((*NARROW, *NARROW_INTS), "i8")}
BITS = {"i1": 1, "i8": 8, "i16": 16, "i32": 32, "i64": 64, "i128": 128, "index": 64,
        "f16": 16, "bf16": 16, "f32": 32, "f64": 64}
FLOATS = frozenset(FLOAT_TYPES) | {"f64"}


@dataclass(frozen=True)
class Tensor:
    elem: str  # a Vx scalar
    dims: tuple  # an extent known only when the program runs (`?`) is None

    @property
    def mtype(self) -> str:
        return "memref<" + "".join(f"{'?' if d is None else d}x" for d in self.dims) + \
            STORED[self.elem] + ">"

    @property
    def static(self) -> bool:
        """Whether every extent is known while compiling (else `size` is not)."""
        return None not in self.dims

    @property
    def size(self) -> int:
        n = 1
        for d in self.dims:
            n *= d
        return n

    def bytes(self) -> int:
        return self.size * element_bytes(self.elem)

    @property
    def value(self) -> str:
        """The Vx type an element is read and written as."""
        return value_type(self.elem)


@dataclass(frozen=True)
class Vector:
    """`<N x T>`: an MLIR vector of N lanes of T's machine type (a bool's lanes are i1)."""

    elem: str  # a Vx scalar
    lanes: int

    @property
    def mtype(self) -> str:
        return f"vector<{self.lanes}x{MACHINE[self.elem]}>"


# A reference is a memref of rank 0 anywhere in a buffer: a variable's cell (memref.cast to
# the layout) or an element of a tensor (memref.subview), one type for both.
PLACE_LAYOUT = ", strided<[], offset: ?>"


@dataclass(frozen=True)
class Ref:
    """A reference to a scalar or a vector: the place it names, a variable's cell or a
    tensor's element (a memref of rank 0 at an offset)."""

    target: object  # a Vx scalar's name (a narrow type's for an element of such a tensor),
    # or a Vector

    @property
    def mtype(self) -> str:
        return f"memref<{_stored(self.target)}{PLACE_LAYOUT}>"

    @property
    def value(self):
        """The Vx type the place is read and written as (a narrow type's value type)."""
        return self.target if isinstance(self.target, Vector) else value_type(self.target)

    @property
    def cell(self) -> str:
        """The type of a variable's cell holding a `target`, before its cast to a place."""
        return f"memref<{_stored(self.target)}>"


def _stored(t) -> str:
    return t.mtype if isinstance(t, Vector) else STORED[t]


def vx_type(ty):
    """A Type node as a Vx scalar's name, a Tensor, a Vector, a Ref, or "void"."""
    while ty._prod in TYPE_WRAPPERS:
        ty = ty.inner
    if ty._prod == "TensorType":
        return Tensor(vx_type(ty.elem), tuple(getattr(d, "value", None) for d in ty.dims))
    if ty._prod == "VectorType":
        return Vector(vx_type(ty.elem), ty.lanes.value)
    if ty._prod == "BorrowType":  # type-scalars left only references to scalars and vectors
        return Ref(vx_type(ty.inner))
    return ty.name


def mtype(t) -> str:
    return t.mtype if isinstance(t, (Tensor, Vector, Ref)) else MACHINE[t]


def cell_type(t) -> str:
    """The memref.alloca of a variable of type t."""
    return f"memref<{t.mtype if isinstance(t, (Tensor, Vector, Ref)) else STORED[t]}>"


def element_bytes(t: str) -> int:
    """The bytes one element of Vx scalar type t takes in a tensor's buffer."""
    return max(1, BITS[STORED[t]] // 8)


def signed(t: str) -> bool:
    return t not in INT_TYPES or INT_TYPES[t].signed


def kind(t: str) -> str:
    return "float" if t in FLOATS else "int"


def wrap(value: int, t: str) -> int:
    """A constant as the signed value of its bits, which is how MLIR reads one."""
    bits = BITS[MACHINE[t]] if t in MACHINE else BITS[t]
    value &= (1 << bits) - 1
    return value - (1 << bits) if bits > 1 and value >> (bits - 1) else value
