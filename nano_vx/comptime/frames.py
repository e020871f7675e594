"""Variables while a block runs at compile time.

Names are unique within a function after resolve-names, so one dict per function call holds
every variable of it; a closure's frame points to the frame it captured. A name found in no
frame is a variable declared outside the block being folded: reading it gives an unknown,
writing it is an error.
"""

from __future__ import annotations


class Frame:
    __slots__ = ("vars", "parent")

    def __init__(self, parent: "Frame | None" = None):
        self.vars: dict = {}
        self.parent = parent

    def holder(self, name: str) -> "dict | None":
        """The variables dict that holds `name`, or None when the block's outside does."""
        frame = self
        while frame is not None:
            if name in frame.vars:
                return frame.vars
            frame = frame.parent
        return None
