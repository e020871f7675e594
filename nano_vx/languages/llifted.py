"""Llifted: a closure value is the number of its function, and a call through it calls the
dispatcher of its signature."""

from __future__ import annotations

from .lfunctions import Lfunctions

Llifted = Lfunctions.extend(
    "Llifted",
    "Lfunctions without closure values as functions: a closure value is the number of its "
    "function, and a call through it calls the function that number picks",
    remove={"Type": ["ClosureType"]},
)
