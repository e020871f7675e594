"""Lnegint: adds `NegInt`, a negative integer literal as one node."""

from nano_vx.languages import Lresolved
from nano_vx.nanopass import prod

Lnegint = Lresolved.extend(
    "Lnegint",
    "Lresolved with `-k` on an integer literal folded into one literal",
    add={"Expr": [prod("NegInt", "value: int", "the literal -value (value >= 0)")]},
)
