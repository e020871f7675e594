"""Lhoisted: Lwhile without `ItemStmt`; every item is at the top level."""

from __future__ import annotations

from .l0_loops import Lwhile

Lhoisted = Lwhile.extend(
    "Lhoisted",
    "Lwhile without ItemStmt: items written inside blocks are hoisted to the top level",
    remove={"Stmt": ["ItemStmt"]},
)
