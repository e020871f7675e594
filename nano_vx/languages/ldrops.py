"""Ldrops: adds the statements `Drop`, the end of a local tensor's buffer, and `DropApart`, the
end of one unless another local holds it."""

from __future__ import annotations

from ..nanopass import prod
from .lcells import Lcells

Ldrops = Lcells.extend(
    "Ldrops",
    "Lcells with the point where each buffer a function owns is dead made a statement",
    add={"Stmt": [prod("Drop", "name: uname",
                       "the tensor the local holds is read no more: its buffer goes back to "
                       "the runtime (a no-op for the interpreter)"),
                  prod("DropApart", "name: uname, kept: uname",
                       "the tensor the local holds is read no more unless it is the one `kept` "
                       "holds: its buffer goes back to the runtime where their addresses "
                       "differ (a no-op for the interpreter)")]},
)
