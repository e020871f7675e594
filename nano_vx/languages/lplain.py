"""Lplain: Lshaped without `Suffixed`; a literal's written type is a cast of the plain literal."""

from __future__ import annotations

from .lshaped import Lshaped

Lplain = Lshaped.extend(
    "Lplain",
    "Lshaped with every literal plain: `300u16` is `300 as u16`, its range checked",
    remove={"Expr": ["Suffixed"]},
)
