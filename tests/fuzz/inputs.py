"""Every kind of fuzz input, as one hypothesis strategy: `inputs()`."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import strategies as st

from .dumps import json_mutants, of_form
from .mutations import CORPUS, mutants, raw_bytes, spliced
from .programs import programs
from .runner import JSON_DUMP, PROGRAM, SPATIAL, SPATIAL_DUMP, TEXT_DUMP, Form


@dataclass(frozen=True)
class Input:
    kind: str  # one of KINDS
    data: bytes
    terminates: bool  # a generated program: its run must end within the bound
    form: Form = PROGRAM

    @property
    def text(self) -> str:
        return self.data.decode("utf-8", "replace")


KINDS = ("generated", "mutated program", "mutated example", "spliced bytes", "raw bytes",
         "mutated dump", "mutated JSON dump", "mutated spatial program", "mutated spatial dump")


def _as(kind: str, terminates: bool = False, form: Form = PROGRAM):
    return lambda data: Input(kind, data if isinstance(data, bytes) else data.encode(),
                              terminates, form)


def dump_inputs() -> list:
    """Strategies of token mutants of text dumps of every IL of both lanes and of spatial programs, and
    tree mutants of JSON dumps (`dumps`)."""
    return [
        mutants(st.sampled_from(of_form(TEXT_DUMP))).map(_as("mutated dump", form=TEXT_DUMP)),
        json_mutants(st.sampled_from(of_form(JSON_DUMP))).map(
            _as("mutated JSON dump", form=JSON_DUMP)),
        mutants(st.sampled_from(of_form(SPATIAL))).map(
            _as("mutated spatial program", form=SPATIAL)),
        mutants(st.sampled_from(of_form(SPATIAL_DUMP))).map(
            _as("mutated spatial dump", form=SPATIAL_DUMP)),
    ]


def inputs(corpus=tuple(CORPUS.values())):
    """Generated programs, token mutants of them and of `corpus`, good texts with bytes
    spliced in, raw bytes, and mutated dumps and spatial programs; generated programs twice
    as often as each other kind."""
    examples = st.sampled_from(corpus)
    generated = programs().map(_as("generated", terminates=True))
    return st.one_of(
        generated,
        generated,
        mutants(programs()).map(_as("mutated program")),
        mutants(examples).map(_as("mutated example")),
        spliced(st.one_of(programs(), examples)).map(_as("spliced bytes")),
        raw_bytes().map(_as("raw bytes")),
        *dump_inputs(),
    )
