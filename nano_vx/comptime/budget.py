"""The evaluator's bounds (semantics §4): loop iterations in all, and nested calls.

Both are counted here rather than left to Python: the iteration count stops a block that
would run for hours, the depth count stops recursion long before Python's stack would.
"""

from __future__ import annotations

from .errors import ComptimeError

MAX_ITERATIONS = 1_000_000
MAX_DEPTH = 256


class Budget:
    __slots__ = ("iterations", "depth")

    def __init__(self):
        self.iterations = 0
        self.depth = 0

    def iteration(self, span):
        self.iterations += 1
        if self.iterations > MAX_ITERATIONS:
            raise ComptimeError("E8005", span, f"compile-time evaluation ran past "
                                               f"{MAX_ITERATIONS:,} loop iterations in this "
                                               f"comptime block", limit=MAX_ITERATIONS)

    def enter(self, span, name: str):
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise ComptimeError("E8004", span, f"compile-time evaluation went more than "
                                               f"{MAX_DEPTH} calls deep (calling `{name}`)",
                                limit=MAX_DEPTH, function=name)

    def leave(self):
        self.depth -= 1
