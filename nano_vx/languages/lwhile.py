"""Lwhile: Lplain without `Loop`; `loop { B }` is `while true { B }`."""

from __future__ import annotations

from .lplain import Lplain

Lwhile = Lplain.extend(
    "Lwhile",
    "Lplain with one kind of loop fewer: `loop { B }` is `while true { B }`",
    remove={"Stmt": ["Loop"]},
)
