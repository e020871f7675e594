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

    def passed(self, span, name: str):
        """The error of the bound a call to `name` passed, the steps before the depth. A call
        counts a step and a level itself (Evaluator.call: a method call per call is a good
        part of what a call costs), and calls this when either goes past its bound."""
        if self.steps > MAX_STEPS:
            _too_long(span)
        raise ComptimeError("E8004", span, f"compile-time evaluation went more than "
                                           f"{MAX_DEPTH} calls deep (calling `{name}`)",
                            limit=MAX_DEPTH, function=name)


def _too_long(span):
    raise ComptimeError("E8005", span, f"compile-time evaluation took more than {MAX_STEPS:,} "
                                       f"steps (steps: loop iterations and calls); it stopped "
                                       f"here", limit=MAX_STEPS)
