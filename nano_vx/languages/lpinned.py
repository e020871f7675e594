"""Lpinned: adds `TakePin`, `PinnedTo` and `ReleasePin`, what `try_pin` and a `match` on its
result are made of."""

from __future__ import annotations

from ..nanopass import prod
from .lassumed import Lassumed

# `Match`, `Arm` and `HardwareStateType` stay: lower-pins leaves a function it refuses as it
# was, for the interpreter, and the native-code gate refuses it again.
Lpinned = Lassumed.extend(
    "Lpinned",
    "Lassumed with `try_pin` and its `match` written out: a pin taken, a value pinned, a pin "
    "given back",
    add={
        "Expr": [
            prod("TakePin", "topo: name, replicas: int",
                 "takes a pin of the topology kind `topo` when fewer than `replicas` are "
                 "held: whether it did"),
            prod("PinnedTo", "value: Expr, topo: Topo",
                 "the value pinned on the topology: a tensor in its memory (no code)"),
        ],
        "Stmt": [
            prod("ReleasePin", "topo: name", "gives back a pin of the topology kind `topo`"),
        ],
    },
)
