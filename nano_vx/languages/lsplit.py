"""Lsplit: removes `GiveBack`: a tensor given back through an out-parameter is copied."""

from __future__ import annotations

from .lparted import Lparted

Lsplit = Lparted.extend(
    "Lsplit",
    "Lparted with each tensor given back through an out-parameter copied into the caller's, "
    "element by element: every aggregate is split into scalars",
    remove={"Stmt": ["GiveBack"]},
)
