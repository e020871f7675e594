"""Every kind of fuzz input, as one hypothesis strategy: `inputs()`."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from .mutations import CORPUS, mutants, raw_bytes, spliced
from .programs import programs


@dataclass(frozen=True)
class Input:
    kind: str  # one of KINDS
    data: bytes
    terminates: bool  # a generated program: its run must end within the bound

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


KINDS = ("generated", "mutated program", "mutated example", "spliced bytes", "raw bytes")


def _as(kind: str, terminates: bool = False):
    return lambda data: Input(kind, data if isinstance(data, bytes) else data.encode(), terminates)


def inputs(corpus=tuple(CORPUS.values())):
    """Generated programs, token mutants of them and of `corpus`, good texts with bytes
    spliced in, and raw bytes; generated programs twice as often as each other kind."""
    examples = st.sampled_from(corpus)
    generated = programs().map(_as("generated", terminates=True))
    return st.one_of(
        generated,
        generated,
        mutants(programs()).map(_as("mutated program")),
        mutants(examples).map(_as("mutated example")),
        spliced(st.one_of(programs(), examples)).map(_as("spliced bytes")),
        raw_bytes().map(_as("raw bytes")),
    )
