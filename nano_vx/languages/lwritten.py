"""Lwritten: adds `ReadWritten`, an element of a tensor made by `uninit()` read only once its
written-flag says it was written; removes `WrittenCopy` and `AllWritten`: the flags are
parameters and arguments now."""

from __future__ import annotations

from ..nanopass import prod
from .lallset import Lallset

Lwritten = Lallset.extend(
    "Lwritten",
    "Lallset with each read of an element of a tensor made by `uninit()` that may not be "
    "written checked against the tensor's written-flags",
    remove={"Stmt": ["WrittenCopy"], "Expr": ["AllWritten"]},
    add={"Expr": [prod("ReadWritten", "element: Expr, flags: Expr",
                       "the element `element` (an index of each dimension) reads, after the "
                       "same element of `flags`, a bool tensor of its extents set by each "
                       "write, says it was written (else E9005)")]},
)
