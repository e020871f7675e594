"""hold-borrowed-constant-literals: Lconstparts -> Lconstparts.

Same IL: a borrow of a tensor's only element, which nothing else names, names the number the
borrow of the literal named."""

from __future__ import annotations

from ..backend.machine_types import MACHINE
from ..languages.lconstparts import Lconstparts as L
from ..nanopass import Pass
from ..scalars.aggregates import fresh_item
from ..values.places import CPU_DRAM

hold_borrowed_constant_literals = Pass("hold-borrowed-constant-literals", L, L, """
Make each literal (or scalar constant) a constant holding a `&` to a scalar gives as its reference (its value, or an `if`'s arm there) the one element of a tensor constant of its own, borrowed: `const X: &i32 = if c { E } else { &1 };` is `const X_literal: Tensor<i32, [1]> = Tensor<i32, [1]>::fill(1);` and `const X: &i32 = if c { E } else { &X_literal[0] };`.

dereference-constants left a constant holding a reference that may name an element of a
tensor (another constant's reference, `&T[0]`) as it was, since a write through a copy of the
tensor shows through it; native code lowers a reference constant to an element of a tensor
constant, whose global keeps the buffer, but a borrow of a literal is a temporary, which a
constant has no local to hold (so is one of a scalar constant, `&ONE`). The literal's own
tensor is a constant nothing else names, so nothing writes its element, and a read through
the reference reads the number the borrow of the literal named. The interpreter types a borrowed literal as one nothing fixes, an i32,
an f64, whatever the reference's scalar: a literal of another type stays (`&3000000000` of
a `&i64` holds the i32 it wraps to, which a tensor of i64 would not), and so does one
borrowed elsewhere in the value (given to a function), for type-scalars to refuse.
""")


@hold_borrowed_constant_literals.on("Program")
def _program(run, program):
    taken = {i.name for i in program.items if "name" in i._fields}
    scalars = {i.name for i in program.items if i._prod == "ConstItem" and
               i.type is not None and i.type._prod == "Scalar"}
    items = []
    for item in program.items:
        ty = item.type if item._prod == "ConstItem" and item.value is not None else None
        if ty is None or ty._prod != "BorrowType" or ty.mutable or \
                ty.inner._prod != "Scalar" or ty.inner.name not in MACHINE:
            items.append(item)
            continue
        made: list = []
        value = _held(item.value, item.name, ty.inner, scalars, taken, made)
        items.extend([*made, item.replace(value=value)])
    return program.replace(items=tuple(items)) if len(items) > len(program.items) else program


def _held(e, name: str, scalar, scalars: set, taken: set, made: list):
    """e, what a constant named `name` holding a `&` to `scalar` gives as its reference,
    each borrow of a literal or of a constant of `scalars` it gives so a borrow of the
    element of a tensor constant of its own, appended to `made`."""
    sp = e.span
    if e._prod == "IfExpr":
        return e.replace(then=_held(e.then, name, scalar, scalars, taken, made),
                         orelse=_held(e.orelse, name, scalar, scalars, taken, made))
    if e._prod == "Block" and e.value is not None:
        return e.replace(value=_held(e.value, name, scalar, scalars, taken, made))
    if e._prod != "Borrow" or e.mutable or not _literal(e.value, scalars, scalar):
        return e
    one = L["TensorType"](scalar, (L["DimInt"](1, span=sp),), L["MemRef"](CPU_DRAM, span=sp),
                          span=sp)
    held = fresh_item(f"{name}_literal", taken)
    made.append(L["ConstItem"](held, one, L["TensorNew"](
        one.replace(place=None), "fill", (e.value,), span=sp), span=sp))
    return e.replace(value=L["Index"](L["Global"](held, span=sp), L["Int"](0, span=sp), span=sp))


def _literal(e, scalars: set, scalar) -> bool:
    """A literal the interpreter holds as a `scalar` (it types a borrowed one as it types one
    nothing fixes: an i32, an f64), or a read of a constant of `scalars` (computed at the
    first read of the tensor, where the borrow read it)."""
    if e._prod == "Global":
        return e.name in scalars
    if e._prod == "Unary" and e.op == "-":
        e = e.operand
    return e._prod == "Int" and scalar.name == "i32" and e.value < 2 ** 31 or \
        e._prod == "Float" and scalar.name == "f64" or e._prod == "Bool" and scalar.name == "bool"
