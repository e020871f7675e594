"""Lcopied: adds `WrittenCopy`, which opens a copy of a function made for the tensors made by
`::uninit()` it is given or returns, and names them."""

from __future__ import annotations

from ..nanopass import prod
from .lsplit import Lsplit

Lcopied = Lsplit.extend(
    "Lcopied",
    "Lsplit with each function given or returning a tensor made by `::uninit()` called in a "
    "copy of its own, which says which of its parameters are given one and whether it "
    "returns one",
    add={"Stmt": [prod("WrittenCopy", "given: uname*, returned: bool",
                       "the first statement of a copy (or of a closure given such tensors): "
                       "its parameters `given` hold tensors made by `::uninit()` whose "
                       "written-flags its callers keep, and with "
                       "`returned` its callers keep those of the tensor it returns (nothing "
                       "to run)")]},
)
