"""Lpaths: Lflat without `PathCall`; a path is a call of a function or a variant's value."""

from __future__ import annotations

from ..nanopass import prod
from .lflat import Lflat

Lpaths = Lflat.extend(
    "Lpaths",
    "Lflat without PathCall: `E::V(..)` is an enum's value, `S::f(..)` a call of the "
    "function `S::f`",
    remove={"Expr": ["PathCall", "EnumValue"]},
    add={"Expr": [prod("EnumValue", "enum: name, variant: name, args: Expr*",
                       "`Shape::Dot`, `Shape::Circle(1.5)`")]},
)
