"""Lhoisted: Lunpacked without `ItemStmt`; every item is at the top level."""

from __future__ import annotations

from .lunpacked import Lunpacked

Lhoisted = Lunpacked.extend(
    "Lhoisted",
    "Lunpacked without ItemStmt: items written inside blocks are hoisted to the top level",
    remove={"Stmt": ["ItemStmt"]},
)
