"""Lsplit: removes `GiveBack`: a tensor given back through an out-parameter is copied; adds
`HaltWith`, a stop whose message shows a value the program computes."""

from __future__ import annotations

from ..nanopass import prod
from .lparted import Lparted

Lsplit = Lparted.extend(
    "Lsplit",
    "Lparted with each tensor given back through an out-parameter copied into the caller's, "
    "element by element: every aggregate is split into scalars; a stop may show a value",
    remove={"Stmt": ["GiveBack"]},
    add={"Expr": [prod("HaltWith", "code: string, message: string, value: Expr",
                       "stops the program with this run-time diagnostic, at this node's "
                       "span, `{a}` in its message the integer `value`; of value's type, it "
                       "gives none (erase-variable-extents, compute-wide-extents: a check the "
                       "interpreter makes as it computes an extent)")]},
)
