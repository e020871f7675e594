"""Llifted: no closures; each became a function of the program, its captures extra parameters."""

from __future__ import annotations

from .lscalars import Lscalars

Llifted = Lscalars.extend(
    "Llifted",
    "Lscalars without closures: a closure is a function whose captures are parameters, and "
    "its calls pass them; no value is opaque any more",
    remove={"Expr": ["Closure"], "Type": ["OpaqueType"]},
)
