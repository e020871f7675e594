"""Lconstparts: adds `ConstPart`, a part of a constant that one function computes whole at the
first read of any of its parts."""

from __future__ import annotations

from ..nanopass import prod
from .lassumed import Lassumed

Lconstparts = Lassumed.extend(
    "Lconstparts",
    "Lassumed with a part of a constant computed once, with the others, by a function",
    add={
        "Expr": [prod("ConstPart", "constant: iname, fill: iname, part: int",
                      "part `part` of the constant `constant`: the first read of any of its "
                      "parts calls `fill` with a `&mut` to each, in order, but a tensor, "
                      "the last part, which `fill` returns, and every read after reads what "
                      "it wrote (a read while it runs is E9006); `C$b` names the state of "
                      "a part of C computed apart, after C")],
    },
)
