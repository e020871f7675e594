"""Lheld: adds `LetState` and `StatePart`, a hardware state whose `held` is a reference bound
from parts its function computes, `TakePin`, the pin `try_pin` takes alone, and `Halt`, a
`print` the interpreter stops on."""

from __future__ import annotations

from ..nanopass import prod
from .lconstparts import Lconstparts

Lheld = Lconstparts.extend(
    "Lheld",
    "Lconstparts with a hardware state bound from the parts its `let`s compute, its `held` a "
    "reference to another state's or a cell of its own, a state's parts read, a pin taken, "
    "and a `print` the interpreter stops on as that stop",
    add={
        "Expr": [
            prod("TakePin", "topo: name, replicas: int",
                 "takes a pin of the topology kind `topo` when fewer than `replicas` are "
                 "held: whether it did"),
            prod("StatePart", "state: Expr, part: int",
                 "of the hardware state in the variable `state`: its value (0), whether it "
                 "took a pin (1), or a `&mut` to the bool that says it still holds it (2)"),
        ],
        "Stmt": [
            prod("LetState", "name: uname, mutable: bool, type: Type, value: Expr, took: uname, "
                             "held: uname, topo: Topo",
                 "binds the hardware state `name` on `topo`: its value of type `type`, and "
                 "the locals bound around it that say whether it took a pin (`took`) and "
                 "hold a `&mut` to the bool that says it still holds it (`held`)"),
            prod("Halt", "code: string, message: string",
                 "stops the program with this run-time diagnostic, at this node's span: a "
                 "`print` of a value the interpreter does not print"),
        ],
    },
)
