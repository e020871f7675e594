"""Lcells: `Fn` gains `cells`, the locals that live in memory cells rather than SSA values."""

from __future__ import annotations

from ..nanopass import prod
from .lstops import Lstops

Lcells = Lstops.extend(
    "Lcells",
    "Lstops with the locals each function keeps in memory cells named",
    remove={"Item": ["Fn"]},
    add={"Item": [prod("Fn", "name: iname, params: Param*, on: Topo?, ret: Type, "
                             "bounds: Bound*, cells: uname*, blocks: BasicBlock*",
                       "cells: the locals assigned after their `let` or borrowed; the first "
                       "block is the entry")]},
)
