"""The name `--dump-dir` gives a pass's dump, computed from the pipeline table as the driver
numbers it: tests name the pass, never its number, which moves whenever a pass is added."""

from __future__ import annotations

from nano_vx.compile import NUMBERS
from nano_vx.driver import PHASE_LETTER


def dump_file(pass_name: str, phase: str = "after", suffix: str = "txt") -> str:
    """`dump_file("check-capacity")` is `45b-after-check-capacity.txt` while check-capacity
    is the 45th pass."""
    return f"{NUMBERS[pass_name]:02d}{PHASE_LETTER[phase]}-{phase}-{pass_name}.{suffix}"
