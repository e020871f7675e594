"""Lread: adds `StateRead`, a part of a hardware state read where it stands, and
`LetElement`, a state bound from an element of a tuple a call returned."""

from __future__ import annotations

from ..nanopass import prod
from .lheld import Lheld

Lread = Lheld.extend(
    "Lread",
    "Lheld with a hardware state's parts read where it stands, and a state bound from the "
    "parts of an element of a tuple a call returned",
    add={
        "Expr": [
            prod("StateRead", "state: Expr, part: int",
                 "of the hardware state in the variable `state`, as it stands: its value (0), "
                 "whether it took a pin (1), or whether it still holds it (2, the bool)"),
        ],
        "Stmt": [
            prod("LetElement", "name: uname, type: Type, value: Expr, took: uname, held: uname, "
                               "by_ref: bool, topo: Topo",
                 "binds the hardware state `name` on `topo` that an element of a tuple a call "
                 "returned holds: its value of type `type`, and the locals bound before it "
                 "that say whether it took a pin (`took`) and whether it still holds it "
                 "(`held`, or with `by_ref` a `&mut` to that bool)"),
        ],
    },
)
