"""Lerased: a generic struct's parameters erased: `StructDecl` and `StructLit` lose them, `AppliedType` goes."""

from __future__ import annotations

from ..nanopass import prod
from .l4_resolved import Lresolved

Lerased = Lresolved.extend(
    "Lerased",
    "Lresolved with generic structs erased: a struct is one struct whatever its arguments",
    remove={"Item": ["StructDecl"], "Expr": ["StructLit"], "Type": ["AppliedType"]},
    add={
        "Item": [prod("StructDecl", "name: name, fields: Param*",
                      "a generic struct's parameters are erased: a field of type `T` is "
                      "of any type, `Pair<f32, 4>` is `Pair`")],
        "Expr": [prod("StructLit", "name: name, fields: FieldInit*",
                      "a generic struct's arguments are erased (see StructDecl)")],
    },
)
