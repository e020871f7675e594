"""Ltransfers: adds terminal `mark`; `Transfer` carries it; transfer methods became `Transfer`."""

from __future__ import annotations

from ..nanopass import Terminal, prod
from .lunrolled import Lunrolled

MARKS = frozenset({"sync", "relaxed"})

Ltransfers = Lunrolled.extend(
    "Ltransfers",
    "Lunrolled with marked transfers: x.to_device() and friends are Transfer(x, M, mark)",
    terminals=[Terminal("mark", lambda v: v in MARKS, "sync relaxed: whether the move releases")],
    remove={"Expr": ["Transfer"]},
    add={"Expr": [prod("Transfer", "value: Expr, dest: Mem, mark: mark")]},
)
