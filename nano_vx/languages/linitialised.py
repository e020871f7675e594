"""Linitialised: Lonefile without `Declare`; every `let` gives its variable a value."""

from __future__ import annotations

from .lonefile import Lonefile

Linitialised = Lonefile.extend(
    "Linitialised",
    "Lonefile without Declare: every variable has a value from its `let` on",
    remove={"Stmt": ["Declare"]},
)
