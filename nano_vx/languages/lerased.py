"""Lerased: removes `AppliedType` and `StructLit`'s `targs`: a generic struct's uses name it alone, or its instance (`Cell$Point`)."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .lresolved import Lresolved

# An instance is named by its generic and its arguments, each after a `$`: `stage$i32`,
# `scores$4`, `pipeline$GPU$CPU$Island`, `f$NPU[0]`, `id$Tensor<f32,[4],CPU_DRAM>`,
# `Cell$Point`, `Pair$(i32,Point)`.
_INAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)?"
                    r"(\$[A-Za-z0-9_\[\]<>,.:()-]+)*\Z")


def is_iname(v) -> bool:
    return type(v) is str and _INAME.match(v) is not None

Lerased = Lresolved.extend(
    "Lerased",
    "Lresolved with the arguments of generic structs erased: a struct is one struct whatever "
    "its arguments, but one applied to aggregates or tensors is an instance of its own "
    "(`Cell$Point`)",
    terminals=[Terminal("iname", is_iname, "a function's or struct's name, an instance's "
                                           "with its arguments: stage$i32, Cell$Point")],
    remove={"Expr": ["StructLit"], "Type": ["AppliedType", "NamedType"],
            "Item": ["StructDecl"]},
    add={"Expr": [prod("StructLit", "name: iname, fields: FieldInit*",
                       "a generic struct's arguments are erased: `Pair::<f32, 4> { .. }` "
                       "builds a `Pair`; `Cell::<Point> { .. }` builds a `Cell$Point`")],
         "Type": [prod("NamedType", "name: iname", "a generic type parameter or a struct, "
                                                   "an instance of a generic one too")],
         "Item": [prod("StructDecl", "name: iname, fields: Param*, generics: GParam*, "
                                     "copy: bool", "an instance of a generic struct has no "
                                                   "generics")]},
)
