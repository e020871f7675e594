"""Lfunctions: no closures; each became a function of the program, its captures extra
parameters, and a closure value names its function."""

from __future__ import annotations

from .lscalars import Lscalars

# A closure value is a `Global` naming its function, and a `ClosureType` lists after the
# closure's own parameters the variables every closure of its signature reads, which a call
# through the value passes: the interpreter calls the function the value names.
Lfunctions = Lscalars.extend(
    "Lfunctions",
    "Lscalars without closures: a closure is a function whose captures are parameters, and "
    "its calls pass them; a closure value names its function, and a call through it passes "
    "what every closure of its signature reads",
    remove={"Expr": ["Closure"], "Type": ["OpaqueType"]},
)
