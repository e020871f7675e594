"""Ldrops: adds the statement `Drop`, the end of a local tensor's buffer."""

from __future__ import annotations

from ..nanopass import prod
from .lcells import Lcells

Ldrops = Lcells.extend(
    "Ldrops",
    "Lcells with the point where each buffer a function owns is dead made a statement",
    add={"Stmt": [prod("Drop", "name: uname",
                       "the tensor the local holds is read no more: its buffer goes back to "
                       "the runtime (a no-op for the interpreter)")]},
)
