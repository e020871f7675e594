"""The typed outcomes of running a spatial program (docs/spatial.md, "What a program means")."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class Finished:
    outputs: dict[str, np.ndarray] = field(compare=False)
    steps: int
    ops: dict[str, int] = field(default_factory=dict)  # per engine (or stage) what it did
    fires: int = 0  # of the steps, the tile computations; the rest (a relay's copy too) move data

    def describe(self) -> str:
        if not self.fires:
            return f"finished in {self.steps:,} steps"
        return (f"finished in {self.steps:,} steps ({self.steps - self.fires:,} data movement, "
                f"{self.fires:,} tile compute)")


@dataclass(frozen=True)
class Deadlock:
    blocked: tuple[tuple[str, str], ...]  # (engine or stage, what it waits for)
    steps: int

    def describe(self) -> str:
        waits = "; ".join(f"{who} waits at {what}" for who, what in self.blocked)
        return f"deadlock after {self.steps:,} steps: {waits}"


@dataclass(frozen=True)
class Overflow:
    buffer: str
    site: tuple
    step: int
    why: str

    def describe(self) -> str:
        return f"overflow of buffer '{self.buffer}' on site {self.site} at step {self.step}: {self.why}"


@dataclass(frozen=True)
class Underflow:
    """A token read from a buffer that does not hold it (the reader did not wait for it)."""
    buffer: str
    site: tuple
    step: int
    why: str

    def describe(self) -> str:
        return f"underflow of buffer '{self.buffer}' on site {self.site} at step {self.step}: {self.why}"


Outcome = Finished | Deadlock | Overflow | Underflow
