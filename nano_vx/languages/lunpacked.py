"""Lunpacked: Lwhile without `LetTuple`; `let (a, b) = t;` binds each element by itself."""

from __future__ import annotations

from .lwhile import Lwhile

Lunpacked = Lwhile.extend(
    "Lunpacked",
    "Lwhile without LetTuple: a tuple is taken apart by one `let` per element",
    remove={"Stmt": ["LetTuple"]},
)
