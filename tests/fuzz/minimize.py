"""Shrink a failing input while it fails the same way: delta debugging (Zeller's ddmin,
by complements) over whole lines, then over tokens, again until neither shrinks it; over
bytes for input that is not UTF-8."""

from __future__ import annotations

import re
import time
from typing import Callable

# Finer than the mutators' tokens: a comment or a string falls apart into its words.
PIECE = re.compile(r"\s+|\w+|\S")


class Budget:
    """How many tests and seconds a minimization may spend; each candidate is tested once."""

    def __init__(self, fails: Callable[[bytes], bool], tests: int, seconds: float):
        self.fails = fails
        self.tests_left = tests
        self.until = time.monotonic() + seconds
        self.seen: dict[bytes, bool] = {}

    @property
    def spent(self) -> bool:
        return self.tests_left <= 0 or time.monotonic() > self.until

    def __call__(self, data: bytes) -> bool:
        if data not in self.seen:
            self.tests_left -= 1
            self.seen[data] = self.fails(data)
        return self.seen[data]


def ddmin(units: list, fails: Callable[[list], bool], budget: Budget) -> list:
    """A 1-minimal sublist of `units` that still `fails` (or the least found in the budget):
    try dropping each of n chunks, halving the chunks when none can go."""
    n = 2
    while len(units) >= 2 and not budget.spent:
        size = -(-len(units) // n)
        for start in range(0, len(units), size):
            rest = units[:start] + units[start + size:]
            if budget.spent:
                return units
            if fails(rest):
                units, n = rest, max(n - 1, 2)
                break
        else:
            if n >= len(units):
                break
            n = min(2 * n, len(units))
    return units


def minimize(data: bytes, fails: Callable[[bytes], bool], tests: int = 2000,
             seconds: float = 120.0) -> bytes:
    """The smallest input found that still `fails`; `data` must fail."""
    budget = Budget(fails, tests, seconds)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        kept = ddmin(list(data), lambda units: budget(bytes(units)), budget)
        return bytes(kept)
    before = None
    while text != before and not budget.spent:  # a token gone may free a line, and back
        before = text
        for split in (lambda t: t.splitlines(keepends=True), PIECE.findall):
            units = ddmin(split(text), lambda units: budget("".join(units).encode()), budget)
            text = "".join(units)
    return text.encode()
