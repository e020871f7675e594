"""One compilation: its source, options and diagnostics, and the facts passes leave for later
passes, handed to every pass as `ctx`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from .diagnostics import Diagnostics
from .source import Source

if TYPE_CHECKING:
    from .model import Model
    from .placement.working_sets import CallSite, WorkingSet


@dataclass
class Compilation:
    source: Source
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    machine: str | None = None  # --machine FILE
    host: str | None = None  # --host FILE, or "default"
    verify_seams: bool = False  # --verify-seams: verify-seams discharges the seams with z3
    emit_seam_certs: bool = False  # --emit-seam-certs: insert-seam-assumes carries the proofs
    kernel: str | None = None  # nano-vx spatial --kernel NAME: the function from-vx lowers
    verify_contracts: bool = True  # --no-verify-contracts: verify-contracts proves nothing
    contract_timeout_ms: int = 10_000  # --contract-timeout-ms: z3's limit per obligation

    # Facts: each is set by the one pass that declares it in `provides` and read only by the
    # passes that declare it in `requires` (the framework holds them to it).
    facts: ClassVar[frozenset[str]] = frozenset({"model", "working_sets", "call_sites",
                                                 "proved_requires", "owned_buffers"})
    model: Model | None = None  # check-memory-declarations: the memory model
    working_sets: list[WorkingSet] | None = None  # summarize-working-sets: tiles per function and space
    call_sites: list[CallSite] | None = None  # summarize-working-sets: what each call holds
    # verify-contracts: function -> the positions, among its `requires`, of those every call
    # establishes
    proved_requires: dict[str, frozenset[int]] | None = None
    # find-owned-buffers: function -> the tensor locals whose buffer it owns
    owned_buffers: dict[str, frozenset[str]] | None = None

    def describe(self, fact: str) -> str:
        """A fact as text, for the dump after the pass that provides it."""
        from .backend.buffers import describe_owned_buffers
        from .contracts import describe_proved_requires
        from .model.describe import describe_model
        from .placement.working_sets import describe_call_sites, describe_working_sets

        value = getattr(self, fact)
        if value is None:
            return "(not set)\n"
        return {"model": describe_model, "working_sets": describe_working_sets,
                "call_sites": describe_call_sites,
                "proved_requires": describe_proved_requires,
                "owned_buffers": describe_owned_buffers}[fact](value)
