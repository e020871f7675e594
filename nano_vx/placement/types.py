"""Placed types: filling in a tensor type's space, and reading the space a type names."""

from __future__ import annotations

from ..languages.ltyped import Ltyped
from ..values.narrow import NARROW_TYPES, value_type

OPAQUE = Ltyped["OpaqueType"]()
VOID = Ltyped["Scalar"]("void")
BOOL = Ltyped["Scalar"]("bool")
# A string's type, which only the type checks give (`print` and `assert` take text; nothing
# else does): no type a program writes, it is told apart by identity from a struct `str`.
TEXT = Ltyped["NamedType"]("str")

HOST = "CPU"  # the topology the host program runs on (vx-reference §2)


def element_value(elem):
    """The type an element of a tensor of `elem` is read and written as: a narrow storage
    type's value type (`f32` for `f8e4m3`), any other type itself."""
    if elem._prod == "Scalar" and elem.name in NARROW_TYPES:
        return elem.replace(name=value_type(elem.name))
    return elem


class Machine:
    """The model as placement asks it: which space a topology holds, and what it sees."""

    def __init__(self, model):
        self.model = model

    def holds(self, topo: str | None) -> str | None:
        """The space topology `topo` holds (`NPU[0]` by its base name); None when the model
        has no such topology (a generic `Topology::A`)."""
        t = self.model.topology_of(topo) if topo is not None else None
        return t.memory if t is not None else None

    def sees(self, topo: str) -> tuple[str, ...] | None:
        t = self.model.topology_of(topo)
        return t.visible if t is not None else None

    @property
    def host_space(self) -> str | None:
        return self.holds(HOST)


def place_of(place, machine: Machine) -> str | None:
    """The space a written place names: `Memory::X` is X, `Topology::T` the space T holds."""
    if place is None:
        return None
    if place._prod == "MemRef":
        return place.name
    return machine.holds(place.name)


def placed(ty, space: str | None, machine: Machine):
    """`ty` with every tensor type's space written as `Memory::X`: a missing one is `space`
    (where the value is made), `Topology::T` is the space T holds. Pinned<T, τ> places its
    inner value on τ."""
    kind = ty._prod
    if kind == "TensorType":
        where = place_of(ty.place, machine) if ty.place is not None else space
        if where is None:
            return ty
        mem = Ltyped["MemRef"](where, span=ty.place.span if ty.place is not None else ty.span)
        if ty.place is not None and ty.place == mem:
            return ty
        return ty.replace(place=mem)
    if kind == "PinnedType":
        return ty.replace(inner=placed(ty.inner, machine.holds(ty.topo.name), machine))
    if kind == "RefType":
        return ty.replace(inner=placed(ty.inner, ty.mem.name, machine))
    if kind in ("VerifiedType", "HardwareStateType", "BorrowType"):
        return ty.replace(inner=placed(ty.inner, space, machine))
    if kind == "TupleType":  # `-> (Tensor<..>, bool)`: each tensor where a bare one would be
        elems = tuple(placed(e, space, machine) for e in ty.elems)
        return ty if elems == ty.elems else ty.replace(elems=elems)
    if kind == "PtrType":  # as written, a pointer without a place points into host memory
        where = place_of(ty.place, machine) if ty.place is not None else machine.host_space
        if where is None or ty.place is not None and ty.place == Ltyped["MemRef"](where):
            return ty
        return ty.replace(place=Ltyped["MemRef"](where, span=ty.span))
    return ty


def space_of(ty, machine: Machine) -> str | None:
    """The space a placed type names, or None for a value the type does not place (a scalar
    lives where it was bound)."""
    kind = ty._prod
    if kind == "TensorType":
        return place_of(ty.place, machine)
    if kind == "RefType":
        return ty.mem.name
    if kind == "PinnedType":
        return space_of(ty.inner, machine) or machine.holds(ty.topo.name)
    if kind in ("VerifiedType", "BorrowType"):  # `Saturated(v)`, `&t`: where the value is
        return space_of(ty.inner, machine)
    if kind == "PtrType":  # where what it points at is
        return place_of(ty.place, machine)
    return None

