"""Ltaken: adds `PinMatch`, a `match` on a hardware state told where the state keeps its
parts."""

from __future__ import annotations

from ..nanopass import prod
from .lread import Lread

# `Match`, `Arm`, `HardwareStateType`, `LetState`, `StatePart`, `StateRead` and `LetElement`
# stay: lower-pins leaves a function it refuses as it was, for the interpreter, and the
# native-code gate refuses it again.
Ltaken = Lread.extend(
    "Ltaken",
    "Lread with a `match` on a hardware state on the values the state is made of",
    add={
        "Expr": [
            prod("PinMatch", "value: Expr, took: Expr, held: Expr, topo: Topo, arms: Arm*",
                 "a `match` on a hardware state: its value, whether it took a pin, the bool "
                 "that says it still holds it (a place) and the topology it pins on"),
        ],
    },
)
