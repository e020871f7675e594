"""Llifted: no closures; each became a function of the program, its captures extra parameters,
and a closure value the number of its closure."""

from __future__ import annotations

from .lscalars import Lscalars

Llifted = Lscalars.extend(
    "Llifted",
    "Lscalars without closures: a closure is a function whose captures are parameters, and "
    "its calls pass them; a closure value is the number of its closure, and a call through "
    "it calls the function that number picks",
    remove={"Expr": ["Closure"], "Type": ["OpaqueType", "ClosureType"]},
)
