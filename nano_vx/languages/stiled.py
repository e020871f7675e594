"""Stiled: every tensor access has a tile shape and a loop nest that orders its tiles."""

from __future__ import annotations

from ..nanopass import Terminal, prod
from .sdataflow import Sdataflow, is_name


def _index(v) -> bool:
    return type(v) is tuple and all(x == "0" or is_name(x) for x in v)


Stiled = Sdataflow.extend(
    "Stiled",
    "Sdataflow with tiled accesses: a load or store moves one tile per firing",
    remove={"Stage": ["Load", "Store", "Compute"]},
    terminals=[Terminal("index", _index, "per tensor dimension, a loop variable or 0")],
    add={
        "Stage": [
            prod("Load", "name: name, tensor: name, tile: ints, loops: Loop*, index: index, "
                         "outs: Port*",
                 "firing n reads the tile the n-th point of the loop nest names"),
            prod("Store", "name: name, tensor: name, tile: ints, loops: Loop*, index: index, "
                          "input: Port",
                 "firing n writes the tile the n-th point of the loop nest names"),
            prod("Compute", "name: name, op: op, axis: int?, factor: number?, ins: Port*, "
                            "outs: Port*, via: dtype?, over: int?",
                 "a tile op, as in Sdataflow; a matmul_acc `over` n firings adds each "
                 "firing's product to its running sum and puts the sum every n-th firing"),
        ],
        "Loop": [prod("Loop", "var: name, start: int, stop: int, step: int",
                      "range(start, stop, step); the last loop varies fastest")],
    },
)
