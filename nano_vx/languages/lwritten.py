"""Lwritten: adds `ReadWritten`, an element of a tensor made by `uninit()` read only once its
written-flag says it was written."""

from __future__ import annotations

from ..nanopass import prod
from .lsplit import Lsplit

Lwritten = Lsplit.extend(
    "Lwritten",
    "Lsplit with each read of an element of a tensor made by `uninit()` that may not be "
    "written checked against the tensor's written-flags",
    add={"Expr": [prod("ReadWritten", "element: Expr, flags: Expr",
                       "the element `element` (an index of each dimension) reads, after the "
                       "same element of `flags`, a bool tensor of its extents set by each "
                       "write, says it was written (else E9005)")]},
)
