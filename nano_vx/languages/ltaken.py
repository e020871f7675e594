"""Ltaken: adds `TakePin` and `PinMatch`, `try_pin` written out and a `match` on its result
told where the state it is on keeps its parts, and `Halt`, a `print` the interpreter stops on."""

from __future__ import annotations

from ..nanopass import prod
from .lassumed import Lassumed

# `Match`, `Arm` and `HardwareStateType` stay: lower-pins leaves a function it refuses as it
# was, for the interpreter, and the native-code gate refuses it again.
Ltaken = Lassumed.extend(
    "Ltaken",
    "Lassumed with `try_pin` written out as a pin taken, and a `match` on its result on the "
    "values the state is made of, and a `print` the interpreter stops on as that stop",
    add={
        "Expr": [
            prod("TakePin", "topo: name, replicas: int",
                 "takes a pin of the topology kind `topo` when fewer than `replicas` are "
                 "held: whether it did"),
            prod("PinMatch", "value: Expr, took: Expr, held: Expr, topo: Topo, arms: Arm*",
                 "a `match` on a hardware state: its value, whether it took a pin, the bool "
                 "that says it still holds it (a place) and the topology it pins on"),
        ],
        "Stmt": [
            prod("Halt", "code: string, message: string",
                 "stops the program with this run-time diagnostic, at this node's span: a "
                 "`print` of a value the interpreter does not print"),
        ],
    },
)
