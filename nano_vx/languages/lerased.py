"""Lerased: removes `AppliedType` and `StructLit`'s `targs`: a generic struct's uses name it alone."""

from __future__ import annotations

from ..nanopass import prod
from .lresolved import Lresolved

Lerased = Lresolved.extend(
    "Lerased",
    "Lresolved with the arguments of generic structs erased: a struct is one struct whatever "
    "its arguments",
    remove={"Expr": ["StructLit"], "Type": ["AppliedType"]},
    add={"Expr": [prod("StructLit", "name: name, fields: FieldInit*",
                       "a generic struct's arguments are erased: `Pair::<f32, 4> { .. }` "
                       "builds a `Pair`")]},
)
