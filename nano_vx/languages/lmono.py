"""Lmono: removes `Call`'s generic arguments (`sizeof<T>()` is its literal) and with them `GArg`."""

from __future__ import annotations

from ..nanopass import prod
from .linstances import Linstances

Lmono = Linstances.extend(
    "Lmono",
    "Linstances without generic arguments: `sizeof<T>()` is the number of bytes of a T",
    remove={"Expr": ["Call"], "GArg": ["TypeArg", "DimArg", "TopoArg", "FloatArg", "BoolArg"]},
    add={"Expr": [prod("Call", "callee: Expr, args: Expr*", "a generic callee names its "
                                                            "instance")]},
)
