"""One compilation: its source, options and diagnostics, handed to every pass as `ctx`."""

from __future__ import annotations

from dataclasses import dataclass, field

from .diagnostics import Diagnostics
from .source import Source


@dataclass
class Compilation:
    source: Source
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    options: dict = field(default_factory=dict)
    model: object = None  # the memory model (nano_vx.model.Model), from check-memory-declarations
    facts: dict = field(default_factory=dict)  # program-level facts for --error-format=json
