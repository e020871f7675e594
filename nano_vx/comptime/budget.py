"""The evaluator's bounds (semantics §4): steps in all, and nested calls.

Both are counted here rather than left to Python. A step is a loop iteration or a call: the
step count stops a block that would run for hours, whether it loops or recurses on more than
one branch (a doubly recursive `f(40)` nests 40 calls deep but makes 10^8 of them); the
depth count stops recursion long before Python's stack would.
"""

from __future__ import annotations

from .errors import ComptimeError

MAX_STEPS = 1_000_000
MAX_DEPTH = 256


class Budget:
    __slots__ = ("steps", "depth")

    def __init__(self):
        self.steps = 0
        self.depth = 0

    def step(self, span):
        """A loop iteration."""
        self.steps += 1
        if self.steps > MAX_STEPS:
            _too_long(span)

    def enter(self, span, name: str):
        """A call: a step, one deeper. The caller takes the depth back (`depth -= 1`)."""
        self.steps += 1
        self.depth += 1
        if self.steps > MAX_STEPS:
            _too_long(span)
        if self.depth > MAX_DEPTH:
            raise ComptimeError("E8004", span, f"compile-time evaluation went more than "
                                               f"{MAX_DEPTH} calls deep (calling `{name}`)",
                                limit=MAX_DEPTH, function=name)


def _too_long(span):
    raise ComptimeError("E8005", span, f"compile-time evaluation took more than {MAX_STEPS:,} "
                                       f"steps (steps: loop iterations and calls); it stopped "
                                       f"here", limit=MAX_STEPS)
