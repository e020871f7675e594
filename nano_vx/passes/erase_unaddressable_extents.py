"""erase-unaddressable-extents: Lsplit -> Lsplit.

Same IL: a tensor of `?` extents given them as it is made (`Tensor<u8, [?, ?]>::new([m,
n])`) is a form Lsplit has, and the interpreter makes it as it made the static one."""

from __future__ import annotations

import math

from ..languages.lsplit import Lsplit as L
from ..nanopass import Pass
from ..values.tensors import ADDRESS_LIMIT

erase_unaddressable_extents = Pass("erase-unaddressable-extents", L, L, """
Make each tensor type of static extents whose element count is past what an address reaches
(2^63) a type of `?` extents, and give its constructor the extents.

The interpreter stops at such a constructor (E9006 "a tensor of 10000..0 elements is too
large to address"), and native code, which gives a static tensor a memref of static shape,
cannot declare it; as `Tensor<u8, [?, ?, ?]>::new([m as i64, n as i64, k as i64])` native code computes the
count as the program runs and stops there in the interpreter's words, before allocating
anything. No such tensor is ever made, so nothing else changes: a `let`'s or a parameter's
type of those extents becomes `?` alike. An extent past i64 stays as written (type-scalars
refuses it, E5010), as does a tensor whose count fits but whose bytes do not (the
interpreter makes it, holding only what is written).
""")


@erase_unaddressable_extents.on("StructDecl", "EnumDecl")
def _declaration(run, decl):
    """A declaration says how a value prints; its parts are locals of their own by now."""
    return decl


def _unaddressable(ty) -> bool:
    """Whether ty is a tensor type of static extents, each an i64, counting past 2^63."""
    if ty._prod != "TensorType" or not all(d._prod == "DimInt" for d in ty.dims):
        return False
    values = [d.value for d in ty.dims]
    return all(v < ADDRESS_LIMIT for v in values) and math.prod(values) > ADDRESS_LIMIT


@erase_unaddressable_extents.on("TensorType")
def _tensor_type(run, ty):
    ty = run.rebuild(ty)
    if not _unaddressable(ty):
        return ty
    return ty.replace(dims=tuple(L["DimAny"](span=d.span) for d in ty.dims))


@erase_unaddressable_extents.on("TensorNew")
def _tensor_new(run, new):
    args = tuple(run.walk(a) for a in new.args)
    if not _unaddressable(new.type):
        return new.replace(type=run.walk(new.type), args=args)
    given = L["ArrayLit"](tuple(L["Cast"](L["Int"](d.value, span=d.span),
                                          L["Scalar"]("i64", span=d.span), span=d.span)
                                for d in new.type.dims), span=new.type.span)
    return new.replace(type=run.walk(new.type), args=(given, *args))
