"""What a spatial pass sees besides its program: the target, and nothing else (every pass is a
function of the program and the target only)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar


@dataclass
class SpatialContext:
    target: object = None
    facts: ClassVar[frozenset[str]] = frozenset({"target"})
