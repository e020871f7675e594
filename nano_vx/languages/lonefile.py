"""Lonefile: Lsrc without `Import`; the program is the one file nano-vx compiles."""

from __future__ import annotations

from .lsrc import Lsrc

Lonefile = Lsrc.extend(
    "Lonefile",
    "Lsrc without Import: every item the program has is in its file",
    remove={"Item": ["Import"]},
)
