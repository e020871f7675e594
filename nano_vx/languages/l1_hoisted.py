"""Lhoisted: Lsrc without `ItemStmt`; every item is at the top level."""

from __future__ import annotations

from .l0_source import Lsrc

Lhoisted = Lsrc.extend(
    "Lhoisted",
    "Lsrc without ItemStmt: items written inside blocks are hoisted to the top level",
    remove={"Stmt": ["ItemStmt"]},
)
