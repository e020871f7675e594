"""Lerased: removes `StructLit`'s `targs`, and `AppliedType` but as a generic function's parameter naming its type parameters: a generic struct's uses name it alone, or its instance (`Cell$Point`)."""

from __future__ import annotations

import re

from ..nanopass import Terminal, prod
from .lresolved import Lresolved

# An instance is named by its generic and its arguments, each after a `$`: `stage$i32`,
# `scores$4`, `pipeline$GPU$CPU$Island`, `f$NPU[0]`, `id$Tensor<f32,[4],CPU_DRAM>`,
# `Cell$Point`, `Pair$(i32,Point)`, `Cell$<Cell$Point>` (an argument naming an instance in
# `<..>`), `id$&i32`, `id$&mut-i32`, `id$*const-f32-in-Memory::CPU_DRAM`,
# `id$Tensor<i32,[?,n#1+1]>` (any type a parameter binds, its words joined by a `-`). A `.`
# is one only inside a number (`scale$2.5`) and a `:` only a path's `::`, so that what
# follows a name (`.as_ptr()`, `: Copy`) is not read into it.
_ARGUMENTS = r"(\$(?:[A-Za-z0-9_\[\]<>,()&*?#+/%-]|::|\.(?=[0-9]))+)*\Z"
_INAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(::[A-Za-z_][A-Za-z0-9_]*)?" + _ARGUMENTS)
# An instance of a generic struct keeps a parameter nothing gives erased (scalarize-aggregates
# types its field by what the literal puts there), and its name spells that argument `_`:
# `Two$_$Point`.
ERASED = "_"
# A struct's name has no path: `Topology::N` is a topology, not a struct.
_TNAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*" + _ARGUMENTS)


def is_iname(v) -> bool:
    return type(v) is str and _INAME.match(v) is not None


def is_tname(v) -> bool:
    return type(v) is str and _TNAME.match(v) is not None


Lerased = Lresolved.extend(
    "Lerased",
    "Lresolved with the arguments of generic structs erased: a struct is one struct whatever "
    "its arguments, but one applied to aggregates or tensors is an instance of its own "
    "(`Cell$Point`)",
    terminals=[Terminal("iname", is_iname, "a function's name, an instance's with its "
                                           "arguments: stage$i32, Point::new"),
               Terminal("tname", is_tname, "a struct's name, an instance's with its "
                                           "arguments: Cell$Point")],
    remove={"Expr": ["StructLit"], "Type": ["AppliedType", "NamedType"],
            "Item": ["StructDecl"]},
    add={"Expr": [prod("StructLit", "name: tname, fields: FieldInit*",
                       "a generic struct's arguments are erased: `Pair::<f32, 4> { .. }` "
                       "builds a `Pair`; `Cell::<Point> { .. }` builds a `Cell$Point`")],
         "Type": [prod("NamedType", "name: tname", "a generic type parameter or a struct, "
                                                   "an instance of a generic one too"),
                  prod("AppliedType", "name: tname, args: GArg*",
                       "only in a generic function's parameter, of a generic struct whose "
                       "arguments name the function's type parameters: `w: Wrapper<T>` keeps "
                       "them for monomorphize to deduce T from the instance passed "
                       "(`Wrapper$Point`)")],
         "Item": [prod("StructDecl", "name: tname, fields: Param*, generics: GParam*, "
                                     "copy: bool", "an instance of a generic struct has no "
                                                   "generics (a field of one it keeps erased, "
                                                   "`a: A`, is of any type)")]},
)
