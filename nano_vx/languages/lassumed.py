"""Lassumed: a kernel may start with `assume`s, facts the launching code proved before it."""

from __future__ import annotations

from ..nanopass import prod
from .lkernels import Lkernels

Lassumed = Lkernels.extend(
    "Lassumed",
    "Lkernels with Assume: a host assert's condition, re-materialized inside a kernel",
    add={
        "Stmt": [prod("Assume", "cond: Expr",
                      "holds whenever the kernel runs (every launch is dominated by an assert "
                      "of it): code may rely on it, as on llvm.intr.assume")],
    },
)
