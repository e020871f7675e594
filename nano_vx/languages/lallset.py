"""Lallset: adds `AllWritten`, a tensor made otherwise than by `::uninit()` given a marked
closure's parameter whose written-flags its callers keep, with flags of it all set."""

from __future__ import annotations

from ..nanopass import prod
from .lcopied import Lcopied

Lallset = Lcopied.extend(
    "Lallset",
    "Lcopied with each tensor made otherwise that a call gives a marked closure's parameter "
    "given flags all set of its extents",
    add={"Expr": [prod("AllWritten", "value: Expr, flags: Expr",
                       "the argument `value`, a tensor made otherwise than by `::uninit()` "
                       "given a parameter whose written-flags the callers keep: `flags`, a "
                       "bool tensor of its extents all set, are those flags (it computes "
                       "`value`)")]},
)
