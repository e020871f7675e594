"""Ltyped: Let types inferred (a tensor type with its space); Transfer records its source space."""

from __future__ import annotations

from ..nanopass import prod
from .lmono import Lmono

Ltyped = Lmono.extend(
    "Ltyped",
    "Lmono with placement: Let types inferred, tensor types placed, Transfer(src) known",
    remove={"Stmt": ["Let"], "Expr": ["Transfer"]},
    add={
        "Stmt": [prod("Let", "name: uname, mutable: bool, type: Type, value: Expr",
                      "the type is the inferred one; a tensor's carries its space")],
        "Expr": [prod("Transfer", "value: Expr, dest: Mem, mark: mark, src: Mem?",
                      "src: the space the value lives in before the move (none: a generic "
                      "topology's)")],
        "Type": [prod("OpaqueType", "",
                      "a value placement inference gives no type: a closure, a string, a "
                      "generic's result, arithmetic mixing two types")],
    },
)
