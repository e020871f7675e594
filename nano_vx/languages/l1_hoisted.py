"""Lhoisted: Lplain without `ItemStmt`; every item is at the top level."""

from __future__ import annotations

from .l0_plain import Lplain

Lhoisted = Lplain.extend(
    "Lhoisted",
    "Lplain without ItemStmt: items written inside blocks are hoisted to the top level",
    remove={"Stmt": ["ItemStmt"]},
)
