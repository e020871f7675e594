"""Lpinned: replaces `PinMatch` by `PinnedTo` and `ReleasePin`, what a `match` on the result
of `try_pin` is made of."""

from __future__ import annotations

from ..nanopass import prod
from .ltaken import Ltaken

Lpinned = Ltaken.extend(
    "Lpinned",
    "Ltaken with the `match` on a hardware state written out: a value pinned, a pin given "
    "back",
    remove={"Expr": ["PinMatch"]},
    add={
        "Expr": [
            prod("PinnedTo", "value: Expr, topo: Topo",
                 "the value pinned on the topology: a tensor in its memory (no code)"),
        ],
        "Stmt": [
            prod("ReleasePin", "topo: name", "gives back a pin of the topology kind `topo`"),
        ],
    },
)
