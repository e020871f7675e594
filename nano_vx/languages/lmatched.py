"""Lmatched: adds `VariantIs` and `VariantField`, the reads a `match` on an enum is made of."""

from __future__ import annotations

from ..nanopass import prod
from .lpinned import Lpinned

Lmatched = Lpinned.extend(
    "Lmatched",
    "Lpinned with an enum's variant tested and its payload read, as a `match` did",
    add={
        "Expr": [
            prod("VariantIs", "base: Expr, enum: name, variant: name",
                 "whether the enum value base holds the variant enum::variant"),
            prod("VariantField", "base: Expr, enum: name, variant: name, index: int",
                 "the index-th value the variant enum::variant of base carries (base holds "
                 "that variant)"),
        ],
    },
)
