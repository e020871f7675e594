"""Lsplit: removes `VariantIs` and `VariantField`: every aggregate is split into scalars."""

from __future__ import annotations

from .lmatched import Lmatched

Lsplit = Lmatched.extend(
    "Lsplit",
    "Lmatched without the reads of an enum: its tag and payload are locals of their own",
    remove={"Expr": ["VariantIs", "VariantField"]},
)
